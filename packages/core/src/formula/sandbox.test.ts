import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileFormula, defineUserFunctions, evaluateFormula, FormulaError, type FormulaValue } from './index.ts';

// The formula language must be a closed world: no payload may reach host objects, run code,
// change prototypes, throw, or run unbounded.

const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
const FUNCTION_PROTO_KEYS = Object.getOwnPropertyNames(Function.prototype).sort();
const ARRAY_PROTO_KEYS = Object.getOwnPropertyNames(Array.prototype).sort();

function isFormulaResult(v: unknown, depth = 0): v is FormulaValue {
  if (v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return true;
  if (v instanceof FormulaError || v instanceof Date) return true;
  return Array.isArray(v) && depth < 6 && v.every((x) => isFormulaResult(x, depth + 1));
}

const ESCAPES = [
  '"".constructor.constructor("return process")()',
  '"".constructor',
  '{constructor}',
  '{__proto__}',
  '{prototype}',
  '{row.constructor}',
  '{__proto__.polluted}',
  '{constructor.constructor}',
  'constructor',
  '__proto__',
  'CONSTRUCTOR("return process")()',
  'constructor("return process")',
  '__proto__("x")',
  'toString()',
  'valueOf()',
  'hasOwnProperty("x")',
  'eval("1")',
  'Function("return this")()',
  'globalThis',
  'process.exit(1)',
  'require("fs")',
  'import("fs")',
  'this',
  'SUM.constructor',
  'SUM["constructor"]',
  'SUM.call(1)',
  'LEN("a").constructor',
  '(1).constructor',
  '[].constructor',
  '`${process}`',
  "'a'",
  '{a}.constructor',
  'IF(TRUE, constructor, 1)',
  'IF({__proto__}, 1, 2)',
  'CONCAT("a", {__proto__})',
  'CONCAT("__proto__", "x")',
  'TEXT(1, "constructor")',
  'SUMIF(LIST(1), "constructor")',
  'COUNTIF(LIST("__proto__"), "__proto__")',
  'MATCH("constructor", LIST("constructor"), 0)',
  'DICT("__proto__", "constructor")',
  'INDEX(LIST(1, 2), "constructor")',
  'Object.prototype.polluted = 1',
  'SUM(1;2)',
  '=1+1;process.exit()',
  '1 + {a}} + 1',
  '"\\u0000" & CHAR(0)',
  'CHAR(0) & "constructor"',
  'x => x',
  'new Date()',
  'a.b.c()',
  'PROTOTYPE(1)',
  'VALUEOF(1)',
];

describe('escape payloads', () => {
  afterAll(() => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTO_KEYS);
  });

  it.each(ESCAPES)('%s', (payload) => {
    const rows = [{ a: 1, constructor: 'nope' }, Object.create(null), { __proto__: { polluted: 1 } }];
    for (const row of rows) {
      const ctx = { row, master: { x: 1 }, views: { row: [{ a: 1 }] }, dictionary: () => null };
      const result = evaluateFormula(payload, ctx);
      expect(isFormulaResult(result)).toBe(true);
      expect(typeof result).not.toBe('function');
      if (typeof result === 'string') expect(result).not.toMatch(/native code|\[object/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never reads inherited properties of records', () => {
    const inherited = Object.create({ secret: 42 });
    expect(evaluateFormula('{secret}', { row: inherited })).toBeNull();
    expect(evaluateFormula('{constructor}', { row: {} })).toMatchObject({ code: '#REF!' });
    expect(evaluateFormula('{toString}', { row: {} })).toBeNull();
    expect(evaluateFormula('{v.toString}', { views: { v: [{}] } })).toEqual([null]);
    expect(evaluateFormula('{fn}', { row: { fn: () => 1 } })).toMatchObject({ code: '#VALUE!' });
    expect(evaluateFormula('{o}', { row: { o: { constructor: 1 } } })).toMatchObject({ code: '#VALUE!' });
  });

  it('user-defined functions cannot define or reach host names', () => {
    const udfs = defineUserFunctions(['CONSTRUCTOR(x) = x', 'F(constructor) = constructor', 'G(__proto__) = __proto__ & "x"']);
    expect(udfs.diagnostics.map((d) => d.name)).toEqual([]);
    expect(evaluateFormula('CONSTRUCTOR(1) + F(2)', {}, { userFunctions: udfs })).toBe(3);
    expect(evaluateFormula('G("a")', {}, { userFunctions: udfs })).toBe('ax');
    expect(Object.getOwnPropertyNames(Function.prototype).sort()).toEqual(FUNCTION_PROTO_KEYS);
  });
});

describe('limits', () => {
  it.each([
    ['source length', 'x'.repeat(20_001), 'too long'],
    ['nesting depth', `${'('.repeat(3000)}1${')'.repeat(3000)}`, 'nested too deeply'],
    ['unary chain', `${'-'.repeat(5000)}1`, 'nested too deeply'],
    ['operator chain', Array.from({ length: 2000 }, () => '1').join('+'), 'nested too deeply'],
    ['call nesting', `${'ABS('.repeat(1500)}1${')'.repeat(1500)}`, 'nested too deeply'],
    ['AST size', `SUM(${Array.from({ length: 4001 }, () => '1').join(',')})`, 'too large'],
  ])('%s gives an error, not a crash', (_name, source, message) => {
    const v = evaluateFormula(source, {}, { limits: { maxSourceLength: 20_000 } });
    expect(v).toBeInstanceOf(FormulaError);
    expect((v as FormulaError).message).toContain(message);
  });

  it('bounds text and list sizes', () => {
    expect(evaluateFormula('REPT("x", 1e9)')).toMatchObject({ code: '#VALUE!' });
    expect(evaluateFormula('LEN(REPT("ab", 1000))')).toBe(2000);
    expect(evaluateFormula('REPT(REPT("x", 60000) & REPT("y", 6000), 1)')).toMatchObject({ code: '#VALUE!' });
    expect(evaluateFormula('SUBSTITUTE(REPT("a", 60000), "a", "bb")')).toMatchObject({ code: '#VALUE!' });
    expect(evaluateFormula('TEXTJOIN(REPT("-", 1000), TRUE, {v.c})', { views: { v: Array.from({ length: 100 }, () => ({ c: 'x' })) } })).toMatchObject({ code: '#VALUE!' });
    expect(evaluateFormula('{t}', { row: { t: 'x'.repeat(70_000) } })).toMatchObject({ code: '#VALUE!' });
    expect(evaluateFormula('COUNT({v.c})', { views: { v: Array.from({ length: 11 }, () => ({ c: 1 })) } }, { limits: { maxListLength: 10 } })).toMatchObject({ code: '#VALUE!' });
  });

  it('bounds evaluation steps, also through user-defined functions', () => {
    const defs = ['F0(x) = x + 1'];
    for (let i = 1; i <= 12; i++) defs.push(`F${i}(x) = F${i - 1}(x) + F${i - 1}(x)`);
    const udfs = defineUserFunctions(defs);
    expect(evaluateFormula('F3(0)', {}, { userFunctions: udfs })).toBe(8);
    // 2^12 nested calls exceed the step budget: the call fails instead of running on.
    expect(evaluateFormula('F12(0)', {}, { userFunctions: udfs, limits: { maxSteps: 10_000 } })).toBe('函数执行错误');
    expect(evaluateFormula('F12(0)', {}, { userFunctions: udfs })).toBe(4096);
    const views = { v: Array.from({ length: 90_000 }, () => ({ c: 1 })) };
    const v = evaluateFormula('SUM({v.c}) + SUM({v.c}) + SUM({v.c})', { views });
    expect(v).toMatchObject({ code: '#ERROR!' });
    expect((v as FormulaError).message).toContain('steps');
  });

  it('charges per-day loops inside library functions to the step budget (no CPU exhaustion)', () => {
    for (const source of ['WORKDAY(1, 1e9)', 'WORKDAY(1, 1e300)', 'NETWORKDAYS("1900-01-01", "9999-12-31")', 'NETWORKDAYS("2000-01-01", "2300-01-01", LIST("2024-05-01"))']) {
      const start = performance.now();
      const v = evaluateFormula(source);
      expect(v, source).toMatchObject({ code: '#ERROR!' });
      expect((v as FormulaError).message).toContain('steps');
      expect(performance.now() - start).toBeLessThan(1000);
    }
    // Business-sized spans still work.
    expect(evaluateFormula('NETWORKDAYS("2024-01-01", "2024-01-31")')).toBe(23);
    expect(evaluateFormula('NETWORKDAYS("2000-01-01", "2100-01-01")')).toBe(26090);
  });
});

describe('properties (fast-check)', () => {
  const alphabet = [...'0123456789+-*/^&=<>%(),."{}.abcXYZ_ \t', '{a}', '{v.a}', 'SUM(', 'IF(', 'LIST(', 'REPT(', 'TRUE', 'constructor', '__proto__', '""'];
  const formulaText = fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }).map((parts) => parts.join(''));
  const ctx = { row: { a: 3, b: 'x' }, views: { v: [{ a: 1 }, { a: 2 }] }, now: new Date(0) };

  it('parser and evaluator only return values or formula errors, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(formulaText, fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 })), (source) => {
        const compiled = compileFormula(source);
        expect(compiled.errors.every((e) => e instanceof FormulaError)).toBe(true);
        expect(isFormulaResult(compiled.evaluate(ctx))).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTO_KEYS);
    expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(ARRAY_PROTO_KEYS);
  });

  it('any function with any arguments returns a value or a formula error', () => {
    const names = ['SUM', 'TEXT', 'DATE', 'MID', 'SUMIF', 'INDEX', 'MATCH', 'DATEDIF', 'WORKDAY', 'ROUND', 'IRR', 'TEXTJOIN', 'FIXED', 'CHAR', 'RANK'];
    const arg = fc.oneof(
      fc.integer({ min: -1e6, max: 1e6 }).map(String),
      fc.double({ noNaN: true, min: -1e12, max: 1e12 }).map((n) => `(${n})`),
      fc.string({ maxLength: 8 }).map((s) => `"${s.replace(/"/g, '""')}"`),
      fc.constantFrom('TRUE', 'FALSE', 'LIST(1, "a", TRUE)', '{a}', '"2024-02-30"', '"2024-01-31"', '1/0', 'LIST()'),
    );
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.array(arg, { maxLength: 4 }), (name, args) => {
        expect(isFormulaResult(evaluateFormula(`${name}(${args.join(', ')})`, ctx))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('numeric arithmetic matches JavaScript within Excel precision', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: -1e6, max: 1e6 }), (a, b) => {
        expect(evaluateFormula('{a} * {b} + {a} - {b}', { row: { a, b } })).toBe(a * b + a - b || 0);
      }),
    );
  });
});
