// Formula errors are values (Excel style), carrying the source span that produced them so the
// formula editor can underline it. They are plain objects, not `Error`s: cheap to create and
// never confused with host exceptions.

export const FORMULA_ERROR_CODES = ['#DIV/0!', '#VALUE!', '#NAME?', '#REF!', '#NUM!', '#N/A', '#NULL!', '#ERROR!'] as const;
export type FormulaErrorCode = (typeof FORMULA_ERROR_CODES)[number];

export class FormulaError {
  constructor(
    readonly code: FormulaErrorCode,
    readonly message: string,
    /** Offset of the first character of the offending source, 0-based. */
    readonly start: number,
    /** Offset just past the offending source. */
    readonly end: number,
  ) {
    Object.freeze(this);
  }

  toString(): string {
    return this.code;
  }
}

export function isFormulaError(value: unknown): value is FormulaError {
  return value instanceof FormulaError;
}

export function formulaError(code: FormulaErrorCode, message: string, start = 0, end = start): FormulaError {
  return new FormulaError(code, message, start, end);
}

/** The text a failing user-defined function yields (spec §8), per UI language. */
export const FUNCTION_EXECUTION_ERROR_ZH = '函数执行错误';
export const FUNCTION_EXECUTION_ERROR_EN = 'Function execution error';
export type FormulaLocale = 'zh-CN' | 'en-US';
export function functionExecutionErrorText(locale: FormulaLocale | undefined): string {
  return locale === 'en-US' ? FUNCTION_EXECUTION_ERROR_EN : FUNCTION_EXECUTION_ERROR_ZH;
}

/**
 * Thrown inside the parser (caught by `compileFormula`) and by the evaluator when a hard limit is
 * hit (caught by `evaluate`); never escapes the public API.
 */
export class FormulaAbort {
  constructor(readonly error: FormulaError) {}
}
