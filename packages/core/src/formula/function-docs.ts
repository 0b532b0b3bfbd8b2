import { DATE_DOCS, FINANCIAL_DOCS, INFORMATION_DOCS, LOOKUP_DOCS, PLATFORM_DOCS } from './docs/date-info-platform.ts';
import type { FunctionDocRow } from './docs/doc-row.ts';
import { LOGICAL_DOCS, MATH_DOCS } from './docs/logical-math.ts';
import { STATISTICAL_DOCS, TEXT_DOCS } from './docs/statistical-text.ts';

// Metadata of every formula function, for the formula editor's help panel and autocomplete and
// for FORMULAS.md. It is also the allow-list: the evaluator's function table is built from these
// names, and a test checks that both agree and that every example gives its documented result.

export type FunctionCategory = 'logical' | 'math' | 'statistical' | 'text' | 'date' | 'information' | 'lookup' | 'financial' | 'platform';

export interface FunctionDoc {
  name: string;
  category: FunctionCategory;
  /** `ROUND(number, [digits])`: optional parameters in brackets, `...` for repeats. */
  signature: string;
  zh: string;
  en: string;
  example: string;
  /** The example's result as the editor displays it (text in quotes). */
  result: string;
  minArgs: number;
  maxArgs: number;
}

export const FUNCTION_CATEGORIES: readonly { category: FunctionCategory; zh: string; en: string }[] = [
  { category: 'logical', zh: '逻辑', en: 'Logical' },
  { category: 'math', zh: '数学', en: 'Math' },
  { category: 'statistical', zh: '统计', en: 'Statistical' },
  { category: 'text', zh: '文本', en: 'Text' },
  { category: 'date', zh: '日期与时间', en: 'Date and time' },
  { category: 'information', zh: '信息', en: 'Information' },
  { category: 'lookup', zh: '查找与列表', en: 'Lookup and lists' },
  { category: 'financial', zh: '财务', en: 'Financial' },
  { category: 'platform', zh: '平台', en: 'Platform' },
];

/** Maximum arguments of a variadic function (Excel's limit). */
export const MAX_VARIADIC_ARGS = 255;

/** Argument counts from a signature: required params, optional `[param]`, `...` repeats. */
export function arityOfSignature(signature: string): { minArgs: number; maxArgs: number } {
  const inner = signature.slice(signature.indexOf('(') + 1, signature.lastIndexOf(')')).trim();
  if (!inner) return { minArgs: 0, maxArgs: 0 };
  let depth = 0;
  let minArgs = 0;
  let named = 0;
  let variadic = false;
  for (const raw of inner.split(',')) {
    const p = raw.trim();
    if (p === '...') {
      variadic = true;
      continue;
    }
    // `[a, b]` groups optional parameters.
    if (p.startsWith('[')) depth++;
    named++;
    if (depth === 0) minArgs++;
    if (p.endsWith(']')) depth--;
  }
  return { minArgs, maxArgs: variadic ? MAX_VARIADIC_ARGS : named };
}

const SECTIONS: [FunctionCategory, FunctionDocRow[]][] = [
  ['logical', LOGICAL_DOCS], ['math', MATH_DOCS], ['statistical', STATISTICAL_DOCS], ['text', TEXT_DOCS], ['date', DATE_DOCS],
  ['information', INFORMATION_DOCS], ['lookup', LOOKUP_DOCS], ['financial', FINANCIAL_DOCS], ['platform', PLATFORM_DOCS],
];

export const FUNCTION_DOCS: readonly FunctionDoc[] = Object.freeze(
  SECTIONS.flatMap(([category, rows]) =>
    rows.map(([name, signature, zh, en, example, result]) => Object.freeze({ name, category, signature, zh, en, example, result, ...arityOfSignature(signature) })),
  ),
);

const BY_NAME = new Map(FUNCTION_DOCS.map((d) => [d.name, d]));

export function getFunctionDoc(name: string): FunctionDoc | undefined {
  return BY_NAME.get(name.toUpperCase());
}

/** Autocomplete: functions whose name starts with the typed prefix (case-insensitive), by name. */
export function completeFunctionName(prefix: string, limit = 20): FunctionDoc[] {
  const p = prefix.toUpperCase();
  return FUNCTION_DOCS.filter((d) => d.name.startsWith(p)).sort((a, b) => a.name.localeCompare(b.name)).slice(0, limit);
}
