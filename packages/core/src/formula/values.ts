import { isWellFormedText } from '../contracts/text.ts';
import { DATE_OUT_OF_RANGE_MESSAGE, isTimeInDateRange, parseIsoDateParts } from '../helpers/iso-date.ts';
import { FormulaError, formulaError } from './errors.ts';

// Formula values and Excel's coercion rules. Dates are "wall-clock" Dates: their UTC fields are
// the calendar fields the user sees (in the context's zone), so every date function is
// deterministic whatever the machine's own zone.

export type FormulaScalar = number | string | boolean | null | Date | FormulaError;
export type FormulaValue = FormulaScalar | FormulaValue[];

const MS_PER_DAY = 86_400_000;
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

export const isDate = (v: unknown): v is Date => v instanceof Date;

/** Excel serial number of a wall-clock date (days since 1899-12-30, fractions for time). */
export const dateToSerial = (d: Date): number => (d.getTime() - EXCEL_EPOCH) / MS_PER_DAY;
export const serialToDate = (n: number): Date => new Date(EXCEL_EPOCH + Math.round(n * MS_PER_DAY));
export const addDays = (d: Date, days: number): Date => new Date(d.getTime() + Math.round(days * MS_PER_DAY));

/**
 * ISO 8601 text → wall-clock Date at `offsetMinutes` (text with a zone is shifted into it; text
 * without one is taken as written). Null when the text is not an ISO date.
 */
export function isoTextToWallDate(text: string, offsetMinutes: number): Date | null {
  if (text.length < 10 || text.length > 40 || text.charCodeAt(4) !== 45 /* - */) return null;
  const p = parseIsoDateParts(text);
  if (!p) return null;
  const d = new Date(0);
  d.setUTCFullYear(p.year, p.month - 1, p.day);
  d.setUTCHours(p.hour, p.minute, p.second, p.millisecond);
  if (p.offsetMinutes !== null) d.setTime(d.getTime() + (offsetMinutes - p.offsetMinutes) * 60_000);
  return d;
}

/** Wall-clock Date → a Date whose *local* fields match (what formula.js date functions read). */
export function wallToLocal(d: Date): Date {
  const local = new Date(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
  if (d.getUTCFullYear() < 100) local.setFullYear(d.getUTCFullYear());
  return local;
}

/** Inverse of `wallToLocal`. */
export function localToWall(d: Date): Date {
  const wall = new Date(0);
  wall.setUTCFullYear(d.getFullYear(), d.getMonth(), d.getDate());
  wall.setUTCHours(d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds());
  return wall;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DD` for midnight, `YYYY-MM-DD HH:mm:ss` otherwise (display and `&`). */
export function wallDateToText(d: Date): string {
  const day = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0) return day;
  return `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Excel's General format: at most 15 significant digits, no trailing zeros. */
export function numberToText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  return String(Number(n.toPrecision(15)));
}

export function toText(v: FormulaScalar): string | FormulaError {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberToText(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v === null) return '';
  if (v instanceof Date) return wallDateToText(v);
  return v;
}

const NUMERIC_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * Excel's number coercion: booleans 1/0, blank 0, numeric text, dates as serials. Empty text
 * counts as blank (empty business controls hold ''), a deliberate difference from Excel.
 */
export function toNumber(v: FormulaScalar, start: number, end: number, offsetMinutes = 0): number | FormulaError {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null) return 0;
  if (v instanceof Date) return dateToSerial(v);
  if (typeof v === 'string') {
    if (v.trim() === '') return 0;
    if (NUMERIC_TEXT.test(v)) return finiteOr(Number(v), start, end);
    const d = isoTextToWallDate(v.trim(), offsetMinutes);
    if (d) return dateToSerial(d);
    if (/^\s*[+-]?\d+(\.\d+)?%\s*$/.test(v)) return Number(v.trim().slice(0, -1)) / 100;
    return formulaError('#VALUE!', `Cannot use the text "${v.slice(0, 40)}" as a number`, start, end);
  }
  return v;
}

export function toBoolean(v: FormulaScalar, start: number, end: number): boolean | FormulaError {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (v === null) return false;
  if (typeof v === 'string') {
    const u = v.trim().toUpperCase();
    if (u === 'TRUE') return true;
    if (u === 'FALSE' || u === '') return false;
    return formulaError('#VALUE!', `Cannot use the text "${v.slice(0, 40)}" as TRUE/FALSE`, start, end);
  }
  if (v instanceof Date) return true;
  return v;
}

// Excel orders mixed types: numbers < text < booleans.
const rank = (v: FormulaScalar) => (typeof v === 'number' || v instanceof Date ? 0 : typeof v === 'string' ? 1 : 2);

/**
 * Compares two scalars like Excel: blank takes the other side's type, text is case-insensitive,
 * dates compare with dates and with ISO date text. Returns <0, 0, >0.
 */
export function compareScalars(a: FormulaScalar, b: FormulaScalar, offsetMinutes = 0): number {
  if (a === null) a = typeof b === 'string' ? '' : typeof b === 'boolean' ? false : 0;
  if (b === null) b = typeof a === 'string' ? '' : typeof a === 'boolean' ? false : 0;
  if (a instanceof Date && typeof b === 'string') b = isoTextToWallDate(b.trim(), offsetMinutes) ?? b;
  if (b instanceof Date && typeof a === 'string') a = isoTextToWallDate(a.trim(), offsetMinutes) ?? a;
  const na = a instanceof Date ? dateToSerial(a) : a;
  const nb = b instanceof Date ? dateToSerial(b) : b;
  const ra = rank(na as FormulaScalar);
  const rb = rank(nb as FormulaScalar);
  if (ra !== rb) return ra - rb;
  if (typeof na === 'number' && typeof nb === 'number') return na === nb ? 0 : na < nb ? -1 : 1;
  if (typeof na === 'string' && typeof nb === 'string') {
    const ua = na.toUpperCase();
    const ub = nb.toUpperCase();
    return ua === ub ? 0 : ua < ub ? -1 : 1;
  }
  return Number(na) - Number(nb);
}

const finiteOr = (n: number, start: number, end: number): number | FormulaError =>
  Number.isFinite(n) ? n : formulaError('#NUM!', 'The number is too large', start, end);

/**
 * Every value a function or operator produces passes here: a number that is not finite is #NUM!,
 * a date that is invalid or outside the years 1–9999 #NUM!, text with NUL or a lone surrogate
 * #VALUE! — errors the formula can test (IFERROR) and the linkages store as empty, never values
 * no control can hold. Lists are checked element by element (copied only when one is replaced).
 */
export function checkedValue(v: FormulaValue, start: number, end: number, depth = 0): FormulaValue {
  if (typeof v === 'number') return Number.isFinite(v) ? v : formulaError('#NUM!', 'The result is not a finite number', start, end);
  if (typeof v === 'string') return isWellFormedText(v) ? v : formulaError('#VALUE!', 'The text holds a NUL character or an unpaired surrogate', start, end);
  if (v instanceof Date) return isTimeInDateRange(v.getTime()) ? v : formulaError('#NUM!', DATE_OUT_OF_RANGE_MESSAGE, start, end);
  if (Array.isArray(v) && depth < 4) {
    let out: FormulaValue[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x = checkedValue(v[i], start, end, depth + 1);
      if (x !== v[i]) (out ??= v.slice())[i] = x;
    }
    return out ?? v;
  }
  return v;
}

/** Read-time type hints from the view (spec table field types). */
export type FieldKind = 1 | 2 | 3 | 4 | 5 | 6;

/**
 * Turns a host value (a record property) into a formula value without ever touching its
 * prototype chain: functions, symbols and objects become #VALUE!, lists are copied element-wise.
 */
export function fromHost(raw: unknown, kind: FieldKind | undefined, offsetMinutes: number, maxList: number, maxString: number, depth = 0): FormulaValue {
  switch (typeof raw) {
    case 'number':
      return Number.isFinite(raw) ? raw : formulaError('#NUM!', 'Not a finite number');
    case 'string':
      if (raw.length > maxString) return formulaError('#VALUE!', 'Text too long');
      if (!isWellFormedText(raw)) return formulaError('#VALUE!', 'The text holds a NUL character or an unpaired surrogate');
      if (kind === 4) return isoTextToWallDate(raw, offsetMinutes) ?? (raw === '' ? null : raw);
      if ((kind === 2 || kind === 3) && NUMERIC_TEXT.test(raw)) return finiteOr(Number(raw), 0, 0);
      if (kind === 5 && (raw === 'true' || raw === 'false')) return raw === 'true';
      return raw;
    case 'boolean':
      return raw;
    case 'undefined':
      return null;
    case 'bigint':
      return finiteOr(Number(raw), 0, 0);
    case 'object': {
      if (raw === null) return null;
      if (raw instanceof Date) return isTimeInDateRange(raw.getTime()) ? new Date(raw.getTime()) : formulaError('#VALUE!', 'Invalid date');
      if (raw instanceof FormulaError) return raw;
      if (Array.isArray(raw)) {
        if (raw.length > maxList || depth > 2) return formulaError('#VALUE!', 'List too long');
        const out: FormulaValue[] = new Array(raw.length);
        for (let i = 0; i < raw.length; i++) out[i] = fromHost(raw[i], kind, offsetMinutes, maxList, maxString, depth + 1);
        return out;
      }
      return formulaError('#VALUE!', 'Objects cannot be used in formulas');
    }
    default:
      return formulaError('#VALUE!', 'Unsupported value');
  }
}

/** First error in a value (depth-first through lists), or null. */
export function firstError(v: FormulaValue): FormulaError | null {
  if (v instanceof FormulaError) return v;
  if (Array.isArray(v)) {
    for (const x of v) {
      const e = firstError(x);
      if (e) return e;
    }
  }
  return null;
}

/** Counts list elements (nested), for step accounting. */
export function listSize(v: FormulaValue): number {
  if (!Array.isArray(v)) return 0;
  let n = v.length;
  for (const x of v) if (Array.isArray(x)) n += listSize(x);
  return n;
}
