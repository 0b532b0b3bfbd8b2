import { operatorsForFieldType, type FilterOperator } from '../filters/operators.ts';
import type { TableFieldType, TDataControl } from '../page-definition.ts';
import type { DisplayOptions, ParseResult } from './control-types.ts';
import { getControlType, tableFieldTypeOf } from './control-table.ts';
import { findTextIssues, TEXT_RULE_MESSAGE } from '../contracts/text.ts';
import { excelNumberFormat, formatNumber } from '../helpers/number-format.ts';

export type { ControlType, DisplayOptions, DocumentNumberRequest, NewRecordContext, ParseResult, PendingValueRequest, SelectionItem, SourceDefaultRequest } from './control-types.ts';
export { CONTROL_TYPES, ControlTypeId, arrayCompanionCode, getControlType, isKnownControlType, tableFieldTypeOf } from './control-table.ts';
export { createNewRecord, type NewRecord } from './new-record.ts';
export { readSelectionItems } from './control-kinds.ts';
export { maxFilesOf, readFileRefs, type FileRef } from './control-kinds.ts';
export { controlDefaultQuery, controlOptionSource, controlSourceQuery, valuesOutsideOptions, type ControlOptionSource } from './options.ts';
export { plainTextToRichText, richTextToPlain, RICH_TEXT_MAX_LENGTH } from './rich-text.ts';

// Public entry of the control-type registry: column type, validation, parsing, display, defaults
// and filter operators of a data control, all looked up by its control type code.

/**
 * Parses a value sent for a control (save-page, save-view, the Excel import). Any kind refuses a
 * value holding ill-formed text (NUL, an unpaired surrogate), sent or produced by parsing.
 */
export function parseControlValue(control: TDataControl, input: unknown, options: DisplayOptions = {}): ParseResult {
  if (findTextIssues(input, { limit: 1 }).length) return { ok: false, message: TEXT_RULE_MESSAGE };
  const result = getControlType(control.controlType).parse(input, control, options);
  if (result.ok && findTextIssues(result.value, { limit: 1 }).length) return { ok: false, message: TEXT_RULE_MESSAGE };
  return result;
}

export function formatControlValue(control: TDataControl, value: unknown, options: DisplayOptions = {}): string {
  return getControlType(control.controlType).format(value, control, options);
}

/** Decimal places of a number control's values (integers 0, currency 2 by default); null for any other control, or a decimal without accuracy. */
export function numberAccuracyOf(control: TDataControl): number | null {
  return getControlType(control.controlType).accuracy?.(control) ?? null;
}

/**
 * The one number format (issue 12): a number control's value with thousands separators at its
 * accuracy (`1,234.50`), as lists, forms, grids and summaries show it; '' for what is not a number.
 */
export function formatNumberForControl(control: TDataControl, value: unknown): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.replace(/,/g, '')) : Number.NaN;
  return Number.isFinite(n) ? formatNumber(n, numberAccuracyOf(control)) : '';
}

/** Excel's number format of a number control's cell: the same display as `formatNumberForControl` (`#,##0.00`). */
export function excelNumberFormatOf(control: TDataControl, value: number): string {
  return excelNumberFormat(value, numberAccuracyOf(control));
}

/** Validates a stored value; returns an error message or null. */
export function validateControlValue(control: TDataControl, value: unknown): string | null {
  if (findTextIssues(value, { limit: 1 }).length) return TEXT_RULE_MESSAGE;
  const result = getControlType(control.controlType).schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid value');
}

/** spec §3: a 4001 picker picks users (3, the default), organisation units (1) or roles (4). */
export function pickerSelectionType(control: Pick<TDataControl, 'extraProperties'>): 1 | 3 | 4 {
  const type = Number((control.extraProperties as { selectionType?: unknown } | null | undefined)?.selectionType);
  return type === 1 || type === 4 ? type : 3;
}

/** Filter operators allowed for a table field type (spec: operator allowed for the field type). */
export function filterOperatorsForFieldType(fieldType: TableFieldType): FilterOperator[] {
  return operatorsForFieldType(fieldType);
}

export function filterOperatorsForControl(control: Pick<TDataControl, 'controlType'>): FilterOperator[] {
  return operatorsForFieldType(tableFieldTypeOf(control.controlType));
}
