import { z } from 'zod';
import { DATE_OUT_OF_RANGE_MESSAGE, formatByDateType, formatIsoDateTime, formatIsoDay, isoDateProblem, isoPartsToTime, isTimeInDateRange, parseIsoDateParts, readIsoDate, tryParseIsoDate } from '../helpers/iso-date.ts';
import { formatNumber } from '../helpers/number-format.ts';
import { roundHalfAwayFromZero } from '../helpers/round.ts';
import type { TDataControl } from '../page-definition.ts';
import { plainTextToRichText, RICH_TEXT_MAX_LENGTH, richTextToPlain } from './rich-text.ts';
import type { ControlBehaviour, DisplayOptions, ParseResult, SelectionItem } from './control-types.ts';

// The behaviours shared by several control type codes (text, numbers, dates, lists, pickers).
// The registry (registry.ts) maps each code to one of these; nothing else switches on codes.

const ok = (value: unknown): ParseResult => ({ ok: true, value });
const fail = (message: string): ParseResult => ({ ok: false, message });
const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
const yesNo = (b: boolean, o: DisplayOptions) => (o.locale === 'en-US' ? (b ? 'Yes' : 'No') : b ? '是' : '否');

/** Parses `1,234.5`, ` 12 `, numbers; rejects anything else. */
function toNumber(input: unknown): number | null {
  if (typeof input === 'number') return Number.isFinite(input) ? input : null;
  if (typeof input !== 'string') return null;
  const text = input.trim().replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** Option labels when `options` is a list of `{ label, value }` (drop-down style controls). */
function optionLabel(control: TDataControl, value: unknown): string {
  const options = Array.isArray(control.options) ? control.options : [];
  for (const option of options) {
    if (option && typeof option === 'object' && 'value' in option && String((option as { value: unknown }).value) === String(value)) {
      const label = (option as { label?: unknown }).label;
      if (typeof label === 'string') return label;
    }
  }
  return String(value);
}

const maxText = (max: number) => z.string().max(max, `Expected text of at most ${max} characters`);

export const textKind: ControlBehaviour = {
  schema: maxText(100_000),
  parse: (input) => (isBlank(input) ? ok('') : typeof input === 'string' || typeof input === 'number' ? ok(String(input)) : fail('Expected text')),
  format: (value, control) => (isBlank(value) ? '' : Array.isArray(control.options) ? optionLabel(control, value) : String(value)),
  defaultValue: (control) => (typeof control.defaultValue === 'string' ? control.defaultValue : ''),
};

export const integerKind: ControlBehaviour = {
  schema: z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  parse: (input) => {
    if (isBlank(input)) return ok(0);
    const n = toNumber(input);
    if (n === null || !Number.isSafeInteger(n)) return fail('Expected a whole number');
    return ok(n);
  },
  format: (value) => formatNumber(toNumber(value), 0),
  defaultValue: (control) => {
    const n = toNumber(control.defaultValue);
    return n !== null && Number.isSafeInteger(n) ? n : 0;
  },
  accuracy: () => 0,
};

const accuracyOf = (control: TDataControl) => {
  const a = control.extraProperties?.accuracy;
  return typeof a === 'number' && a >= 0 && a <= 10 ? a : null;
};

/** A decimal kind whose accuracy (decimal places) is `accuracy(control)`, null for as typed. */
const decimalWith = (accuracy: (control: TDataControl) => number | null): ControlBehaviour => ({
  // Money travels as a number or as decimal text (never floats in the database: the server binds text).
  schema: z.union([z.number().refine(Number.isFinite), z.string().regex(/^[+-]?\d+(\.\d+)?$/)]),
  parse: (input, control) => {
    if (isBlank(input)) return ok(0);
    const n = toNumber(input);
    if (n === null) return fail('Expected a number');
    const places = accuracy(control);
    return ok(places === null ? n : roundHalfAwayFromZero(n, places));
  },
  format: (value, control) => formatNumber(toNumber(value), accuracy(control)),
  defaultValue: (control) => toNumber(control.defaultValue) ?? 0,
  accuracy,
});

export const decimalKind = decimalWith(accuracyOf);

/** 1015 currency amount: a decimal of 2 places unless the designer sets others. */
export const currencyKind = decimalWith((control) => accuracyOf(control) ?? 2);

/** 1011 multi-line text: text that keeps its line breaks. */
export const multilineTextKind: ControlBehaviour = { ...textKind, multiline: true };

/** 1012 rich text: sanitised HTML (see rich-text.ts); read as plain text outside its editor. */
export const richTextKind: ControlBehaviour = {
  schema: maxText(RICH_TEXT_MAX_LENGTH),
  parse: textKind.parse,
  format: (value) => richTextToPlain(value),
  defaultValue: textKind.defaultValue,
  multiline: true,
  html: true,
  fromCell: plainTextToRichText,
};

const dateTypeOf = (control: TDataControl) => control.extraProperties?.dateType ?? 2;

export const dateKind: ControlBehaviour = {
  schema: z
    .string()
    .superRefine((s, ctx) => {
      const read = readIsoDate(s);
      if (!read.ok) ctx.addIssue({ code: 'custom', message: read.message });
    })
    .nullable(),
  parse: (input, control, options) => {
    if (isBlank(input)) return ok(null);
    // Year-month text for dateType 1 pickers is ISO 8601 reduced precision.
    const text = typeof input === 'string' && /^\d{4}-\d{2}$/.test(input.trim()) ? `${input.trim()}-01` : input;
    const offset = options.offsetMinutes ?? 0;
    const parts = typeof text === 'string' ? parseIsoDateParts(text) : null;
    if (!parts) return fail(isoDateProblem(text));
    const date = new Date(isoPartsToTime(parts, offset));
    // Years 1–9999 as the caller sees the date; a date-time is stored as that instant, which must
    // be in range too (a date-only value is stored as its day's UTC midnight).
    const wallInRange = isTimeInDateRange(date.getTime() + offset * 60_000);
    if (!wallInRange || (dateTypeOf(control) === 3 && !isTimeInDateRange(date.getTime()))) return fail(DATE_OUT_OF_RANGE_MESSAGE);
    if (dateTypeOf(control) === 3) return ok(formatIsoDateTime(date, offset));
    const day = formatIsoDay(date, offset);
    return ok(dateTypeOf(control) === 1 ? `${day.slice(0, 7)}-01` : day);
  },
  format: (value, control, options) => {
    if (isBlank(value) || typeof value !== 'string') return '';
    const parts = parseIsoDateParts(value);
    const date = parts ? tryParseIsoDate(value) : null;
    if (!parts || !date) return '';
    // A calendar date without time is shown as written, whatever the viewer's zone.
    const offset = parts.hasTime ? (options.offsetMinutes ?? 0) : 0;
    return formatByDateType(date, dateTypeOf(control), offset);
  },
  defaultValue: (control, ctx) => {
    // spec §4: defaultValue 1 = the server's system date, formatted by dateType.
    if (String(control.defaultValue ?? '') !== '1') return null;
    return formatByDateType(ctx.now, dateTypeOf(control), ctx.offsetMinutes ?? 0);
  },
};

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', '是', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', '否', 'off', '']);

export const booleanKind: ControlBehaviour = {
  schema: z.boolean(),
  parse: (input) => {
    if (typeof input === 'boolean') return ok(input);
    if (input === null || input === undefined) return ok(false);
    const word = String(input).trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return ok(true);
    if (FALSE_WORDS.has(word)) return ok(false);
    return fail('Expected true or false');
  },
  format: (value, _control, options) => yesNo(value === true || value === 'true', options),
  // spec §4: the text 'true' means true.
  defaultValue: (control) => control.defaultValue === 'true' || control.defaultValue === true,
};

export const listKind: ControlBehaviour = {
  schema: z.array(z.union([z.string(), z.number()])).max(10_000),
  parse: (input) => {
    if (isBlank(input)) return ok([]);
    if (Array.isArray(input)) {
      return input.every((v) => typeof v === 'string' || typeof v === 'number') ? ok(input.map(String)) : fail('Expected a list of values');
    }
    if (typeof input === 'string') {
      const text = input.trim();
      if (text.startsWith('[')) {
        try {
          return listKind.parse(JSON.parse(text), {} as TDataControl, {});
        } catch {
          return fail('Expected a list of values');
        }
      }
      return ok(text.split(',').map((s) => s.trim()).filter(Boolean));
    }
    return fail('Expected a list of values');
  },
  format: (value, control) => (Array.isArray(value) ? value.map((v) => optionLabel(control, v)).join(', ') : ''),
  defaultValue: () => [],
};

/** 1010 lookup / open-data and 3001/3002 ids: an id (or JSON text) or null. */
export const idKind: ControlBehaviour = {
  schema: z.string().max(4000).nullable(),
  parse: (input) => (isBlank(input) ? ok(null) : typeof input === 'string' || typeof input === 'number' ? ok(String(input)) : fail('Expected an id')),
  format: (value) => (isBlank(value) ? '' : String(value)),
  defaultValue: (control, ctx) => {
    const item = pickerDefault(control, ctx);
    return item ? item.id : null;
  },
};

function pickerDefault(control: TDataControl, ctx: Parameters<ControlBehaviour['defaultValue']>[1]): SelectionItem | null {
  // spec §4: picker default 2 = current user, 3 = current user's organisation unit.
  const code = String(control.defaultValue ?? '');
  if (code === '2' && ctx.currentUser) return { id: ctx.currentUser.id, title: ctx.currentUser.title, type: 3 };
  if (code === '3' && ctx.currentOrgUnit) return { id: ctx.currentOrgUnit.id, title: ctx.currentOrgUnit.title, type: 1 };
  return null;
}

/** A value stored as JSON text (or given as the parsed value itself); undefined for text that is not JSON. */
function jsonOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

const ZSelectionItems = z.array(z.looseObject({ id: z.string(), title: z.string().optional(), type: z.number().optional() }));

/** Reads a 4001 picker value (JSON text of selection items, or the items themselves). */
export function readSelectionItems(value: unknown): SelectionItem[] {
  const parsed = ZSelectionItems.safeParse(jsonOf(value));
  return parsed.success ? parsed.data.map((i) => ({ id: i.id, title: i.title ?? '', ...(i.type === undefined ? {} : { type: i.type }) })) : [];
}

/** 4001 user/org picker: stored as JSON text of `[{ id, title, type }]` (spec §4 default `'[]'`). */
export const pickerKind: ControlBehaviour = {
  schema: z.string().refine((s) => {
    try {
      return ZSelectionItems.safeParse(JSON.parse(s)).success;
    } catch {
      return false;
    }
  }, 'Expected a JSON list of selection items'),
  parse: (input) => {
    if (isBlank(input)) return ok('[]');
    const items = Array.isArray(input) ? ZSelectionItems.safeParse(input) : null;
    if (items?.success) return ok(JSON.stringify(items.data));
    if (typeof input === 'string' && pickerKind.schema.safeParse(input).success) return ok(input);
    return fail('Expected a list of selection items');
  },
  format: (value) => readSelectionItems(value).map((i) => i.title).join(', '),
  defaultValue: (control, ctx) => {
    const item = pickerDefault(control, ctx);
    return item ? JSON.stringify([item]) : '[]';
  },
};

/** One uploaded file in a 1013 attachment or 1014 image value (the files module holds the bytes). */
export interface FileRef {
  id: string;
  name: string;
  size: number;
  type: string;
}

const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ZFileRefs = z
  .array(z.object({ id: z.string().regex(FILE_ID), name: z.string().min(1).max(255), size: z.number().int().min(0), type: z.string().max(255) }))
  .max(100)
  .refine((files) => new Set(files.map((f) => f.id.toLowerCase())).size === files.length, 'A file appears twice');
const DEFAULT_MAX_FILES = 10;

/** `extraProperties.maxFiles` of an attachment or image control (1–100, default 10). */
export function maxFilesOf(control: Pick<TDataControl, 'extraProperties'>): number {
  const n = Number((control.extraProperties as { maxFiles?: unknown } | null | undefined)?.maxFiles);
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : DEFAULT_MAX_FILES;
}

/** Reads an attachment or image value (JSON text of file references, or the list itself); [] when malformed. */
export function readFileRefs(value: unknown): FileRef[] {
  const parsed = ZFileRefs.safeParse(jsonOf(value));
  return parsed.success ? parsed.data : [];
}

/** 1013 attachment / 1014 image: JSON text of `[{ id, name, size, type }]`, at most `maxFiles` entries. */
export const fileKind: ControlBehaviour = {
  schema: z.string().refine((s) => {
    try {
      return ZFileRefs.safeParse(JSON.parse(s)).success;
    } catch {
      return false;
    }
  }, 'Expected a JSON list of files'),
  parse: (input, control) => {
    if (isBlank(input)) return ok('[]');
    let raw = input;
    if (typeof input === 'string') {
      try {
        raw = JSON.parse(input);
      } catch {
        return fail('Expected a list of files');
      }
    }
    const files = ZFileRefs.safeParse(raw);
    if (!files.success) return fail('Expected a list of files');
    if (files.data.length > maxFilesOf(control)) return fail('Too many files');
    return ok(JSON.stringify(files.data.map((f) => ({ id: f.id.toLowerCase(), name: f.name, size: f.size, type: f.type }))));
  },
  format: (value) => readFileRefs(value).map((f) => f.name).join(', '),
  defaultValue: () => '[]',
};
