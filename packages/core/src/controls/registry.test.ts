import { describe, expect, it } from 'vitest';
import type { TDataControl, TView } from '../page-definition.ts';
import {
  CONTROL_TYPES, ControlTypeId, createNewRecord, filterOperatorsForControl, filterOperatorsForFieldType, formatControlValue,
  getControlType, parseControlValue, tableFieldTypeOf, validateControlValue,
} from './registry.ts';

const control = (controlType: number, extra: Partial<TDataControl> = {}): TDataControl => ({
  id: `c${controlType}`, code: `f${controlType}`, title: '', controlType, isDisplayed: true, isEdit: true, ...extra,
});

describe('table field type per control type (spec §3)', () => {
  it.each([
    [1001, 1], [1006, 1], [1007, 1], [1008, 1], [1009, 1], [2001, 1], [4001, 1], [1002, 2], [1003, 3], [1004, 4],
    [1005, 5], [1010, 6], [3001, 6], [3002, 6], [1011, 1], [1012, 1], [1015, 3], [9999, 1],
    [1013, 1], [1014, 1],
  ])('%s → %s', (code, fieldType) => {
    expect(tableFieldTypeOf(code)).toBe(fieldType);
    expect(tableFieldTypeOf(String(code))).toBe(fieldType);
  });
  it('registers every spec code exactly once', () => {
    expect([...CONTROL_TYPES.keys()].sort()).toEqual([1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015, 2001, 3001, 3002, 4001]);
    expect(getControlType(3002).hasArrayCompanion).toBe(true);
    expect(getControlType(1010).hasArrayCompanion).toBe(false);
  });
});

describe('parse user input', () => {
  it.each([
    [1001, {}, ' abc ', ' abc '],
    [1001, {}, 12, '12'],
    [1002, {}, '1,234', 1234],
    [1002, {}, ' -7 ', -7],
    [1002, {}, '', 0],
    [1003, {}, '1,234.5', 1234.5],
    [1003, { extraProperties: { accuracy: 2 } }, '2.675', 2.68],
    [1003, { extraProperties: { accuracy: 0 } }, 2.5, 3],
    [1004, {}, '2024-03-05', '2024-03-05'],
    [1004, { extraProperties: { dateType: 1 } }, '2024-03', '2024-03-01'],
    [1004, { extraProperties: { dateType: 1 } }, '2024-03-17', '2024-03-01'],
    [1004, { extraProperties: { dateType: 3 } }, '2024-03-05T08:00:00+08:00', '2024-03-05T00:00:00.000Z'],
    [1004, {}, '', null],
    [1005, {}, 'true', true],
    [1005, {}, '是', true],
    [1005, {}, '0', false],
    [1005, {}, null, false],
    [1008, {}, 'a, b,,c', ['a', 'b', 'c']],
    [1009, {}, '["x","y"]', ['x', 'y']],
    [1009, {}, [1, 'b'], ['1', 'b']],
    [1010, {}, 'abc', 'abc'],
    [3001, {}, '', null],
    [4001, {}, [{ id: 'u1', title: 'Ann', type: 3 }], '[{"id":"u1","title":"Ann","type":3}]'],
    [4001, {}, '', '[]'],
  ])('%s %j: %j → %j', (type, extra, input, value) => {
    expect(parseControlValue(control(type, extra as Partial<TDataControl>), input)).toEqual({ ok: true, value });
  });

  it.each([
    [1002, '1.5', 'Expected a whole number'],
    [1002, 'abc', 'Expected a whole number'],
    [1002, '9007199254740993', 'Expected a whole number'],
    [1003, '12abc', 'Expected a number'],
    [1004, '05/03/2024', 'Invalid ISO 8601 date format'],
    [1005, 'maybe', 'Expected true or false'],
    [1008, { a: 1 }, 'Expected a list of values'],
    [4001, 'not json', 'Expected a list of selection items'],
    [1001, { toString: 'x' }, 'Expected text'],
  ])('%s rejects %j', (type, input, message) => {
    expect(parseControlValue(control(type), input)).toEqual({ ok: false, message });
  });
});

describe('format for display', () => {
  it.each([
    [1002, {}, 1234567, {}, '1,234,567'],
    [1003, { extraProperties: { accuracy: 2 } }, 1234.5, {}, '1,234.50'],
    [1003, { extraProperties: { accuracy: 2 } }, '1.005', {}, '1.01'],
    [1003, {}, 0.25, {}, '0.25'],
    [1004, { extraProperties: { dateType: 1 } }, '2024-03-05', {}, '2024-03'],
    [1004, { extraProperties: { dateType: 2 } }, '2024-03-05', { offsetMinutes: -300 }, '2024-03-05'],
    [1004, { extraProperties: { dateType: 3 } }, '2024-03-05T22:00:00Z', { offsetMinutes: 480 }, '2024-03-06 06:00:00'],
    [1004, {}, null, {}, ''],
    [1005, {}, true, {}, '是'],
    [1005, {}, false, { locale: 'en-US' }, 'No'],
    [1008, { options: [{ label: 'Red', value: 'r' }, { label: 'Blue', value: 'b' }] }, ['r', 'b'], {}, 'Red, Blue'],
    [1006, { options: [{ label: '男', value: 1 }] }, 1, {}, '男'],
    [4001, {}, '[{"id":"u1","title":"Ann"},{"id":"u2","title":"Bo"}]', {}, 'Ann, Bo'],
    [4001, {}, 'garbage', {}, ''],
    [3001, {}, null, {}, ''],
  ])('%s %j: %j → %s', (type, extra, value, options, text) => {
    expect(formatControlValue(control(type, extra as Partial<TDataControl>), value, options as object)).toBe(text);
  });
});

describe('stored value validators', () => {
  it.each([
    [1002, 5, true], [1002, 5.5, false], [1003, '12.50', true], [1003, 'x', false], [1003, Infinity, false],
    [1004, '2024-03-05', true], [1004, null, true], [1004, '2024/03/05', false], [1005, true, true], [1005, 'true', false],
    [1008, ['a'], true], [1008, 'a', false], [4001, '[]', true], [4001, '{}', false], [3001, null, true], [1001, 'x', true],
  ])('%s accepts %j: %s', (type, value, valid) => {
    expect(validateControlValue(control(type), value) === null).toBe(valid);
  });
});

describe('createNewRecord (spec §4 defaults)', () => {
  const now = new Date('2024-03-05T22:30:00Z');
  const ctx = {
    now, offsetMinutes: 480, newId: () => 'new-id', currentUser: { id: 'u1', title: 'Ann' }, currentOrgUnit: { id: 'o1', title: 'Sales' },
  };
  const cases: [string, Partial<TDataControl> & { controlType: number }, unknown][] = [
    ['integer 0', { controlType: 1002 }, 0],
    ['decimal 0', { controlType: 1003 }, 0],
    ['boolean false', { controlType: 1005 }, false],
    ["boolean 'true' means true", { controlType: 1005, defaultValue: 'true' }, true],
    ['list []', { controlType: 1008 }, []],
    ['multi-value []', { controlType: 1009 }, []],
    ['date null', { controlType: 1004 }, null],
    ['date 1 = server date, year-month', { controlType: 1004, defaultValue: 1, extraProperties: { dateType: 1 } }, '2024-03'],
    ['date 1 = server date, day', { controlType: 1004, defaultValue: '1', extraProperties: { dateType: 2 } }, '2024-03-06'],
    ['date 1 = server date, full', { controlType: 1004, defaultValue: 1, extraProperties: { dateType: 3 } }, '2024-03-06 06:30:00'],
    ["picker 4001 '[]'", { controlType: 4001 }, '[]'],
    ['picker 2 = current user', { controlType: 4001, defaultValue: 2 }, '[{"id":"u1","title":"Ann","type":3}]'],
    ['picker 3 = current org unit', { controlType: 4001, defaultValue: '3' }, '[{"id":"o1","title":"Sales","type":1}]'],
    ['lookup null', { controlType: 1010 }, null],
    ['id null', { controlType: 3001 }, null],
    ['id 2 = current user id', { controlType: 3001, defaultValue: 2 }, 'u1'],
    ['text empty', { controlType: 1001 }, ''],
    ['1006 empty', { controlType: 1006 }, ''],
    ['doc number without occasion', { controlType: 2001 }, ''],
    ['doc number with a parent control', { controlType: 2001, docNoOccasion: 1, parentDataControlId: 'p' }, ''],
  ];
  it.each(cases)('%s', (_name, props, expected) => {
    const { record, pending } = createNewRecord({ dataControls: [control(props.controlType, { ...props, code: 'x' })] }, ctx);
    expect(record.x).toEqual(expected);
    expect(record.DataStatus).toBe(2);
    expect(record.Id).toBe('new-id');
    expect(pending).toEqual([]);
  });

  it('asks the caller to fetch a document number when docNoOccasion is 1 and there is no parent', () => {
    const view: Pick<TView, 'dataControls'> = { dataControls: [control(2001, { id: 'd1', code: 'billNo', docNoOccasion: 1 })] };
    const { record, pending } = createNewRecord(view, ctx);
    expect(pending).toEqual([{ kind: 'fetchDocumentNumber', dataControlId: 'd1', code: 'billNo' }]);
    expect(record.billNo).toBe('');
  });

  it('asks the caller to fetch a default from a data-source query, keeping the control’s own default meanwhile', () => {
    const query = { sourceId: '0190a1b2-0000-7000-8000-000000000001', methodCode: 'rate', valueColumn: 'value' };
    const view: Pick<TView, 'dataControls'> = {
      dataControls: [control(1003, { id: 'r1', code: 'rate', defaultValue: '1', extraProperties: { defaultSourceQuery: query } }), control(1001, { id: 't1', code: 'note', extraProperties: { defaultSourceQuery: { sourceId: 'not-a-uuid', methodCode: 'x', valueColumn: 'v' } } })],
    };
    const { record, pending } = createNewRecord(view, ctx);
    expect(pending).toEqual([{ kind: 'fetchSourceDefault', dataControlId: 'r1', code: 'rate' }]);
    expect(record.rate).toBe(1);
    expect(record.note).toBe('');
  });

  it('links child rows to the parent record and fills Array companions', () => {
    const view = { associateForeignKeyCode: 'orderId', dataControls: [control(3002, { code: 'ids' })] };
    const { record } = createNewRecord(view, { ...ctx, parentRecordId: 'p1' });
    expect(record).toMatchObject({ ParentViewDataId: 'p1', orderId: 'p1', ids: null, idsArray: [] });
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  });

  it('generates a GUID when no id generator is given', () => {
    const { record } = createNewRecord({ dataControls: [] }, { now });
    expect(record.Id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('filter operators per field type', () => {
  it.each([
    [1, ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'contains', 'notContains', 'startsWith', 'endsWith', 'in', 'notIn', 'between', 'isEmpty', 'isNotEmpty']],
    [2, ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'in', 'notIn', 'between', 'isEmpty', 'isNotEmpty']],
    [5, ['eq', 'ne', 'isEmpty', 'isNotEmpty']],
    [6, ['eq', 'ne', 'in', 'notIn', 'isEmpty', 'isNotEmpty']],
  ] as const)('field type %s', (fieldType, codes) => {
    expect(filterOperatorsForFieldType(fieldType).map((o) => o.code)).toEqual(codes);
  });
  it('date fields get the date shortcuts', () => {
    const codes = filterOperatorsForControl({ controlType: 1004 }).map((o) => o.code);
    expect(codes).toEqual(expect.arrayContaining(['today', 'thisWeek', 'thisMonth', 'between', 'ge']));
    expect(codes).not.toContain('contains');
  });
});

describe('ControlTypeId (named codes)', () => {
  it('names every registered code, and nothing else', () => {
    expect(Object.values(ControlTypeId).sort()).toEqual([...CONTROL_TYPES.keys()].sort());
  });

  it('takes its names from the registry entries', () => {
    for (const [name, code] of Object.entries(ControlTypeId)) {
      expect(getControlType(code).name.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')).toBe(name);
    }
    expect(ControlTypeId.DocumentNumber).toBe(2001);
    expect(ControlTypeId.UserOrgPicker).toBe(4001);
  });
});
