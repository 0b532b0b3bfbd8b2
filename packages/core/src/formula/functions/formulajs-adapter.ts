import * as formulajs from '@formulajs/formulajs';
import { FORMULA_ERROR_CODES, formulaError, type FormulaErrorCode } from '../errors.ts';
import { stepLimitAbort, type EvalState } from '../eval-state.ts';
import { dateToSerial, isoTextToWallDate, localToWall, wallToLocal, type FormulaValue } from '../values.ts';
import type { CallSite, FunctionImpl } from './types.ts';

// Wraps formula.js functions. Arguments are deep-copied (formula.js may sort lists in place),
// dates are handed over as local-time Dates for date functions (formula.js reads local fields) and
// as serial numbers otherwise; results are checked: Error objects become positioned formula
// errors, non-finite numbers #NUM!, over-long text or lists #VALUE!, anything else #VALUE!.

type FormulajsFn = (...args: unknown[]) => unknown;

/** Excel names whose formula.js export has another name. */
const EXPORT_NAMES: Record<string, string> = {
  STDEV: 'STDEVS', VAR: 'VARS', MODE: 'MODESNGL', RANK: 'RANKEQ', PERCENTILE: 'PERCENTILEINC', QUARTILE: 'QUARTILEINC',
};

export function formulajsFunction(name: string): FormulajsFn | undefined {
  const exportName = EXPORT_NAMES[name] ?? name;
  const fn = Object.hasOwn(formulajs, exportName) ? (formulajs as unknown as Record<string, unknown>)[exportName] : undefined;
  return typeof fn === 'function' ? (fn as FormulajsFn) : undefined;
}

const KNOWN_CODES = new Set<string>(FORMULA_ERROR_CODES);

function toFormulajs(v: FormulaValue, dateAware: boolean, offset: number, depth: number): unknown {
  if (Array.isArray(v)) return depth > 3 ? null : v.map((x) => toFormulajs(x, dateAware, offset, depth + 1));
  if (v instanceof Date) return dateAware ? wallToLocal(v) : dateToSerial(v);
  if (dateAware && typeof v === 'string') {
    const d = isoTextToWallDate(v.trim(), offset);
    if (d) return wallToLocal(d);
  }
  return v;
}

function fromFormulajs(out: unknown, dateAware: boolean, s: EvalState, site: CallSite, depth: number): FormulaValue {
  switch (typeof out) {
    case 'number':
      if (Number.isFinite(out)) return out || 0;
      // AVERAGEIF(S) with no matching value divide by zero (Excel #DIV/0!).
      if (Number.isNaN(out) && site.name.startsWith('AVERAGE')) return formulaError('#DIV/0!', `${site.name} found no values`, site.start, site.end);
      return formulaError('#NUM!', `${site.name} gave no finite number`, site.start, site.end);
    case 'string':
      return out.length > s.limits.maxStringLength ? formulaError('#VALUE!', 'Text too long', site.start, site.end) : out;
    case 'boolean':
      return out;
    case 'undefined':
      return null;
    case 'object': {
      if (out === null) return null;
      if (out instanceof Error) {
        const code = (KNOWN_CODES.has(out.message) ? out.message : '#VALUE!') as FormulaErrorCode;
        return formulaError(code, `${site.name} returned ${code}`, site.start, site.end);
      }
      if (out instanceof Date) {
        if (Number.isNaN(out.getTime())) return formulaError('#VALUE!', `${site.name} gave an invalid date`, site.start, site.end);
        return dateAware ? localToWall(out) : new Date(out.getTime());
      }
      if (Array.isArray(out)) {
        if (out.length > s.limits.maxListLength || depth > 3) return formulaError('#VALUE!', 'The list is too long', site.start, site.end);
        s.steps += out.length;
        return out.map((x) => fromFormulajs(x, dateAware, s, site, depth + 1));
      }
      return formulaError('#VALUE!', `${site.name} gave an unsupported value`, site.start, site.end);
    }
    default:
      return formulaError('#VALUE!', `${site.name} gave an unsupported value`, site.start, site.end);
  }
}

const DAY_MS = 86_400_000;
const dayNumber = (v: unknown): number =>
  v instanceof Date ? v.getTime() / DAY_MS : typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) / DAY_MS : Number.NaN;
const countOf = (v: unknown) => (Array.isArray(v) ? v.length : v === undefined || v === null ? 0 : 1);

/**
 * formula.js functions that loop once per calendar day (times the holiday list): their work is
 * charged to the step budget before the call, so `WORKDAY(1, 1e9)` is a step-limit error at once
 * instead of minutes of CPU. A cost that cannot be computed is 0 (formula.js rejects such input).
 */
const LOOP_COST = new Map<string, (input: unknown[]) => number>([
  ['WORKDAY', (a) => Math.abs(Number(a[1])) * 1.4 * (1 + countOf(a[2]))],
  ['NETWORKDAYS', (a) => Math.abs(dayNumber(a[1]) - dayNumber(a[0])) * (1 + countOf(a[2]))],
]);

export function wrapFormulajs(fn: FormulajsFn, dateAware: boolean): FunctionImpl {
  return {
    call: (args, s, site) => {
      const input = args.map((a) => toFormulajs(a, dateAware, s.offset, 0));
      const cost = LOOP_COST.get(site.name)?.(input);
      if (cost !== undefined && !Number.isNaN(cost)) {
        s.steps += Math.ceil(Math.min(cost, Number.MAX_SAFE_INTEGER));
        if (s.steps > s.limits.maxSteps) stepLimitAbort(s, site.start, site.end);
      }
      let out: unknown;
      try {
        out = fn(...input);
      } catch {
        return formulaError('#VALUE!', `${site.name} could not use these arguments`, site.start, site.end);
      }
      return fromFormulajs(out, dateAware, s, site, 0);
    },
  };
}
