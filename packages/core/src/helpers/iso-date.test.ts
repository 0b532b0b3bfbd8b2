import { describe, expect, it } from 'vitest';
import { formatByDateType, formatIsoDateTime, formatIsoDay, INVALID_ISO_DATE_MESSAGE, parseIsoDate, tryParseIsoDate } from './iso-date.ts';

describe('parseIsoDate accepts ISO 8601', () => {
  it.each([
    ['2024-03-05', '2024-03-05T00:00:00.000Z'],
    ['2024-03-05T08:30', '2024-03-05T08:30:00.000Z'],
    ['2024-03-05T08:30:15', '2024-03-05T08:30:15.000Z'],
    ['2024-03-05 08:30:15', '2024-03-05T08:30:15.000Z'],
    ['2024-03-05T08:30:15.5Z', '2024-03-05T08:30:15.500Z'],
    ['2024-03-05T08:30:15.123456Z', '2024-03-05T08:30:15.123Z'],
    ['2024-03-05T08:30:15+08:00', '2024-03-05T00:30:15.000Z'],
    ['2024-03-05T08:30:15-0130', '2024-03-05T10:00:15.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2024-03-05T24:00:00Z', '2024-03-06T00:00:00.000Z'],
    ['0050-01-01', '0050-01-01T00:00:00.000Z'],
  ])('%s → %s', (text, iso) => {
    expect(parseIsoDate(text).toISOString()).toBe(iso);
  });

  it('reads zone-less text at the given default offset', () => {
    expect(parseIsoDate('2024-03-05T08:00', 480).toISOString()).toBe('2024-03-05T00:00:00.000Z');
    expect(parseIsoDate('2024-03-05T08:00Z', 480).toISOString()).toBe('2024-03-05T08:00:00.000Z');
  });
});

describe('parseIsoDate rejects everything else', () => {
  it.each([
    '2024/03/05', '03/05/2024', '2024-3-5', '20240305', 'March 5, 2024', '2023-02-29', '2024-13-01',
    '2024-00-10', '2024-04-31', '2024-03-05T25:00', '2024-03-05T10:60', '2024-03-05T24:00:01',
    '2024-03-05T10:00+25:00', '', 'now', '1709596800000',
  ])('%s', (text) => {
    expect(() => parseIsoDate(text)).toThrow(INVALID_ISO_DATE_MESSAGE);
    expect(tryParseIsoDate(text)).toBeNull();
  });
  it.each([[null], [undefined], [1709596800000], [new Date()]])('non-string %s', (value) => {
    expect(() => parseIsoDate(value)).toThrow('Invalid ISO 8601 date format');
  });
});

describe('formatting', () => {
  const d = new Date('2024-03-05T22:07:09.004Z');
  it.each([
    [1, 0, '2024-03'],
    [2, 0, '2024-03-05'],
    [3, 0, '2024-03-05 22:07:09'],
    [2, 480, '2024-03-06'],
    [3, 480, '2024-03-06 06:07:09'],
    [null, 0, '2024-03-05'],
  ])('dateType %s at offset %s → %s', (type, offset, text) => {
    expect(formatByDateType(d, type, offset)).toBe(text);
  });
  it('formats ISO day and date-time with zone', () => {
    expect(formatIsoDay(d, 480)).toBe('2024-03-06');
    expect(formatIsoDateTime(d)).toBe('2024-03-05T22:07:09.004Z');
    expect(formatIsoDateTime(d, 480)).toBe('2024-03-06T06:07:09.004+08:00');
    expect(formatIsoDateTime(d, -90)).toBe('2024-03-05T20:37:09.004-01:30');
    expect(parseIsoDate(formatIsoDateTime(d, 480)).getTime()).toBe(d.getTime());
  });
});
