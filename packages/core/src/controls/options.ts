import { ZSourceQueryRef, type TDataControl, type TSourceQueryRef } from '../page-definition.ts';

// The one rule for controls whose values come from options (spec §3 `options`): a static list of
// `{ label, value }` (or plain values), a business dictionary (`{ dictionaryCode }`), or a saved
// query of a data source (`extraProperties.sourceQuery`). A value —
// each value of a list control — must be one the caller may choose, or one the record already
// holds (a disabled dictionary item, or an option the designer removed, stays on the records that
// hold it but is not newly chosen). Empty values are left to `required`.

export type ControlOptionSource = { kind: 'list'; values: ReadonlySet<string> } | { kind: 'dictionary'; code: string } | { kind: 'query'; query: TSourceQueryRef };

/** A control's saved query of a data source (`extraProperties.sourceQuery`, issue 16), or null. */
export function controlSourceQuery(control: Pick<TDataControl, 'extraProperties'>): TSourceQueryRef | null {
  const parsed = ZSourceQueryRef.safeParse((control.extraProperties as { sourceQuery?: unknown } | null | undefined)?.sourceQuery);
  return parsed.success ? parsed.data : null;
}

/**
 * A control's default from a saved query of a data source (`extraProperties.defaultSourceQuery`,
 * issue 16): a new record takes the `valueColumn` of the query's first row, or null.
 */
export function controlDefaultQuery(control: Pick<TDataControl, 'extraProperties'>): TSourceQueryRef | null {
  const parsed = ZSourceQueryRef.safeParse((control.extraProperties as { defaultSourceQuery?: unknown } | null | undefined)?.defaultSourceQuery);
  return parsed.success ? parsed.data : null;
}

/** Where a control's options come from, or null for a control that takes any value. A saved query of a data source comes first. */
export function controlOptionSource(control: Pick<TDataControl, 'options' | 'extraProperties'>): ControlOptionSource | null {
  const query = controlSourceQuery(control);
  if (query) return { kind: 'query', query };
  const options = control.options;
  if (Array.isArray(options)) {
    const values = new Set<string>();
    for (const o of options) {
      if (o && typeof o === 'object' && 'value' in o) values.add(String((o as { value: unknown }).value));
      else if (typeof o === 'string' || typeof o === 'number') values.add(String(o));
    }
    return { kind: 'list', values };
  }
  const code = options && typeof options === 'object' ? (options as { dictionaryCode?: unknown }).dictionaryCode : undefined;
  return typeof code === 'string' && code ? { kind: 'dictionary', code } : null;
}

const valuesOf = (v: unknown): string[] => {
  if (v === null || v === undefined || v === '') return [];
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== undefined && x !== '').map(String);
  return [String(v)];
};

/**
 * The values of `value` (one, or each of a list) that are neither in `choosable` nor held by the
 * stored record (`held`, its value before this save); empty when the value is allowed.
 */
export function valuesOutsideOptions(value: unknown, choosable: ReadonlySet<string>, held?: unknown): string[] {
  const kept = new Set(valuesOf(held));
  return valuesOf(value).filter((v) => !choosable.has(v) && !kept.has(v));
}
