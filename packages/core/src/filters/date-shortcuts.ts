import type { DateShortcutCode } from './operators.ts';

// Date shortcuts resolved against a supplied clock, in the user's zone. Weeks start on Monday
// (the Chinese calendar convention). Ranges are half-open: [from, to).

const DAY = 86_400_000;

export interface DateRange {
  /** Inclusive start, ISO 8601 instant. */
  from: string;
  /** Exclusive end, ISO 8601 instant. */
  to: string;
}

/** Instant of local midnight of (year, month0, day) at `offsetMinutes`. */
function localMidnight(year: number, month0: number, day: number, offsetMinutes: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month0, day);
  return d.getTime() - offsetMinutes * 60_000;
}

export function resolveDateShortcut(code: DateShortcutCode, now: Date, offsetMinutes = 0): DateRange {
  const wall = new Date(now.getTime() + offsetMinutes * 60_000);
  const y = wall.getUTCFullYear();
  const m = wall.getUTCMonth();
  const d = wall.getUTCDate();
  const day = (delta: number) => localMidnight(y, m, d + delta, offsetMinutes);
  const mondayDelta = -((wall.getUTCDay() + 6) % 7);
  const month = (delta: number) => localMidnight(y, m + delta, 1, offsetMinutes);
  const quarterStart = m - (m % 3);
  const quarter = (delta: number) => localMidnight(y, quarterStart + 3 * delta, 1, offsetMinutes);
  const year = (delta: number) => localMidnight(y + delta, 0, 1, offsetMinutes);
  const ranges: Record<DateShortcutCode, [number, number]> = {
    today: [day(0), day(1)],
    yesterday: [day(-1), day(0)],
    tomorrow: [day(1), day(2)],
    thisWeek: [day(mondayDelta), day(mondayDelta + 7)],
    lastWeek: [day(mondayDelta - 7), day(mondayDelta)],
    nextWeek: [day(mondayDelta + 7), day(mondayDelta + 14)],
    thisMonth: [month(0), month(1)],
    lastMonth: [month(-1), month(0)],
    nextMonth: [month(1), month(2)],
    thisQuarter: [quarter(0), quarter(1)],
    lastQuarter: [quarter(-1), quarter(0)],
    thisYear: [year(0), year(1)],
    lastYear: [year(-1), year(0)],
    nextYear: [year(1), year(2)],
  };
  const [from, to] = ranges[code];
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

/** The day after a date-only instant (for date-only comparisons). */
export const nextDay = (iso: string) => new Date(Date.parse(iso) + DAY).toISOString();
