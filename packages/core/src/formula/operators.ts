import type { BinaryOperator } from './ast.ts';
import { FormulaError, formulaError } from './errors.ts';
import type { EvalState } from './eval-state.ts';
import { addDays, compareScalars, isoTextToWallDate, toNumber, toText, type FormulaScalar, type FormulaValue } from './values.ts';

// Operator semantics (Excel): arithmetic coerces to numbers, & to text, comparisons compare
// across types. Dates: date ± number is a date, date − date a number of days. Lists are not
// broadcast: an operator on a list is #VALUE! (aggregate them with SUM, COUNT…).

export type BinaryFn = (a: FormulaValue, b: FormulaValue, s: EvalState, start: number, end: number) => FormulaValue;

const listError = (start: number, end: number) =>
  formulaError('#VALUE!', 'A list cannot be used with an operator; aggregate it with SUM, COUNT…', start, end);

const asDate = (v: FormulaScalar, offset: number): Date | null =>
  v instanceof Date ? v : typeof v === 'string' ? isoTextToWallDate(v.trim(), offset) : null;

function finite(n: number, start: number, end: number): number | FormulaError {
  return Number.isFinite(n) ? n : formulaError('#NUM!', 'The result is not a finite number', start, end);
}

function arithmetic(op: '+' | '-' | '*' | '/' | '^'): BinaryFn {
  return (a, b, s, start, end) => {
    if (a instanceof FormulaError) return a;
    if (b instanceof FormulaError) return b;
    if (Array.isArray(a) || Array.isArray(b)) return listError(start, end);
    // Date arithmetic keeps dates as dates.
    if (op === '+' || op === '-') {
      const da = asDate(a, s.offset);
      if (da && (typeof b === 'number' || typeof b === 'boolean' || b === null)) return addDays(da, (op === '+' ? 1 : -1) * Number(b ?? 0));
      if (op === '+' && typeof a === 'number') {
        const db = asDate(b, s.offset);
        if (db) return addDays(db, a);
      }
      if (op === '-' && da) {
        const db = asDate(b, s.offset);
        if (db) return (da.getTime() - db.getTime()) / 86_400_000;
      }
    }
    const x = toNumber(a, start, end, s.offset);
    if (x instanceof FormulaError) return x;
    const y = toNumber(b, start, end, s.offset);
    if (y instanceof FormulaError) return y;
    switch (op) {
      case '+':
        return finite(x + y, start, end);
      case '-':
        return finite(x - y, start, end);
      case '*':
        return finite(x * y, start, end);
      case '/':
        return y === 0 ? formulaError('#DIV/0!', 'Division by zero', start, end) : finite(x / y, start, end);
      case '^':
        if (x === 0 && y === 0) return formulaError('#NUM!', '0^0 is not defined', start, end);
        if (x === 0 && y < 0) return formulaError('#DIV/0!', 'Division by zero', start, end);
        return finite(x ** y, start, end);
    }
  };
}

function comparison(test: (c: number) => boolean): BinaryFn {
  return (a, b, s, start, end) => {
    if (a instanceof FormulaError) return a;
    if (b instanceof FormulaError) return b;
    if (Array.isArray(a) || Array.isArray(b)) return listError(start, end);
    return test(compareScalars(a, b, s.offset));
  };
}

const concat: BinaryFn = (a, b, s, start, end) => {
  if (Array.isArray(a) || Array.isArray(b)) return listError(start, end);
  const x = toText(a);
  if (x instanceof FormulaError) return x;
  const y = toText(b);
  if (y instanceof FormulaError) return y;
  if (x.length + y.length > s.limits.maxStringLength) return formulaError('#VALUE!', `Text longer than ${s.limits.maxStringLength} characters`, start, end);
  return x + y;
};

export const BINARY_OPERATORS: Readonly<Record<BinaryOperator, BinaryFn>> = Object.freeze({
  '+': arithmetic('+'),
  '-': arithmetic('-'),
  '*': arithmetic('*'),
  '/': arithmetic('/'),
  '^': arithmetic('^'),
  '&': concat,
  '=': comparison((c) => c === 0),
  '<>': comparison((c) => c !== 0),
  '<': comparison((c) => c < 0),
  '<=': comparison((c) => c <= 0),
  '>': comparison((c) => c > 0),
  '>=': comparison((c) => c >= 0),
});

export function negate(v: FormulaValue, s: EvalState, start: number, end: number): FormulaValue {
  if (typeof v === 'number') return -v || 0;
  if (Array.isArray(v)) return listError(start, end);
  const n = toNumber(v, start, end, s.offset);
  return n instanceof FormulaError ? n : -n || 0;
}

export function percent(v: FormulaValue, s: EvalState, start: number, end: number): FormulaValue {
  if (Array.isArray(v)) return listError(start, end);
  const n = toNumber(v, start, end, s.offset);
  return n instanceof FormulaError ? n : n / 100;
}
