/**
 * Step 5, validation: every value of every row is checked once, after numbers and linkages (type,
 * required, length, range). Any problem — these or the parse step's — is one 400 listing them all,
 * and nothing is written.
 */
import { ControlTypeId, validateControlValue } from '@tessera/core/controls/registry';
import type { ValidationErrorItem } from '../../../platform/errors.ts';
import { bizInvalid, type Translate } from '../business-data.messages.ts';
import type { RuntimePage, RuntimeView } from '../runtime-page.ts';
import { extra, isBlank, type PageRows, type Rec } from './model.ts';

/** The problems of one row's values, added to `errors` (a field already reported is not reported again). */
export function validateRow(t: Translate, view: RuntimeView, row: Rec, member: string, errors: ValidationErrorItem[]): void {
  const reported = new Set(errors.flatMap((e) => e.members));
  for (const c of view.controls) {
    const value = row[c.code];
    const title = c.control.title || c.code;
    const at = [`${member}.${c.code}`];
    if (reported.has(at[0])) continue;
    const problem = value === null || value === undefined ? null : validateControlValue(c.control, value);
    if (problem) {
      errors.push({ message: t('field.invalid', { title, message: problem }), members: at });
      continue;
    }
    const x = extra(c);
    const empty = isBlank(value) || (c.controlType === ControlTypeId.UserOrgPicker && value === '[]');
    if (x.required === true && empty) {
      errors.push({ message: t('field.required', { title }), members: at });
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
export function validatePage(t: Translate, page: RuntimePage, rows: PageRows, earlier: readonly ValidationErrorItem[] = []): void {
  const errors = [...earlier];
  for (const view of page.order) for (const row of rows.get(view.id) ?? []) validateRow(t, view, row.record, row.member, errors);
  if (errors.length) throw bizInvalid(t, errors);
}
