import { ITEM_CODE_PATTERN, type TDictionary, type TDictionaryItemInput } from '@tessera/core/contracts/dictionaries';
import type { TFunction } from 'i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import type { EditableItem } from './item-tree.ts';

let nextKey = 0;
export const newItemKey = () => `new-${++nextKey}`;

export const toEditable = (d: TDictionary): EditableItem[] =>
  d.items.map((i) => ({ key: i.id, id: i.id, code: i.code, label: i.label, parentCode: i.parentCode, isEnabled: i.isEnabled, color: i.color }));

const cleanLabel = (label: Record<string, string>) => Object.fromEntries(Object.entries(label).map(([c, v]) => [c, v.trim()]).filter(([, v]) => v));

export const toItemInput = (i: EditableItem, isTree: boolean): TDictionaryItemInput => ({
  ...(i.id ? { id: i.id } : {}),
  code: i.code,
  label: cleanLabel(i.label),
  parentCode: isTree ? i.parentCode : null,
  isEnabled: i.isEnabled,
  color: i.color,
});

/** The checks the server makes on items, per item key, so most mistakes show before saving. */
export function checkItems(items: EditableItem[], t: TFunction): Map<string, string[]> {
  const errors = new Map<string, string[]>();
  const add = (key: string, message: string) => errors.set(key, [...(errors.get(key) ?? []), message]);
  const seen = new Set<string>();
  for (const i of items) {
    if (!i.code) add(i.key, t('items.codeRequired'));
    else if (!ITEM_CODE_PATTERN.test(i.code)) add(i.key, t('items.codeInvalid'));
    else if (seen.has(i.code)) add(i.key, t('items.codeDuplicate', { code: i.code }));
    seen.add(i.code);
    if (!Object.values(i.label).some((v) => v.trim())) add(i.key, t('items.labelRequired'));
  }
  return errors;
}

/**
 * A 400's errors split into the dictionary's own fields (`code`, `title`…) and items
 * (`items.N.*` → the N-th submitted item's key).
 */
export function splitServerErrors(err: unknown, submitted: EditableItem[]) {
  const fields = new Map<string, string[]>();
  const items = new Map<string, string[]>();
  const general: string[] = [];
  if (!(err instanceof ApiError) || err.status !== 400) return { fields, items, general };
  // `items.N.…` names the N-th submitted item; `items` alone, or an item not submitted, is general.
  const mapped = mapValidationErrors(err.validationErrors, {
    field: (path) => (path[0] !== 'items' ? path.slice(0, 1) : typeof path[1] === 'number' && submitted[path[1]] ? path.slice(0, 2) : undefined),
  });
  for (const { name, errors } of mapped.fields) {
    if (name[0] === 'items') items.set(submitted[name[1] as number]!.key, errors);
    else fields.set(String(name[0]), errors);
  }
  general.push(...mapped.general);
  if (!fields.size && !items.size && !general.length) general.push(err.message);
  return { fields, items, general };
}
