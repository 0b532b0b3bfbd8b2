/**
 * Step 5, validation: every value of every row is checked once, after numbers and linkages (type,
 * required, length, range, options). Any problem — these or the parse step's — is one 400 listing
 * them all, and nothing is written.
 */
import { ControlTypeId, controlOptionSource, valuesOutsideOptions, validateControlValue, type ControlOptionSource } from '@tessera/core/controls/registry';
import type { TDataControl } from '@tessera/core/page-definition';
import type { ValidationErrorItem } from '../../../platform/errors.ts';
import { bizInvalid, coreMessage, type Translate } from '../business-data.messages.ts';
import type { RuntimePage, RuntimeView } from '../runtime-page.ts';
import type { Choices } from './choices.ts';
import { extra, isBlank, type PageRows, type Rec } from './model.ts';

/** Controls storing JSON text of a list: `[]` is empty (a required one needs an item). */
const LIST_AS_JSON: ReadonlySet<number> = new Set([ControlTypeId.UserOrgPicker, ControlTypeId.Attachment, ControlTypeId.Image]);
const NO_CHOICES: Choices = { dictionaries: new Map(), lookups: new Map() };
const sources = new WeakMap<TDataControl, ControlOptionSource | null>();
/** A control's option source, worked out once per published control. */
function optionSourceOf(control: TDataControl): ControlOptionSource | null {
  let source = sources.get(control);
  if (source === undefined) sources.set(control, (source = controlOptionSource(control)));
  return source;
}

/**
 * The option rule (static lists, dictionaries, lookups and data-source queries alike): every value
 * is one the caller may choose or one the stored row already holds (`held`). A dictionary or
 * lookup missing from `choices` is not checked.
 */
function outsideOptions(control: TDataControl, value: unknown, choices: Choices, held: unknown): string[] {
  const source = optionSourceOf(control);
  if (Number(control.controlType) === ControlTypeId.Lookup || source?.kind === 'query') {
    const visible = choices.lookups.get(control.id);
    return visible ? valuesOutsideOptions(value, visible, held) : [];
  }
  if (!source) return [];
  const choosable = source.kind === 'list' ? source.values : choices.dictionaries.get(source.code);
  return choosable ? valuesOutsideOptions(value, choosable, held) : [];
}

/** The problems of one row's values, added to `errors` (a field already reported is not reported again). */
export function validateRow(t: Translate, view: RuntimeView, row: Rec, member: string, errors: ValidationErrorItem[], choices: Choices = NO_CHOICES, stored: Rec | null = null): void {
  const reported = new Set(errors.flatMap((e) => e.members));
  for (const c of view.controls) {
    const value = row[c.code];
    const title = c.control.title || c.code;
    const at = [`${member}.${c.code}`];
    if (reported.has(at[0])) continue;
    const problem = value === null || value === undefined ? null : validateControlValue(c.control, value);
    if (problem) {
      errors.push({ message: t('field.invalid', { title, message: coreMessage(t, problem) }), members: at });
      continue;
    }
    const x = extra(c);
    const empty = isBlank(value) || (LIST_AS_JSON.has(c.controlType) && value === '[]');
    if (x.required === true && empty) {
      errors.push({ message: t('field.required', { title }), members: at });
      continue;
    }
    const outside = empty ? [] : outsideOptions(c.control, value, choices, stored?.[c.code]);
    if (outside.length) {
      const values = outside.slice(0, 3).map((v) => `"${v.slice(0, 40)}"`).join(', ') + (outside.length > 3 ? ', …' : '');
      const key = c.controlType === ControlTypeId.Lookup ? 'field.notALookupRow' : 'field.notAnOption';
      errors.push({ message: t(key, { title, values }), members: at });
      continue;
    }
    if (typeof x.maxLength === 'number' && typeof value === 'string' && [...value].length > x.maxLength) {
      errors.push({ message: t('field.maxLength', { title, max: x.maxLength }), members: at });
    }
    if ((c.tableFieldType === 2 || c.tableFieldType === 3) && typeof value === 'number') {
      if (typeof x.min === 'number' && value < x.min) errors.push({ message: t('field.min', { title, min: x.min }), members: at });
      if (typeof x.max === 'number' && value > x.max) errors.push({ message: t('field.max', { title, max: x.max }), members: at });
    }
  }
}

/** Validates every row of the page; throws one 400 with `earlier` problems and these together. */
export function validatePage(t: Translate, page: RuntimePage, rows: PageRows, earlier: readonly ValidationErrorItem[] = [], choices: Choices = NO_CHOICES): void {
  const errors = [...earlier];
  for (const view of page.order) for (const row of rows.get(view.id) ?? []) validateRow(t, view, row.record, row.member, errors, choices, row.stored);
  if (errors.length) throw bizInvalid(t, errors);
}
