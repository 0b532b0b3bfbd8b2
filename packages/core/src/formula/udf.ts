import { walk } from './ast.ts';
import { compileNode, type CompileScope, type UserFunctionEntry, type UserFunctionLookup } from './compiler.ts';
import { analyzeDependencies } from './dependencies.ts';
import { FormulaAbort, formulaError, type FormulaError } from './errors.ts';
import { FUNCTION_TABLE } from './functions/table.ts';
import { DEFAULT_FORMULA_LIMITS, type FormulaLimits } from './limits.ts';
import { parseFormula } from './parser.ts';

// User-defined functions: named formulas with parameters, e.g.
//   NETPRICE(price, rate) = ROUND(price * (1 - rate), 2)
// A definition that does not compile, or that is part of a recursive cycle, stays callable but
// every call yields the function-execution-error text (spec §8) instead of a value.

export interface UserFunctionDefinition {
  name: string;
  params: readonly string[];
  body: string;
}

export interface UserFunctionSet extends UserFunctionLookup {
  names(): string[];
  /** Problems per function, for the designer; a function with problems fails when called. */
  diagnostics: { name: string; errors: FormulaError[] }[];
}

const NAME = /^[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_.\u4e00-\u9fff]*$/;
const DEFINITION = /^\s*([^\s(]+)\s*\(([^)]*)\)\s*=(.*)$/s;

/** Parses `NAME(a, b) = body`; null when the text has another shape. */
export function parseUserFunctionDefinition(text: string): UserFunctionDefinition | null {
  const m = DEFINITION.exec(text);
  if (!m) return null;
  const params = m[2].trim() === '' ? [] : m[2].split(',').map((p) => p.trim());
  return { name: m[1], params, body: m[3].trim() };
}

export function defineUserFunctions(
  definitions: readonly (UserFunctionDefinition | string)[],
  limits: Partial<FormulaLimits> = {},
): UserFunctionSet {
  const fullLimits = { ...DEFAULT_FORMULA_LIMITS, ...limits };
  const entries = new Map<string, UserFunctionEntry>();
  const diagnostics: { name: string; errors: FormulaError[] }[] = [];
  const calls = new Map<string, string[]>();
  const set: UserFunctionSet = {
    get: (name) => entries.get(name.toUpperCase()),
    names: () => [...entries.keys()],
    diagnostics,
  };
  const pending: [UserFunctionEntry, UserFunctionDefinition][] = [];
  for (const raw of definitions) {
    const def = typeof raw === 'string' ? parseUserFunctionDefinition(raw) : raw;
    if (!def) {
      diagnostics.push({ name: String(raw).slice(0, 40), errors: [formulaError('#ERROR!', 'Write a function as NAME(param1, param2) = formula')] });
      continue;
    }
    const name = def.name.toUpperCase();
    const problems: string[] = [];
    if (!NAME.test(def.name)) problems.push(`Invalid function name ${def.name}`);
    if (FUNCTION_TABLE.has(name)) problems.push(`${name} is a built-in function`);
    if (entries.has(name)) problems.push(`${name} is defined twice`);
    const upperParams = def.params.map((p) => p.toUpperCase());
    if (def.params.some((p) => !NAME.test(p) || p.includes('.'))) problems.push('Parameter names use letters, digits and underscore');
    if (new Set(upperParams).size !== upperParams.length) problems.push('Parameter names must differ');
    if (problems.length) {
      diagnostics.push({ name: def.name, errors: problems.map((p) => formulaError('#ERROR!', p)) });
      if (!NAME.test(def.name) || FUNCTION_TABLE.has(name) || entries.has(name)) continue;
    }
    const entry: UserFunctionEntry = { name, params: def.params, body: null };
    entries.set(name, entry);
    if (!problems.length) pending.push([entry, def]);
  }
  for (const [entry, def] of pending) {
    const scope: CompileScope = {
      userFunctions: set,
      params: new Map(def.params.map((p, i) => [p.toUpperCase(), i])),
      limits: fullLimits,
      errors: [],
      calls: new Set(),
    };
    try {
      const ast = parseFormula(def.body, fullLimits);
      const body = compileNode(ast, scope);
      const called: string[] = [];
      walk(ast, (n) => {
        if (n.type === 'call' && entries.has(n.name)) called.push(n.name);
      });
      calls.set(entry.name, called);
      if (scope.errors.length) diagnostics.push({ name: entry.name, errors: scope.errors });
      else entry.body = body;
    } catch (e) {
      if (!(e instanceof FormulaAbort)) throw e;
      diagnostics.push({ name: entry.name, errors: [e.error] });
    }
  }
  // Recursion has no base case in a formula language without short-circuit guarantees across
  // calls: recursive functions are refused at definition time.
  const items = [...calls].map(([name, called]) => ({ id: name, writes: [name], reads: called }));
  for (const cycle of analyzeDependencies(items).cycles) {
    for (const name of cycle) {
      entries.get(name)!.body = null;
      diagnostics.push({ name, errors: [formulaError('#ERROR!', `Recursive user-defined functions: ${cycle.join(' → ')}`)] });
    }
  }
  return set;
}
