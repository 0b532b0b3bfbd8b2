import cronstrue from 'cronstrue';
import 'cronstrue/locales/zh_CN';
import { cronRuns } from '@tessera/core/contracts/data-factory';

/** A cron expression in words of the UI's language ("每天 02:00" / "At 02:00 AM"), or null when it is not one the server takes. */
export function describeCron(cron: string, timeZone: string, language: string): string | null {
  if (!cronRuns(cron, timeZone, 1)) return null;
  try {
    return cronstrue.toString(cron.trim(), { locale: language.startsWith('zh') ? 'zh_CN' : 'en', use24HourTimeFormat: true, verbose: false });
  } catch {
    return null;
  }
}

/** A time as a clock in `timeZone` shows it (`2026-12-04 02:00`). */
export function timeIn(iso: Date | string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** The browser's time zone, the default of a new schedule. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The time zones a schedule may be read in (the browser's list; the server checks the same names). */
export const timeZones = (): string[] => (typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC', 'Asia/Shanghai']);
