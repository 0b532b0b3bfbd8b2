import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FUNCTION_TABLE } from './functions/table.ts';
import { arityOfSignature, completeFunctionName, FUNCTION_CATEGORIES, FUNCTION_DOCS, getFunctionDoc } from './function-docs.ts';
import { compileFormula, displayFormulaValue } from './index.ts';

// The documentation context of the examples (see docs/date-info-platform.ts).
export const DOC_CONTEXT = {
  now: new Date('2024-03-05T02:30:00Z'),
  offsetMinutes: 480,
  user: { id: 'u-1', name: '张三', orgUnitId: 'o-1', orgUnitName: '销售部' },
  dictionary: (code: string, value: string) => (code === 'gender' && value === '1' ? '男' : null),
};

/** Runs `fn` with the process's own time zone set to `zone` (Node re-reads TZ when it changes). */
function inZone<T>(zone: string, fn: () => T): T {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

describe('function metadata', () => {
  it('documents at least 100 functions, each once, in a known category', () => {
    expect(FUNCTION_DOCS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(FUNCTION_DOCS.map((d) => d.name)).size).toBe(FUNCTION_DOCS.length);
    const categories = new Set(FUNCTION_CATEGORIES.map((c) => c.category));
    for (const doc of FUNCTION_DOCS) {
      expect(categories.has(doc.category)).toBe(true);
      expect(doc.zh.length).toBeGreaterThan(1);
      expect(doc.en.length).toBeGreaterThan(3);
      expect(doc.signature.startsWith(`${doc.name}(`)).toBe(true);
    }
  });

  it('is exactly the allow-list of the evaluator', () => {
    expect([...FUNCTION_TABLE.keys()].sort()).toEqual(FUNCTION_DOCS.map((d) => d.name).sort());
  });

  it.each(FUNCTION_DOCS.map((d) => [d.name, d.example, d.result]))('%s: %s → %s', (_name, example, result) => {
    const formula = compileFormula(example);
    expect(formula.errors).toEqual([]);
    expect(displayFormulaValue(formula.evaluate(DOC_CONTEXT))).toBe(result);
  });

  it('gives every example the same result whatever the machine’s own time zone', () => {
    for (const zone of ['Asia/Shanghai', 'America/Los_Angeles', 'Pacific/Kiritimati', 'UTC']) {
      const shown = inZone(zone, () => FUNCTION_DOCS.filter((d) => displayFormulaValue(compileFormula(d.example).evaluate(DOC_CONTEXT)) !== d.result));
      expect({ zone, differs: shown.map((d) => d.example) }).toEqual({ zone, differs: [] });
    }
  });

  it.each([
    ['TEXT(DATE(2024, 1, 5), "yyyy-mm-dd")', '"2024-01-05"'],
    ['TEXT(DATE(2024, 1, 5), "yyyy年m月d日")', '"2024年1月5日"'],
    ['TEXT("2024-03-05 14:07:09", "yy/mm/dd hh:mm:ss")', '"24/03/05 14:07:09"'],
    ['TEXT("2024-03-05 14:07:09", "h:mm AM/PM")', '"2:07 PM"'],
    ['TEXT(DATE(2024, 3, 5), "dddd, d mmmm yyyy")', '"Tuesday, 5 March 2024"'],
    ['TEXT(DATE(2024, 3, 5), """Q""m")', '"Q3"'],
    ['TEXT(45356, "yyyy-mm-dd")', '"2024-03-05"'],
    ['TEXT(1234.567, "#,##0.00")', '"1,234.57"'],
    ['TEXT("abc", "yyyy")', '"abc"'],
    ['TEXT(DATE(2024, 3, 5), REPT("y", 300))', '#VALUE!'],
  ])('TEXT applies Excel format codes: %s → %s', (source, expected) => {
    for (const zone of ['Asia/Shanghai', 'America/Los_Angeles']) {
      expect(inZone(zone, () => displayFormulaValue(compileFormula(source).evaluate(DOC_CONTEXT)))).toBe(expected);
    }
  });

  it.each([
    ['PI()', 0, 0], ['ROUND(number, [digits])', 1, 2], ['SUM(number1, [number2], ...)', 1, 255],
    ['IFS(condition1, value1, [condition2, value2], ...)', 2, 255], ['MID(text, start, count)', 3, 3],
  ])('arity of %s', (signature, min, max) => {
    expect(arityOfSignature(signature)).toEqual({ minArgs: min, maxArgs: max });
  });

  it('supports the editor: lookup and completion', () => {
    expect(getFunctionDoc('round')?.minArgs).toBe(1);
    expect(completeFunctionName('sum').map((d) => d.name)).toEqual(['SUM', 'SUMIF', 'SUMIFS', 'SUMPRODUCT', 'SUMSQ']);
    expect(completeFunctionName('zz')).toEqual([]);
  });

  it('FORMULAS.md lists every function with both descriptions and its example', () => {
    const md = readFileSync(new URL('../../FORMULAS.md', import.meta.url), 'utf8');
    for (const doc of FUNCTION_DOCS) {
      expect(md, doc.name).toContain(`#### ${doc.name}\n`);
      expect(md, doc.name).toContain(doc.zh);
      expect(md, doc.name).toContain(doc.en);
      expect(md, doc.name).toContain(doc.example);
    }
  });
});
