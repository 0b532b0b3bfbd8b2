import type { EvalState, Evaluator } from '../eval-state.ts';
import type { FormulaValue } from '../values.ts';

/** Where a call sits in the source: errors it produces point here. */
export interface CallSite {
  name: string;
  start: number;
  end: number;
}

export interface FunctionImpl {
  /** Eager functions receive evaluated arguments. */
  call?: (args: FormulaValue[], s: EvalState, site: CallSite) => FormulaValue;
  /** Special forms (IF, IFERROR…) receive argument evaluators and decide what to evaluate. */
  lazy?: (args: Evaluator[], s: EvalState, site: CallSite) => FormulaValue;
  /** When true (default) an error in any argument is the result, without calling. */
  propagateErrors?: boolean;
  /** Result differs between evaluations with the same inputs (TODAY, NOW, GUID). */
  volatile?: boolean;
}

export interface FunctionSpec extends FunctionImpl {
  name: string;
  minArgs: number;
  maxArgs: number;
}
