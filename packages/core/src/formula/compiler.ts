import type { FormulaNode } from './ast.ts';
import { FormulaAbort, FormulaError, formulaError, functionExecutionErrorText } from './errors.ts';
import { stepLimitAbort, type EvalState, type Evaluator } from './eval-state.ts';
import { FUNCTION_TABLE } from './functions/table.ts';
import type { CallSite } from './functions/types.ts';
import type { FormulaLimits } from './limits.ts';
import { BINARY_OPERATORS, negate, percent } from './operators.ts';
import { checkedValue, firstError, fromHost, listSize, type FieldKind, type FormulaValue } from './values.ts';

// Turns an AST into nested closures, resolving every name at compile time: functions from the
// allow-list Map, references against the schema, parameters to frame slots. The closures never
// index a host object with a name that could reach its prototype: record reads go through
// Object.hasOwn, and `constructor`/`__proto__`/`prototype` are refused as references.

/** What `{code}` and `{view.code}` may refer to, with table field types as read hints. */
export interface FormulaSchema {
  /** Controls of the current row's view. */
  fields: Readonly<Record<string, FieldKind>>;
  /** Controls of the master record (`{code}` falls back to them). */
  masterFields?: Readonly<Record<string, FieldKind>>;
  /** Other views by code: `isList` for child views (a column is a list). */
  views?: Readonly<Record<string, { isList: boolean; fields: Readonly<Record<string, FieldKind>> }>>;
}

/** A compiled user-defined function, resolved by calls at run time (allows forward references). */
export interface UserFunctionEntry {
  name: string;
  params: readonly string[];
  body: Evaluator | null;
}

export interface UserFunctionLookup {
  get(name: string): UserFunctionEntry | undefined;
}

export interface CompileScope {
  schema?: FormulaSchema;
  userFunctions?: UserFunctionLookup;
  /** Parameter names (upper-cased) → frame slot, inside a user-defined function body. */
  params?: ReadonlyMap<string, number>;
  limits: FormulaLimits;
  errors: FormulaError[];
  calls: Set<string>;
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const hasOwn = Object.hasOwn;

const tick = (s: EvalState, start: number, end: number) => {
  if (++s.steps > s.limits.maxSteps) stepLimitAbort(s, start, end);
};

function lookup(fields: Readonly<Record<string, FieldKind>> | undefined, code: string): FieldKind | undefined | null {
  return fields && hasOwn(fields, code) ? fields[code] : null;
}

function compileRef(node: Extract<FormulaNode, { type: 'ref' }>, scope: CompileScope): Evaluator {
  const { view, code, start, end } = node;
  const fail = (message: string): Evaluator => {
    const error = formulaError('#REF!', message, start, end);
    scope.errors.push(error);
    return () => error;
  };
  const label = view ? `{${view}.${code}}` : `{${code}}`;
  if (FORBIDDEN.has(code) || (view !== null && FORBIDDEN.has(view))) return fail(`Unknown reference ${label}`);
  const { schema } = scope;
  const { maxListLength, maxStringLength } = scope.limits;

  if (view === null) {
    let readRow = true;
    let readMaster = true;
    let kind: FieldKind | undefined;
    if (schema) {
      const inRow = lookup(schema.fields, code);
      const inMaster = lookup(schema.masterFields, code);
      if (inRow === null && inMaster === null) return fail(`Unknown reference ${label}`);
      readRow = inRow !== null;
      readMaster = inRow === null;
      kind = (inRow ?? inMaster) || undefined;
    }
    return (s) => {
      tick(s, start, end);
      const row = s.row;
      let raw: unknown;
      if (readRow && row !== null && hasOwn(row, code)) raw = row[code];
      else if (readMaster && s.master !== null && hasOwn(s.master, code)) raw = s.master[code];
      if (typeof raw === 'number' && kind !== 4) return Number.isFinite(raw) ? raw : formulaError('#NUM!', `${label} is not a finite number`, start, end);
      return fromHost(raw, kind, s.offset, maxListLength, maxStringLength);
    };
  }

  let isList: boolean | null = null;
  let kind: FieldKind | undefined;
  if (schema) {
    const v = schema.views && hasOwn(schema.views, view) ? schema.views[view] : undefined;
    const k = v ? lookup(v.fields, code) : null;
    if (!v || k === null) return fail(`Unknown reference ${label}`);
    isList = v.isList;
    kind = k || undefined;
  }
  return (s) => {
    tick(s, start, end);
    const views = s.ctx.views;
    const data = views && hasOwn(views, view) ? views[view] : undefined;
    if (Array.isArray(data)) {
      if (data.length > maxListLength) return formulaError('#VALUE!', `${label} has too many rows`, start, end);
      s.steps += data.length;
      const out: FormulaValue[] = new Array(data.length);
      for (let i = 0; i < data.length; i++) {
        const r = data[i] as Record<string, unknown> | null;
        out[i] = typeof r === 'object' && r !== null && hasOwn(r, code) ? fromHost(r[code], kind, s.offset, maxListLength, maxStringLength, 1) : null;
      }
      return out;
    }
    if (data && typeof data === 'object') {
      const value = hasOwn(data, code) ? fromHost((data as Record<string, unknown>)[code], kind, s.offset, maxListLength, maxStringLength) : null;
      return isList ? [value as FormulaValue] : value;
    }
    return isList ? [] : null;
  };
}

function compileCall(node: Extract<FormulaNode, { type: 'call' }>, scope: CompileScope): Evaluator {
  const { name, start, end } = node;
  const site: CallSite = { name, start, end };
  const args = node.args.map((a) => compileNode(a, scope));
  const spec = FUNCTION_TABLE.get(name);
  const udf = spec ? undefined : scope.userFunctions?.get(name);
  const nameEnd = start + name.length;
  if (!spec && !udf) {
    const error = formulaError('#NAME?', `Unknown function ${name.slice(0, 60)}`, start, nameEnd);
    scope.errors.push(error);
    return () => error;
  }
  const [min, max] = spec ? [spec.minArgs, spec.maxArgs] : [udf!.params.length, udf!.params.length];
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : max >= 255 ? `at least ${min}` : `${min} to ${max}`;
    const error = formulaError('#ERROR!', `${name} expects ${expected} argument${expected === '1' ? '' : 's'}, got ${args.length}`, start, end);
    scope.errors.push(error);
    return () => error;
  }
  scope.calls.add(name);
  if (udf) return compileUserCall(udf, args, site);
  if (spec!.lazy) {
    const lazy = spec!.lazy;
    return (s) => {
      tick(s, start, end);
      return checkedValue(lazy(args, s, site), start, end);
    };
  }
  const call = spec!.call!;
  const propagate = spec!.propagateErrors !== false;
  const n = args.length;
  return (s) => {
    tick(s, start, end);
    const values: FormulaValue[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const v = args[i](s);
      if (Array.isArray(v)) {
        s.steps += listSize(v);
        if (propagate) {
          const e = firstError(v);
          if (e) return e;
        }
      } else if (propagate && v instanceof FormulaError) return v;
      values[i] = v;
    }
    // No function hands on a non-finite number, an impossible date or ill-formed text.
    return checkedValue(call(values, s, site), start, end);
  };
}

/** spec §8: a failing user-defined function yields the function-execution-error text. */
function compileUserCall(entry: UserFunctionEntry, args: Evaluator[], site: CallSite): Evaluator {
  return (s) => {
    tick(s, site.start, site.end);
    const failed = functionExecutionErrorText(s.ctx.locale);
    const values = args.map((a) => a(s));
    const body = entry.body;
    if (!body || s.callDepth >= s.limits.maxCallDepth) return failed;
    const savedFrame = s.frame;
    s.frame = values;
    s.callDepth++;
    try {
      const result = body(s);
      return firstError(result) ? failed : result;
    } catch (e) {
      if (e instanceof FormulaAbort) return failed;
      throw e;
    } finally {
      s.frame = savedFrame;
      s.callDepth--;
    }
  };
}

export function compileNode(node: FormulaNode, scope: CompileScope): Evaluator {
  const { start, end } = node;
  switch (node.type) {
    case 'number':
    case 'string':
    case 'boolean': {
      const value = node.value;
      return () => value;
    }
    case 'ref':
      return compileRef(node, scope);
    case 'name': {
      const slot = scope.params?.get(node.name.toUpperCase());
      if (slot === undefined) {
        const error = formulaError('#NAME?', `Unknown name ${node.name.slice(0, 60)}`, start, end);
        scope.errors.push(error);
        return () => error;
      }
      return (s) => (s.frame !== null && slot < s.frame.length ? s.frame[slot] : null);
    }
    case 'unary': {
      const operand = compileNode(node.operand, scope);
      if (node.op === '+') return operand;
      return (s) => {
        tick(s, start, end);
        return checkedValue(negate(operand(s), s, start, end), start, end);
      };
    }
    case 'percent': {
      const operand = compileNode(node.operand, scope);
      return (s) => {
        tick(s, start, end);
        return checkedValue(percent(operand(s), s, start, end), start, end);
      };
    }
    case 'binary':
      return compileBinary(node, scope);
    case 'call':
      return compileCall(node, scope);
  }
}

function compileBinary(node: Extract<FormulaNode, { type: 'binary' }>, scope: CompileScope): Evaluator {
  const { start, end, op } = node;
  const left = compileNode(node.left, scope);
  const right = compileNode(node.right, scope);
  const slow = BINARY_OPERATORS[op];
  // Fast paths for two numbers (the common case in business formulas); everything else goes
  // through the general Excel coercion rules.
  switch (op) {
    case '+':
      return (s) => {
        tick(s, start, end);
        const a = left(s), b = right(s);
        if (typeof a === 'number' && typeof b === 'number') { const r = a + b; if (Number.isFinite(r)) return r; }
        return checkedValue(slow(a, b, s, start, end), start, end);
      };
    case '-':
      return (s) => {
        tick(s, start, end);
        const a = left(s), b = right(s);
        if (typeof a === 'number' && typeof b === 'number') { const r = a - b; if (Number.isFinite(r)) return r; }
        return checkedValue(slow(a, b, s, start, end), start, end);
      };
    case '*':
      return (s) => {
        tick(s, start, end);
        const a = left(s), b = right(s);
        if (typeof a === 'number' && typeof b === 'number') { const r = a * b; if (Number.isFinite(r)) return r; }
        return checkedValue(slow(a, b, s, start, end), start, end);
      };
    case '>':
      return (s) => {
        tick(s, start, end);
        const a = left(s), b = right(s);
        return typeof a === 'number' && typeof b === 'number' ? a > b : checkedValue(slow(a, b, s, start, end), start, end);
      };
    case '<':
      return (s) => {
        tick(s, start, end);
        const a = left(s), b = right(s);
        return typeof a === 'number' && typeof b === 'number' ? a < b : checkedValue(slow(a, b, s, start, end), start, end);
      };
    default:
      return (s) => {
        tick(s, start, end);
        return checkedValue(slow(left(s), right(s), s, start, end), start, end);
      };
  }
}
