import { FormulaError, formulaError } from '../errors.ts';
import { compareScalars, toBoolean, toNumber, type FormulaScalar, type FormulaValue } from '../values.ts';
import type { FunctionImpl } from './types.ts';

// Logical functions. IF, IFS, IFERROR, IFNA, SWITCH and CHOOSE are special forms: only the
// branch that is chosen is evaluated (as in Excel), which also keeps IF-guarded errors away.

const notList = (v: FormulaValue, start: number, end: number): FormulaScalar =>
  Array.isArray(v) ? formulaError('#VALUE!', 'A list cannot be used as a single value', start, end) : v;

export const LOGICAL_FUNCTIONS: Record<string, FunctionImpl> = {
  IF: {
    lazy: (args, s, site) => {
      const c = notList(args[0](s), site.start, site.end);
      const b = toBoolean(c, site.start, site.end);
      if (b instanceof FormulaError) return b;
      if (b) return args[1](s);
      return args.length > 2 ? args[2](s) : false;
    },
  },
  IFS: {
    lazy: (args, s, site) => {
      if (args.length % 2 !== 0) return formulaError('#VALUE!', 'IFS needs condition/value pairs', site.start, site.end);
      for (let i = 0; i < args.length; i += 2) {
        const b = toBoolean(notList(args[i](s), site.start, site.end), site.start, site.end);
        if (b instanceof FormulaError) return b;
        if (b) return args[i + 1](s);
      }
      return formulaError('#N/A', 'No condition of IFS is true', site.start, site.end);
    },
  },
  IFERROR: {
    lazy: (args, s) => {
      const v = args[0](s);
      return v instanceof FormulaError ? args[1](s) : v;
    },
  },
  IFNA: {
    lazy: (args, s) => {
      const v = args[0](s);
      return v instanceof FormulaError && v.code === '#N/A' ? args[1](s) : v;
    },
  },
  SWITCH: {
    lazy: (args, s, site) => {
      const e = notList(args[0](s), site.start, site.end);
      if (e instanceof FormulaError) return e;
      let i = 1;
      for (; i + 1 < args.length; i += 2) {
        const candidate = notList(args[i](s), site.start, site.end);
        if (candidate instanceof FormulaError) return candidate;
        if (typeof candidate === typeof e && compareScalars(e, candidate, s.offset) === 0) return args[i + 1](s);
      }
      return i < args.length ? args[i](s) : formulaError('#N/A', 'No value of SWITCH matches', site.start, site.end);
    },
  },
  CHOOSE: {
    lazy: (args, s, site) => {
      const n = toNumber(notList(args[0](s), site.start, site.end), site.start, site.end, s.offset);
      if (n instanceof FormulaError) return n;
      const i = Math.trunc(n);
      if (i < 1 || i >= args.length) return formulaError('#VALUE!', `CHOOSE index ${i} is out of range`, site.start, site.end);
      return args[i](s);
    },
  },
  AND: { call: (args, _s, site) => logicalFold(args, site, (acc, b) => acc && b, true) },
  OR: { call: (args, _s, site) => logicalFold(args, site, (acc, b) => acc || b, false) },
  XOR: { call: (args, _s, site) => logicalFold(args, site, (acc, b) => acc !== b, false) },
  NOT: {
    call: (args, _s, site) => {
      const b = toBoolean(notList(args[0], site.start, site.end), site.start, site.end);
      return b instanceof FormulaError ? b : !b;
    },
  },
  TRUE: { call: () => true },
  FALSE: { call: () => false },
};

/** Excel AND/OR/XOR: direct arguments are coerced; inside lists only booleans and numbers count. */
function logicalFold(args: FormulaValue[], site: { start: number; end: number }, step: (acc: boolean, b: boolean) => boolean, initial: boolean): FormulaValue {
  let acc = initial;
  let seen = false;
  const visit = (v: FormulaValue, direct: boolean): FormulaError | null => {
    if (Array.isArray(v)) {
      for (const x of v) {
        const e = visit(x, false);
        if (e) return e;
      }
      return null;
    }
    if (v === null || (!direct && typeof v === 'string')) return null;
    const b = toBoolean(v, site.start, site.end);
    if (b instanceof FormulaError) return b;
    acc = step(acc, b);
    seen = true;
    return null;
  };
  for (const a of args) {
    const e = visit(a, true);
    if (e) return e;
  }
  return seen ? acc : formulaError('#VALUE!', 'No logical values', site.start, site.end);
}
