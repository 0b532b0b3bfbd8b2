import { bizPermission, P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let admin: string;
const URL = '/api/app/business-menu';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const db = () => t.database.db;
const create = async (body: object, token = admin) => {
  const res = await t.call(token, { method: 'POST', url: URL, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const title = (zh: string, en = zh) => ({ 'zh-CN': zh, 'en-US': en });
const list = async (token = admin, query = '') => (await t.call(token, { method: 'GET', url: `${URL}${query}` })).json();
const titles = (items: { title: Record<string, string>; subBusinessMenus: unknown[] }[]): unknown[] =>
  items.map((m) => (m.subBusinessMenus.length ? [m.title['zh-CN'], titles(m.subBusinessMenus as never)] : m.title['zh-CN']));
const grantTo = (roleId: string, names: string[]) =>
  t.call(admin, {
    method: 'PUT',
    url: `/api/permission-management/permissions?providerName=R&providerKey=${roleId}`,
    payload: { permissions: names.map((name) => ({ name, isGranted: true })) },
  });

describe('business menus', () => {
  let purchasing: { id: string; permissionCode: string };
  let orders: { id: string; permissionCode: string };

  it('creates a menu with its own permission code', async () => {
    purchasing = await create({ title: title('采购', 'Purchasing'), url: 'ShoppingCartOutlined', isJump: false });
    expect(purchasing).toMatchObject({
      title: { 'zh-CN': '采购', 'en-US': 'Purchasing' },
      url: 'ShoppingCartOutlined',
      associateKey: null,
      parentId: null,
      order: 0,
      pageDefinitionId: null,
      isJump: false,
      permissionCode: bizPermission.menu(purchasing.id),
      subBusinessMenus: [],
    });
    expect(purchasing.permissionCode).toMatch(/^Biz\.Menu\.[0-9a-f]{32}$/);
    const def = await db().selectFrom('permission_definitions').selectAll().where('name', '=', purchasing.permissionCode).executeTakeFirstOrThrow();
    expect(def).toMatchObject({ group_name: 'Biz.Menu', is_system: false, parent_name: null, display_name: { 'zh-CN': '采购', 'en-US': 'Purchasing' } });

    orders = await create({ title: title('采购订单', 'Orders'), parentId: purchasing.id, associateKey: 'orders', isJump: true, pageDefinitionId: '0190a0a0-0000-7000-8000-0000000000aa' });
    expect(orders).toMatchObject({ parentId: purchasing.id, order: 0, associateKey: 'orders', isJump: true, pageDefinitionId: '0190a0a0-0000-7000-8000-0000000000aa' });
    const child = await db().selectFrom('permission_definitions').select('parent_name').where('name', '=', orders.permissionCode).executeTakeFirstOrThrow();
    expect(child.parent_name).toBe(purchasing.permissionCode);
    await create({ title: title('退货', 'Returns'), parentId: purchasing.id });
    await create({ title: title('销售', 'Sales'), url: 'DollarOutlined' });
    await create({ title: title('库存', 'Stock') });
  });

  it('lists the tree nested, paged by top-level menu', async () => {
    const all = await list();
    expect(all.totalCount).toBe(3);
    expect(titles(all.items)).toEqual([['采购', ['采购订单', '退货']], '销售', '库存']);
    const page = await list(admin, '?SkipCount=1&MaxResultCount=1');
    expect(page).toMatchObject({ totalCount: 3 });
    expect(titles(page.items)).toEqual(['销售']);
    expect(titles((await list(admin, `?Filter=${encodeURIComponent('returns')}`)).items)).toEqual([['采购', ['退货']]]);
    expect((await t.call(admin, { method: 'GET', url: `${URL}?MaxResultCount=0` })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'GET', url: `${URL}?SkipCount=-1` })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'GET', url: `${URL}?MaxResultCount=1001` })).statusCode).toBe(400);
    const one = await t.call(admin, { method: 'GET', url: `${URL}/${purchasing.id}` });
    expect(titles([one.json()])).toEqual([['采购', ['采购订单', '退货']]]);
    expect((await t.call(admin, { method: 'GET', url: `${URL}/0190a0a0-0000-7000-8000-000000000000` })).statusCode).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: `${URL}/not-an-id` })).statusCode).toBe(400);
  });

  it('rejects bad input before writing', async () => {
    const before = await db().selectFrom('business_menus').select('id').execute();
    const bad = [
      {},
      { title: {} },
      { title: { 'zh-CN': ' ' } },
      { title: 'plain text' },
      { title: title('x'), url: 'not an icon' },
      { title: title('x'), url: '<script>' },
      { title: title('x'), parentId: 'nope' },
      { title: title('x'), parentId: '0190a0a0-0000-7000-8000-000000000000' },
      { title: title('x'), order: -1 },
      { title: title('x'), pageDefinitionId: 'page-1' },
      { title: { 'zh-CN': 'x'.repeat(201) } },
    ];
    for (const body of bad) {
      const res = await t.call(admin, { method: 'POST', url: URL, payload: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    expect(await db().selectFrom('business_menus').select('id').execute()).toHaveLength(before.length);
  });

  it('updates, re-parents, refuses cycles and stale writes', async () => {
    const res = await t.call(admin, { method: 'PUT', url: `${URL}/${orders.id}`, payload: { title: title('订单', 'Purchase orders'), url: 'FileTextOutlined' } });
    expect(res.statusCode).toBe(200);
    // Omitted fields keep their values.
    expect(res.json()).toMatchObject({ title: { 'en-US': 'Purchase orders' }, url: 'FileTextOutlined', associateKey: 'orders', isJump: true, parentId: purchasing.id });
    const def = await db().selectFrom('permission_definitions').select('display_name').where('name', '=', orders.permissionCode).executeTakeFirstOrThrow();
    expect(def.display_name).toEqual({ 'zh-CN': '订单', 'en-US': 'Purchase orders' });
    const cycle = await t.call(admin, { method: 'PUT', url: `${URL}/${purchasing.id}`, payload: { title: title('采购'), parentId: orders.id } });
    expect(cycle.statusCode).toBe(400);
    const self = await t.call(admin, { method: 'PUT', url: `${URL}/${purchasing.id}`, payload: { title: title('采购'), parentId: purchasing.id } });
    expect(self.statusCode).toBe(400);
    const stale = await t.call(admin, { method: 'PUT', url: `${URL}/${orders.id}`, payload: { title: title('x'), concurrencyStamp: 'old' } });
    expect(stale.statusCode).toBe(409);
    const fresh = await t.call(admin, { method: 'PUT', url: `${URL}/${orders.id}`, payload: { title: title('订单', 'Purchase orders'), concurrencyStamp: res.json().concurrencyStamp, associateKey: null } });
    expect(fresh.json().associateKey).toBeNull();
    expect((await t.call(admin, { method: 'PUT', url: `${URL}/0190a0a0-0000-7000-8000-000000000000`, payload: { title: title('x') } })).statusCode).toBe(404);
    expect((await t.call(admin, { method: 'PUT', url: `${URL}/${orders.id}`, payload: { title: title('x'), isJump: 'yes' } })).statusCode).toBe(400);
  });

  it('moves menus by drag and drop: reorders and re-parents', async () => {
    const sales = (await list()).items[1];
    // Sales to the top.
    let res = await t.call(admin, { method: 'POST', url: `${URL}/${sales.id}/move`, payload: { parentId: null, index: 0 } });
    expect(res.statusCode).toBe(200);
    expect(titles((await list()).items)).toEqual(['销售', ['采购', ['订单', '退货']], '库存']);
    // Orders under Sales.
    res = await t.call(admin, { method: 'POST', url: `${URL}/${orders.id}/move`, payload: { parentId: sales.id, index: 5 } });
    expect(res.json()).toMatchObject({ parentId: sales.id, order: 0 });
    expect(titles((await list()).items)).toEqual([['销售', ['订单']], ['采购', ['退货']], '库存']);
    const orders0 = (await list()).items[1].subBusinessMenus[0];
    expect(orders0.order).toBe(0);
    const def = await db().selectFrom('permission_definitions').select('parent_name').where('name', '=', orders.permissionCode).executeTakeFirstOrThrow();
    expect(def.parent_name).toBe(sales.permissionCode);
    // Stock between Sales and Purchasing, then back under Purchasing as its first child.
    const stock = (await list()).items[2];
    await t.call(admin, { method: 'POST', url: `${URL}/${stock.id}/move`, payload: { parentId: null, index: 1 } });
    expect(titles((await list()).items)).toEqual([['销售', ['订单']], '库存', ['采购', ['退货']]]);
    await t.call(admin, { method: 'POST', url: `${URL}/${stock.id}/move`, payload: { parentId: purchasing.id, index: 0 } });
    expect(titles((await list()).items)).toEqual([['销售', ['订单']], ['采购', ['库存', '退货']]]);
    expect((await t.call(admin, { method: 'POST', url: `${URL}/${purchasing.id}/move`, payload: { parentId: stock.id, index: 0 } })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'POST', url: `${URL}/${stock.id}/move`, payload: { parentId: null } })).statusCode).toBe(400);
    // Back to the original layout for the next tests.
    await t.call(admin, { method: 'POST', url: `${URL}/${stock.id}/move`, payload: { parentId: null, index: 2 } });
    await t.call(admin, { method: 'POST', url: `${URL}/${orders.id}/move`, payload: { parentId: purchasing.id, index: 0 } });
    expect(titles((await list()).items)).toEqual(['销售', ['采购', ['订单', '退货']], '库存']);
  });

  it('shows each user exactly the menus their access grants', async () => {
    const buyers = await createRole(db(), 'buyers');
    const sellers = await createRole(db(), 'sellers');
    await createUser(db(), 'buyer', { roles: [buyers] });
    await createUser(db(), 'seller', { roles: [sellers] });
    await createUser(db(), 'stranger');
    const buyer = await t.login('buyer', FIXTURE_PASSWORD);
    const seller = await t.login('seller', FIXTURE_PASSWORD);
    const stranger = await t.login('stranger', FIXTURE_PASSWORD);
    expect(await list(buyer)).toEqual({ items: [], totalCount: 0 });

    expect((await grantTo(buyers, [purchasing.permissionCode, orders.permissionCode])).statusCode).toBe(204);
    const sales = (await list()).items[0];
    // A sub-menu granted without its parent stays hidden: the parent is the way in.
    expect((await grantTo(sellers, [orders.permissionCode])).statusCode).toBe(204);
    expect((await grantTo(sellers, [sales.permissionCode])).statusCode).toBe(204);

    expect(titles((await list(buyer)).items)).toEqual([['采购', ['订单']]]);
    expect((await list(buyer)).totalCount).toBe(1);
    expect(titles((await list(seller)).items)).toEqual(['销售']);
    expect(await list(stranger)).toEqual({ items: [], totalCount: 0 });
    expect((await t.call(buyer, { method: 'GET', url: `${URL}/${purchasing.id}` })).statusCode).toBe(200);
    expect((await t.call(buyer, { method: 'GET', url: `${URL}/${sales.id}` })).statusCode).toBe(404);
    expect((await t.call(stranger, { method: 'GET', url: `${URL}/${purchasing.id}` })).statusCode).toBe(404);
    for (const req of [
      { method: 'GET' as const, url: `${URL}/all` },
      { method: 'POST' as const, url: URL, payload: { title: title('x') } },
      { method: 'PUT' as const, url: `${URL}/${purchasing.id}`, payload: { title: title('x') } },
      { method: 'POST' as const, url: `${URL}/${purchasing.id}/move`, payload: { parentId: null, index: 0 } },
      { method: 'DELETE' as const, url: `${URL}/${purchasing.id}` },
    ]) {
      expect((await t.call(buyer, req)).statusCode, `${req.method} ${req.url}`).toBe(403);
    }
    expect((await t.call(null, { method: 'GET', url: URL })).statusCode).toBe(401);

    // A menu manager sees every menu in the management list, and reads any of them.
    await grant(db(), 'R', sellers, [P.Menus]);
    t.app.authCache.invalidateAccess();
    expect((await list(seller, '/all')).totalCount).toBe(3);
    expect((await t.call(seller, { method: 'GET', url: `${URL}/${purchasing.id}` })).statusCode).toBe(200);
    expect(titles((await list(seller)).items)).toEqual(['销售']);
  });

  it('deletes a menu with its sub-menus, codes and grants', async () => {
    const buyer = await t.login('buyer', FIXTURE_PASSWORD);
    expect((await t.call(admin, { method: 'DELETE', url: `${URL}/${purchasing.id}` })).statusCode).toBe(204);
    expect(titles((await list()).items)).toEqual(['销售', '库存']);
    expect(await list(buyer)).toEqual({ items: [], totalCount: 0 });
    const codes = [purchasing.permissionCode, orders.permissionCode];
    expect(await db().selectFrom('permission_definitions').select('name').where('name', 'in', codes).execute()).toEqual([]);
    expect(await db().selectFrom('permission_grants').select('name').where('name', 'in', codes).execute()).toEqual([]);
    expect((await t.call(admin, { method: 'DELETE', url: `${URL}/${purchasing.id}` })).statusCode).toBe(404);
    const audit = await db().selectFrom('audit_logs').selectAll().where('entity_type', '=', 'BusinessMenu').where('entity_id', '=', purchasing.id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['Created', 'Deleted']);
    const changes = await db().selectFrom('audit_logs').selectAll().where('entity_id', '=', orders.id).where('action', '=', 'Updated').orderBy('time').execute();
    expect(changes.length).toBeGreaterThanOrEqual(4);
    expect(changes[0]!.details).toMatchObject({ before: { title: { 'en-US': 'Orders' } }, after: { title: { 'en-US': 'Purchase orders' } } });
    const deleted = audit.find((a) => a.action === 'Deleted')!.details as { deletedMenus: unknown[] };
    expect(deleted.deletedMenus).toHaveLength(3);
  });
});
