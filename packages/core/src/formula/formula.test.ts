import { describe, expect, it } from 'vitest';
import { compileFormula, defineUserFunctions, displayFormulaValue, evaluateFormula, FormulaError, FUNCTION_EXECUTION_ERROR_EN, FUNCTION_EXECUTION_ERROR_ZH, toRecordValue, type FormulaSchema } from './index.ts';

const show = (source: string, ctx = {}) => displayFormulaValue(evaluateFormula(source, ctx));

describe('Excel compatibility: operators and precedence', () => {
  it.each([
    ['1 + 2 * 3', '7'], ['(1 + 2) * 3', '9'], ['-2^2', '4'], ['2^3^2', '64'], ['2^-1', '0.5'], ['50%', '0.5'],
    ['200%^2', '4'], ['10 - 2 - 3', '5'], ['12 / 4 / 3', '1'], ['1 + 2 & 3', '"33"'], ['1 + 1 = 2', 'TRUE'],
    ['"a" & "b" = "AB"', 'TRUE'], ['1 < 2 = TRUE', 'TRUE'], ['0.1 + 0.2', '0.3'], ['0.1 + 0.2 = 0.3', 'FALSE'],
    ['"10" + 5', '15'], ['TRUE + TRUE', '2'], ['"abc" + 1', '#VALUE!'], ['1 / 0', '#DIV/0!'], ['0^0', '#NUM!'],
    ['(-8)^(1/3)', '#NUM!'], ['10^400', '#NUM!'], ['"a" < "B"', 'TRUE'], ['"A" = "a"', 'TRUE'], ['1 < "a"', 'TRUE'],
    ['"z" < TRUE', 'TRUE'], ['2 <> 2', 'FALSE'], ['3 >= 3', 'TRUE'], ['"x" & TRUE & 1.50', '"xTRUE1.5"'],
    ['= 1 + 1', '2'], ['SUM（1，2）', '3'], ['round(2.5, 0)', '3'], ['-"3"', '-3'], ['+5', '5'], ['--5', '5'],
    ['"say ""hi"""', '"say "hi""'], ['1e3 + .5', '1000.5'], ['"2024-03-05" + 1', '2024-03-06'],
    ['DATE(2024, 3, 5) - DATE(2024, 1, 1)', '64'], ['DATE(2024, 3, 5) > "2024-03-01"', 'TRUE'], ['ROUND(1.005, 2)', '1.01'],
    ['ROUND(-2.5, 0)', '-3'], ['ROUND(1234.567, -2)', '1200'], ['ROUNDUP(-3.141, 2)', '-3.15'], ['SUM("1", 2, TRUE)', '4'],
    ['SUM(LIST(1, "2", TRUE, 3))', '4'], ['IF(1, "y")', '"y"'], ['IF(0, "y")', 'FALSE'], ['IF("maybe", 1, 2)', '#VALUE!'],
    ['IF(TRUE, 1, 1/0)', '1'], ['IFERROR(SQRT(-1), "neg")', '"neg"'], ['AND(LIST(TRUE, "x", 1))', 'TRUE'], ['AND()', '#ERROR!'],
    ['CHOOSE(4, 1, 2, 3)', '#VALUE!'], ['SWITCH("b", "a", 1, "b", 2)', '2'], ['SWITCH(3, 1, "x")', '#N/A'],
    ['LIST(1, 2) + 1', '#VALUE!'], ['TEXT(DATE(2024, 1, 5), "yyyy-mm-dd")', '"2024-01-05"'], ['REPT("ab", -1)', '#VALUE!'],
    ['SUBSTITUTE("aaa", "a", "b", 2)', '"aba"'], ['TEXTJOIN(", ", FALSE, LIST("a", "", "b"))', '"a, , b"'], ['VALUE("abc")', '#VALUE!'],
    ['VALUE("1,234.5")', '1234.5'], ['VALUE("50%")', '0.5'], ['VALUE(" 12 ")', '12'], ['CHAR(65)', '"A"'], ['CHAR(0)', '#VALUE!'], ['CHAR(256)', '#VALUE!'],
    ['CHAR(1e12)', '#VALUE!'], ['LEFT("abc", -1)', '#VALUE!'], ['RIGHT("abc", -1)', '#VALUE!'], ['LEFT("abc")', '"a"'], ['RIGHT("abc", 2)', '"bc"'],
    ['RIGHT("abc", 9)', '"abc"'], ['LEFT("苹果汁", 2)', '"苹果"'], ['RIGHT("abc", 0)', '""'], ['TIME(25, 0, 0) * 24', '1'], ['TIME(12, 30, 0) * 24', '12.5'], ['TIME(0, -1, 0)', '#NUM!'],
    ['AVERAGEIF(LIST(1, 2), ">5")', '#DIV/0!'],
  ])('%s → %s', (source, expected) => {
    expect(show(source)).toBe(expected);
  });
});

describe('errors are values with positions', () => {
  it.each([
    ['1 + (2', '#ERROR!', 4, 5, 'A closing ) is missing'],
    ['1 +', '#ERROR!', 3, 4, 'The formula ends too early'],
    ['"abc', '#ERROR!', 0, 4, 'Unterminated text'],
    ['{amount', '#ERROR!', 0, 7, 'Unterminated reference'],
    ['{a b}', '#ERROR!', 0, 5, 'Invalid reference'],
    ['1 $ 2', '#ERROR!', 2, 3, 'Unexpected character "$"'],
    ['FOO(1) + 1', '#NAME?', 0, 3, 'Unknown function FOO'],
    ['price * 2', '#NAME?', 0, 5, 'Unknown name price'],
    ['ROUND()', '#ERROR!', 0, 7, 'ROUND expects 1 to 2 arguments, got 0'],
    ['', '#ERROR!', 0, 1, 'The formula is empty'],
    ['1 2', '#ERROR!', 2, 3, 'Unexpected "2"'],
  ])('%s → %s at %s..%s', (source, code, start, end, message) => {
    const f = compileFormula(source);
    expect(f.ok).toBe(false);
    const v = f.evaluate();
    expect(v).toBeInstanceOf(FormulaError);
    expect(v).toMatchObject({ code, start, end });
    expect((v as FormulaError).message).toContain(message);
  });

  it('run-time errors point at the operator or call that failed', () => {
    expect(evaluateFormula('1 + 10 / ({a} - 1)', { row: { a: 1 } })).toMatchObject({ code: '#DIV/0!', start: 4, end: 18 });
    expect(evaluateFormula('IF(TRUE, SQRT(-4), 0)')).toMatchObject({ code: '#NUM!', start: 9, end: 17 });
    expect(evaluateFormula('ROUND({x}, 2)', { row: { x: 'abc' } })).toMatchObject({ code: '#VALUE!', start: 0, end: 13 });
  });
});

describe('references', () => {
  const row = { amount: 1500, rate: 0.1, note: 'x', when: '2024-03-05T20:00:00Z', flag: 'true' };
  const master = { discount: 0.5, amount: 99 };
  const views = { lines: [{ qty: 2, price: 10 }, { qty: 3, price: 5 }, { qty: null }], head: { title: '订单' } };

  it('reads the current row first, then the master record', () => {
    expect(evaluateFormula('IF({amount} > 1000, ROUND({amount} * {rate}, 2), 0)', { row })).toBe(150);
    expect(evaluateFormula('{amount} * {discount}', { row, master })).toBe(750);
    expect(evaluateFormula('{missing}', { row })).toBeNull();
    expect(evaluateFormula('ISBLANK({missing})', { row })).toBe(true);
  });

  it('reads columns of child views as lists and fields of single-record views', () => {
    expect(evaluateFormula('SUM({lines.qty})', { views })).toBe(5);
    expect(evaluateFormula('COUNT({lines.qty})', { views })).toBe(2);
    expect(evaluateFormula('SUMPRODUCT({lines.qty}, {lines.price})', { views: { lines: views.lines.slice(0, 2) } })).toBe(35);
    expect(evaluateFormula('{head.title} & "-1"', { views })).toBe('订单-1');
  });

  const schema: FormulaSchema = {
    fields: { amount: 3, rate: 3, when: 4, flag: 5, note: 1 },
    masterFields: { discount: 3, amount: 3 },
    views: { lines: { isList: true, fields: { qty: 2, price: 3 } } },
  };

  it('checks references against the schema at compile time, naming the reference', () => {
    const f = compileFormula('{amount} + {nope} + {lines.qty} + {lines.zzz} + {other.x}', { schema });
    expect(f.errors.map((e) => [e.code, e.message, e.start])).toEqual([
      ['#REF!', 'Unknown reference {nope}', 11],
      ['#REF!', 'Unknown reference {lines.zzz}', 34],
      ['#REF!', 'Unknown reference {other.x}', 48],
    ]);
  });

  it('uses field types from the schema when reading values', () => {
    const ctx = { row: { ...row, amount: '1500.50' }, offsetMinutes: 480 };
    expect(evaluateFormula('{amount} + 1', ctx, { schema })).toBe(1501.5);
    expect(displayFormulaValue(evaluateFormula('{when}', ctx, { schema }))).toBe('2024-03-06 04:00:00');
    expect(evaluateFormula('DAY({when})', ctx, { schema })).toBe(6);
    expect(evaluateFormula('IF({flag}, 1, 2)', ctx, { schema })).toBe(1);
    // A row field shadows the master field of the same code.
    expect(evaluateFormula('{amount}', { row: {}, master }, { schema })).toBeNull();
    expect(evaluateFormula('SUM({lines.qty})', {}, { schema })).toBe(0);
  });

  it('lists dependencies', () => {
    const f = compileFormula('SUM({lines.qty}) * {rate} + {rate} + TODAY() - TODAY()');
    expect(f.references.map((r) => [r.view, r.code])).toEqual([['lines', 'qty'], [null, 'rate']]);
    expect(f.functions).toEqual(expect.arrayContaining(['SUM', 'TODAY']));
    expect(f.isVolatile).toBe(true);
    expect(compileFormula('1 + {a}').isVolatile).toBe(false);
  });
});

describe('context: clock, user, dictionary', () => {
  it('uses only the supplied clock and zone', () => {
    const now = new Date('2024-03-05T17:30:00Z');
    expect(show('TODAY()', { now })).toBe('2024-03-05');
    expect(show('TODAY()', { now, offsetMinutes: 480 })).toBe('2024-03-06');
    expect(show('NOW()', { now: () => now, offsetMinutes: -60 })).toBe('2024-03-05 16:30:00');
    expect(show('TODAY()')).toBe('#N/A');
    expect(show('CURRENT_USER()')).toBe('#N/A');
    expect(show('DICT("gender", 1)')).toBe('#N/A');
  });
  it('GUID comes from the supplied generator when given', () => {
    expect(evaluateFormula('GUID()', { newGuid: () => 'fixed' })).toBe('fixed');
    expect(evaluateFormula('GUID()')).toMatch(/^[0-9a-f-]{36}$/);
  });
  it('record values: dates as ISO text in the context zone, errors as null', () => {
    expect(toRecordValue(evaluateFormula('DATE(2024, 2, 29)'))).toBe('2024-02-29');
    expect(toRecordValue(evaluateFormula('NOW()', { now: new Date('2024-03-05T02:30:00Z'), offsetMinutes: 480 }), 480)).toBe('2024-03-05T10:30:00+08:00');
    expect(toRecordValue(evaluateFormula('1/0'))).toBeNull();
  });
});

describe('user-defined functions', () => {
  const udfs = defineUserFunctions([
    'NETPRICE(price, rate) = ROUND(price * (1 - rate), 2)',
    { name: 'GROSS', params: ['p'], body: 'NETPRICE(p, 0.1) * 2' },
    'BROKEN(x) = x +',
    'LOOP(x) = PONG(x)',
    'PONG(x) = LOOP(x)',
    'DIVIDE(a, b) = a / b',
    'SUM(x) = x',
    'TOTAL() = {amount} * 2',
  ]);

  it('evaluate with parameters and may call each other', () => {
    expect(evaluateFormula('NETPRICE(100, 0.25)', {}, { userFunctions: udfs })).toBe(75);
    expect(evaluateFormula('GROSS(10) + 1', {}, { userFunctions: udfs })).toBe(19);
    expect(evaluateFormula('netprice({p}, {r})', { row: { p: 9.99, r: 0.5 } }, { userFunctions: udfs })).toBe(5);
    expect(evaluateFormula('TOTAL()', { row: { amount: 4 } }, { userFunctions: udfs })).toBe(8);
  });

  it.each([
    ['BROKEN(1)', FUNCTION_EXECUTION_ERROR_ZH, undefined],
    ['LOOP(1)', FUNCTION_EXECUTION_ERROR_ZH, undefined],
    ['DIVIDE(1, 0)', FUNCTION_EXECUTION_ERROR_ZH, undefined],
    ['DIVIDE(1, 0)', FUNCTION_EXECUTION_ERROR_EN, 'en-US' as const],
    ['DIVIDE(6, 3)', 2, undefined],
  ])('a failing function yields the function-execution-error text: %s', (source, expected, locale) => {
    expect(evaluateFormula(source, { locale }, { userFunctions: udfs })).toBe(expected);
  });

  it('reports definition problems for the designer', () => {
    const problems = Object.fromEntries(udfs.diagnostics.map((d) => [d.name, d.errors.map((e) => e.message).join('; ')]));
    expect(problems.BROKEN).toContain('ends too early');
    expect(problems.LOOP).toContain('Recursive');
    expect(problems.PONG).toContain('Recursive');
    expect(problems.SUM).toContain('built-in');
    expect(udfs.names()).not.toContain('SUM');
  });

  it('checks argument counts at compile time', () => {
    expect(compileFormula('NETPRICE(1)', { userFunctions: udfs }).errors[0]).toMatchObject({ code: '#ERROR!', message: 'NETPRICE expects 2 arguments, got 1' });
  });
});
