import { bizPermission } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUnit, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { bd, createPurchaseOrderPage, newId, type PurchaseOrderPage } from '../../../test/business-data-fixtures.ts';

// Data scopes (per role and page) and page / field permissions, enforced in every query and write.

let t: TestApp;
let admin: string;
let po: PurchaseOrderPage;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};

const db = () => t.database.db;
const order = (Id: string, SupplierName: string, extra: object = {}) => ({
  pageId: po.pageId,
  viewDataList: [
    { viewId: po.masterId, dataList: [{ Id, SupplierName, ...extra }] },
    { viewId: po.linesId, dataList: [{ Product: 'p', Quantity: 1, Price: 2 }] },
  ],
});
const list = async (who: string) =>
  (await bd(t, tokens[who]!, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, Sorting: 'SupplierName asc' })).items.map((i: { SupplierName: string }) => i.SupplierName);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  po = await createPurchaseOrderPage(t, admin, { code: 'Po' });
  const fields = ['OrderNo', 'Supplier', 'SupplierName', 'OrderDate', 'Total', 'Note', 'Product', 'Quantity', 'Price', 'Amount'];
  const access = [...pageWorkCodes('Po'), ...fields.map((f) => bizPermission.fieldEdit('Po', f)), bizPermission.fieldView('Po', 'Approved')];
  // Units: sales (with sales.east below it) and ops.
  const sales = await createUnit(db(), 'Sales');
  const east = await createUnit(db(), 'Sales East', sales);
  const ops = await createUnit(db(), 'Ops');
  const scoped = async (name: string, scope: string, customFilter: object[] | null = null) => {
    const role = await createRole(db(), name);
    await grant(db(), 'R', role, access);
    const res = await t.call(admin, { method: 'PUT', url: `/api/app/data-scopes?roleId=${role}`, payload: { items: [{ pageKey: 'Po', scope, customFilter }] } });
    expect(res.statusCode, res.body).toBe(200);
    return role;
  };
  const roles = {
    own: await scoped('own', 'own'),
    unit: await scoped('unit', 'ownUnit'),
    below: await scoped('below', 'unitAndBelow'),
    custom: await scoped('custom', 'custom', [{ key: 'SupplierName', judgmentMethod: 'startsWith', value: 'Big' }]),
    all: await scoped('everything', 'all'),
  };
  const users: [string, string[], string[]][] = [
    ['ann', [roles.own], [sales]],
    ['bob', [roles.own], [east]],
    ['cat', [roles.unit], [sales]],
    ['dan', [roles.below], [sales]],
    ['eve', [roles.custom], [ops]],
    ['fay', [roles.all], [ops]],
  ];
  for (const [name, r, units] of users) {
    await createUser(db(), name, { roles: r, units });
    tokens[name] = await t.login(name, FIXTURE_PASSWORD);
  }
  const noAccess = await createRole(db(), 'nothing');
  await createUser(db(), 'nat', { roles: [noAccess], units: [sales] });
  tokens.nat = await t.login('nat', FIXTURE_PASSWORD);
  for (const [who, name] of [['ann', 'Ann order'], ['bob', 'Bob order'], ['eve', 'Big Eve'], ['fay', 'Fay order']]) {
    ids[who] = newId();
    await bd(t, tokens[who]!, 'save-page', order(ids[who]!, name!));
  }
});
afterAll(() => t.close());

describe('data scopes', () => {
  it('each user lists exactly the rows of their scope', async () => {
    expect(await list('ann')).toEqual(['Ann order']);
    expect(await list('bob')).toEqual(['Bob order']);
    expect(await list('cat')).toEqual(['Ann order']);
    expect(await list('dan')).toEqual(['Ann order', 'Bob order']);
    expect(await list('eve')).toEqual(['Big Eve']);
    expect(await list('fay')).toEqual(['Ann order', 'Big Eve', 'Bob order', 'Fay order']);
  });

  it('a record outside the scope is a 404 for load, save, delete, history and child rows — and nothing changes', async () => {
    await bd(t, tokens.ann!, 'query-page-data', { pageId: po.pageId, id: ids.bob }, 404);
    const loaded = await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: ids.bob });
    const stamp = loaded.viewDataList[0].dataList[0].ConcurrencyStamp;
    await bd(t, tokens.ann!, 'save-page', order(ids.bob!, 'stolen', { ConcurrencyStamp: stamp }), 404);
    await bd(t, tokens.ann!, 'delete-data', { pageId: po.pageId, ids: [ids.ann, ids.bob] }, 404);
    await bd(t, tokens.ann!, 'query-view-data', { pageId: po.pageId, viewId: po.linesId, parentId: ids.bob }, 404);
    const history = await t.call(tokens.ann!, { method: 'GET', url: `/api/app/business-data/record-history?pageId=${po.pageId}&id=${ids.bob}` });
    expect(history.statusCode).toBe(404);
    const after = await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: ids.bob });
    expect(after.viewDataList[0].dataList[0]).toMatchObject({ SupplierName: 'Bob order', ConcurrencyStamp: stamp });
    expect(await list('fay')).toContain('Ann order');
  });

  it('the custom scope also decides writes: a record saved outside it cannot be reopened', async () => {
    const id = newId();
    await bd(t, tokens.eve!, 'save-page', order(id, 'Small one'));
    await bd(t, tokens.eve!, 'query-page-data', { pageId: po.pageId, id }, 404);
  });

  it('without Biz.<page>.Access every call is a 403', async () => {
    await bd(t, tokens.nat!, 'query-view-data', { pageId: po.pageId, viewId: po.masterId }, 403);
    await bd(t, tokens.nat!, 'save-page', order(newId(), 'x'), 403);
    await bd(t, tokens.nat!, 'query-open-windows-data', { pageId: po.pageId, dataControlId: po.c.Supplier.id }, 403);
  });
});

describe('field permissions', () => {
  it('a field the user may view but not edit keeps its stored value; a hidden field is neither shown nor filterable', async () => {
    const id = newId();
    await bd(t, admin, 'save-page', order(id, 'Mixed', { Approved: true, Note: 'admin note' }));
    const loaded = await bd(t, tokens.fay!, 'query-page-data', { pageId: po.pageId, id });
    const master = loaded.viewDataList[0].dataList[0];
    expect(master.Approved).toBe(true);
    // fay may edit Note but only view Approved: Approved stays true, Note changes.
    const saved = await bd(t, tokens.fay!, 'save-page', {
      pageId: po.pageId,
      viewDataList: [{ viewId: po.masterId, dataList: [{ ...master, Approved: false, Note: 'fay note' }] }],
    });
    expect(saved.viewDataList[0].dataList[0]).toMatchObject({ Approved: true, Note: 'fay note' });
    // Lines were not submitted: they stay.
    expect(saved.viewDataList[1].dataList).toHaveLength(1);

    // A role that may not view Approved: not returned, not filterable, not sortable, kept on save.
    const role = await createRole(db(), 'noApproved');
    await grant(db(), 'R', role, [...pageWorkCodes('Po'), bizPermission.fieldEdit('Po', 'SupplierName'), bizPermission.fieldEdit('Po', 'Note')]);
    await createUser(db(), 'gus', { roles: [role] });
    const gus = await t.login('gus', FIXTURE_PASSWORD);
    const runtime = await t.call(gus, { method: 'GET', url: `/api/app/business-data/page-runtime?pageId=${po.pageId}` });
    expect(runtime.statusCode, runtime.body).toBe(200);
    expect(runtime.json()).toMatchObject({ pageCode: 'Po', masterViewId: po.masterId, fields: { Approved: { view: false, edit: false }, Note: { view: true, edit: true } } });
    const approved = runtime.json().definition.viewControls[0].dataControls.find((c: { code: string }) => c.code === 'Approved');
    expect(approved).toMatchObject({ isDisplayed: false, isEdit: false });
    const rows = await bd(t, gus, 'query-view-data', { pageId: po.pageId, viewId: po.masterId });
    expect(rows.items.length).toBeGreaterThan(0);
    expect(rows.items[0]).not.toHaveProperty('Approved');
    await bd(t, gus, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: 'Approved', judgmentMethod: 'eq', value: true }] }, 400);
    await bd(t, gus, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, Sorting: 'Approved desc' }, 400);
    const mine = await bd(t, gus, 'query-page-data', { pageId: po.pageId, id });
    const resaved = await bd(t, gus, 'save-page', {
      pageId: po.pageId,
      viewDataList: [{ viewId: po.masterId, dataList: [{ ...mine.viewDataList[0].dataList[0], Approved: false, Note: 'gus' }] }],
    });
    expect(resaved.viewDataList[0].dataList[0]).not.toHaveProperty('Approved');
    const check = await bd(t, admin, 'query-page-data', { pageId: po.pageId, id });
    expect(check.viewDataList[0].dataList[0]).toMatchObject({ Approved: true, Note: 'gus' });
  });
});

describe('default action codes', () => {
  it('a page without coded buttons gets add/edit/delete/import/export codes; each action needs its own', async () => {
    const defined = await db().selectFrom('permission_definitions').select(['name', 'parent_name']).where('name', 'like', 'Biz.Po.Action.%').orderBy('name').execute();
    expect(defined.map((d) => d.name)).toEqual(['Biz.Po.Action.Add', 'Biz.Po.Action.Delete', 'Biz.Po.Action.Edit', 'Biz.Po.Action.Export', 'Biz.Po.Action.Import']);
    expect(new Set(defined.map((d) => d.parent_name))).toEqual(new Set(['Biz.Po.Access']));

    // A reader: opens and lists, but neither adds, edits, deletes, imports nor exports.
    const fields = ['SupplierName', 'Note', 'Product', 'Quantity', 'Price'].map((f) => bizPermission.fieldEdit('Po', f));
    const readers = await createRole(db(), 'po-readers');
    await grant(db(), 'R', readers, [bizPermission.access('Po'), ...fields]);
    const addOnly = await createRole(db(), 'po-adders');
    await grant(db(), 'R', addOnly, [...pageWorkCodes('Po', ['add']), ...fields]);
    for (const [name, role] of [['rita', readers], ['adam', addOnly]] as const) {
      await createUser(db(), name, { roles: [role] });
      tokens[name] = await t.login(name, FIXTURE_PASSWORD);
      await t.call(admin, { method: 'PUT', url: `/api/app/data-scopes?roleId=${role}`, payload: { items: [{ pageKey: 'Po', scope: 'all', customFilter: null }] } });
    }
    const runtime = async (who: string) => (await t.call(tokens[who]!, { method: 'GET', url: `/api/app/business-data/page-runtime?pageId=${po.pageId}` })).json().actions;
    expect(await runtime('rita')).toEqual({ add: false, edit: false, delete: false, import: false, export: false });
    expect(await runtime('adam')).toEqual({ add: true, edit: false, delete: false, import: false, export: false });
    expect(await runtime('fay')).toEqual({ add: true, edit: true, delete: true, import: true, export: true });

    expect((await bd(t, tokens.rita!, 'query-view-data', { pageId: po.pageId, viewId: po.masterId })).totalCount).toBeGreaterThan(0);
    const refused = await t.call(tokens.rita!, { method: 'POST', url: '/api/app/business-data/save-page', payload: order(newId(), 'Rita order') });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.details.permission).toBe('Biz.Po.Action.Add');
    // adam adds, but may not change what he added, delete it, or export the list.
    const id = newId();
    await bd(t, tokens.adam!, 'save-page', order(id, 'Adam order'));
    const loaded = await bd(t, tokens.adam!, 'query-page-data', { pageId: po.pageId, id });
    const edit = await t.call(tokens.adam!, {
      method: 'POST',
      url: '/api/app/business-data/save-page',
      payload: { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ ...loaded.viewDataList[0].dataList[0], Note: 'changed' }] }] },
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().error.details.permission).toBe('Biz.Po.Action.Edit');
    await bd(t, tokens.adam!, 'delete-data', { pageId: po.pageId, ids: [id] }, 403);
    const exported = await t.call(tokens.adam!, { method: 'POST', url: '/api/app/business-data/export-view-data', payload: { pageId: po.pageId, viewId: po.masterId } });
    expect(exported.statusCode).toBe(403);
    expect((await bd(t, admin, 'query-page-data', { pageId: po.pageId, id })).viewDataList[0].dataList[0].Note ?? '').toBe('');
  });
});
