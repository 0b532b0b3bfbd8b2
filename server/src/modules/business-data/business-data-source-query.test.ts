import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPageDefinition } from '@tessera/core/page-definition';
import { bd, newId, publishPage } from '../../../test/business-data-fixtures.ts';
import { control, insertRow, pagesApi, view } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Issue 16: lookups and drop-downs fed by a saved query of an external data source — the real
// MariaDB (127.0.0.1:3306, root, database `test`) and PostgreSQL of this machine. The window
// searches and pages on the source with bound values, the query's parameters come from the record,
// the list shows the query's titles, the save refuses a value the query does not answer, publishing
// names a missing query or column, and a source that is down answers a clear error (the list still
// opens).

let t: TestApp;
let admin: string;
const suffix = randomBytes(4).toString('hex');
const table = `tessera_sq_${suffix}`;
const schema = `tessera_sq_${suffix}`;
let maria: mysql.Connection;
let postgres: pg.Client;
const pgUser = (process.env.DATABASE_URL && new globalThis.URL(process.env.DATABASE_URL).username) || 'postgres';
const SOURCES = {
  mysql: { kind: 'mysql', host: '127.0.0.1', port: 3306, database: 'test', user: 'root', table },
  postgres: { kind: 'postgres', host: '127.0.0.1', port: 5432, database: 'postgres', user: pgUser, table: `${schema}.customers` },
} as const;

// 30 customers: C001…C030, three regions; two with LIKE's wildcards and a quote in their names.
const customers = Array.from({ length: 30 }, (_, i) => {
  const n = i + 1;
  const name = n === 7 ? '百分之百%公司' : n === 8 ? "O'Brien_Ltd" : `客户${String(n).padStart(2, '0')}`;
  return { code: `C${String(n).padStart(3, '0')}`, name, region: ['east', 'west', 'north'][i % 3]!, credit: n * 100 };
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  maria = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', database: 'test' });
  await maria.query(`create table ${table} (code varchar(10) primary key, name varchar(50) not null, region varchar(10), credit decimal(12,2))`);
  await maria.query(`insert into ${table} values ?`, [customers.map((c) => [c.code, c.name, c.region, c.credit])]);
  postgres = new pg.Client({ host: '127.0.0.1', port: 5432, user: pgUser, database: 'postgres' });
  await postgres.connect();
  await postgres.query(`create schema ${schema}; create table ${schema}.customers (code text primary key, name text not null, region text, credit numeric(12,2))`);
  for (const c of customers) await postgres.query(`insert into ${schema}.customers values ($1, $2, $3, $4)`, [c.code, c.name, c.region, c.credit]);
});
afterAll(async () => {
  await maria?.query(`drop table if exists ${table}`);
  await maria?.end();
  await postgres?.query(`drop schema if exists ${schema} cascade`);
  await postgres?.end();
  await t?.close();
});

const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
  const res = await t.call(admin, { method, url, ...(payload ? { payload } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe.each(['mysql', 'postgres'] as const)('a page reading a saved query of %s', (kind) => {
  const { table: from, ...settings } = SOURCES[kind];
  let sourceId: string;
  let pageId: string;
  let masterId: string;
  const customer = control('Customer', 1010);
  const grade = control('Grade', 1006);
  const regionControl = control('Region', 1001);
  const customerName = control('CustomerName', 1001);
  const big = control('Big', 1010);
  const either = control('Either', 1010);
  const grouped = control('Grouped', 1010);

  beforeAll(async () => {
    sourceId = (await ok('POST', '/api/app/data-source', { name: `客户库 ${kind} ${suffix}`, ...settings })).id;
    await ok('POST', `/api/app/data-source/${sourceId}/method`, {
      code: 'customers',
      name: '客户',
      sql: `select code, name, region, credit from ${from} where region like :region`,
      parameters: [{ name: 'region', type: 'text', defaultValue: '%' }],
      cacheSeconds: 30,
    });
    await ok('POST', `/api/app/data-source/${sourceId}/method`, {
      code: 'grades',
      name: '等级',
      sql: `select 'A' as grade, '甲级' as label union all select 'B', '乙级'`,
      cacheSeconds: 60,
    });
    customer.extraProperties = {
      sourceQuery: { sourceId, methodCode: 'customers', valueColumn: 'code', parameters: [{ name: 'region', value: '=IF({Region} = "", "%", {Region})' }] },
      dataSourceTitle: 'name',
      mapFields: [{ sourceCode: 'name', targetCode: 'CustomerName' }],
    };
    grade.extraProperties = { sourceQuery: { sourceId, methodCode: 'grades', valueColumn: 'grade', labelColumn: 'label' } };
    const query = { sourceId, methodCode: 'customers', valueColumn: 'code' };
    big.extraProperties = { sourceQuery: query, dataSourceTitle: 'name', joinConditions: [{ key: 'credit', judgmentMethod: 'ge', value: '2500' }, { key: 'name', judgmentMethod: 'contains', value: '={Title}', linkCondition: 'and' }] };
    either.extraProperties = { sourceQuery: query, dataSourceTitle: 'name', joinConditions: [{ key: 'credit', judgmentMethod: 'lt', value: '200' }, { key: 'credit', judgmentMethod: 'gt', value: '2900', linkCondition: 'or' }] };
    grouped.extraProperties = { sourceQuery: query, dataSourceTitle: 'name', joinConditions: [{ key: 'credit', judgmentMethod: 'lt', value: '200', leftBracket: '(' }, { key: 'credit', judgmentMethod: 'gt', value: '100', rightBracket: ')' }] };
    const master = view('Order', [control('Title', 1001), regionControl, customer, customerName, grade, big, either, grouped]);
    masterId = master.id;
    pageId = await publishPage(t, admin, `SqOrder${kind}`, { viewControls: [master], pageButtons: [], dataLinkages: [] });
  });

  const window = (body: object) => bd(t, admin, 'query-open-windows-data', { pageId, dataControlId: customer.id, skipCount: 0, maxResultCount: 10, ...body });

  it('the lookup window pages and searches the query on the source; the record’s region is its parameter', async () => {
    const first = await window({});
    expect(first.totalCount).toBe(30);
    expect(first.items).toHaveLength(10);
    // Headed by the lookup's own title (its display field, mapped into CustomerName too).
    expect(first.columns).toEqual([{ code: 'name', title: 'Customer', tableFieldType: 1 }]);
    const pages = [first, await window({ skipCount: 10 }), await window({ skipCount: 20 })].flatMap((p) => p.items);
    expect(new Set(pages.map((i: { Id: string }) => i.Id)).size).toBe(30);
    expect(pages).toContainEqual({ Id: 'C001', name: '客户01' });

    const east = await window({ record: { Region: 'east' } });
    expect(east.totalCount).toBe(10);
    expect(east.items.every((i: { Id: string }) => Number(i.Id.slice(1)) % 3 === 1)).toBe(true);

    expect((await window({ filter: '客户1' })).items.map((i: { Id: string }) => i.Id)).toEqual(['C010', 'C011', 'C012', 'C013', 'C014', 'C015', 'C016', 'C017', 'C018', 'C019']);
  });

  it('search text and values are bound: wildcards are literal, quotes and SQL in them find nothing and break nothing', async () => {
    expect((await window({ filter: '%' })).items.map((i: { Id: string }) => i.Id)).toEqual(['C007']);
    expect((await window({ filter: '_' })).items.map((i: { Id: string }) => i.Id)).toEqual(['C008']);
    expect((await window({ filter: "O'Brien" })).items.map((i: { Id: string }) => i.Id)).toEqual(['C008']);
    expect((await window({ filter: "' or 1=1 -- " })).totalCount).toBe(0);
    expect((await window({ record: { Region: "x' or '1'='1" } })).totalCount).toBe(0);
    const rows = kind === 'mysql' ? ((await maria.query(`select count(*) as n from ${table}`)) as [{ n: number }[], unknown])[0][0]!.n : Number((await postgres.query(`select count(*) as n from ${from}`)).rows[0].n);
    expect(Number(rows)).toBe(30);
  });

  it('join conditions run on the source (their formulas over the record); OR or brackets are refused by name', async () => {
    const open = (c: { id: string }, record: object) => t.call(admin, { method: 'POST', url: '/api/app/business-data/query-open-windows-data', payload: { pageId, dataControlId: c.id, skipCount: 0, maxResultCount: 50, record } });
    const res = await open(big, { Title: '客户2' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((i: { Id: string }) => i.Id).sort()).toEqual(['C025', 'C026', 'C027', 'C028', 'C029']);
    const refused = await open(either, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.validationErrors[0]).toMatchObject({ members: ['joinConditions[1]'], message: expect.stringContaining('Either') });
    const bracketed = await open(grouped, {});
    expect(bracketed.statusCode).toBe(400);
    expect(bracketed.json().error.validationErrors[0]).toMatchObject({ members: ['joinConditions[0]'], message: expect.stringContaining('Grouped') });
  });

  it('a drop-down fed by a query: value and label columns', async () => {
    const drop = await bd(t, admin, 'query-drop-down-data', { pageId, dataControlId: grade.id, skipCount: 0, maxResultCount: 50 });
    expect(drop.totalCount).toBe(2);
    expect(drop.items).toEqual(expect.arrayContaining([{ value: 'A', label: '甲级' }, { value: 'B', label: '乙级' }]));
  });

  it('saves a value the query answers and shows its title; refuses one it does not (for the record’s parameters)', async () => {
    const id = newId();
    const saved = await bd(t, admin, 'save-page', { pageId, viewDataList: [{ viewId: masterId, dataList: [{ Id: id, Title: 'O1', Region: 'west', Customer: 'C002', CustomerName: '客户02', Grade: 'B' }] }] });
    expect(saved.viewDataList[0].businessDataList[0]).toMatchObject({ Customer: '客户02', Grade: '乙级' });
    const list = await bd(t, admin, 'query-view-data', { pageId, viewId: masterId, filterConditions: [] });
    expect(list.items[0]).toMatchObject({ Customer: 'C002', Grade: 'B' });
    expect(list.labels).toMatchObject({ Customer: { C002: '客户02' }, Grade: { B: '乙级' } });

    // C001 is in the east: not an answer of the query for a western record.
    const refused = await t.call(admin, { method: 'POST', url: '/api/app/business-data/save-page', payload: { pageId, viewDataList: [{ viewId: masterId, dataList: [{ Id: newId(), Title: 'O2', Region: 'west', Customer: 'C001', Grade: 'Z' }] }] } });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.validationErrors.map((e: { members: string[] }) => e.members[0]).sort()).toEqual(['viewDataList.0.dataList.0.Customer', 'viewDataList.0.dataList.0.Grade'].sort());
  });

  it('answers are kept for the query’s cacheSeconds: the same window again does not ask the source', async () => {
    const before = await window({ filter: '客户03' });
    expect(before.items).toEqual([{ Id: 'C003', name: '客户03' }]);
    if (kind === 'mysql') await maria.query(`update ${table} set name = '客户03（新）' where code = 'C003'`);
    else await postgres.query(`update ${from} set name = '客户03（新）' where code = 'C003'`);
    expect((await window({ filter: '客户03' })).items).toEqual([{ Id: 'C003', name: '客户03' }]);
    expect((await window({ filter: '（新）' })).items).toEqual([{ Id: 'C003', name: '客户03（新）' }]);
    // Saving the query forgets its kept answers.
    const saved = (await ok('GET', `/api/app/data-source/${sourceId}/method`)).items.find((m: { code: string }) => m.code === 'customers');
    await ok('PUT', `/api/app/data-source/${sourceId}/method/${saved.id}`, { ...saved, concurrencyStamp: saved.concurrencyStamp });
    expect((await window({ filter: '客户03' })).items).toEqual([{ Id: 'C003', name: '客户03（新）' }]);
  });

  it('the designer’s catalogue lists the queries that return rows with their parameters and columns, never their SQL', async () => {
    const catalogue = await ok('GET', '/api/app/data-source/queries');
    const entry = catalogue.items.find((i: { sourceId: string }) => i.sourceId === sourceId);
    expect(entry.methods.map((m: { code: string }) => m.code).sort()).toEqual(['customers', 'grades']);
    const customers = entry.methods.find((m: { code: string }) => m.code === 'customers');
    expect(customers.parameters).toEqual([{ name: 'region', type: 'text' }]);
    expect(customers.columns.map((c: { name: string }) => c.name)).toEqual(['code', 'name', 'region', 'credit']);
    expect(JSON.stringify(catalogue)).not.toContain('select ');
    expect(JSON.stringify(catalogue)).not.toContain('127.0.0.1');
  });

  it('publishing names a query, a column or a parameter that does not exist', async () => {
    const api = pagesApi(t, () => admin);
    const broken = control('Broken', 1010, { extraProperties: { sourceQuery: { sourceId, methodCode: 'customers', valueColumn: 'nope', parameters: [{ name: 'city', value: 'x' }] }, dataSourceTitle: 'name' } });
    const gone = control('Gone', 1006, { extraProperties: { sourceQuery: { sourceId, methodCode: 'missing', valueColumn: 'code' } } });
    const definition: TPageDefinition = { viewControls: [view('Bad', [broken, gone])], pageButtons: [], dataLinkages: [] };
    const page = await api.create(`SqBad${kind}`, definition);
    const check = await api.ok('POST', `/api/app/page-definition/${page.id}/check`);
    expect(check.ok).toBe(false);
    const messages = check.problems.map((p: { message: string }) => p.message).join('\n');
    expect(messages).toContain('“nope”');
    expect(messages).toContain(':city');
    expect(messages).toContain('“missing”');
  });
});

describe('a source that is down', () => {
  it('answers the window with a 502 naming the source, quickly; the list still opens with the stored values', async () => {
    const source = await ok('POST', '/api/app/data-source', { name: `无人监听 ${suffix}`, kind: 'mysql', host: '127.0.0.1', port: 1, database: 'test', user: 'root' });
    // The query is saved while the source answers: saved against the real server, then pointed at a closed port.
    const live = await ok('POST', '/api/app/data-source', { name: `临时 ${suffix}`, ...SOURCES.mysql, table: undefined });
    await ok('POST', `/api/app/data-source/${live.id}/method`, { code: 'customers', name: '客户', sql: `select code, name from ${table}` });
    await t.database.db.updateTable('data_source_methods').set({ source_id: source.id }).where('source_id', '=', live.id).execute();

    const lookup = control('Customer', 1010, { extraProperties: { sourceQuery: { sourceId: source.id, methodCode: 'customers', valueColumn: 'code' }, dataSourceTitle: 'name' } });
    const master = view('Down', [control('Title', 1001), lookup]);
    const pageId = await publishPage(t, admin, 'SqDown', { viewControls: [master], pageButtons: [], dataLinkages: [] });
    const started = Date.now();
    const res = await t.call(admin, { method: 'POST', url: '/api/app/business-data/query-open-windows-data', payload: { pageId, dataControlId: lookup.id, skipCount: 0, maxResultCount: 10 } });
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json().error.message).toContain(`无人监听 ${suffix}`);
    expect(Date.now() - started).toBeLessThan(6_000);

    // A record saved before the source went down (written directly) still lists, showing its value.
    await insertRow(t.database.db, master.id, { Title: 'T1', Customer: JSON.stringify('C005') });
    const list = await bd(t, admin, 'query-view-data', { pageId, viewId: master.id, filterConditions: [] });
    expect(list.items[0]).toMatchObject({ Title: 'T1', Customer: 'C005' });
    expect(list.labels.Customer).toEqual({ C005: 'C005' });

    // A new value cannot be checked while the source is down: the save answers 502 and writes nothing.
    const save = await t.call(admin, { method: 'POST', url: '/api/app/business-data/save-page', payload: { pageId, viewDataList: [{ viewId: master.id, dataList: [{ Title: 'T2', Customer: 'C006' }] }] } });
    expect(save.statusCode, save.body).toBe(502);
    expect((await bd(t, admin, 'query-view-data', { pageId, viewId: master.id, filterConditions: [] })).items).toHaveLength(1);
    // Unchanged values are not asked: the stored record saves with another title.
    const kept = await t.call(admin, { method: 'POST', url: '/api/app/business-data/save-page', payload: { pageId, viewDataList: [{ viewId: master.id, dataList: [{ ...list.items[0], Title: 'T1b' }] }] } });
    expect(kept.statusCode, kept.body).toBe(200);
  });
});
