import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPageDefinition } from '@tessera/core/page-definition';
import { bd, newId, publishPage } from '../../../test/business-data-fixtures.ts';
import { json, startHttpApi, type HttpApiFixture } from '../../../test/http-api-fixture.ts';
import { control, pagesApi, view } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Issue 16: lookups and drop-downs fed by a saved query of an HTTP source (a small API this file
// starts). The source answers its rows whole (filtered by the query's own parameter, the region);
// the window's search, join conditions, order and paging run on those rows in memory; answers are
// kept for the query's cacheSeconds; the save refuses a value the query does not answer; the list
// shows the query's titles; publishing names a missing column.

let t: TestApp;
let admin: string;
let api: HttpApiFixture;
const suffix = randomBytes(4).toString('hex');

const customers = Array.from({ length: 30 }, (_, i) => {
  const n = i + 1;
  return { code: `C${String(n).padStart(3, '0')}`, name: n === 7 ? '百分之百%公司' : `客户${String(n).padStart(2, '0')}`, region: ['east', 'west', 'north'][i % 3]!, credit: n * 100 };
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  api = await startHttpApi({
    '/v1/customers': (req, res) => {
      const region = new URLSearchParams(req.url.split('?')[1] ?? '').get('region');
      json(res, 200, { result: { customers: customers.filter((c) => !region || c.region === region) } });
    },
    '/v1/grades': (_, res) => json(res, 200, [{ grade: 'A', label: '甲级' }, { grade: 'B', label: '乙级' }]),
  });
});
afterAll(async () => {
  await t?.close();
  await api?.close();
});

const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
  const res = await t.call(admin, { method, url, ...(payload ? { payload } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('a page reading a saved query of an HTTP source', () => {
  let sourceId: string;
  let pageId: string;
  let masterId: string;
  const customer = control('Customer', 1010);
  const grade = control('Grade', 1006);
  const big = control('Big', 1010);

  beforeAll(async () => {
    sourceId = (await ok('POST', '/api/app/data-source', { name: `客户接口 ${suffix}`, kind: 'http', baseUrl: `${api.origin}/v1` })).id;
    await ok('POST', `/api/app/data-source/${sourceId}/method`, {
      code: 'customers',
      name: '客户',
      request: { path: '/customers', query: [{ name: 'region', value: '{{region}}' }], rowsPath: 'result.customers' },
      parameters: [{ name: 'region', type: 'text', defaultValue: null }],
      cacheSeconds: 30,
    });
    await ok('POST', `/api/app/data-source/${sourceId}/method`, { code: 'grades', name: '等级', request: { path: '/grades' }, cacheSeconds: 60 });
    customer.extraProperties = {
      sourceQuery: { sourceId, methodCode: 'customers', valueColumn: 'code', parameters: [{ name: 'region', value: '={Region}' }] },
      dataSourceTitle: 'name',
    };
    grade.extraProperties = { sourceQuery: { sourceId, methodCode: 'grades', valueColumn: 'grade', labelColumn: 'label' } };
    big.extraProperties = {
      sourceQuery: { sourceId, methodCode: 'customers', valueColumn: 'code' },
      dataSourceTitle: 'name',
      joinConditions: [{ key: 'credit', judgmentMethod: 'ge', value: '2500' }, { key: 'name', judgmentMethod: 'contains', value: '={Title}', linkCondition: 'and' }],
    };
    const master = view('Order', [control('Title', 1001), control('Region', 1001), customer, grade, big]);
    masterId = master.id;
    pageId = await publishPage(t, admin, `HttpOrder${suffix}`, { viewControls: [master], pageButtons: [], dataLinkages: [] });
  });

  const window = (body: object, c = customer) => bd(t, admin, 'query-open-windows-data', { pageId, dataControlId: c.id, skipCount: 0, maxResultCount: 10, ...body });

  it('the lookup window pages and searches the rows in memory; the record’s region goes to the API as its parameter', async () => {
    const first = await window({});
    expect(first.totalCount).toBe(30);
    expect(first.items).toHaveLength(10);
    expect(first.columns).toEqual([{ code: 'name', title: 'Customer', tableFieldType: 1 }]);
    const pages = [first, await window({ skipCount: 10 }), await window({ skipCount: 20 })].flatMap((p) => p.items);
    expect(new Set(pages.map((i: { Id: string }) => i.Id)).size).toBe(30);

    const west = await window({ record: { Region: 'west' } });
    expect(west.totalCount).toBe(10);
    expect(api.last('/v1/customers')!.url).toBe('/v1/customers?region=west');
    expect((await window({ filter: '客户1' })).items.map((i: { Id: string }) => i.Id)).toEqual(['C010', 'C011', 'C012', 'C013', 'C014', 'C015', 'C016', 'C017', 'C018', 'C019']);
    // The search is text, not a pattern.
    expect((await window({ filter: '%' })).items.map((i: { Id: string }) => i.Id)).toEqual(['C007']);
  });

  it('join conditions hold on the rows (numbers as numbers, text ignoring case), with formulas over the record', async () => {
    const res = await window({ record: { Title: '客户2' }, maxResultCount: 50 }, big);
    expect(res.items.map((i: { Id: string }) => i.Id).sort()).toEqual(['C025', 'C026', 'C027', 'C028', 'C029']);
  });

  it('a drop-down fed by an HTTP query: value and label columns', async () => {
    const drop = await bd(t, admin, 'query-drop-down-data', { pageId, dataControlId: grade.id, skipCount: 0, maxResultCount: 50 });
    expect(drop.totalCount).toBe(2);
    expect(drop.items).toEqual(expect.arrayContaining([{ value: 'A', label: '甲级' }, { value: 'B', label: '乙级' }]));
  });

  it('answers are kept for cacheSeconds: the same parameters do not ask the API again', async () => {
    await window({ record: { Region: 'north' } });
    const count = api.received.length;
    await window({ record: { Region: 'north' }, filter: '客户' });
    await window({ record: { Region: 'north' }, skipCount: 5 });
    expect(api.received.length).toBe(count);
  });

  it('saves a value the query answers and lists its title; refuses one it does not (for the record’s parameters)', async () => {
    const saved = await bd(t, admin, 'save-page', { pageId, viewDataList: [{ viewId: masterId, dataList: [{ Id: newId(), Title: 'O1', Region: 'west', Customer: 'C002', Grade: 'B' }] }] });
    expect(saved.viewDataList[0].businessDataList[0]).toMatchObject({ Customer: '客户02', Grade: '乙级' });
    const list = await bd(t, admin, 'query-view-data', { pageId, viewId: masterId, filterConditions: [] });
    expect(list.labels).toMatchObject({ Customer: { C002: '客户02' }, Grade: { B: '乙级' } });

    const refused = await t.call(admin, { method: 'POST', url: '/api/app/business-data/save-page', payload: { pageId, viewDataList: [{ viewId: masterId, dataList: [{ Id: newId(), Title: 'O2', Region: 'west', Customer: 'C001', Grade: 'Z' }] }] } });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.validationErrors.map((e: { members: string[] }) => e.members[0]).sort()).toEqual(['viewDataList.0.dataList.0.Customer', 'viewDataList.0.dataList.0.Grade']);
  });

  it('the designer’s catalogue lists HTTP queries with their columns; publishing names a column the query does not answer', async () => {
    const entry = (await ok('GET', '/api/app/data-source/queries')).items.find((i: { sourceId: string }) => i.sourceId === sourceId);
    expect(entry).toMatchObject({ kind: 'http' });
    expect(entry.methods.find((m: { code: string }) => m.code === 'customers').columns.map((c: { name: string }) => c.name)).toEqual(['code', 'name', 'region', 'credit']);
    expect(JSON.stringify(entry)).not.toContain(api.origin);
    const pages = pagesApi(t, () => admin);
    const broken = control('Broken', 1010, { extraProperties: { sourceQuery: { sourceId, methodCode: 'customers', valueColumn: 'nope' }, dataSourceTitle: 'name' } });
    const definition: TPageDefinition = { viewControls: [view('Bad', [broken])], pageButtons: [], dataLinkages: [] };
    const page = await pages.create(`HttpBad${suffix}`, definition);
    const check = await pages.ok('POST', `/api/app/page-definition/${page.id}/check`);
    expect(check.ok).toBe(false);
    expect(check.problems.map((p: { message: string }) => p.message).join('\n')).toContain('“nope”');
  });
});
