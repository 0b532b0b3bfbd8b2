import { describe, expect, it } from 'vitest';
import { ZDocumentNumberFormat, ZDocumentNumberRuleInput } from './contracts/document-numbers.ts';
import {
  checkDocumentNumberFormat,
  dateParts,
  formatDatePattern,
  prepareDocumentNumber,
  previewDocumentNumbers,
  serialText,
  type TDocumentNumberFormat,
} from './document-number-format.ts';

const SHANGHAI = 'Asia/Shanghai';
const at = (iso: string) => new Date(iso);

const orders: TDocumentNumberFormat = {
  resetPeriod: 'daily',
  timeZone: SHANGHAI,
  segments: [
    { type: 'text', value: 'SO' },
    { type: 'date', pattern: 'yyyyMMdd' },
    { type: 'text', value: '-' },
    { type: 'serial', width: 4, start: 1, step: 1 },
  ],
};

describe('document-number format', () => {
  it.each([
    ['yyyy', '2026'],
    ['yyyyMM', '202603'],
    ['yyyyMMdd', '20260331'],
    ['yyMMdd', '260331'],
    ['yyyy-MM-dd HH:mm:ss', '2026-03-31 23:59:58'],
    ['yy/MM', '26/03'],
  ])('formats the date pattern %s in the rule time zone', (pattern, expected) => {
    expect(formatDatePattern(pattern, dateParts(at('2026-03-31T15:59:58Z'), SHANGHAI))).toBe(expected);
  });

  it('reads the wall clock of the zone, not UTC', () => {
    // 16:00 UTC on 31 March is already 1 April in Shanghai.
    expect(dateParts(at('2026-03-31T16:00:00Z'), SHANGHAI)).toMatchObject({ year: '2026', month: '04', day: '01', hour: '00' });
    expect(dateParts(at('2026-03-31T16:00:00Z'), 'UTC')).toMatchObject({ month: '03', day: '31', hour: '16' });
  });

  it('pads serials to the width and never cuts them', () => {
    expect(serialText({ width: 4, start: 1, step: 1 }, 1)).toBe('0001');
    expect(serialText({ width: 4, start: 100, step: 10 }, 3)).toBe('0120');
    expect(serialText({ width: 2, start: 1, step: 1 }, 123)).toBe('123');
  });

  it('prepares the text around the serial and the period key before the counter is touched', () => {
    const p = prepareDocumentNumber(orders, { now: at('2026-03-31T15:59:59Z') });
    expect(p.periodKey).toBe('20260331');
    expect(p.format(1)).toBe('SO20260331-0001');
    expect(p.format(42)).toBe('SO20260331-0042');
  });

  it.each([
    ['never', 'all'],
    ['yearly', '2026'],
    ['monthly', '202612'],
    ['daily', '20261231'],
  ] as const)('keys the %s period', (resetPeriod, key) => {
    const format: TDocumentNumberFormat = { ...orders, resetPeriod };
    expect(prepareDocumentNumber(format, { now: at('2026-12-31T12:00:00+08:00') }).periodKey).toBe(key);
  });

  it('renders record fields after the serial, and placeholders in previews', () => {
    const format: TDocumentNumberFormat = {
      resetPeriod: 'never',
      segments: [
        { type: 'field', fieldCode: 'Region' },
        { type: 'serial', width: 3, start: 1, step: 1 },
        { type: 'text', value: '/' },
        { type: 'field', fieldCode: 'Kind' },
      ],
    };
    const now = at('2026-01-01T00:00:00Z');
    expect(prepareDocumentNumber(format, { now, record: { Region: 'EU', Kind: 'X\n' } }).format(7)).toBe('EU007/X');
    expect(prepareDocumentNumber(format, { now }).format(7)).toBe('007/');
    expect(previewDocumentNumbers(format, { now, issued: 9, fieldPlaceholders: true }).numbers).toEqual([
      '{Region}010/{Kind}',
      '{Region}011/{Kind}',
      '{Region}012/{Kind}',
    ]);
  });

  it('previews the next numbers after what was issued', () => {
    expect(previewDocumentNumbers(orders, { now: at('2026-03-31T08:00:00+08:00'), issued: 5, count: 2 })).toEqual({
      periodKey: '20260331',
      numbers: ['SO20260331-0006', 'SO20260331-0007'],
    });
  });

  it('requires exactly one serial and a date segment that shows the reset period', () => {
    const serial = { type: 'serial', width: 4, start: 1, step: 1 } as const;
    expect(checkDocumentNumberFormat(orders)).toEqual([]);
    expect(checkDocumentNumberFormat({ resetPeriod: 'never', segments: [{ type: 'text', value: 'A' }] })[0]!.path).toEqual(['segments']);
    expect(checkDocumentNumberFormat({ resetPeriod: 'never', segments: [serial, serial] })[0]!.path).toEqual(['segments', 1]);
    expect(checkDocumentNumberFormat({ resetPeriod: 'daily', segments: [{ type: 'date', pattern: 'yyyyMM' }, serial] })[0]!.path).toEqual(['resetPeriod']);
    expect(checkDocumentNumberFormat({ resetPeriod: 'monthly', segments: [{ type: 'date', pattern: 'yyMM' }, serial] })).toEqual([]);
    expect(checkDocumentNumberFormat({ resetPeriod: 'yearly', segments: [serial] })[0]!.message).toContain('yyyy');
    expect(checkDocumentNumberFormat({ resetPeriod: 'never', timeZone: 'Mars/Base', segments: [serial] })[0]!.path).toEqual(['timeZone']);
    // Several date segments together may show the period.
    expect(checkDocumentNumberFormat({ resetPeriod: 'daily', segments: [{ type: 'date', pattern: 'yyyy' }, { type: 'date', pattern: 'MMdd' }, serial] })).toEqual([]);
  });

  it('validates rules through the contract', () => {
    const ok = ZDocumentNumberRuleInput.safeParse({ code: 'SO', name: 'Sales orders', ...orders });
    expect(ok.success).toBe(true);
    const bad = ZDocumentNumberRuleInput.safeParse({ code: '1x', name: '', resetPeriod: 'weekly', segments: [] });
    expect(bad.success).toBe(false);
    const noDay = ZDocumentNumberFormat.safeParse({ resetPeriod: 'daily', segments: [{ type: 'serial', width: 3 }] });
    expect(noDay.success).toBe(false);
    expect(noDay.error!.issues.map((i) => i.path.join('.'))).toEqual(['resetPeriod']);
    const defaults = ZDocumentNumberFormat.parse({ resetPeriod: 'never', segments: [{ type: 'serial', width: 3 }] });
    expect(defaults.segments[0]).toEqual({ type: 'serial', width: 3, start: 1, step: 1 });
    expect(ZDocumentNumberFormat.safeParse({ resetPeriod: 'never', segments: [{ type: 'date', pattern: 'yyyy%' }, { type: 'serial', width: 3 }] }).success).toBe(false);
    expect(ZDocumentNumberFormat.safeParse({ resetPeriod: 'never', segments: [{ type: 'text', value: 'x'.repeat(30) }, { type: 'text', value: 'x'.repeat(30) }, { type: 'text', value: 'x'.repeat(30) }, { type: 'serial', width: 12 }] }).success).toBe(false);
  });
});
