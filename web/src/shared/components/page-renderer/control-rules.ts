import { ControlTypeId, numberAccuracyOf, tableFieldTypeOf, validateControlValue } from '@tessera/core/controls/registry';
import { localizeCoreMessage } from '@tessera/core/messages/core-messages';
import { decimalPlaces } from '@tessera/core/helpers/round';
import type { TDataControl, TView } from '@tessera/core/page-definition';

// Validation settings a designer gives a data control (required / length / range), kept in
// extraProperties (`required`, `minLength`, `maxLength`, `min`, `max`; the control-designer
// palette's property keys) so old designs without them stay valid.

export interface ControlRules {
  required: boolean;
  minLength: number | null;
  maxLength: number | null;
  min: number | null;
  max: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

export function controlRules(control: TDataControl): ControlRules {
  const x = (control.extraProperties ?? {}) as Record<string, unknown>;
  return {
    required: x.required === true || x.required === 'true',
    minLength: num(x.minLength),
    maxLength: num(x.maxLength),
    min: num(x.min),
    max: num(x.max),
  };
}

/** The title in the viewer's language: extraProperties.titles holds the other languages. */
export function localizedTitle(item: { title?: string | null; code?: string | null; extraProperties?: unknown }, language: string): string {
  const titles = (item.extraProperties as { titles?: Record<string, string> } | null | undefined)?.titles;
  if (titles && typeof titles === 'object') {
    const text = titles[language] || titles[language.split('-')[0] ?? ''];
    if (text) return text;
  }
  return item.title || item.code || '';
}

export const viewTitle = (view: TView, language: string) => localizedTitle(view as { title: string; code: string; extraProperties?: unknown }, language);

export type RuleProblem =
  | { key: 'required' }
  | { key: 'minLength'; min: number }
  | { key: 'maxLength'; max: number }
  | { key: 'min'; min: number }
  | { key: 'max'; max: number }
  | { key: 'invalid'; message: string }
  | { key: 'wholeNumber' }
  | { key: 'decimals'; accuracy: number };

/**
 * A problem's text in `language`: the renderer's own texts by key; the core's value messages
 * (English, e.g. "Expected a whole number") translated like the server does.
 */
export function ruleProblemText(t: (key: string, options: Record<string, unknown>) => string, problem: RuleProblem, title: string, language: string): string {
  if (problem.key === 'invalid') return t(problem.key, { ...problem, message: localizeCoreMessage(problem.message, language), title });
  return t(problem.key, { ...problem, title });
}

/**
 * A number the field cannot hold as typed (issue 12): a fraction in an integer field, or more
 * decimals than a decimal field's accuracy — an error at the field, never silently rounded.
 */
export function numberProblem(control: TDataControl, value: unknown): RuleProblem | null {
  if (typeof value !== 'number') return null;
  const type = Number(control.controlType);
  if (type === ControlTypeId.Integer) return Number.isInteger(value) ? null : { key: 'wholeNumber' };
  if (tableFieldTypeOf(type) !== 3) return null;
  const accuracy = numberAccuracyOf(control);
  if (accuracy === null || accuracy < 0) return null;
  return decimalPlaces(value) > accuracy ? { key: 'decimals', accuracy } : null;
}

const isEmpty = (v: unknown) =>
  v === null || v === undefined || (typeof v === 'string' && (v.trim() === '' || v === '[]')) || (Array.isArray(v) && v.length === 0);

/** Checks one stored value against the control's type and rules; null when it is fine. */
export function checkControlValue(control: TDataControl, value: unknown): RuleProblem | null {
  const rules = controlRules(control);
  if (isEmpty(value)) return rules.required ? { key: 'required' } : null;
  const numberTypo = numberProblem(control, value);
  if (numberTypo) return numberTypo;
  const typeProblem = validateControlValue(control, value);
  if (typeProblem) return { key: 'invalid', message: typeProblem };
  if (typeof value === 'string') {
    if (rules.minLength !== null && value.length < rules.minLength) return { key: 'minLength', min: rules.minLength };
    if (rules.maxLength !== null && value.length > rules.maxLength) return { key: 'maxLength', max: rules.maxLength };
  }
  const n = typeof value === 'number' ? value : null;
  if (n !== null) {
    if (rules.min !== null && n < rules.min) return { key: 'min', min: rules.min };
    if (rules.max !== null && n > rules.max) return { key: 'max', max: rules.max };
  }
  return null;
}
