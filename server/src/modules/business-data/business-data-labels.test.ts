import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { bizPermission } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { BD, bd, createDictionary, importWorkbook, newId, publishPage } from '../../../test/business-data-fixtures.ts';
import { control, view } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { bizTable, bizTableName } from '../pages/index.ts';

// Issue 12, defects 1 and 2: a field bound to a business dictionary, a static option list or a
// lookup shows labels (in the caller's language) in the list, the Excel export and the history,
// while the stored value stays the code / id; the import reads labels or codes and stores codes;
// values that are not enabled items, or lookup ids of rows the caller may not see, are refused.

let t: TestApp;
let admin: string;
let ann: string;
let bob: string;
let orderPageId: string;
let orderViewId: string;
let linesViewId: string;
let customerPageId: string;
let customerViewId: string;
let dictionaryId: string;
const customers: Record<string, string> = {};

const supplierControl = control('Supplier', 1006, { title: '供应商', options: { dictionaryCode: 'LblSupplier' } });
const tagsControl = control('Tags', 1008, { options: [{ label: 'Urgent', value: 'u' }, { label: 'Fragile', value: 'f' }] });
const customerControl = control('Customer', 1010, { extraProperties: { dataSourceId: '', dataSourceTitle: 'CustomerName' } });
const makerControl = control('Maker', 1006, { options: { dictionaryCode: 'LblSupplier' } });

const langs = { zh: { 'accept-language': 'zh-CN' }, en: { 'accept-language': 'en-US' } };
const saveOrder = (token: string, record: object, lines: object[] = [], headers: Record<string, string> = langs.zh) =>
  t.call(token, { method: 'POST', url: `${BD}/save-page`, headers, payload: { pageId: orderPageId, viewDataList: [{ viewId: orderViewId, dataList: [record] }, { viewId: linesViewId, dataList: lines }] } });
const stored = async (viewId: string, id: string) => (await sql<Record<string, unknown>>`select * from ${bizTable(bizTableName(viewId))} where "Id" = ${id}`.execute(t.database.db)).rows[0];
const list = async (token: string, headers: Record<string, string>, filter: object[] = []) => {
  const res = await t.call(token, { method: 'POST', url: `${BD}/query-view-data`, headers, payload: { pageId: orderPageId, viewId: orderViewId, filterConditions: filter, Sorting: 'Name asc' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
function expectInvalid(res: { statusCode: number; body: string; json: () => any }, member: string, text: RegExp) {
  expect(res.statusCode, res.body).toBe(400);
  const errors = res.json().error.validationErrors as { message: string; members: string[] }[];
  expect(errors.map((e) => e.members[0])).toEqual([member]);
  expect(errors[0]!.message).toMatch(text);
}
async function sheetsOf(payload: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(payload as unknown as ArrayBuffer);
  return workbook.worksheets.map((sheet) => {
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  });
}
function workbookOf(header: string[], rows: unknown[][], lines?: { header: string[]; rows: unknown[][] }) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Order');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  if (lines) {
    const child = workbook.addWorksheet('Lines');
    child.addRow(lines.header);
    for (const row of lines.rows) child.addRow(row);
  }
  return workbook;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  dictionaryId = await createDictionary(t, admin, {
    code: 'LblSupplier',
    title: { 'zh-CN': '供应商', 'en-US': 'Supplier' },
    items: [
      { code: 'S001', label: { 'zh-CN': '供应商甲', 'en-US': 'Supplier A' } },
      { code: 'S002', label: { 'zh-CN': '供应商乙', 'en-US': 'Supplier B' } },
      { code: 'S003', label: { 'zh-CN': '供应商丙', 'en-US': 'Supplier C' } },
    ],
  });

  const customer = view('Customer', [control('CustomerName', 1001)]);
  customerViewId = customer.id;
  customerPageId = await publishPage(t, admin, 'LblCustomer', { viewControls: [customer], pageButtons: [], dataLinkages: [] });
  customerControl.extraProperties = { dataSourceId: customer.id, dataSourceTitle: 'CustomerName' };

  const master = view('Order', [control('Name', 1001), supplierControl, tagsControl, customerControl]);
  const lines = view('Lines', [control('Product', 1001), makerControl], { viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId' });
  master.viewControls = [lines];
  orderViewId = master.id;
  linesViewId = lines.id;
  orderPageId = await publishPage(t, admin, 'LblOrder', { viewControls: [master], pageButtons: [], dataLinkages: [] });

  // ann and bob see only the customers they created (data scope "own" on the customer page).
  const db = t.database.db;
  const role = await createRole(db, 'clerks');
  await grant(db, 'R', role, [
    ...pageWorkCodes('LblOrder'),
    ...['Name', 'Supplier', 'Tags', 'Customer', 'Product', 'Maker'].map((f) => bizPermission.fieldEdit('LblOrder', f)),
    ...pageWorkCodes('LblCustomer'),
    bizPermission.fieldEdit('LblCustomer', 'CustomerName'),
  ]);
  const scope = await t.call(admin, { method: 'PUT', url: `/api/app/data-scopes?roleId=${role}`, payload: { items: [{ pageKey: 'LblCustomer', scope: 'own', customFilter: null }] } });
  expect(scope.statusCode, scope.body).toBe(200);
  await createUser(db, 'ann', { roles: [role] });
  await createUser(db, 'bob', { roles: [role] });
  ann = await t.login('ann', FIXTURE_PASSWORD);
  bob = await t.login('bob', FIXTURE_PASSWORD);
  for (const [who, token, name] of [['acme', ann, 'Acme Ltd'], ['bolt', bob, 'Bolt Inc'], ['twin1', ann, 'Twin'], ['twin2', ann, 'Twin']] as const) {
    const id = newId();
    await bd(t, token, 'save-page', { pageId: customerPageId, viewDataList: [{ viewId: customerViewId, dataList: [{ Id: id, CustomerName: name }] }] });
    customers[who] = id;
  }
});
afterAll(() => t.close());

describe('labels where a person reads a value', () => {
  let orderId: string;
  beforeAll(async () => {
    orderId = newId();
    const res = await saveOrder(ann, { Id: orderId, Name: 'L1', Supplier: 'S001', Tags: ['u', 'f'], Customer: customers.acme }, [{ Product: 'Pen', Maker: 'S002' }]);
    expect(res.statusCode, res.body).toBe(200);
    // The save's answer reads the way the form does: display texts with labels.
    expect(res.json().viewDataList[0].businessDataList[0]).toMatchObject({ Supplier: '供应商甲', Tags: 'Urgent, Fragile', Customer: 'Acme Ltd' });
  });

  it('the page data’s display texts (businessDataList) show labels in the caller’s language', async () => {
    const zh = (await t.call(ann, { method: 'POST', url: `${BD}/query-page-data`, headers: langs.zh, payload: { pageId: orderPageId, id: orderId } })).json();
    expect(zh.viewDataList[0].dataList[0]).toMatchObject({ Supplier: 'S001', Customer: customers.acme });
    expect(zh.viewDataList[0].businessDataList[0]).toMatchObject({ Supplier: '供应商甲', Tags: 'Urgent, Fragile', Customer: 'Acme Ltd' });
    expect(zh.viewDataList[1].businessDataList[0]).toMatchObject({ Product: 'Pen', Maker: '供应商乙' });
    const en = (await t.call(ann, { method: 'POST', url: `${BD}/query-page-data`, headers: langs.en, payload: { pageId: orderPageId, id: orderId } })).json();
    expect(en.viewDataList[0].businessDataList[0].Supplier).toBe('Supplier A');
  });

  it('the list answers the stored codes and their labels in the caller’s language', async () => {
    const zh = await list(ann, langs.zh, [{ key: 'Name', judgmentMethod: 'eq', value: 'L1' }]);
    expect(zh.items[0]).toMatchObject({ Supplier: 'S001', Tags: ['u', 'f'], Customer: customers.acme });
    expect(zh.labels).toEqual({ Supplier: { S001: '供应商甲' }, Tags: { u: 'Urgent', f: 'Fragile' }, Customer: { [customers.acme!]: 'Acme Ltd' } });
    const en = await list(ann, langs.en, [{ key: 'Name', judgmentMethod: 'eq', value: 'L1' }]);
    expect(en.labels.Supplier).toEqual({ S001: 'Supplier A' });
    // The administrator sees every customer; bob may not see ann's: he reads the id, not its title.
    const other = await list(admin, langs.en, [{ key: 'Name', judgmentMethod: 'eq', value: 'L1' }]);
    expect(other.labels.Customer).toEqual({ [customers.acme!]: 'Acme Ltd' });
    const hidden = await list(bob, langs.en, [{ key: 'Name', judgmentMethod: 'eq', value: 'L1' }]);
    expect(hidden.labels.Customer).toEqual({ [customers.acme!]: customers.acme });
    expect((await stored(orderViewId, orderId))!.Supplier).toBe('S001');
  });

  it('the export writes labels (master and child sheets); the file imports back as it is, storing codes and ids', async () => {
    const res = await t.call(ann, { method: 'POST', url: `${BD}/export-view-data`, headers: langs.zh, payload: { pageId: orderPageId, viewId: orderViewId, filterConditions: [{ key: 'Name', judgmentMethod: 'eq', value: 'L1' }] } });
    expect(res.statusCode, res.body).toBe(200);
    const [masterSheet, linesSheet] = await sheetsOf(res.rawPayload);
    expect(masterSheet).toEqual([['Name', '供应商', 'Tags', 'Customer'], ['L1', '供应商甲', 'Urgent, Fragile', 'Acme Ltd']]);
    expect(linesSheet![1]).toEqual([2, 'Pen', '供应商乙']);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    workbook.worksheets[0]!.getCell('A2').value = 'L1 again';
    const imported = await importWorkbook(t, ann, { pageId: orderPageId, viewId: orderViewId }, workbook);
    expect(imported.statusCode, imported.body).toBe(200);
    const again = (await list(ann, langs.zh, [{ key: 'Name', judgmentMethod: 'eq', value: 'L1 again' }])).items[0];
    const row = await stored(orderViewId, again.Id);
    expect([row!.Supplier, JSON.parse(String(row!.Tags)), row!.Customer]).toEqual(['S001', ['u', 'f'], customers.acme]);
    const page = await bd(t, ann, 'query-page-data', { pageId: orderPageId, id: again.Id });
    expect(page.viewDataList[1].dataList[0].Maker).toBe('S002');
  });

  it('the history shows labels beside the stored values', async () => {
    const current = (await bd(t, ann, 'query-page-data', { pageId: orderPageId, id: orderId })).viewDataList[0].dataList[0];
    const res = await saveOrder(ann, { ...current, Supplier: 'S002', Tags: ['f'] }, [{ Product: 'Pen', Maker: 'S001' }]);
    expect(res.statusCode, res.body).toBe(200);
    const history = await t.call(ann, { method: 'GET', url: `${BD}/record-history?pageId=${orderPageId}&id=${orderId}`, headers: langs.zh });
    expect(history.statusCode, history.body).toBe(200);
    const changes = history.json().items[0].changes as { code: string; before: unknown; after: unknown; beforeText?: string; afterText?: string }[];
    const byCode = Object.fromEntries(changes.map((c) => [c.code, c]));
    expect(byCode.Supplier).toMatchObject({ before: 'S001', after: 'S002', beforeText: '供应商甲', afterText: '供应商乙' });
    expect(byCode.Tags).toMatchObject({ beforeText: 'Urgent, Fragile', afterText: 'Fragile' });
    expect(byCode.Name).toBeUndefined();
    const created = history.json().items[1].changes.find((c: { code: string }) => c.code === 'Customer');
    expect(created).toMatchObject({ after: customers.acme, afterText: 'Acme Ltd' });
  });
});

describe('the import reads a label in any language or a code, and stores the code', () => {
  it('zh and en labels, codes, static labels and lookup titles; bad ones are refused by row and column', async () => {
    const header = ['Name', '供应商', 'Tags', 'Customer'];
    const ok = await importWorkbook(t, ann, { pageId: orderPageId, viewId: orderViewId }, workbookOf(header, [
      ['I1', '供应商乙', 'urgent', 'Acme Ltd'],
      ['I2', 'Supplier C', 'Fragile, u', customers.acme],
      ['I3', 'S001', '', ''],
    ]));
    expect(ok.statusCode, ok.body).toBe(200);
    const rows = (await list(ann, langs.zh, [{ key: 'Name', judgmentMethod: 'startsWith', value: 'I' }])).items;
    expect(rows.map((r: Record<string, unknown>) => [r.Name, r.Supplier, r.Tags, r.Customer])).toEqual([
      ['I1', 'S002', ['u'], customers.acme],
      ['I2', 'S003', ['f', 'u'], customers.acme],
      ['I3', 'S001', [], null],
    ]);
    const bad = await importWorkbook(t, ann, { pageId: orderPageId, viewId: orderViewId }, workbookOf(header, [
      ['B1', 'NOT-A-SUPPLIER', '', ''],
      ['B2', '', 'Sticky', ''],
      ['B3', '', '', 'Bolt Inc'],
      ['B4', '', '', 'Twin'],
      ['B5', '', '', customers.bolt],
    ]));
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().error.details.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([
      [2, '供应商'], [3, 'Tags'], [4, 'Customer'], [5, 'Customer'], [6, 'Customer'],
    ]);
    expect(bad.json().error.details.errors[0].message).toContain('NOT-A-SUPPLIER');
    expect((await list(ann, langs.zh, [{ key: 'Name', judgmentMethod: 'startsWith', value: 'B' }])).items).toEqual([]);
  });
});

describe('values that are not allowed are refused', () => {
  it('save-page: "NOT-A-SUPPLIER" for a dictionary field is a 400 naming the field, in the caller’s language', async () => {
    expectInvalid(await saveOrder(ann, { Id: newId(), Name: 'X', Supplier: 'NOT-A-SUPPLIER' }), 'viewDataList.0.dataList.0.Supplier', /NOT-A-SUPPLIER.*不在可选项中/);
    expectInvalid(await saveOrder(ann, { Id: newId(), Name: 'X' }, [{ Product: 'p', Maker: 'S999' }], langs.en), 'viewDataList.1.dataList.0.Maker', /"S999" is not one of the options/);
  });

  it('an old record holding a since-disabled item saves unchanged; nobody chooses it anew', async () => {
    const id = newId();
    const saved = await saveOrder(ann, { Id: id, Name: 'Old', Supplier: 'S003' });
    expect(saved.statusCode, saved.body).toBe(200);
    const dictionary = (await t.call(admin, { method: 'GET', url: `/api/app/business-dictionary/${dictionaryId}` })).json();
    const items = dictionary.items.map((i: { id: string; code: string; label: object; parentCode: string | null; isEnabled: boolean }) => ({ id: i.id, code: i.code, label: i.label, parentCode: i.parentCode, isEnabled: i.code !== 'S003' }));
    const put = await t.call(admin, { method: 'PUT', url: `/api/app/business-dictionary/${dictionaryId}`, payload: { code: dictionary.code, title: dictionary.title, items } });
    expect(put.statusCode, put.body).toBe(200);
    const record = saved.json().viewDataList[0].dataList[0];
    const kept = await saveOrder(ann, { ...record, Name: 'Old renamed' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await stored(orderViewId, id))!.Supplier).toBe('S003');
    // The disabled item still shows its label.
    expect((await list(ann, langs.en, [{ key: 'Name', judgmentMethod: 'eq', value: 'Old renamed' }])).labels.Supplier).toEqual({ S003: 'Supplier C' });
    expectInvalid(await saveOrder(ann, { Id: newId(), Name: 'New', Supplier: 'S003' }), 'viewDataList.0.dataList.0.Supplier', /S003/);
    const bad = await importWorkbook(t, ann, { pageId: orderPageId, viewId: orderViewId }, workbookOf(['Name', '供应商'], [['ok', 'S001'], ['old', '供应商丙']]));
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().error.details.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([[3, '供应商']]);
  });

  it('a lookup takes only rows the caller may see: not an id, an unknown id, another user’s row, a deleted row', async () => {
    const member = 'viewDataList.0.dataList.0.Customer';
    expectInvalid(await saveOrder(ann, { Id: newId(), Name: 'K', Customer: 'nonsense' }), member, /不是您可以选择的记录/);
    expectInvalid(await saveOrder(ann, { Id: newId(), Name: 'K', Customer: newId() }, [], langs.en), member, /is not a record you may choose/);
    expectInvalid(await saveOrder(ann, { Id: newId(), Name: 'K', Customer: customers.bolt }), member, /不是您可以选择的记录/);
    const okId = newId();
    const ok = await saveOrder(bob, { Id: okId, Name: 'K', Customer: customers.bolt });
    expect(ok.statusCode, ok.body).toBe(200);
    // The customer is deleted afterwards: the order keeps it, a new order cannot choose it.
    await bd(t, bob, 'delete-data', { pageId: customerPageId, ids: [customers.bolt] });
    const record = ok.json().viewDataList[0].dataList[0];
    const kept = await saveOrder(bob, { ...record, Name: 'K renamed' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await stored(orderViewId, okId))!.Customer).toBe(customers.bolt);
    expectInvalid(await saveOrder(bob, { Id: newId(), Name: 'K2', Customer: customers.bolt }), member, /不是您可以选择的记录/);
    // The administrator sees every row.
    const byAdmin = await saveOrder(admin, { Id: newId(), Name: 'K3', Customer: customers.acme });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
  });
});
