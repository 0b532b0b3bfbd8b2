import type { TableFieldType } from '../page-definition.ts';
import { booleanKind, currencyKind, dateKind, decimalKind, fileKind, idKind, integerKind, listKind, multilineTextKind, pickerKind, richTextKind, textKind } from './control-kinds.ts';
import type { ControlBehaviour, ControlType, DocumentNumberRequest } from './control-types.ts';

// The table behind the control-type registry (spec §3): one entry per control type code.
// Everything that depends on a control's type asks this table; a new type is one more entry.

/** 2001: text, or a document number fetched on creation when docNoOccasion is 1 (spec §4). */
const documentNumberKind: ControlBehaviour = {
  ...textKind,
  defaultValue: (control, ctx): string | DocumentNumberRequest => {
    if (Number(control.docNoOccasion) === 1 && !control.parentDataControlId) {
      return { kind: 'fetchDocumentNumber', dataControlId: control.id, code: control.code };
    }
    return textKind.defaultValue(control, ctx) as string;
  },
};

type Entry = readonly [code: number, name: string, zh: string, en: string, fieldType: TableFieldType, behaviour: ControlBehaviour];
const ENTRIES = [
  [1001, 'text', '文本', 'Text', 1, textKind],
  // 1006/1007 are single-value text controls whose designer names the spec does not give.
  [1006, 'single-choice', '单选', 'Single choice', 1, textKind],
  [1007, 'single-choice-alt', '单选（按钮）', 'Single choice (buttons)', 1, textKind],
  [1002, 'integer', '整数', 'Integer', 2, integerKind],
  [1003, 'decimal', '小数', 'Decimal', 3, decimalKind],
  [1004, 'date', '日期', 'Date', 4, dateKind],
  [1005, 'boolean', '是否', 'Yes/No', 5, booleanKind],
  [1008, 'multi-select', '多选', 'Multiple choice', 1, listKind],
  [1009, 'multi-value', '多值列表', 'Multi-value list', 1, listKind],
  [1010, 'lookup', '打开数据', 'Lookup (open data)', 6, idKind],
  [1011, 'multiline-text', '多行文本', 'Multi-line text', 1, multilineTextKind],
  [1012, 'rich-text', '富文本', 'Rich text', 1, richTextKind],
  [1015, 'currency', '金额', 'Currency amount', 3, currencyKind],
  [1013, 'attachment', '附件', 'Attachment', 1, fileKind],
  [1014, 'image', '图片', 'Image', 1, fileKind],
  [2001, 'document-number', '文本/单据编号', 'Text / document number', 1, documentNumberKind],
  [3001, 'id', '标识', 'Id', 6, idKind],
  [3002, 'ids', '标识（多个）', 'Ids', 6, idKind],
  [4001, 'user-org-picker', '人员/组织选择', 'User / organisation picker', 1, pickerKind],
] as const satisfies readonly Entry[];

export const CONTROL_TYPES: ReadonlyMap<number, ControlType> = new Map(
  ENTRIES.map(([code, name, zh, en, tableFieldType, behaviour]) => [
    code,
    Object.freeze({ ...behaviour, code, name, zh, en, tableFieldType, hasArrayCompanion: code === 3001 || code === 3002 }),
  ]),
);

type PascalCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${PascalCase<Tail>}` : Capitalize<S>;
const pascalCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, _dash: string, c: string) => c.toUpperCase());

/**
 * The control type codes by name, from the table above (`document-number` → `DocumentNumber`):
 * `ControlTypeId.Decimal` instead of a bare 1003.
 */
export const ControlTypeId = Object.freeze(Object.fromEntries(ENTRIES.map(([code, name]) => [pascalCase(name), code]))) as {
  readonly [E in (typeof ENTRIES)[number] as PascalCase<E[1]>]: E[0];
};

/** Unknown codes behave as text (legacy pages may carry display-only control types). */
const FALLBACK: ControlType = Object.freeze({
  ...textKind, code: 0, name: 'unknown', zh: '未知', en: 'Unknown', tableFieldType: 1 as const, hasArrayCompanion: false,
});

export function getControlType(code: number | string | null | undefined): ControlType {
  return CONTROL_TYPES.get(Number(code)) ?? FALLBACK;
}

export function isKnownControlType(code: unknown): boolean {
  return CONTROL_TYPES.has(Number(code));
}

/** spec §3 table field type of a control type code (1 text for unknown codes). */
export function tableFieldTypeOf(code: number | string | null | undefined): TableFieldType {
  return getControlType(code).tableFieldType;
}

/** Record property holding the list companion of 3001/3002 controls. */
export const arrayCompanionCode = (code: string) => `${code}Array`;
