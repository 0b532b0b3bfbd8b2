import type { TableFieldType } from '../page-definition.ts';

// The one table of filter/join operators (documented in packages/core/FILTERS.md). `judgmentMethod`
// on the wire may be the string `code` or the numeric `id`; both resolve to the same entry.

/**
 * How many operands an operator takes: `none` (is empty), `one` (comparisons), `two` (between),
 * `list` (in / not in, at least one), `shortcut` (date shortcut, resolved to a range).
 */
export type OperandArity = 'none' | 'one' | 'two' | 'list' | 'shortcut';

export const FILTER_OPERATOR_CODES = [
  'eq', 'ne', 'gt', 'ge', 'lt', 'le', 'contains', 'notContains', 'startsWith', 'endsWith', 'in', 'notIn',
  'between', 'isEmpty', 'isNotEmpty', 'today', 'yesterday', 'tomorrow', 'thisWeek', 'lastWeek', 'nextWeek',
  'thisMonth', 'lastMonth', 'nextMonth', 'thisQuarter', 'lastQuarter', 'thisYear', 'lastYear', 'nextYear',
] as const;
export type FilterOperatorCode = (typeof FILTER_OPERATOR_CODES)[number];

/** Operators that remain in a parsed tree: date shortcuts are resolved to `ge` + `lt`. */
export type TreeOperatorCode = Exclude<FilterOperatorCode, DateShortcutCode>;
export type DateShortcutCode =
  | 'today' | 'yesterday' | 'tomorrow' | 'thisWeek' | 'lastWeek' | 'nextWeek' | 'thisMonth' | 'lastMonth'
  | 'nextMonth' | 'thisQuarter' | 'lastQuarter' | 'thisYear' | 'lastYear' | 'nextYear';

export interface FilterOperator {
  code: FilterOperatorCode;
  /** Numeric wire code (legacy designers send numbers). */
  id: number;
  arity: OperandArity;
  zh: string;
  en: string;
  fieldTypes: readonly TableFieldType[];
}

const ALL: readonly TableFieldType[] = [1, 2, 3, 4, 5, 6];
const ORDERED: readonly TableFieldType[] = [1, 2, 3, 4];
const TEXTUAL: readonly TableFieldType[] = [1];
const LISTABLE: readonly TableFieldType[] = [1, 2, 3, 6];
const DATES: readonly TableFieldType[] = [4];

export const FILTER_OPERATORS: readonly FilterOperator[] = [
  { code: 'eq', id: 1, arity: 'one', zh: '等于', en: 'equals', fieldTypes: ALL },
  { code: 'ne', id: 2, arity: 'one', zh: '不等于', en: 'does not equal', fieldTypes: ALL },
  { code: 'gt', id: 3, arity: 'one', zh: '大于', en: 'greater than', fieldTypes: ORDERED },
  { code: 'ge', id: 4, arity: 'one', zh: '大于等于', en: 'greater than or equal to', fieldTypes: ORDERED },
  { code: 'lt', id: 5, arity: 'one', zh: '小于', en: 'less than', fieldTypes: ORDERED },
  { code: 'le', id: 6, arity: 'one', zh: '小于等于', en: 'less than or equal to', fieldTypes: ORDERED },
  { code: 'contains', id: 7, arity: 'one', zh: '包含', en: 'contains', fieldTypes: TEXTUAL },
  { code: 'notContains', id: 8, arity: 'one', zh: '不包含', en: 'does not contain', fieldTypes: TEXTUAL },
  { code: 'startsWith', id: 9, arity: 'one', zh: '开头是', en: 'starts with', fieldTypes: TEXTUAL },
  { code: 'endsWith', id: 10, arity: 'one', zh: '结尾是', en: 'ends with', fieldTypes: TEXTUAL },
  { code: 'in', id: 11, arity: 'list', zh: '属于', en: 'is one of', fieldTypes: LISTABLE },
  { code: 'notIn', id: 12, arity: 'list', zh: '不属于', en: 'is not one of', fieldTypes: LISTABLE },
  { code: 'between', id: 13, arity: 'two', zh: '介于', en: 'is between', fieldTypes: ORDERED },
  { code: 'isEmpty', id: 14, arity: 'none', zh: '为空', en: 'is empty', fieldTypes: ALL },
  { code: 'isNotEmpty', id: 15, arity: 'none', zh: '不为空', en: 'is not empty', fieldTypes: ALL },
  { code: 'today', id: 16, arity: 'shortcut', zh: '今天', en: 'today', fieldTypes: DATES },
  { code: 'yesterday', id: 17, arity: 'shortcut', zh: '昨天', en: 'yesterday', fieldTypes: DATES },
  { code: 'tomorrow', id: 18, arity: 'shortcut', zh: '明天', en: 'tomorrow', fieldTypes: DATES },
  { code: 'thisWeek', id: 19, arity: 'shortcut', zh: '本周', en: 'this week', fieldTypes: DATES },
  { code: 'lastWeek', id: 20, arity: 'shortcut', zh: '上周', en: 'last week', fieldTypes: DATES },
  { code: 'nextWeek', id: 21, arity: 'shortcut', zh: '下周', en: 'next week', fieldTypes: DATES },
  { code: 'thisMonth', id: 22, arity: 'shortcut', zh: '本月', en: 'this month', fieldTypes: DATES },
  { code: 'lastMonth', id: 23, arity: 'shortcut', zh: '上月', en: 'last month', fieldTypes: DATES },
  { code: 'nextMonth', id: 24, arity: 'shortcut', zh: '下月', en: 'next month', fieldTypes: DATES },
  { code: 'thisQuarter', id: 25, arity: 'shortcut', zh: '本季度', en: 'this quarter', fieldTypes: DATES },
  { code: 'lastQuarter', id: 26, arity: 'shortcut', zh: '上季度', en: 'last quarter', fieldTypes: DATES },
  { code: 'thisYear', id: 27, arity: 'shortcut', zh: '今年', en: 'this year', fieldTypes: DATES },
  { code: 'lastYear', id: 28, arity: 'shortcut', zh: '去年', en: 'last year', fieldTypes: DATES },
  { code: 'nextYear', id: 29, arity: 'shortcut', zh: '明年', en: 'next year', fieldTypes: DATES },
];

const BY_CODE = new Map<string, FilterOperator>();
for (const op of FILTER_OPERATORS) {
  BY_CODE.set(op.code.toLowerCase(), op);
  BY_CODE.set(String(op.id), op);
}
// Common spellings from other designers resolve to the same entries.
const ALIASES: Record<string, FilterOperatorCode> = {
  '=': 'eq', '==': 'eq', equal: 'eq', equals: 'eq', '!=': 'ne', '<>': 'ne', notequal: 'ne', '>': 'gt',
  '>=': 'ge', '<': 'lt', '<=': 'le', like: 'contains', notlike: 'notContains', isnull: 'isEmpty',
  isnotnull: 'isNotEmpty',
};
for (const [alias, code] of Object.entries(ALIASES)) BY_CODE.set(alias, BY_CODE.get(code.toLowerCase())!);

/** Resolves a wire `judgmentMethod` (code, numeric id or alias; case-insensitive) to its operator. */
export function findFilterOperator(method: unknown): FilterOperator | undefined {
  if (typeof method !== 'string' && typeof method !== 'number') return undefined;
  return BY_CODE.get(String(method).trim().toLowerCase());
}

/** Operators allowed on a table field type, in table order (for the filter builder's drop-down). */
export function operatorsForFieldType(fieldType: TableFieldType): FilterOperator[] {
  return FILTER_OPERATORS.filter((op) => op.fieldTypes.includes(fieldType));
}

export function isDateShortcut(code: FilterOperatorCode): code is DateShortcutCode {
  return BY_CODE.get(code.toLowerCase())?.arity === 'shortcut';
}
