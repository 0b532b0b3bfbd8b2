import { amountInWords } from '../../helpers/amount-in-words.ts';
import { newGuid } from '../../helpers/guid.ts';
import { roundHalfAwayFromZero } from '../../helpers/round.ts';
import { FormulaError, formulaError } from '../errors.ts';
import type { EvalState } from '../eval-state.ts';
import { dateToSerial, isoTextToWallDate, serialToDate, toNumber, toText, type FormulaScalar, type FormulaValue } from '../values.ts';
import { formatWallDate, isDateFormat } from './date-format.ts';
import { formulajsFunction, wrapFormulajs } from './formulajs-adapter.ts';
import type { CallSite, FunctionImpl } from './types.ts';

// Functions implemented here rather than taken from formula.js: the hot ones (SUM, ROUND), the
// ones that need Excel's exact decimal rounding, the ones whose output size must be checked before
// it is built (REPT, SUBSTITUTE, TEXTJOIN, CONCAT), the ones that see error values, and the
// platform functions that read the supplied context.

const num = (v: FormulaValue, s: EvalState, site: CallSite): number | FormulaError =>
  Array.isArray(v) ? formulaError('#VALUE!', `${site.name} expects a single value, not a list`, site.start, site.end) : toNumber(v, site.start, site.end, s.offset);
const text = (v: FormulaValue, site: CallSite): string | FormulaError =>
  Array.isArray(v) ? formulaError('#VALUE!', `${site.name} expects a single value, not a list`, site.start, site.end) : toText(v);
const tooLong = (s: EvalState, site: CallSite) =>
  formulaError('#VALUE!', `Text longer than ${s.limits.maxStringLength} characters`, site.start, site.end);

function rounding(mode: (x: number) => number): FunctionImpl['call'] {
  return (args, s, site) => {
    const n = num(args[0], s, site);
    if (n instanceof FormulaError) return n;
    const d = args.length > 1 ? num(args[1], s, site) : 0;
    if (d instanceof FormulaError) return d;
    const digits = Math.trunc(d);
    if (mode === Math.round) return roundHalfAwayFromZero(n, digits);
    const factor = 10 ** Math.min(15, Math.abs(digits));
    const scaled = digits >= 0 ? Math.abs(n) * factor : Math.abs(n) / factor;
    // Clean binary noise (1.1 * 100 = 110.00000000000001) only when it could change the result.
    const near = Math.abs(scaled - Math.round(scaled)) < 1e-6 && scaled < 1e15;
    const r = mode(near ? Number(scaled.toPrecision(15)) : scaled);
    return (Math.sign(n) * (digits >= 0 ? r / factor : r * factor)) || 0;
  };
}

function flatten(values: FormulaValue[], out: FormulaScalar[] = []): FormulaScalar[] {
  for (const v of values) {
    if (Array.isArray(v)) flatten(v, out);
    else out.push(v);
  }
  return out;
}

const isBlank = (v: FormulaValue) => v === null || v === '';

function leftRight(args: FormulaValue[], s: EvalState, site: CallSite, side: 'left' | 'right'): FormulaValue {
  const t = text(args[0], site);
  if (t instanceof FormulaError) return t;
  const n = args.length > 1 ? num(args[1], s, site) : 1;
  if (n instanceof FormulaError) return n;
  const count = Math.trunc(n);
  if (count < 0) return formulaError('#VALUE!', `${site.name} expects a count of 0 or more`, site.start, site.end);
  return side === 'left' ? t.slice(0, count) : count === 0 ? '' : t.slice(Math.max(0, t.length - count));
}

const numberText = wrapFormulajs(formulajsFunction('TEXT')!, false).call!;

export const NATIVE_FUNCTIONS: Record<string, FunctionImpl> = {
  // Date codes are applied here to the wall-clock date (formula.js ignores them for dates and
  // reads the machine's zone); number formats go to formula.js.
  TEXT: {
    call: (args, s, site) => {
      const [value, format] = args;
      if (typeof format !== 'string' || !isDateFormat(format) || Array.isArray(value)) return numberText(args, s, site);
      const date = value instanceof Date ? value : typeof value === 'number' ? serialToDate(value) : typeof value === 'string' ? isoTextToWallDate(value.trim(), s.offset) : null;
      if (!date) return typeof value === 'string' ? value : numberText(args, s, site);
      // Excel's own limit on a format code; also bounds the work per call.
      if (format.length > 255 || Number.isNaN(date.getTime())) return formulaError('#VALUE!', 'TEXT cannot apply this format', site.start, site.end);
      const out = formatWallDate(date, format);
      return out.length > s.limits.maxStringLength ? tooLong(s, site) : out;
    },
  },
  // Excel: codes 1..255 only (formula.js would turn any number into some UTF-16 unit).
  CHAR: {
    call: (args, s, site) => {
      const n = num(args[0], s, site);
      if (n instanceof FormulaError) return n;
      const code = Math.trunc(n);
      return code >= 1 && code <= 255 ? String.fromCharCode(code) : formulaError('#VALUE!', 'CHAR expects a code from 1 to 255', site.start, site.end);
    },
  },
  // Excel: code points 1..0x10FFFF; surrogate code points are not characters (#VALUE!, never a
  // lone surrogate), and 0 would be NUL.
  UNICHAR: {
    call: (args, s, site) => {
      const n = num(args[0], s, site);
      if (n instanceof FormulaError) return n;
      const code = Math.trunc(n);
      const ok = code >= 1 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
      return ok ? String.fromCodePoint(code) : formulaError('#VALUE!', 'UNICHAR expects a Unicode code point from 1 to 1114111 that is not a surrogate', site.start, site.end);
    },
  },
  // Excel: text that is not a number is #VALUE! (formula.js returns 0); "1,234.5" and "50%" read.
  VALUE: {
    call: (args, s, site) => {
      const v = args[0];
      if (Array.isArray(v)) return formulaError('#VALUE!', 'VALUE expects a single value, not a list', site.start, site.end);
      const t = typeof v === 'string' && /^\s*[+-]?\d{1,3}(,\d{3})+(\.\d+)?\s*$/.test(v) ? v.replace(/,/g, '') : v;
      return num(t, s, site);
    },
  },
  // Excel: a negative count is #VALUE! (formula.js returns ""); counts are UTF-16 units as in Excel.
  LEFT: { call: (args, s, site) => leftRight(args, s, site, 'left') },
  RIGHT: { call: (args, s, site) => leftRight(args, s, site, 'right') },
  // Excel: hours, minutes, seconds → fraction of a day, wrapping past 24 h; negative total #NUM!.
  TIME: {
    call: (args, s, site) => {
      const parts: number[] = [];
      for (const a of args) {
        const n = num(a, s, site);
        if (n instanceof FormulaError) return n;
        if (Math.trunc(n) > 32767) return formulaError('#NUM!', 'TIME arguments must be at most 32767', site.start, site.end);
        parts.push(Math.trunc(n));
      }
      const total = parts[0] * 3600 + parts[1] * 60 + parts[2];
      return total < 0 ? formulaError('#NUM!', 'TIME cannot be negative', site.start, site.end) : (total % 86_400) / 86_400;
    },
  },
  ROUND: { call: rounding(Math.round) },
  ROUNDUP: { call: rounding(Math.ceil) },
  ROUNDDOWN: { call: rounding(Math.floor) },
  SUM: {
    call: (args, s, site) => {
      let total = 0;
      for (const a of args) {
        if (typeof a === 'number') total += a;
        else if (Array.isArray(a)) {
          // Inside lists only numbers (and dates) count, as for ranges in Excel.
          for (const x of flatten([a])) {
            if (typeof x === 'number') total += x;
            else if (x instanceof Date) total += dateToSerial(x);
          }
        } else {
          const n = num(a, s, site);
          if (n instanceof FormulaError) return n;
          total += n;
        }
      }
      return Number.isFinite(total) ? total : formulaError('#NUM!', 'The sum is too large', site.start, site.end);
    },
  },
  CONCAT: { call: (args, s, site) => concat(flatten(args), '', false, s, site) },
  CONCATENATE: { call: (args, s, site) => concat(flatten(args), '', false, s, site) },
  TEXTJOIN: {
    call: (args, s, site) => {
      const delimiter = text(args[0], site);
      if (delimiter instanceof FormulaError) return delimiter;
      const ignoreEmpty = args[1] === true || (typeof args[1] === 'number' && args[1] !== 0);
      return concat(flatten(args.slice(2)), delimiter, ignoreEmpty, s, site);
    },
  },
  REPT: {
    call: (args, s, site) => {
      const t = text(args[0], site);
      if (t instanceof FormulaError) return t;
      const n = num(args[1], s, site);
      if (n instanceof FormulaError) return n;
      const times = Math.trunc(n);
      if (times < 0) return formulaError('#VALUE!', 'REPT needs a count of 0 or more', site.start, site.end);
      if (t.length * times > s.limits.maxStringLength) return tooLong(s, site);
      return t.repeat(times);
    },
  },
  SUBSTITUTE: {
    call: (args, s, site) => {
      const [t, from, to] = [text(args[0], site), text(args[1], site), text(args[2], site)];
      if (t instanceof FormulaError) return t;
      if (from instanceof FormulaError) return from;
      if (to instanceof FormulaError) return to;
      if (from === '') return t;
      const parts = t.split(from);
      if (args.length > 3) {
        const nth = num(args[3], s, site);
        if (nth instanceof FormulaError) return nth;
        const k = Math.trunc(nth);
        if (k < 1) return formulaError('#VALUE!', 'SUBSTITUTE instance must be 1 or more', site.start, site.end);
        if (k >= parts.length) return t;
        return parts.slice(0, k).join(from) + to + parts.slice(k).join(from);
      }
      if (t.length + (parts.length - 1) * (to.length - from.length) > s.limits.maxStringLength) return tooLong(s, site);
      return parts.join(to);
    },
  },
  LIST: {
    call: (args, s, site) => {
      const out = flatten(args);
      return out.length > s.limits.maxListLength ? formulaError('#VALUE!', 'The list is too long', site.start, site.end) : out;
    },
  },
  // Information functions see error values, so they opt out of error propagation.
  ISBLANK: { propagateErrors: false, call: (args) => isBlank(args[0]) },
  ISNUMBER: { propagateErrors: false, call: (args) => typeof args[0] === 'number' || args[0] instanceof Date },
  ISTEXT: { propagateErrors: false, call: (args) => typeof args[0] === 'string' },
  ISNONTEXT: { propagateErrors: false, call: (args) => typeof args[0] !== 'string' },
  ISLOGICAL: { propagateErrors: false, call: (args) => typeof args[0] === 'boolean' },
  ISERROR: { propagateErrors: false, call: (args) => args[0] instanceof FormulaError },
  ISERR: { propagateErrors: false, call: (args) => args[0] instanceof FormulaError && args[0].code !== '#N/A' },
  ISNA: { propagateErrors: false, call: (args) => args[0] instanceof FormulaError && args[0].code === '#N/A' },
  NA: { call: (_args, _s, site) => formulaError('#N/A', 'Value not available', site.start, site.end) },
  TYPE: {
    propagateErrors: false,
    call: ([v]) => (Array.isArray(v) ? 64 : v instanceof FormulaError ? 16 : typeof v === 'string' ? 2 : typeof v === 'boolean' ? 4 : 1),
  },
  N: {
    call: ([v]) => (typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : v instanceof Date ? dateToSerial(v) : 0),
  },
  TODAY: {
    volatile: true,
    call: (_args, s, site) => {
      const now = clock(s, site);
      if (now instanceof FormulaError) return now;
      return new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000);
    },
  },
  NOW: { volatile: true, call: (_args, s, site) => clock(s, site) },
  DATEVALUE: {
    call: (args, s, site) => {
      const t = text(args[0], site);
      if (t instanceof FormulaError) return t;
      const d = isoTextToWallDate(t.trim(), s.offset);
      return d ? Math.floor(dateToSerial(d)) : formulaError('#VALUE!', 'Invalid ISO 8601 date format', site.start, site.end);
    },
  },
  // Platform functions (spec §5 amount in words; context-supplied user, organisation, dictionary).
  RMB: {
    call: (args, s, site) => {
      const n = num(args[0], s, site);
      return n instanceof FormulaError ? '' : amountInWords(n);
    },
  },
  GUID: { volatile: true, call: (_args, s) => (s.ctx.newGuid ?? newGuid)() },
  CURRENT_USER: { call: (_a, s, site) => userField(s.ctx.user?.name, 'current user', site) },
  CURRENT_USER_ID: { call: (_a, s, site) => userField(s.ctx.user?.id, 'current user', site) },
  CURRENT_ORG: { call: (_a, s, site) => userField(s.ctx.user?.orgUnitName, 'organisation unit', site) },
  CURRENT_ORG_ID: { call: (_a, s, site) => userField(s.ctx.user?.orgUnitId, 'organisation unit', site) },
  DICT: {
    call: (args, s, site) => {
      const resolver = s.ctx.dictionary;
      const code = text(args[0], site);
      const value = text(args[1], site);
      if (code instanceof FormulaError) return code;
      if (value instanceof FormulaError) return value;
      if (!resolver) return formulaError('#N/A', 'No dictionary is available', site.start, site.end);
      const label = resolver(code, value);
      return typeof label === 'string' ? label : formulaError('#N/A', `No entry ${value} in dictionary ${code}`, site.start, site.end);
    },
  },
};

function concat(parts: FormulaScalar[], delimiter: string, ignoreEmpty: boolean, s: EvalState, site: CallSite): FormulaValue {
  let out = '';
  let first = true;
  for (const p of parts) {
    const t = toText(p);
    if (t instanceof FormulaError) return t;
    if (ignoreEmpty && t === '') continue;
    if (out.length + t.length + delimiter.length > s.limits.maxStringLength) return tooLong(s, site);
    out += first ? t : delimiter + t;
    first = false;
  }
  return out;
}

function clock(s: EvalState, site: CallSite): Date | FormulaError {
  const now = s.ctx.now;
  const d = typeof now === 'function' ? now() : now;
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) return formulaError('#N/A', 'No clock was supplied', site.start, site.end);
  // Wall-clock time in the user's zone.
  return new Date(d.getTime() + s.offset * 60_000);
}

function userField(value: string | null | undefined, what: string, site: CallSite): FormulaValue {
  return typeof value === 'string' ? value : formulaError('#N/A', `No ${what} is available`, site.start, site.end);
}
