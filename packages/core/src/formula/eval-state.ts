import { FormulaAbort, formulaError, type FormulaLocale } from './errors.ts';
import type { FormulaLimits } from './limits.ts';
import type { FormulaValue } from './values.ts';

// What an evaluation can see. Everything comes from the caller: no clock, user, dictionary or
// randomness is read from the environment, so the same inputs give the same result everywhere.

export type HostRecord = Readonly<Record<string, unknown>>;

export interface FormulaUser {
  id: string;
  name: string;
  orgUnitId?: string | null;
  orgUnitName?: string | null;
}

export interface FormulaContext {
  /** The current row (`{code}` reads it first). */
  row?: HostRecord | null;
  /** The master record (`{code}` falls back to it). */
  master?: HostRecord | null;
  /** Other views by view code: child views as row lists, single-record views as a record. */
  views?: Readonly<Record<string, readonly HostRecord[] | HostRecord>> | null;
  /** The clock for TODAY()/NOW(). Without it they return #N/A. */
  now?: Date | (() => Date);
  /** The user's offset from UTC in minutes (TODAY's day boundary, zone of date-time text). Default 0. */
  offsetMinutes?: number;
  user?: FormulaUser | null;
  /** Dictionary label lookup for DICT(dictionaryCode, value). */
  dictionary?: ((dictionaryCode: string, value: string) => string | null | undefined) | null;
  /** Language of the user-defined-function failure text. Default zh-CN. */
  locale?: FormulaLocale;
  /** GUID source for GUID() (default: crypto v4). */
  newGuid?: () => string;
}

/** Mutable per-evaluation state threaded through compiled closures. */
export interface EvalState {
  ctx: FormulaContext;
  row: HostRecord | null;
  master: HostRecord | null;
  offset: number;
  steps: number;
  limits: FormulaLimits;
  /** Parameter values of the user-defined function being evaluated. */
  frame: FormulaValue[] | null;
  callDepth: number;
}

export type Evaluator = (s: EvalState) => FormulaValue;

export function stepLimitAbort(s: EvalState, start: number, end: number): never {
  throw new FormulaAbort(formulaError('#ERROR!', `The formula needs more than ${s.limits.maxSteps} steps`, start, end));
}

export function newEvalState(ctx: FormulaContext, limits: FormulaLimits): EvalState {
  return {
    ctx,
    row: ctx.row ?? null,
    master: ctx.master ?? null,
    offset: ctx.offsetMinutes ?? 0,
    steps: 0,
    limits,
    frame: null,
    callDepth: 0,
  };
}
