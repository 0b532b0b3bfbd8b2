import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bd, publishPage } from '../../../test/business-data-fixtures.ts';
import { control, insertRow, pagesApi, view } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Issue 16: the product's own database as a data source (kind `own`): read-only views of the
// published pages in schema `biz_views`, browsed with what they show, queried with bound
// parameters, feeding another page's drop-down; anything but one SELECT of those views refused,
// nothing written; the views follow publishing and deleting. Runs on PGlite (`npm test`) and on the
// PostgreSQL server (DATABASE_URL, .ci/run): there the source has a pool of its own.

let t: TestApp;
let admin: string;
let sourceId: string;
let pageId: string;
const code = control('Code', 1001, { title: '客户编码' });
const name = control('Name', 1001, { title: '客户名称' });
const credit = control('Credit', 1003, { title: '信用额度' });
const phone = control('Phone', 1001, { title: '电话' });
const customer = view('Customer', [code, name, credit], { title: '客户' });
const contact = view('Contact', [phone], { title: '联系人', viewType: 2, parentViewControlId: customer.id, associateForeignKeyCode: 'ParentViewDataId' });
customer.viewControls = [contact];
const definition = { viewControls: [customer], pageButtons: [], dataLinkages: [] };
const ids: Record<string, string> = {};

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => t.call(admin, { method, url, ...(payload ? { payload } : {}) });
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
  const res = await call(method, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const query = (sqlText: string, parameters: object = {}) => call('POST', `/api/app/data-source/${sourceId}/query`, { sql: sqlText, parameters });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  pageId = await publishPage(t, admin, 'OwnCust', definition);
  for (const [i, c] of ['甲', '乙', '丙', '丁'].entries()) {
    ids[c] = await insertRow(t.database.db, customer.id, { Code: `C${i + 1}`, Name: `${c}公司`, Credit: String((i + 1) * 1000) });
  }
  await insertRow(t.database.db, contact.id, { Phone: '010-1' }, ids['甲']!);
  await insertRow(t.database.db, contact.id, { Phone: '010-2' }, ids['甲']!);
  // A deleted record is not in the view.
  await insertRow(t.database.db, customer.id, { Code: 'C9', Name: '已删除', IsDeleted: true });
  sourceId = (await ok('POST', '/api/app/data-source', { name: '本系统', kind: 'own' })).id;
});
afterAll(() => t?.close());

describe('the product’s own database as a source', () => {
  it('is saved without connection settings and always read only; a writable one is refused', async () => {
    const source = await ok('GET', `/api/app/data-source/${sourceId}`);
    expect(source).toMatchObject({ kind: 'own', host: '', port: 0, database: '', readOnly: true, hasPassword: false, http: null });
    const writable = await call('POST', '/api/app/data-source', { name: 'x', kind: 'own', readOnly: false });
    expect(writable.statusCode).toBe(400);
    expect(writable.json().error.validationErrors[0].members).toEqual(['body.readOnly']);
    const test = await ok('POST', `/api/app/data-source/${sourceId}/test`);
    expect(test).toMatchObject({ ok: true, version: expect.stringContaining('PostgreSQL') });
    expect((await ok('POST', '/api/app/data-source/test', { name: 'x', kind: 'own' })).ok).toBe(true);
  });

  it('browses the published pages’ views with what they show, and their columns with the controls’ titles', async () => {
    const objects = await ok('GET', `/api/app/data-source/${sourceId}/objects`);
    expect(objects.schemas).toHaveLength(1);
    expect(objects.schemas[0].name).toBe('biz_views');
    expect(objects.schemas[0].tables).toEqual(
      expect.arrayContaining([
        { name: 'OwnCust__Customer', kind: 'view', comment: 'OwnCust · 客户' },
        { name: 'OwnCust__Contact', kind: 'view', comment: 'OwnCust · 联系人' },
      ]),
    );
    const columns = await ok('GET', `/api/app/data-source/${sourceId}/columns?schema=biz_views&table=OwnCust__Contact`);
    expect(columns.columns.map((c: { name: string }) => c.name)).toEqual(['Id', 'ParentViewDataId', 'Phone', 'DataStatus', 'FlowStatus', 'CreatorId', 'CreationTime', 'LastModifierId', 'LastModificationTime', 'OwnerOrganizationUnitId']);
    expect(columns.columns[2]).toMatchObject({ name: 'Phone', dataType: 'text', comment: '电话' });
    expect(columns.columns[0]).toMatchObject({ isPrimaryKey: true });
  });

  it('runs a SELECT of the views with bound parameters: joins, WITH, aggregates; deleted records are not there', async () => {
    const res = await query(
      `with c as (select * from "OwnCust__Customer" where "Credit" >= :min)
       select c."Code", c."Name", c."Credit", count(p."Id")::int as contacts
         from c left join biz_views."OwnCust__Contact" p on p."ParentViewDataId" = c."Id"
        group by c."Code", c."Name", c."Credit" order by c."Code"`,
      { min: 2000 },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows).toEqual([
      { Code: 'C2', Name: '乙公司', Credit: '2000', contacts: 0 },
      { Code: 'C3', Name: '丙公司', Credit: '3000', contacts: 0 },
      { Code: 'C4', Name: '丁公司', Credit: '4000', contacts: 0 },
    ]);
    expect(res.json().columns).toEqual([
      { name: 'Code', dataType: 'text' },
      { name: 'Name', dataType: 'text' },
      { name: 'Credit', dataType: 'numeric' },
      { name: 'contacts', dataType: 'integer' },
    ]);
    const all = await query('select "Code" from "OwnCust__Customer" order by 1');
    expect(all.json().rows.map((r: { Code: string }) => r.Code)).toEqual(['C1', 'C2', 'C3', 'C4']);
    // A value with SQL in it stays a value.
    const hostile = await query('select count(*)::int as n from "OwnCust__Customer" where "Name" = :name', { name: "x' or '1'='1" });
    expect(hostile.json().rows).toEqual([{ n: 0 }]);
  });

  it.each([
    ['select "UserName" from users', 'DataSource.Refused', '“users”不是已发布页面的视图'],
    ['select * from biz.v_00000000000000000000000000000000', 'DataSource.Refused', '“biz.v_00000000000000000000000000000000”不是已发布页面的视图'],
    ["select set_config('default_transaction_read_only', 'off', false)", 'DataSource.Refused', '不能调用函数“set_config”'],
    ['select pg_sleep(5)', 'DataSource.Refused', '不能调用函数“pg_sleep”'],
    ['delete from "OwnCust__Customer"', 'DataSource.ReadOnly', '是只读的'],
    ['explain analyze select 1', 'DataSource.Refused', '只能执行一条 SELECT'],
    ['with gone as (delete from "OwnCust__Customer" returning *) select * from gone', 'DataSource.Refused', '不能使用 WITH gone (DeleteStmt)'],
    ['select * into copied from "OwnCust__Customer"', 'DataSource.Refused', '不能使用 SELECT INTO'],
  ])('refuses %s (400), writing nothing', async (text, code, message) => {
    const res = await query(text);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe(code);
    expect(res.json().error.message).toContain(message);
    expect(res.json().error.validationErrors[0].members).toEqual(['sql']);
    const left = await sql<{ n: number }>`select count(*)::int as n from biz_views."OwnCust__Customer"`.execute(t.database.db);
    expect(left.rows[0]!.n).toBe(4);
  });

  it('answers an SQL error of the caller’s as a 400 with the database’s words', async () => {
    const res = await query('select "Nope" from "OwnCust__Customer"');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'DataSource.QueryFailed', message: expect.stringContaining('Nope') });
  });

  it('feeds another page’s drop-down through a saved query, filtered on the database by bound values', async () => {
    await ok('POST', `/api/app/data-source/${sourceId}/method`, {
      code: 'customers',
      name: '客户',
      sql: 'select "Code" as code, "Name" as name from "OwnCust__Customer" where "Credit" >= :min',
      parameters: [{ name: 'min', type: 'number', defaultValue: 0 }],
    });
    const pick = control('Customer', 1010, { extraProperties: { sourceQuery: { sourceId, methodCode: 'customers', valueColumn: 'code', parameters: [{ name: 'min', value: '1500' }] }, dataSourceTitle: 'name' } });
    const orders = await publishPage(t, admin, 'OwnOrder', { viewControls: [view('Order', [pick])], pageButtons: [], dataLinkages: [] });
    const open = (filter: string) => bd(t, admin, 'query-open-windows-data', { pageId: orders, dataControlId: pick.id, skipCount: 0, maxResultCount: 10, filter });
    const all = await open('');
    expect(all.totalCount).toBe(3);
    expect(all.items).toContainEqual({ Id: 'C2', name: '乙公司' });
    expect((await open('丙')).items).toEqual([{ Id: 'C3', name: '丙公司' }]);
    expect((await open('%')).totalCount).toBe(0);
  });

  it('is not offered to the data factory for stored routines', async () => {
    const sources = await ok('GET', '/api/app/data-factory/sources');
    expect(sources.items.map((s: { id: string }) => s.id)).not.toContain(sourceId);
    const routines = await call('GET', `/api/app/data-factory/sources/${sourceId}/routines`);
    expect(routines.statusCode).toBe(400);
    expect(routines.json().error.message).toContain('请在数据工厂中编写过程');
  });

  it('follows publishing: a new control is a new column, a removed one goes without blocking the change; deleting the page drops its views', async () => {
    const api = pagesApi(t, () => admin);
    const grade = control('Grade', 1001, { title: '等级' });
    const next = { viewControls: [{ ...customer, dataControls: [code, name, grade], viewControls: [contact] }], pageButtons: [], dataLinkages: [] };
    await api.save(pageId, next);
    const published = await api.publish(pageId, { confirmHideColumns: true });
    expect(published.statusCode, published.body).toBe(200);
    const columns = await ok('GET', `/api/app/data-source/${sourceId}/columns?schema=biz_views&table=OwnCust__Customer`);
    const names = columns.columns.map((c: { name: string }) => c.name);
    expect(names).toContain('Grade');
    expect(names).not.toContain('Credit');
    expect((await query('select "Credit" from "OwnCust__Customer"')).statusCode).toBe(400);

    const page = await publishPage(t, admin, 'OwnGone', { viewControls: [view('Main', [control('A', 1001)])], pageButtons: [], dataLinkages: [] });
    expect((await query('select * from "OwnGone__Main"')).statusCode).toBe(200);
    expect((await call('DELETE', `/api/app/page-definition/${page}`)).statusCode).toBe(204);
    const gone = await query('select * from "OwnGone__Main"');
    expect(gone.statusCode).toBe(400);
    expect(gone.json().error.code).toBe('DataSource.Refused');
  });
});
