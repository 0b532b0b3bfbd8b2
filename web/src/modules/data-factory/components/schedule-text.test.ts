import { describe, expect, it } from 'vitest';
import { describeCron, timeIn } from './schedule-text.ts';

describe('schedule texts', () => {
  it('says a cron expression in Chinese and English, and nothing for one the server refuses', () => {
    expect(describeCron('0 2 * * 1-5', 'Asia/Shanghai', 'zh-CN')).toMatch(/02:00/);
    expect(describeCron('0 2 * * 1-5', 'Asia/Shanghai', 'zh-CN')).toMatch(/星期一/);
    expect(describeCron('30 8 * * *', 'UTC', 'en-US')).toBe('At 08:30');
    expect(describeCron('61 * * * *', 'UTC', 'zh-CN')).toBeNull();
    expect(describeCron('* * * * * *', 'UTC', 'en-US')).toBeNull();
    expect(describeCron('0 2 * * *', 'Mars/Olympus', 'en-US')).toBeNull();
  });

  it('shows a time on the clock of a time zone', () => {
    expect(timeIn('2026-12-03T18:00:00Z', 'Asia/Shanghai')).toBe('2026-12-04 02:00');
    expect(timeIn('2026-12-03T18:00:00Z', 'America/New_York')).toBe('2026-12-03 13:00');
  });
});
