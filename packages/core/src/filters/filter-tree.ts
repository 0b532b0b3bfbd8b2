import type { TableFieldType } from '../page-definition.ts';
import type { DateShortcutCode, TreeOperatorCode } from './operators.ts';

// The validated filter tree: what the JavaScript predicate (here) and the server's Kysely
// compiler both consume. Deliberately small:
//   - the root is always an AND/OR group (an empty group matches every row);
//   - a condition names an allow-listed field, its table field type, one operator from the
//     operator table and its typed operands;
//   - date shortcuts and date-only comparisons are already resolved to instants (ISO 8601 with
//     `Z`), so back ends never need a clock.

/** Operand types by field type: 1 and 6 string, 2 and 3 number, 4 ISO instant string, 5 boolean. */
export type FilterScalar = string | number | boolean;

export interface FilterConditionNode {
  kind: 'condition';
  /** Column / control code, from the caller's allow-list. */
  field: string;
  fieldType: TableFieldType;
  operator: TreeOperatorCode;
  /**
   * `isEmpty`/`isNotEmpty`: none; comparisons, contains, starts/ends with: one; `between`: two
   * (inclusive); `in`/`notIn`: one or more.
   */
  operands: FilterScalar[];
  /** Where it came from, for messages and audit. */
  source: { index: number; sortNo: number | null; isSys: boolean; shortcut?: DateShortcutCode };
}

export interface FilterGroupNode {
  kind: 'group';
  link: 'and' | 'or';
  children: FilterNode[];
}

export type FilterNode = FilterConditionNode | FilterGroupNode;

/** Same shape as the API's `validationErrors` items. */
export interface FilterValidationError {
  message: string;
  members: string[];
}

export type FilterParseResult = { ok: true; tree: FilterGroupNode } | { ok: false; errors: FilterValidationError[] };

/** A field a filter may use: the view's allow-list. */
export interface FilterField {
  code: string;
  tableFieldType: TableFieldType;
}
