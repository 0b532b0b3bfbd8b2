import { describe, expect, it } from 'vitest';
import { formatSample, sourceSample, type SampleTexts } from './element-text.ts';

const texts: SampleTexts = { pageNumber: { zh: '第 1 页 / 共 1 页', slash: '1 / 1', en: 'Page 1 of 1', current: '1' }, printUser: '{打印人}', formula: (f) => `=${f}` };
const titles = (code: string) => ({ total: '订单金额' })[code] ?? '';
const now = new Date(2026, 0, 2, 3, 4, 5);

describe('canvas texts', () => {
  it.each([
    [{ kind: 'static', text: '采购单' }, '采购单'],
    [{ kind: 'field', field: 'total' }, '{订单金额}'],
    [{ kind: 'field', field: 'unknown' }, '{unknown}'],
    [{ kind: 'formula', formula: '{a}+1' }, '={a}+1'],
    [{ kind: 'pageNumber', pattern: 'zh' }, '第 1 页 / 共 1 页'],
    [{ kind: 'printTime', pattern: 'YYYY-MM-DD HH:mm' }, '2026-01-02 03:04'],
    [{ kind: 'printUser' }, '{打印人}'],
  ] as const)('writes %j as %s', (source, text) => {
    expect(sourceSample(source, titles, texts, now)).toBe(text);
  });

  it.each([
    [{ kind: 'none' }, 1234.5, '1234.5'],
    [{ kind: 'number', precision: 2, thousands: true }, 1234567.5, '1,234,567.50'],
    [{ kind: 'number', precision: null, thousands: false }, 12.345, '12.345'],
    [{ kind: 'number', precision: 0, thousands: true }, 999, '999'],
  ] as const)('formats %j', (format, value, text) => {
    expect(formatSample(format, value, now)).toBe(text);
  });
});
