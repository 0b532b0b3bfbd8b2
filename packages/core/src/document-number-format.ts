/**
 * Document numbers (spec §4, `/dataSet/documentNumber`): pure formatting shared by the server
 * (issuing) and the rule editor (live preview). No I/O: the counter lives in the database.
 *
 * A rule is an ordered list of segments — fixed text, a date in a pattern, exactly one serial,
 * record fields — and a reset period. The serial counts per period; the period key comes from the
 * same clock and time zone as the date segments, so a number always carries its period.
 */

export type TResetPeriod = 'never' | 'yearly' | 'monthly' | 'daily';
export const RESET_PERIODS: readonly TResetPeriod[] = ['never', 'yearly', 'monthly', 'daily'];

export type TDocumentNumberSegment =
  | { type: 'text'; value: string }
  | { type: 'date'; pattern: string }
  | { type: 'serial'; width: number; start: number; step: number }
  | { type: 'field'; fieldCode: string };

export interface TDocumentNumberFormat {
  resetPeriod: TResetPeriod;
  /** IANA zone for dates and periods (`Asia/Shanghai`); null = the server's zone. */
  timeZone?: string | null;
  segments: TDocumentNumberSegment[];
}

/** Date tokens: yyyy yy MM dd HH mm ss, joined by - / . _ space or nothing. */
export const DATE_PATTERN = /^(?:yyyy|yy|MM|dd|HH|mm|ss|[-/._ ])+$/;
const DATE_TOKEN = /yyyy|yy|MM|dd|HH|mm|ss|[-/._ ]/g;
export const MAX_SEGMENTS = 20;
export const MAX_DOC_NO_LENGTH = 100;
/** A record field's value is cut to this many characters inside a number. */
export const MAX_FIELD_VALUE_LENGTH = 40;

export interface DateParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string | null | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timeZone ?? undefined,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(key, f);
  }
  return f;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock parts of `date` in `timeZone` (the server's zone when null). */
export function dateParts(date: Date, timeZone?: string | null): DateParts {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(date)) parts[p.type] = p.value;
  return {
    year: (parts.year ?? '').padStart(4, '0'),
    month: parts.month ?? '01',
    day: parts.day ?? '01',
    hour: parts.hour === '24' ? '00' : (parts.hour ?? '00'),
    minute: parts.minute ?? '00',
    second: parts.second ?? '00',
  };
}

export function formatDatePattern(pattern: string, p: DateParts): string {
  return pattern.replace(DATE_TOKEN, (token) => {
    switch (token) {
      case 'yyyy':
        return p.year;
      case 'yy':
        return p.year.slice(-2);
      case 'MM':
        return p.month;
      case 'dd':
        return p.day;
      case 'HH':
        return p.hour;
      case 'mm':
        return p.minute;
      case 'ss':
        return p.second;
      default:
        return token;
    }
  });
}

/** The counter's period: one counter row per rule and period key. */
export function periodKey(resetPeriod: TResetPeriod, p: DateParts): string {
  switch (resetPeriod) {
    case 'yearly':
      return p.year;
    case 'monthly':
      return `${p.year}${p.month}`;
    case 'daily':
      return `${p.year}${p.month}${p.day}`;
    default:
      return 'all';
  }
}

/** The n-th serial of a period (n from 1): start, start+step, …, zero-padded to the width (never cut). */
export function serialText(segment: { width: number; start: number; step: number }, n: number): string {
  return String(segment.start + (n - 1) * segment.step).padStart(segment.width, '0');
}

function fieldText(record: Record<string, unknown> | undefined, fieldCode: string, placeholder: boolean): string {
  const value = record ? record[fieldCode] : undefined;
  if (value === undefined || value === null || value === '') return placeholder ? `{${fieldCode}}` : '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  // Control characters never reach a number.
  return text.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, MAX_FIELD_VALUE_LENGTH);
}

export interface FormatContext {
  now: Date;
  record?: Record<string, unknown>;
  /** Show `{fieldCode}` for a field the record does not have (the editor's preview). */
  fieldPlaceholders?: boolean;
}

/**
 * Everything of a number except the serial, fixed before the counter is touched: the text around
 * the serial and the period key. Issuing holds the counter row's lock only for the increment.
 */
export function prepareDocumentNumber(format: TDocumentNumberFormat, ctx: FormatContext) {
  const parts = dateParts(ctx.now, format.timeZone);
  let before = '';
  let after = '';
  let serial: Extract<TDocumentNumberSegment, { type: 'serial' }> | null = null;
  for (const segment of format.segments) {
    let piece = '';
    if (segment.type === 'text') piece = segment.value;
    else if (segment.type === 'date') piece = formatDatePattern(segment.pattern, parts);
    else if (segment.type === 'field') piece = fieldText(ctx.record, segment.fieldCode, !!ctx.fieldPlaceholders);
    else if (!serial) {
      serial = segment;
      continue;
    }
    if (serial) after += piece;
    else before += piece;
  }
  if (!serial) throw new Error('A document-number rule needs a serial segment');
  const found = serial;
  return {
    periodKey: periodKey(format.resetPeriod, parts),
    /** The number for the n-th serial of the period. */
    format: (n: number) => `${before}${serialText(found, n)}${after}`,
    /** The pieces of `format` (the server formats the number inside its one-statement reservation). */
    pieces: { before, after, serial: { width: found.width, start: found.start, step: found.step } },
  };
}

/** The next `count` numbers after `issued` numbers in the current period, without consuming any. */
export function previewDocumentNumbers(format: TDocumentNumberFormat, ctx: FormatContext & { issued: number; count?: number }) {
  const prepared = prepareDocumentNumber(format, ctx);
  return {
    periodKey: prepared.periodKey,
    numbers: Array.from({ length: ctx.count ?? 3 }, (_, i) => prepared.format(ctx.issued + i + 1)),
  };
}

export interface RuleIssue {
  message: string;
  path: (string | number)[];
}

const GRANULARITY: Record<TResetPeriod, ('year' | 'month' | 'day')[]> = {
  never: [],
  yearly: ['year'],
  monthly: ['year', 'month'],
  daily: ['year', 'month', 'day'],
};

/**
 * Rules a format must follow beyond field shapes: exactly one serial, and a reset period the date
 * segments show — a daily counter without the day in the number would repeat numbers every day.
 */
export function checkDocumentNumberFormat(format: TDocumentNumberFormat): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const serials = format.segments.map((s, i) => (s.type === 'serial' ? i : -1)).filter((i) => i >= 0);
  if (serials.length === 0) issues.push({ message: 'A rule needs one serial-number segment', path: ['segments'] });
  for (const i of serials.slice(1)) issues.push({ message: 'A rule has exactly one serial-number segment', path: ['segments', i] });
  const tokens = new Set(
    format.segments.flatMap((s) => (s.type === 'date' ? (s.pattern.match(DATE_TOKEN) ?? []) : [])),
  );
  const shown = { year: tokens.has('yyyy') || tokens.has('yy'), month: tokens.has('MM'), day: tokens.has('dd') };
  const missing = GRANULARITY[format.resetPeriod].filter((g) => !shown[g]);
  if (missing.length) {
    issues.push({
      message: `A ${format.resetPeriod} reset needs a date segment showing the ${missing.join(', ')} (e.g. ${
        format.resetPeriod === 'yearly' ? 'yyyy' : format.resetPeriod === 'monthly' ? 'yyyyMM' : 'yyyyMMdd'
      })`,
      path: ['resetPeriod'],
    });
  }
  if (format.timeZone && !isValidTimeZone(format.timeZone)) issues.push({ message: 'Unknown time zone', path: ['timeZone'] });
  if (issues.length === 0) {
    // The longest number this rule can make, with 12-digit serials and full field values.
    const longest = format.segments.reduce((n, s) => {
      if (s.type === 'text') return n + s.value.length;
      if (s.type === 'date') return n + s.pattern.length;
      if (s.type === 'field') return n + MAX_FIELD_VALUE_LENGTH;
      return n + Math.max(s.width, 12);
    }, 0);
    if (longest > MAX_DOC_NO_LENGTH) {
      issues.push({ message: `Numbers could be longer than ${MAX_DOC_NO_LENGTH} characters`, path: ['segments'] });
    }
  }
  return issues;
}
