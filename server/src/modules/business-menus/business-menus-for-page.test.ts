import { bizPermission, P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoleId, createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { bd, createPurchaseOrderPage, newId, type PurchaseOrderPage } from '../../../test/business-data-fixtures.ts';
import { pagesApi } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// After a page's first publish: a business menu opening it, granted to roles, in one step.

let t: TestApp;
let admin: string;
let po: PurchaseOrderPage;
let purchasing: { id: string; permissionCode: string };
const URL = '/api/app/business-menu';
const title = (zh: string, en = zh) => ({ 'zh-CN': zh, 'en-US': en });
const db = () => t.database.db;
const forPage = (body: object, token = admin) => t.call(token, { method: 'POST', url: `${URL}/for-page`, payload: body });
const menuCount = async () => Number((await db().selectFrom('business_menus').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const visible = async (token: string) => {
  const titles: string[] = [];
  const walk = (items: { title: Record<string, string>; subBusinessMenus: never[] }[]) => items.forEach((m) => (titles.push(m.title['zh-CN']!), walk(m.subBusinessMenus)));
  walk((await t.call(token, { method: 'GET', url: URL })).json().items);
  return titles;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  po = await createPurchaseOrderPage(t, admin, { code: 'Pm' });
  const res = await t.call(admin, { method: 'POST', url: URL, payload: { title: title('采购', 'Purchasing') } });
  purchasing = res.json();
});
afterAll(() => t.close());

describe('a business menu for a page, granted to roles in one step', () => {
  it('creates the menu under its parent and grants the menu, its parent and the page codes to the roles', async () => {
    const clerks = await createRole(db(), 'pm-clerks');
    const readers = await createRole(db(), 'pm-readers');
    await createUser(db(), 'pm-clerk', { roles: [clerks] });
    await createUser(db(), 'pm-reader', { roles: [readers] });
    const res = await forPage({ pageDefinitionId: po.pageId, title: title('采购订单', 'Purchase orders'), url: 'FileTextOutlined', parentId: purchasing.id, roleIds: [clerks] });
    expect(res.statusCode, res.body).toBe(200);
    const { menu, grants } = res.json();
    expect(menu).toMatchObject({ pageDefinitionId: po.pageId, parentId: purchasing.id, url: 'FileTextOutlined' });
    expect(grants).toHaveLength(1);
    expect(grants[0].roleId).toBe(clerks);
    expect(grants[0].granted).toEqual(
      expect.arrayContaining([menu.permissionCode, purchasing.permissionCode, bizPermission.access('Pm'), bizPermission.action('Pm', 'add'), bizPermission.fieldEdit('Pm', 'Quantity')]),
    );
    // Readers only open the page and view its fields.
    const read = await forPage({ pageDefinitionId: po.pageId, title: title('采购订单（查询）'), parentId: purchasing.id, roleIds: [readers], use: 'read' });
    expect(read.statusCode, read.body).toBe(200);
    const readCodes: string[] = read.json().grants[0].granted;
    expect(readCodes).toContain(bizPermission.access('Pm'));
    expect(readCodes).toContain(bizPermission.fieldView('Pm', 'Note'));
    expect(readCodes.some((c) => c.includes('.Action.') || c.endsWith('.Edit'))).toBe(false);

    // The clerk sees the menu in the sider and works on the page; the reader lists but cannot save.
    const clerk = await t.login('pm-clerk', FIXTURE_PASSWORD);
    const reader = await t.login('pm-reader', FIXTURE_PASSWORD);
    expect(await visible(clerk)).toEqual(['采购', '采购订单']);
    expect(await visible(reader)).toEqual(['采购', '采购订单（查询）']);
    const payload = { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ Id: newId(), SupplierName: 'From the menu' }] }] };
    await bd(t, clerk, 'save-page', payload);
    await bd(t, reader, 'query-view-data', { pageId: po.pageId, viewId: po.masterId });
    await bd(t, reader, 'save-page', { ...payload, viewDataList: [{ viewId: po.masterId, dataList: [{ Id: newId(), SupplierName: 'x' }] }] }, 403);

    // Audited: the menu and each role's grants.
    const audit = await db().selectFrom('audit_logs').select(['entity_type', 'entity_id']).where('entity_id', '=', `R:${clerks}`).execute();
    expect(audit).toHaveLength(1);
  });

  it('is all or nothing, and refuses what the grant screen refuses', async () => {
    const before = await menuCount();
    // The administrator role cannot be granted to: 400, and no menu was left behind.
    const adminRole = await forPage({ pageDefinitionId: po.pageId, title: title('X'), roleIds: [await adminRoleId(db())] });
    expect(adminRole.statusCode).toBe(400);
    expect(adminRole.json().error.validationErrors[0].members).toEqual(['roleIds.0']);
    // An unknown role: 404, nothing written.
    expect((await forPage({ pageDefinitionId: po.pageId, title: title('X'), roleIds: [newId()] })).statusCode).toBe(404);
    // A page that was never published.
    const draft = await pagesApi(t, () => admin).create('PmDraft');
    const unpublished = await forPage({ pageDefinitionId: draft.id, title: title('X') });
    expect(unpublished.statusCode).toBe(400);
    expect(unpublished.json().error.validationErrors[0]).toMatchObject({ message: '页面尚未发布', members: ['pageDefinitionId'] });
    // Bad input.
    const bad = await forPage({ pageDefinitionId: 'nope', title: {}, roleIds: ['x'], use: 'all' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.validationErrors.length).toBeGreaterThanOrEqual(3);
    expect(await menuCount()).toBe(before);
  });

  it('a menu manager without the grant right may create the menu but not grant it; nobody grants codes they lack', async () => {
    const managers = await createRole(db(), 'pm-menu-managers');
    await grant(db(), 'R', managers, [P.Menus, P.MenusCreate]);
    await createUser(db(), 'pm-manager', { roles: [managers] });
    const manager = await t.login('pm-manager', FIXTURE_PASSWORD);
    const target = await createRole(db(), 'pm-target');
    const before = await menuCount();
    const refused = await forPage({ pageDefinitionId: po.pageId, title: title('Y'), roleIds: [target] }, manager);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.details.permission).toBe(P.PermissionsGrant);
    expect(await menuCount()).toBe(before);
    expect((await forPage({ pageDefinitionId: po.pageId, title: title('Y') }, manager)).statusCode).toBe(200);

    // With the grant right but not the page's codes: refused, and the menu is rolled back.
    const granters = await createRole(db(), 'pm-granters');
    await grant(db(), 'R', granters, [P.Menus, P.MenusCreate, P.Permissions, P.PermissionsGrant]);
    await createUser(db(), 'pm-granter', { roles: [granters] });
    const granter = await t.login('pm-granter', FIXTURE_PASSWORD);
    const mid = await menuCount();
    const beyond = await forPage({ pageDefinitionId: po.pageId, title: title('Z'), roleIds: [target] }, granter);
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json().error.details.permissions).toContain(bizPermission.access('Pm'));
    expect(await menuCount()).toBe(mid);
    const targetGrants = await db().selectFrom('permission_grants').select('name').where('provider_key', '=', target).execute();
    expect(targetGrants).toEqual([]);
  });
});
