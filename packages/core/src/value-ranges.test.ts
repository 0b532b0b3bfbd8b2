import { describe, expect, it } from 'vitest';
import { controlOptionSource, parseControlValue, validateControlValue, valuesOutsideOptions } from './controls/registry.ts';
import { parseFilterConditions, type FilterField } from './filters/index.ts';
import { displayFormulaValue, evaluateFormula, isFormulaError, toRecordValue } from './formula/index.ts';
import { DATE_OUT_OF_RANGE_MESSAGE, INVALID_ISO_DATE_MESSAGE, parseIsoDate, tryParseIsoDate } from './helpers/iso-date.ts';
import type { TDataControl } from './page-definition.ts';

// Issue 27 (item 2, 3): dates are years 1–9999, numbers finite, text storable, values among their
// options — in the core's parsers, the formula language and the option rule.

const control = (controlType: number, extra: Partial<TDataControl> = {}): TDataControl => ({
  id: `c${controlType}`, code: `f${controlType}`, title: '', controlType, isDisplayed: true, isEdit: true, ...extra,
});
const day = control(1004, { extraProperties: { dateType: 2 } });
const stamp = control(1004, { extraProperties: { dateType: 3 } });

describe('ISO dates: the years 1 to 9999', () => {
  it.each([
    ['0001-01-01', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['0001-01-01T08:00:00+08:00', '0001-01-01T00:00:00.000Z'],
  ])('%s is a date', (text, iso) => {
    expect(parseIsoDate(text).toISOString()).toBe(iso);
  });

  it.each(['0000-01-01', '0000-12-31T23:00:00Z', '0001-01-01T00:00:00+08:00', '9999-12-31T23:00:00-05:00', '9999-12-31T24:00:00Z'])('%s is out of range', (text) => {
    expect(() => parseIsoDate(text)).toThrow(DATE_OUT_OF_RANGE_MESSAGE);
    expect(tryParseIsoDate(text)).toBeNull();
  });

  it('reads zone-less text at the default offset, also at the ends', () => {
    expect(() => parseIsoDate('0001-01-01T01:00', 120)).toThrow(DATE_OUT_OF_RANGE_MESSAGE);
    expect(parseIsoDate('9999-12-31T23:00', 60).toISOString()).toBe('9999-12-31T22:00:00.000Z');
    expect(() => parseIsoDate('9999-12-31T23:00', -120)).toThrow(DATE_OUT_OF_RANGE_MESSAGE);
    expect(() => parseIsoDate('99999-01-01')).toThrow(INVALID_ISO_DATE_MESSAGE);
  });
});

describe('date controls: parse and validate at the ends', () => {
  it('takes the first and last day in any zone, as the caller sees it', () => {
    for (const offset of [-840, 0, 480, 840]) {
      expect(parseControlValue(day, '0001-01-01', { offsetMinutes: offset })).toEqual({ ok: true, value: '0001-01-01' });
      expect(parseControlValue(day, '9999-12-31', { offsetMinutes: offset })).toEqual({ ok: true, value: '9999-12-31' });
    }
    expect(parseControlValue(stamp, '9999-12-31T23:00:00Z', { offsetMinutes: 0 })).toEqual({ ok: true, value: '9999-12-31T23:00:00.000Z' });
  });

  it.each([
    [day, '0000-01-01', 0],
    [day, '0000-12-31T20:00:00Z', 480],
    [day, '9999-12-31T20:00:00Z', 480],
    [day, '0001-01-01T02:00:00Z', -180],
    [stamp, '0001-01-01T05:00:00+08:00', 480],
    [stamp, '9999-12-31T23:00:00Z', 120],
    [stamp, '0001-01-01T00:30', 60],
  ])('refuses case %#', (c, text, offset) => {
    expect(parseControlValue(c, text, { offsetMinutes: offset })).toEqual({ ok: false, message: DATE_OUT_OF_RANGE_MESSAGE });
  });

  it('validates stored values the same way and formats out-of-range text as nothing', () => {
    expect(validateControlValue(day, '0001-01-01')).toBeNull();
    expect(validateControlValue(day, '0000-06-01')).toBe(DATE_OUT_OF_RANGE_MESSAGE);
    expect(validateControlValue(stamp, '0001-01-01T05:00:00+08:00')).toBe(DATE_OUT_OF_RANGE_MESSAGE);
    expect(validateControlValue(day, 'soon')).toBe(INVALID_ISO_DATE_MESSAGE);
  });

  it('numbers are finite, integers safe', () => {
    for (const v of [Infinity, -Infinity, NaN, '1e400', '-1e400']) {
      expect(parseControlValue(control(1003), v).ok).toBe(false);
      expect(parseControlValue(control(1002), v).ok).toBe(false);
    }
    expect(parseControlValue(control(1002), 2 ** 53).ok).toBe(false);
    expect(validateControlValue(control(1003), Infinity)).not.toBeNull();
    expect(validateControlValue(control(1002), 2 ** 53)).not.toBeNull();
  });
});

describe('filter dates: the years 1 to 9999 after offset and day arithmetic', () => {
  const fields: FilterField[] = [{ code: 'd', tableFieldType: 4 }, { code: 'n', tableFieldType: 3 }, { code: 'i', tableFieldType: 2 }];
  const parse = (judgmentMethod: string, value: unknown, offsetMinutes = 0) => parseFilterConditions([{ key: 'd', judgmentMethod, value }], fields, { offsetMinutes });

  it.each([
    ['eq', '0000-01-01', 0],
    ['eq', '9999-12-31', 0],
    ['le', '9999-12-31', 0],
    ['gt', '9999-12-31', 480],
    ['between', ['2024-01-01', '9999-12-31'], 0],
    ['ge', '0001-01-01T00:00:00Z', -60],
    ['lt', '9999-12-31T23:30:00Z', 60],
    ['ge', '0001-01-01T01:00:00+02:00', 0],
  ])('%s %j at offset %i is a 400 naming the condition', (op, value, offset) => {
    const result = parse(op, value, offset);
    expect(result).toEqual({ ok: false, errors: [{ message: DATE_OUT_OF_RANGE_MESSAGE, members: ['filterConditions[0].value'] }] });
  });

  it.each([
    ['eq', '0001-01-01', 480],
    ['eq', '0001-01-01', -840],
    ['lt', '9999-12-31', 840],
    ['ge', '9999-12-31T23:59:59Z', 0],
    ['between', ['0001-01-01', '9999-12-30'], -840],
  ])('%s %j at offset %i is fine', (op, value, offset) => {
    expect(parse(op, value, offset).ok).toBe(true);
  });

  it('refuses numbers that are not finite or not safe integers', () => {
    for (const value of [Infinity, '1e400', NaN]) expect(parseFilterConditions([{ key: 'n', judgmentMethod: 'eq', value }], fields).ok).toBe(false);
    expect(parseFilterConditions([{ key: 'i', judgmentMethod: 'eq', value: 2 ** 53 }], fields).ok).toBe(false);
  });
});

describe('formula results are finite numbers, dates in range, storable text', () => {
  const now = new Date('2025-03-04T05:06:07Z');
  const show = (source: string) => displayFormulaValue(evaluateFormula(source, { now }));

  it.each([
    ['TODAY()+1e12', '#NUM!'],
    ['TODAY()-1e12', '#NUM!'],
    ['TODAY()+3000000', '#NUM!'],
    ['TODAY()-800000', '#NUM!'],
    ['DATE(9999,12,31)+1', '#NUM!'],
    ['"9999-12-31"+1', '#NUM!'],
    ['"0001-01-01"-1', '#NUM!'],
    ['VALUE("1e400")', '#NUM!'],
    ['VALUE("-1e400")', '#NUM!'],
    ['"1e400"*1', '#NUM!'],
    ['-"1e400"', '#NUM!'],
    ['"1e400"%', '#NUM!'],
    ['UNICHAR(55296)', '#VALUE!'],
    ['UNICHAR(57343)', '#VALUE!'],
    ['UNICHAR(1114112)', '#VALUE!'],
    ['UNICHAR(0)', '#VALUE!'],
    ['CHAR(0)', '#VALUE!'],
    ['LEFT(UNICHAR(128512), 1)', '#VALUE!'],
    ['"a" & UNICHAR(55296)', '#VALUE!'],
    ['IFERROR(UNICHAR(55296), "ok")', '"ok"'],
    ['IFERROR(TODAY()+1e12, "ok")', '"ok"'],
    ['ISERROR(VALUE("1e400"))', 'TRUE'],
  ])('%s → %s', (source, shown) => {
    expect(show(source)).toBe(shown);
  });

  it('still computes at the ends of the range and with real characters', () => {
    expect(show('DATE(9999,12,31)')).toBe('9999-12-31');
    expect(show('UNICHAR(128512)')).toBe('"😀"');
    expect(show('UNICHAR(20013)')).toBe('"中"');
    expect(show('UNICHAR(1114111)')).toBe(`"${String.fromCodePoint(0x10ffff)}"`);
    expect(show('VALUE("1e300")')).toBe('1e+300');
  });

  it('reads a record value no control can hold as an error, and never turns one into a record value', () => {
    const row = { T: `a${'\uD800'}`, N: '\u0000' };
    expect(isFormulaError(evaluateFormula('{T}', { row }))).toBe(true);
    expect(isFormulaError(evaluateFormula('{N} & "x"', { row }))).toBe(true);
    expect(toRecordValue(new Date(Number.NaN))).toBeNull();
    expect(toRecordValue(new Date('+010000-01-01T00:00:00Z'))).toBeNull();
    expect(toRecordValue(Infinity)).toBeNull();
    expect(toRecordValue('\uDC00')).toBeNull();
  });
});

describe('the option rule', () => {
  it('finds a static list or a dictionary, or no options', () => {
    expect(controlOptionSource({ options: [{ label: 'A', value: 'a' }, 2, 'c'] })).toEqual({ kind: 'list', values: new Set(['a', '2', 'c']) });
    expect(controlOptionSource({ options: { dictionaryCode: 'colour' } })).toEqual({ kind: 'dictionary', code: 'colour' });
    expect(controlOptionSource({ options: { dictionaryCode: '' } })).toBeNull();
    expect(controlOptionSource({})).toBeNull();
  });

  it('lists values outside the options, except those the record already holds', () => {
    const ab = new Set(['a', 'b']);
    expect(valuesOutsideOptions('zzz', ab)).toEqual(['zzz']);
    expect(valuesOutsideOptions(['zzz', 'a'], ab)).toEqual(['zzz']);
    expect(valuesOutsideOptions(['a', 'b'], ab)).toEqual([]);
    expect(valuesOutsideOptions('', ab)).toEqual([]);
    expect(valuesOutsideOptions([], ab)).toEqual([]);
    expect(valuesOutsideOptions(null, ab)).toEqual([]);
    expect(valuesOutsideOptions(['old', 'a'], ab, ['old'])).toEqual([]);
    expect(valuesOutsideOptions('old', ab, 'old')).toEqual([]);
    expect(valuesOutsideOptions(['old', 'new'], ab, 'old')).toEqual(['new']);
  });
});
