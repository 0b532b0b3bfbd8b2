import type { FormulaNode } from './ast.ts';
import { compileNode, type CompileScope, type FormulaSchema } from './compiler.ts';
import { referencesOf, type FormulaReference } from './dependencies.ts';
import { FormulaAbort, FormulaError, formulaError } from './errors.ts';
import { newEvalState, type Evaluator, type FormulaContext } from './eval-state.ts';
import { FUNCTION_TABLE } from './functions/table.ts';
import { DEFAULT_FORMULA_LIMITS, type FormulaLimits } from './limits.ts';
import { parseFormula } from './parser.ts';
import type { UserFunctionSet } from './udf.ts';
import { isWellFormedText } from '../contracts/text.ts';
import { checkedValue, wallDateToText, numberToText, type FormulaValue } from './values.ts';
import { isTimeInDateRange } from '../helpers/iso-date.ts';

// The formula language's public API: compile once, evaluate many times. Compilation never
// throws and evaluation never throws: problems are formula error values with source positions.

export type { FormulaNode } from './ast.ts';
export type { FormulaSchema } from './compiler.ts';
export { affectedBy, analyzeDependencies, referencesOf, type DependencyAnalysis, type FormulaReference, type GraphItem } from './dependencies.ts';
export {
  FORMULA_ERROR_CODES, FUNCTION_EXECUTION_ERROR_EN, FUNCTION_EXECUTION_ERROR_ZH, FormulaError, functionExecutionErrorText, isFormulaError,
  type FormulaErrorCode, type FormulaLocale,
} from './errors.ts';
export type { FormulaContext, FormulaUser, HostRecord } from './eval-state.ts';
export { DEFAULT_FORMULA_LIMITS, type FormulaLimits } from './limits.ts';
export { defineUserFunctions, parseUserFunctionDefinition, type UserFunctionDefinition, type UserFunctionSet } from './udf.ts';
export type { FieldKind, FormulaScalar, FormulaValue } from './values.ts';

export interface CompileOptions {
  /** Known references; without it any `{code}` is accepted and read at run time. */
  schema?: FormulaSchema;
  userFunctions?: UserFunctionSet;
  limits?: Partial<FormulaLimits>;
}

export interface CompiledFormula {
  readonly source: string;
  /** Null when the source does not parse. */
  readonly ast: FormulaNode | null;
  readonly ok: boolean;
  /** Compile-time problems (syntax, unknown function or reference, argument count). */
  readonly errors: readonly FormulaError[];
  readonly references: readonly FormulaReference[];
  /** Functions called (built-in and user-defined), upper-cased. */
  readonly functions: readonly string[];
  /** Calls TODAY, NOW or GUID: recompute even when no reference changed. */
  readonly isVolatile: boolean;
  evaluate(ctx?: FormulaContext): FormulaValue;
}

export function compileFormula(source: string, options: CompileOptions = {}): CompiledFormula {
  const limits: FormulaLimits = { ...DEFAULT_FORMULA_LIMITS, ...options.limits };
  const scope: CompileScope = { schema: options.schema, userFunctions: options.userFunctions, limits, errors: [], calls: new Set() };
  let ast: FormulaNode | null = null;
  let root: Evaluator | null = null;
  try {
    ast = parseFormula(source, limits);
    root = compileNode(ast, scope);
  } catch (e) {
    scope.errors.push(e instanceof FormulaAbort ? e.error : formulaError('#ERROR!', 'The formula could not be read', 0, 0));
  }
  const errors = Object.freeze([...scope.errors]);
  const ok = errors.length === 0;
  const functions = Object.freeze([...scope.calls]);
  const run: Evaluator | null = ok ? root : null;
  return Object.freeze({
    source,
    ast,
    ok,
    errors,
    references: Object.freeze(referencesOf(ast)),
    functions,
    isVolatile: functions.some((f) => FUNCTION_TABLE.get(f)?.volatile === true),
    evaluate(ctx: FormulaContext = {}): FormulaValue {
      if (!run) return errors[0];
      const s = newEvalState(ctx, limits);
      try {
        // The result as a whole too: a literal or a reference can still carry what no control holds.
        return checkedValue(run(s), 0, source.length);
      } catch (e) {
        if (e instanceof FormulaAbort) return e.error;
        // Defence in depth: nothing a formula does may throw out of the evaluator.
        const message = e instanceof RangeError ? 'The formula is too complex to evaluate' : 'The formula could not be evaluated';
        return formulaError('#ERROR!', message, 0, source.length);
      }
    },
  });
}

/** Compile-and-evaluate in one call (prefer compiling once when evaluating repeatedly). */
export function evaluateFormula(source: string, ctx: FormulaContext = {}, options: CompileOptions = {}): FormulaValue {
  return compileFormula(source, options).evaluate(ctx);
}

/** Display text of a value as the formula editor shows it: text quoted, lists in brackets. */
export function displayFormulaValue(v: FormulaValue): string {
  if (Array.isArray(v)) return `[${v.map(displayFormulaValue).join(', ')}]`;
  if (v instanceof FormulaError) return v.code;
  if (typeof v === 'string') return `"${v}"`;
  if (typeof v === 'number') return numberToText(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return wallDateToText(v);
  return '';
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * A formula result as a record value: dates become ISO text (`YYYY-MM-DD` at midnight, otherwise
 * date-time with the context's zone), numbers that are not finite and errors become null.
 */
export function toRecordValue(v: FormulaValue, offsetMinutes = 0): unknown {
  if (Array.isArray(v)) return v.map((x) => toRecordValue(x, offsetMinutes));
  if (v instanceof FormulaError) return null;
  // Defence in depth (evaluate already turns these into errors): nothing a control cannot hold.
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  if (typeof v === 'string' && !isWellFormedText(v)) return null;
  if (v instanceof Date && !isTimeInDateRange(v.getTime())) return null;
  if (v instanceof Date) {
    const day = `${pad(v.getUTCFullYear(), 4)}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    if (v.getUTCHours() === 0 && v.getUTCMinutes() === 0 && v.getUTCSeconds() === 0 && v.getUTCMilliseconds() === 0) return day;
    const abs = Math.abs(offsetMinutes);
    const zone = offsetMinutes === 0 ? 'Z' : `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    return `${day}T${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}${zone}`;
  }
  return v;
}
