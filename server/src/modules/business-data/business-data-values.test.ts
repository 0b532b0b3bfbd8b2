import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDataControl } from '@tessera/core/page-definition';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { BD, bd, createDictionary, importWorkbook, newId, publishPage } from '../../../test/business-data-fixtures.ts';
import { control, view } from '../../../test/page-helpers.ts';
import { bizTable, bizTableName } from '../pages/index.ts';

// Issue 27 (items 2, 3): hostile values through save-page, save-view, query-view-data filters and
// the Excel import are a 400 naming the field or condition — never a 500, never stored garbage:
// dates in the years 1–9999 (after offsets and day arithmetic), finite numbers, formula results a
// control can hold, values among their options (static lists and business dictionaries).

let t: TestApp;
let admin: string;
let pageId: string;
let viewId: string;
let dictionaryId: string;

const c: Record<string, TDataControl> = {
  Name: control('Name', 1001),
  Choice: control('Choice', 1006, { options: [{ label: 'A', value: 'a' }, { label: 'B', value: 'b' }] }),
  Multi: control('Multi', 1008, { options: [{ label: 'A', value: 'a' }, { label: 'B', value: 'b' }] }),
  Colour: control('Colour', 1006, { options: { dictionaryCode: 'ValueColour' } }),
  Day: control('Day', 1004, { extraProperties: { dateType: 2 } }),
  Stamp: control('Stamp', 1004, { extraProperties: { dateType: 3 } }),
  Qty: control('Qty', 1002),
  Price: control('Price', 1003),
  Trigger: control('Trigger', 1001),
  Far: control('Far', 1001, { valueTakingType: 2 }),
  Huge: control('Huge', 1001, { valueTakingType: 2 }),
  Lone: control('Lone', 1001, { valueTakingType: 2 }),
  Past: control('Past', 1001, { valueTakingType: 2 }),
  FarDay: control('FarDay', 1004, { valueTakingType: 2, extraProperties: { dateType: 2 } }),
  HugeNumber: control('HugeNumber', 1003, { valueTakingType: 2 }),
};
const FORMULAS: [keyof typeof c, string][] = [
  ['Far', 'TODAY()+1e12'],
  ['Huge', 'VALUE("1e400")'],
  ['Lone', 'UNICHAR(55296)'],
  ['Past', 'UNICHAR(1114112)'],
  ['FarDay', 'DATE(9999,12,31)+1'],
  ['HugeNumber', 'VALUE("1e400")'],
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  dictionaryId = await createDictionary(t, admin, {
    code: 'ValueColour',
    title: { 'en-US': 'Colour' },
    items: [
      { code: 'red', label: { 'en-US': 'Red' } },
      { code: 'blue', label: { 'en-US': 'Blue' } },
      { code: 'green', label: { 'en-US': 'Green' } },
      { code: 'grey', label: { 'en-US': 'Grey' }, isEnabled: false },
    ],
  });
  const v = view('Values', Object.values(c));
  viewId = v.id;
  pageId = await publishPage(t, admin, 'HostileValues', {
    viewControls: [v],
    pageButtons: [],
    dataLinkages: [
      {
        id: newId(),
        dataLinkType: 1,
        triggerConditions: [{ dataControlId: c.Trigger.id, triggerFormula: 'TRUE' }],
        assignments: FORMULAS.map(([code, assignmentFormula]) => ({ dataControlId: c[code].id, assignmentFormula })),
        pageEvents: [],
        pageStateControls: [],
      },
    ],
  });
});
afterAll(() => t.close());

const member = (code: string) => `viewDataList.0.dataList.0.${code}`;
const savePage = (record: object, extra: object = {}, headers: Record<string, string> = {}) =>
  t.call(admin, { method: 'POST', url: `${BD}/save-page`, headers, payload: { pageId, viewDataList: [{ viewId, dataList: [record] }], ...extra } });
const savePageRaw = (json: string) =>
  t.call(admin, { method: 'POST', url: `${BD}/save-page`, headers: { 'content-type': 'application/json' }, payload: json });
/** A 400 that names exactly these members. */
function expectInvalid(res: { statusCode: number; body: string; json: () => any }, members: string[]) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().error.validationErrors.map((e: { members: string[] }) => e.members[0])).toEqual(members);
}
const stored = async (id: string) => (await sql<Record<string, unknown>>`select * from ${bizTable(bizTableName(viewId))} where "Id" = ${id}`.execute(t.database.db)).rows[0];

describe('dates are years 1–9999 (after the offset) in saves', () => {
  it.each([
    ['Day', '0000-01-01', 0],
    ['Day', '0000-12-31T20:00:00Z', 480],
    ['Day', '9999-12-31T20:00:00Z', 480],
    ['Stamp', '9999-12-31T23:00:00-05:00', 0],
    ['Stamp', '0001-01-01T05:00:00+08:00', 480],
    ['Stamp', '9999-12-31T23:30:00', -60],
  ])('save-page %s = %s at offset %i is a 400 naming the field', async (code, value, offsetMinutes) => {
    const res = await savePage({ Id: newId(), Name: 'date', [code]: value }, { offsetMinutes });
    expectInvalid(res, [member(code)]);
    expect(res.json().error.message).toContain('9999');
  });

  it('keeps the first and last day in any zone', async () => {
    for (const offsetMinutes of [-840, 0, 840]) {
      const id = newId();
      const res = await savePage({ Id: id, Name: 'ends', Day: offsetMinutes < 0 ? '9999-12-31' : '0001-01-01', Stamp: '9999-12-31T00:00:00Z' }, { offsetMinutes });
      expect(res.statusCode, res.body).toBe(200);
      const record = res.json().viewDataList[0].dataList[0];
      expect(record.Day).toBe(offsetMinutes < 0 ? '9999-12-31' : '0001-01-01');
      expect(record.Stamp).toBe('9999-12-31T00:00:00.000Z');
    }
  });

  it('save-view names the row and field; the message is in the caller’s language', async () => {
    const res = await t.call(admin, {
      method: 'POST',
      url: `${BD}/save-view`,
      headers: { 'accept-language': 'zh-CN' },
      payload: { pageId, viewId, dataList: [{ Name: 'ok', Day: '2024-01-01' }, { Name: 'bad', Day: '0000-01-01' }] },
    });
    expect(res.statusCode, res.body).toBe(400);
    const [error] = res.json().error.validationErrors;
    expect(error.members[0]).toMatch(/\.Day$/);
    expect(error.message).toContain('1 年到 9999 年');
  });

  it('numbers are finite (1e400 in JSON and as text)', async () => {
    expectInvalid(await savePageRaw(JSON.stringify({ pageId, viewDataList: [{ viewId, dataList: [{ Id: newId(), Name: 'n', Price: 0 }] }] }).replace('"Price":0', '"Price":1e400')), [member('Price')]);
    expectInvalid(await savePageRaw(JSON.stringify({ pageId, viewDataList: [{ viewId, dataList: [{ Id: newId(), Name: 'n', Qty: 0 }] }] }).replace('"Qty":0', '"Qty":-1e400')), [member('Qty')]);
    expectInvalid(await savePage({ Id: newId(), Name: 'n', Price: '1e400', Qty: '9007199254740993' }), [member('Qty'), member('Price')].sort((a, b) => (a < b ? 1 : -1)));
  });
});

describe('formula results a control cannot hold are errors, stored as empty', () => {
  it('TODAY()+1e12, VALUE("1e400"), UNICHAR(55296), UNICHAR(1114112), DATE(9999,12,31)+1 → empty fields, and the page still saves', async () => {
    const id = newId();
    const first = await savePage({ Id: id, Name: 'formulas', Trigger: 'go', Far: 'tampered' });
    expect(first.statusCode, first.body).toBe(200);
    const record = first.json().viewDataList[0].dataList[0];
    expect(record).toMatchObject({ Far: '', Huge: '', Lone: '', Past: '', FarDay: null, HugeNumber: null });
    const row = (await stored(id))!;
    for (const code of ['Far', 'Huge', 'Lone', 'Past']) expect(row[code] ?? '').toBe('');
    expect(row.FarDay).toBeNull();
    expect(row.HugeNumber).toBeNull();
    // Every later save of the record works as well.
    const again = await savePage({ ...record, Name: 'formulas again' });
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe('filters: dates are years 1–9999 after the offset and the day arithmetic', () => {
  const query = (filterConditions: object[], offsetMinutes = 0) =>
    t.call(admin, { method: 'POST', url: `${BD}/query-view-data`, payload: { pageId, viewId, filterConditions, offsetMinutes } });

  it.each([
    ['Day', 'eq', '9999-12-31', 0],
    ['Day', 'le', '9999-12-31', 0],
    ['Day', 'gt', '9999-12-31', 0],
    ['Day', 'eq', '0000-01-01', 0],
    ['Day', 'between', ['2024-01-01', '9999-12-31'], 480],
    ['Stamp', 'lt', '9999-12-31T23:30:00Z', 60],
    ['Stamp', 'ge', '0001-01-01T00:00:00Z', -60],
    ['Stamp', 'eq', '9999-12-31T23:00:00-05:00', 0],
  ])('%s %s %j at offset %i is a 400 naming the condition', async (key, judgmentMethod, value, offsetMinutes) => {
    const res = await query([{ key: 'Name', judgmentMethod: 'isNotEmpty' }, { key, judgmentMethod, value }], offsetMinutes);
    expectInvalid(res, ['filterConditions[1].value']);
  });

  it('answers at the ends of the range, also where a zone moves the instant just past an end', async () => {
    const id = newId();
    expect((await savePage({ Id: id, Name: 'first', Day: '0001-01-01', Stamp: '0001-01-01T00:00:00Z' })).statusCode).toBe(200);
    const count = async (conditions: object[], offset = 0) => {
      const res = await query(conditions, offset);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items.filter((r: { Id: string }) => r.Id === id).length;
    };
    expect(await count([{ key: 'Day', judgmentMethod: 'eq', value: '0001-01-01' }], 480)).toBe(1);
    expect(await count([{ key: 'Day', judgmentMethod: 'lt', value: '0001-01-02' }], -840)).toBe(1);
    // 0001-01-01T05:00+08:00 is the last hours of year 0 in UTC: compared exactly all the same.
    expect(await count([{ key: 'Stamp', judgmentMethod: 'ge', value: '0001-01-01T05:00:00' }], 480)).toBe(1);
    expect(await count([{ key: 'Stamp', judgmentMethod: 'lt', value: '0001-01-01T08:00:00' }], 480)).toBe(0);
    expect(await count([{ key: 'Stamp', judgmentMethod: 'le', value: '0001-01-01T08:00:00' }], 480)).toBe(1);
    expect(await count([{ key: 'Day', judgmentMethod: 'lt', value: '9999-12-31' }], 840)).toBe(1);
  });

  it('numbers are finite', async () => {
    const raw = (json: string) => t.call(admin, { method: 'POST', url: `${BD}/query-view-data`, headers: { 'content-type': 'application/json' }, payload: json });
    expectInvalid(await raw(`{"pageId":"${pageId}","viewId":"${viewId}","filterConditions":[{"key":"Price","judgmentMethod":"gt","value":1e400}]}`), ['filterConditions[0].value']);
    expectInvalid(await query([{ key: 'Qty', judgmentMethod: 'eq', value: '1e400' }]), ['filterConditions[0].value']);
  });
});

describe('values outside their options', () => {
  it('a static list refuses "zzz", a multi-select ["zzz","a"]; listed values save', async () => {
    const res = await savePage({ Id: newId(), Name: 'opts', Choice: 'zzz', Multi: ['zzz', 'a'] });
    expectInvalid(res, [member('Choice'), member('Multi')]);
    expect(res.json().error.validationErrors[0].message).toContain('"zzz"');
    const zh = await savePage({ Id: newId(), Name: 'opts', Multi: 'a, nope' }, {}, { 'accept-language': 'zh-CN' });
    expectInvalid(zh, [member('Multi')]);
    expect(zh.json().error.message).toContain('不在可选项中');
    const ok = await savePage({ Id: newId(), Name: 'opts', Choice: 'b', Multi: ['a', 'b'], Colour: 'red' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a dictionary refuses unknown and disabled items; a record keeps a disabled item it holds', async () => {
    expectInvalid(await savePage({ Id: newId(), Name: 'dict', Colour: 'purple' }), [member('Colour')]);
    expectInvalid(await savePage({ Id: newId(), Name: 'dict', Colour: 'grey' }), [member('Colour')]);
    const id = newId();
    const saved = await savePage({ Id: id, Name: 'dict', Colour: 'blue' });
    expect(saved.statusCode, saved.body).toBe(200);
    // blue is disabled afterwards: the record keeps it, nobody chooses it anew.
    const dictionary = (await t.call(admin, { method: 'GET', url: `/api/app/business-dictionary/${dictionaryId}` })).json();
    const items = dictionary.items.map((i: { id: string; code: string; label: object; parentCode: string | null; isEnabled: boolean }) => ({
      id: i.id, code: i.code, label: i.label, parentCode: i.parentCode, isEnabled: i.code === 'blue' ? false : i.isEnabled,
    }));
    const put = await t.call(admin, { method: 'PUT', url: `/api/app/business-dictionary/${dictionaryId}`, payload: { code: dictionary.code, title: dictionary.title, items } });
    expect(put.statusCode, put.body).toBe(200);
    const record = saved.json().viewDataList[0].dataList[0];
    const kept = await savePage({ ...record, Name: 'dict renamed' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().viewDataList[0].dataList[0].Colour).toBe('blue');
    expectInvalid(await savePage({ Id: newId(), Name: 'dict', Colour: 'blue' }), [member('Colour')]);
    const green = await savePage({ ...kept.json().viewDataList[0].dataList[0], Colour: 'green' });
    expect(green.statusCode, green.body).toBe(200);
    expectInvalid(await savePage({ ...green.json().viewDataList[0].dataList[0], Colour: 'blue' }), [member('Colour')]);
  });

  it('save-view refuses them too', async () => {
    const res = await bd(t, admin, 'save-view', { pageId, viewId, dataList: [{ Name: 'v', Choice: 'a' }, { Name: 'v', Multi: 'b,zzz' }] }, 400);
    expect(res.error.validationErrors[0].members[0]).toMatch(/Multi$/);
  });
});

describe('the Excel import goes through the same rules', () => {
  async function importRows(rows: unknown[][]) {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('x');
    sheet.addRow(['Name', 'Choice', 'Multi', 'Colour', 'Day']);
    for (const row of rows) sheet.addRow(row);
    return importWorkbook(t, admin, { pageId, viewId }, workbook);
  }
  const total = async () => (await bd(t, admin, 'query-view-data', { pageId, viewId, MaxResultCount: 1 })).totalCount as number;

  it('values outside their options and dates out of range: a 400 by row and column, nothing imported', async () => {
    const before = await total();
    const res = await importRows([
      ['fine', 'a', 'a, b', 'red', '2024-01-02'],
      ['bad choice', 'zzz', '', '', ''],
      ['bad multi', '', 'zzz, a', '', ''],
      ['bad colour', '', '', 'purple', ''],
      ['bad day', '', '', '', '0000-01-01'],
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([
      [3, 'Choice'], [4, 'Multi'], [5, 'Colour'], [6, 'Day'],
    ]);
    expect(await total()).toBe(before);
    const ok = await importRows([['fine', 'a', 'a, b', 'red', '9999-12-31']]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await total()).toBe(before + 1);
  });
});
