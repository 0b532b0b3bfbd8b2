import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bd, publishPage } from '../../../test/business-data-fixtures.ts';
import { control, insertRow, pagesApi, view } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Issue 16: a control's default from a saved query of a data source (extraProperties.defaultSourceQuery):
// a new record asks the server, which runs the query with its parameters from the record and answers
// the value column of the first row. The source here is the product's own database (a published
// "Rates" page), so the test runs on the embedded database and on the PostgreSQL server alike.

let t: TestApp;
let admin: string;
let sourceId: string;
let orderPage: string;
const rateView = view('Rate', [control('Currency', 1001), control('Value', 1003, { extraProperties: { accuracy: 4 } })]);
const currency = control('Currency', 1001, { defaultValue: 'EUR' });
const rate = control('Rate', 1003, { extraProperties: { accuracy: 4 } });
const note = control('Note', 1001);

const ok = async (method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await t.call(admin, { method, url, ...(payload ? { payload } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  await publishPage(t, admin, 'Rates', { viewControls: [rateView], pageButtons: [], dataLinkages: [] });
  await insertRow(t.database.db, rateView.id, { Currency: 'EUR', Value: '7.5000' });
  await insertRow(t.database.db, rateView.id, { Currency: 'EUR', Value: '7.8100' });
  await insertRow(t.database.db, rateView.id, { Currency: 'USD', Value: '7.1000' });
  sourceId = (await ok('POST', '/api/app/data-source', { name: '本系统', kind: 'own' })).id;
  await ok('POST', `/api/app/data-source/${sourceId}/method`, {
    code: 'latest_rate',
    name: '最新汇率',
    sql: 'select "Value" as value from "Rates__Rate" where "Currency" = :cur order by "CreationTime" desc',
    parameters: [{ name: 'cur', type: 'text', defaultValue: 'USD' }],
  });
  rate.extraProperties = { ...rate.extraProperties, defaultSourceQuery: { sourceId, methodCode: 'latest_rate', valueColumn: 'value', parameters: [{ name: 'cur', value: '={Currency}' }] } };
  orderPage = await publishPage(t, admin, 'FxOrder', { viewControls: [view('Order', [currency, rate, note])], pageButtons: [], dataLinkages: [] });
});
afterAll(() => t?.close());

const fetchDefault = (dataControlId: string, record: object | null, status = 200) => bd(t, admin, 'source-default', { pageId: orderPage, dataControlId, record }, status);

describe('a default value from a data-source query', () => {
  it('answers the value column of the first row, the query’s parameters from the new record', async () => {
    expect(await fetchDefault(rate.id, { Currency: 'EUR' })).toEqual({ value: '7.8100' });
    expect(await fetchDefault(rate.id, { Currency: 'USD' })).toEqual({ value: '7.1000' });
  });

  it('answers null when the query has no row, and a hostile value stays a value', async () => {
    expect(await fetchDefault(rate.id, { Currency: 'GBP' })).toEqual({ value: null });
    expect(await fetchDefault(rate.id, { Currency: "x' or '1'='1" })).toEqual({ value: null });
  });

  it('refuses a control whose default does not come from a query, and bad input, with a 400', async () => {
    const refused = await fetchDefault(note.id, {}, 400);
    expect(refused.error.message).toContain('Note');
    const bad = await t.call(admin, { method: 'POST', url: '/api/app/business-data/source-default', payload: { pageId: orderPage, dataControlId: rate.id, record: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.validationErrors.length).toBeGreaterThan(0);
    expect((await t.call(null, { method: 'POST', url: '/api/app/business-data/source-default', payload: { pageId: orderPage, dataControlId: rate.id } })).statusCode).toBe(401);
  });

  it('the designer offers it for plain controls, and publishing names a missing query, column or parameter', async () => {
    const designer = await ok('GET', '/api/app/control-designer');
    const keysOf = (code: number) => designer.controlTypes.find((c: { code: number }) => c.code === code).properties.map((p: { key: string }) => p.key);
    expect(keysOf(1003)).toContain('extraProperties.defaultSourceQuery');
    expect(keysOf(1013)).not.toContain('extraProperties.defaultSourceQuery');

    const api = pagesApi(t, () => admin);
    const broken = control('Broken', 1001, { extraProperties: { defaultSourceQuery: { sourceId, methodCode: 'latest_rate', valueColumn: 'nope', parameters: [{ name: 'other', value: '1' }] } } });
    const missing = control('Missing', 1001, { extraProperties: { defaultSourceQuery: { sourceId, methodCode: 'gone', valueColumn: 'value' } } });
    const page = await api.create('FxBroken', { viewControls: [view('Main', [broken, missing])], pageButtons: [], dataLinkages: [] });
    const res = await api.publish(page.id);
    expect(res.statusCode).toBe(400);
    const messages = res.json().error.details.problems.map((p: { message: string }) => p.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        '控件“Broken”的默认值查询“latest_rate”的结果中没有列“nope”',
        '控件“Broken”的默认值给出的参数 :other 不是查询“latest_rate”的参数',
        '控件“Missing”的默认值查询“gone”不存在',
      ]),
    );
  });
});
