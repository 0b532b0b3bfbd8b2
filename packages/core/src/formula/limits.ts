// Hard limits that keep a formula from exhausting CPU, memory or the stack. Designers' formulas
// are far below them; a payload that reaches one gets an error value, never a crash.

export interface FormulaLimits {
  /** Characters of source. */
  maxSourceLength: number;
  /** AST nodes after parsing. */
  maxNodes: number;
  /** Nesting depth of the AST (parentheses, operators, calls); bounds parser and evaluator recursion. */
  maxDepth: number;
  /** Evaluation steps (node visits plus list elements handled by functions) per evaluation. */
  maxSteps: number;
  /** Characters of any text value produced. */
  maxStringLength: number;
  /** Elements of any list value produced or read. */
  maxListLength: number;
  /** Nested calls of user-defined functions. */
  maxCallDepth: number;
}

export const DEFAULT_FORMULA_LIMITS: Readonly<FormulaLimits> = Object.freeze({
  maxSourceLength: 8_192,
  maxNodes: 4_000,
  maxDepth: 120,
  maxSteps: 200_000,
  maxStringLength: 65_536,
  maxListLength: 100_000,
  maxCallDepth: 16,
});
