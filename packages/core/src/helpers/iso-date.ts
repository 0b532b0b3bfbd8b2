// spec §5: date conversion accepts only ISO 8601; anything else is an error with this exact text.
export const INVALID_ISO_DATE_MESSAGE = 'Invalid ISO 8601 date format';
/** Dates are years 1–9999 (PostgreSQL has no year 0, and ISO text four digits), also after a zone shift or day arithmetic. */
export const DATE_OUT_OF_RANGE_MESSAGE = 'Dates must be in the years 1 to 9999';

const utcMs = (year: number, month0: number, day: number, h = 0, m = 0, s = 0, ms = 0) => {
  // setUTCFullYear rather than Date.UTC: the latter maps years 0..99 to 1900..1999.
  const d = new Date(0);
  d.setUTCFullYear(year, month0, day);
  d.setUTCHours(h, m, s, ms);
  return d.getTime();
};
/** 0001-01-01T00:00:00.000Z, the first instant of the date range. */
export const MIN_DATE_MS = utcMs(1, 0, 1);
/** 9999-12-31T23:59:59.999Z, the last instant of the date range. */
export const MAX_DATE_MS = utcMs(9999, 11, 31, 23, 59, 59, 999);

/** True for a finite time (ms since the epoch) in the years 1–9999 (UTC). */
export const isTimeInDateRange = (ms: number): boolean => Number.isFinite(ms) && ms >= MIN_DATE_MS && ms <= MAX_DATE_MS;

// Calendar date, optionally with time (T or space), fraction and zone (Z or ±hh:mm / ±hhmm / ±hh).
const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

export interface IsoDateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Offset from UTC in minutes; null when the text carries no zone (local/floating time). */
  offsetMinutes: number | null;
  hasTime: boolean;
}

const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Parses the parts of an ISO 8601 date or date-time, or returns null. Checks calendar validity. */
export function parseIsoDateParts(text: string): IsoDateParts | null {
  const m = ISO_PATTERN.exec(text.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const hour = m[4] ? Number(m[4]) : 0;
  const minute = m[5] ? Number(m[5]) : 0;
  const second = m[6] ? Number(m[6]) : 0;
  const millisecond = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 24 || minute > 59 || second > 59 || (hour === 24 && (minute || second || millisecond))) return null;
  let offsetMinutes: number | null = null;
  if (m[8]) {
    if (m[8] === 'Z') offsetMinutes = 0;
    else {
      const digits = m[8].slice(1).replace(':', '');
      const oh = Number(digits.slice(0, 2));
      const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
      if (oh > 23 || om > 59) return null;
      offsetMinutes = (m[8][0] === '-' ? -1 : 1) * (oh * 60 + om);
    }
  }
  return { year, month, day, hour, minute, second, millisecond, offsetMinutes, hasTime: m[4] !== undefined };
}

/**
 * Parses ISO 8601 text into a Date; throws `Error('Invalid ISO 8601 date format')` otherwise.
 * Text without a zone is read in `defaultOffsetMinutes` (UTC unless given), so results never depend
 * on the machine's zone.
 */
export function parseIsoDate(text: unknown, defaultOffsetMinutes = 0): Date {
  const result = readIsoDate(text, defaultOffsetMinutes);
  if (!result.ok) throw new Error(result.message);
  return result.date;
}

/**
 * Reads ISO 8601 text as `parseIsoDate` does, without throwing: the instant, or why not — not ISO
 * 8601 (`INVALID_ISO_DATE_MESSAGE`), or an instant outside the years 1–9999
 * (`DATE_OUT_OF_RANGE_MESSAGE`; e.g. `0001-01-01T00:00+08:00`, the last hours of year 0).
 */
export function readIsoDate(text: unknown, defaultOffsetMinutes = 0): { ok: true; date: Date } | { ok: false; message: string } {
  const parts = typeof text === 'string' ? parseIsoDateParts(text) : null;
  if (!parts) return { ok: false, message: isoDateProblem(text) };
  const date = new Date(isoPartsToTime(parts, defaultOffsetMinutes));
  return isTimeInDateRange(date.getTime()) ? { ok: true, date } : { ok: false, message: DATE_OUT_OF_RANGE_MESSAGE };
}

/** Why text that `parseIsoDateParts` refused is no date: year 0000 is out of range, the rest not ISO 8601. */
export const isoDateProblem = (text: unknown): string =>
  typeof text === 'string' && /^\s*0000-\d{2}-\d{2}(?:$|[T ])/.test(text) ? DATE_OUT_OF_RANGE_MESSAGE : INVALID_ISO_DATE_MESSAGE;

/**
 * The instant (ms since the epoch) of parsed ISO parts; text without a zone is read at
 * `defaultOffsetMinutes`. Not range-checked: a zone can move it just outside the years 1–9999.
 */
export function isoPartsToTime(parts: IsoDateParts, defaultOffsetMinutes = 0): number {
  const offset = parts.offsetMinutes ?? defaultOffsetMinutes;
  return utcMs(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute - offset, parts.second, parts.millisecond);
}

/** Non-throwing variant: the Date, or null for anything that is not ISO 8601. */
export function tryParseIsoDate(text: unknown, defaultOffsetMinutes = 0): Date | null {
  const result = readIsoDate(text, defaultOffsetMinutes);
  return result.ok ? result.date : null;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Date/time fields of `date` as seen at `offsetMinutes` from UTC. */
function fieldsAt(date: Date, offsetMinutes: number) {
  const d = new Date(date.getTime() + offsetMinutes * 60_000);
  return {
    Y: d.getUTCFullYear(), M: d.getUTCMonth() + 1, D: d.getUTCDate(),
    h: d.getUTCHours(), m: d.getUTCMinutes(), s: d.getUTCSeconds(), ms: d.getUTCMilliseconds(),
  };
}

/** `YYYY-MM-DD` of `date` at the given UTC offset. */
export function formatIsoDay(date: Date, offsetMinutes = 0): string {
  const f = fieldsAt(date, offsetMinutes);
  return `${pad(f.Y, 4)}-${pad(f.M)}-${pad(f.D)}`;
}

/** Full ISO 8601 with zone, e.g. `2024-03-05T08:00:00.000+08:00`. */
export function formatIsoDateTime(date: Date, offsetMinutes = 0): string {
  const f = fieldsAt(date, offsetMinutes);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const zone = offsetMinutes === 0 ? 'Z' : `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${pad(f.Y, 4)}-${pad(f.M)}-${pad(f.D)}T${pad(f.h)}:${pad(f.m)}:${pad(f.s)}.${pad(f.ms, 3)}${zone}`;
}

/**
 * Display text by the spec's dateType: 1 year-month (`YYYY-MM`), 2 year-month-day (`YYYY-MM-DD`),
 * 3 full date-time (`YYYY-MM-DD HH:mm:ss`). Unknown types fall back to 2.
 */
export function formatByDateType(date: Date, dateType: number | null | undefined, offsetMinutes = 0): string {
  const f = fieldsAt(date, offsetMinutes);
  const day = `${pad(f.Y, 4)}-${pad(f.M)}`;
  if (dateType === 1) return day;
  if (dateType === 3) return `${day}-${pad(f.D)} ${pad(f.h)}:${pad(f.m)}:${pad(f.s)}`;
  return `${day}-${pad(f.D)}`;
}
