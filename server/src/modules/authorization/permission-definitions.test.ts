import { P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let admin: string;
const URL = '/api/app/permission-definitions';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const db = () => t.database.db;
const create = (body: unknown, token = admin) => t.call(token, { method: 'POST', url: URL, payload: body as object });
const orders = (name: string, extra: object = {}) => ({
  name,
  groupName: 'Biz.Orders',
  groupDisplayName: { 'zh-CN': '订单', 'en-US': 'Orders' },
  displayName: { 'zh-CN': name.split('.').pop(), 'en-US': name.split('.').pop() },
  ...extra,
});

describe('permission definitions', () => {
  it('lists system codes read-only, paged and filtered', async () => {
    const all = (await t.call(admin, { method: 'GET', url: URL })).json();
    expect(all.totalCount).toBeGreaterThan(5);
    const audit = all.items.find((d: { name: string }) => d.name === P.AuditLogs);
    expect(audit).toMatchObject({ groupName: 'Tessera.AuditLogs', isSystem: true, isReadOnly: true, displayName: { 'zh-CN': '查看审计日志' } });
    const page = (await t.call(admin, { method: 'GET', url: `${URL}?SkipCount=2&MaxResultCount=3&Sorting=name desc` })).json();
    expect(page.items).toHaveLength(3);
    expect(page.totalCount).toBe(all.totalCount);
    const names = all.items.map((d: { name: string }) => d.name).sort().reverse();
    expect(page.items.map((d: { name: string }) => d.name)).toEqual(names.slice(2, 5));
    const filtered = (await t.call(admin, { method: 'GET', url: `${URL}?Filter=${encodeURIComponent('审计')}` })).json();
    expect(filtered.items.map((d: { name: string }) => d.name).sort()).toEqual([P.AuditLogs, P.AuditLogsExport].sort());
    const group = (await t.call(admin, { method: 'GET', url: `${URL}?GroupName=Tessera.Menus` })).json();
    expect(group.totalCount).toBe(4);
    // Sorting only through the allow-list; anything else falls back to the name.
    const odd = await t.call(admin, { method: 'GET', url: `${URL}?Sorting=${encodeURIComponent('name; drop table users')}` });
    expect(odd.statusCode).toBe(200);
    expect((await t.call(admin, { method: 'GET', url: `${URL}?MaxResultCount=0` })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'GET', url: `${URL}?MaxResultCount=1001` })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'GET', url: `${URL}?IsSystem=maybe` })).statusCode).toBe(400);
  });

  it('creates designer codes and validates them', async () => {
    const res = await create(orders('Biz.Orders.Access'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      name: 'Biz.Orders.Access',
      groupName: 'Biz.Orders',
      groupDisplayName: { 'zh-CN': '订单', 'en-US': 'Orders' },
      parentName: null,
      displayName: { 'zh-CN': 'Access', 'en-US': 'Access' },
      isSystem: false,
      isReadOnly: false,
    });
    expect((await create(orders('Biz.Orders.Approve', { parentName: 'Biz.Orders.Access' }))).statusCode).toBe(200);
    const bad = [
      orders('Tessera.Orders.Hack'),
      orders('Biz.'),
      orders('Biz.Orders..X'),
      orders('Biz.Orders.Bad-Name'),
      orders('Biz.Orders.NoTitle', { displayName: {} }),
      orders('Biz.Orders.EmptyTitle', { displayName: { 'zh-CN': '  ' } }),
      orders('Biz.Orders.BadCulture', { displayName: { chinese: '订单' } }),
      orders('Biz.Orders.Access'),
      orders('Biz.Orders.Orphan', { parentName: 'Biz.Orders.Missing' }),
      orders('Biz.Orders.Foreign', { parentName: P.AuditLogs }),
      { ...orders('Biz.Menu.Sneaky'), groupName: 'Biz.Menu' },
      { name: 'Biz.Orders.NoGroup', displayName: { 'zh-CN': 'x' } },
    ];
    for (const body of bad) {
      const r = await create(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    const stored = await db().selectFrom('permission_definitions').select('name').where('group_name', '=', 'Biz.Orders').execute();
    expect(stored.map((r) => r.name).sort()).toEqual(['Biz.Orders.Access', 'Biz.Orders.Approve']);
  });

  it('reads one, renames and re-parents it, refuses cycles and system codes', async () => {
    expect((await t.call(admin, { method: 'GET', url: `${URL}/Biz.Orders.Approve` })).json().parentName).toBe('Biz.Orders.Access');
    expect((await t.call(admin, { method: 'GET', url: `${URL}/Biz.Orders.Nope` })).statusCode).toBe(404);
    const renamed = await t.call(admin, {
      method: 'PUT',
      url: `${URL}/Biz.Orders.Approve`,
      payload: { displayName: { 'zh-CN': '审批订单' }, groupDisplayName: { 'zh-CN': '销售订单' }, parentName: null },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ displayName: { 'zh-CN': '审批订单' }, parentName: null, groupDisplayName: { 'zh-CN': '销售订单' } });
    // The group's name is one property of the group.
    expect((await t.call(admin, { method: 'GET', url: `${URL}/Biz.Orders.Access` })).json().groupDisplayName).toEqual({ 'zh-CN': '销售订单' });
    await t.call(admin, {
      method: 'PUT',
      url: `${URL}/Biz.Orders.Approve`,
      payload: { displayName: { 'zh-CN': '审批订单' }, groupDisplayName: { 'zh-CN': '销售订单' }, parentName: 'Biz.Orders.Access' },
    });
    const cycle = await t.call(admin, {
      method: 'PUT',
      url: `${URL}/Biz.Orders.Access`,
      payload: { displayName: { 'zh-CN': 'x' }, groupDisplayName: { 'zh-CN': '销售订单' }, parentName: 'Biz.Orders.Approve' },
    });
    expect(cycle.statusCode).toBe(400);
    const system = await t.call(admin, { method: 'PUT', url: `${URL}/${P.AuditLogs}`, payload: { displayName: { 'zh-CN': 'x' }, groupDisplayName: { 'zh-CN': 'x' } } });
    expect(system.statusCode).toBe(400);
    expect((await t.call(admin, { method: 'DELETE', url: `${URL}/${P.AuditLogs}` })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'PUT', url: `${URL}/Biz.Nope.X`, payload: { displayName: { 'zh-CN': 'x' }, groupDisplayName: { 'zh-CN': 'x' } } })).statusCode).toBe(404);
  });

  it('lists groups with counts, system groups first', async () => {
    const groups = (await t.call(admin, { method: 'GET', url: `${URL}/groups` })).json().items;
    const orders = groups.find((g: { name: string }) => g.name === 'Biz.Orders');
    expect(orders).toEqual({ name: 'Biz.Orders', displayName: { 'zh-CN': '销售订单' }, isSystem: false, count: 2 });
    expect(groups[0].isSystem).toBe(true);
    expect(groups.at(-1).isSystem).toBe(false);
  });

  it('creates a business page’s access, button and field codes at once, idempotently', async () => {
    const body = {
      pageCode: 'Invoice',
      displayName: { 'zh-CN': '发票', 'en-US': 'Invoices' },
      buttons: [{ code: 'Approve', displayName: { 'zh-CN': '审核', 'en-US': 'Approve' } }],
      fields: [{ code: 'Amount', displayName: { 'zh-CN': '金额', 'en-US': 'Amount' } }],
    };
    const res = await t.call(admin, { method: 'POST', url: `${URL}/page-permissions`, payload: body });
    expect(res.statusCode).toBe(200);
    const codes = ['Biz.Invoice.Access', 'Biz.Invoice.Approve', 'Biz.Invoice.Field.Amount.View', 'Biz.Invoice.Field.Amount.Edit'];
    expect(res.json()).toEqual({ created: codes, existing: [] });
    const view = (await t.call(admin, { method: 'GET', url: `${URL}/Biz.Invoice.Field.Amount.View` })).json();
    expect(view).toMatchObject({ parentName: 'Biz.Invoice.Access', displayName: { 'zh-CN': '金额（查看）', 'en-US': 'Amount (view)' }, groupName: 'Biz.Invoice' });
    const again = await t.call(admin, {
      method: 'POST',
      url: `${URL}/page-permissions`,
      payload: { ...body, buttons: [...body.buttons, { code: 'Print', displayName: { 'zh-CN': '打印' } }] },
    });
    expect(again.json()).toEqual({ created: ['Biz.Invoice.Print'], existing: codes });
    for (const bad of [
      { ...body, pageCode: '1Invoice' },
      { ...body, buttons: [{ code: 'Access', displayName: { 'zh-CN': 'x' } }] },
      { ...body, buttons: [body.buttons[0], body.buttons[0]] },
      { ...body, fields: [{ code: 'Bad.Code', displayName: { 'zh-CN': 'x' } }] },
    ]) {
      expect((await t.call(admin, { method: 'POST', url: `${URL}/page-permissions`, payload: bad })).statusCode).toBe(400);
    }
  });

  it('deletes a code with its children and every grant of them', async () => {
    const roleId = await createRole(db(), 'invoicers');
    await grant(db(), 'R', roleId, ['Biz.Invoice.Access', 'Biz.Invoice.Approve']);
    const res = await t.call(admin, { method: 'DELETE', url: `${URL}/Biz.Invoice.Access` });
    expect(res.statusCode).toBe(204);
    expect(await db().selectFrom('permission_definitions').select('name').where('group_name', '=', 'Biz.Invoice').execute()).toEqual([]);
    expect(await db().selectFrom('permission_grants').select('name').where('provider_key', '=', roleId).execute()).toEqual([]);
    expect((await t.call(admin, { method: 'DELETE', url: `${URL}/Biz.Invoice.Access` })).statusCode).toBe(404);
    const audit = await db().selectFrom('audit_logs').selectAll().where('action', '=', 'Deleted').where('entity_id', '=', 'Biz.Invoice.Access').executeTakeFirstOrThrow();
    expect((audit.details as { deleted: string[] }).deleted).toHaveLength(5);
  });

  it('shows designer codes on the grant screen and needs the manage code to change them', async () => {
    const roleId = await createRole(db(), 'readers');
    const groups = (await t.call(admin, { method: 'GET', url: `/api/permission-management/permissions?providerName=R&providerKey=${roleId}` })).json().groups;
    expect(groups.find((g: { name: string }) => g.name === 'Biz.Orders')).toMatchObject({ displayName: '销售订单', isSystem: false });
    await grant(db(), 'R', roleId, [P.PermissionDefinitions]);
    await createUser(db(), 'definition-reader', { roles: [roleId] });
    const token = await t.login('definition-reader', FIXTURE_PASSWORD);
    expect((await t.call(token, { method: 'GET', url: URL })).statusCode).toBe(200);
    expect((await create(orders('Biz.Orders.Cancel'), token)).statusCode).toBe(403);
    expect((await t.call(token, { method: 'DELETE', url: `${URL}/Biz.Orders.Approve` })).statusCode).toBe(403);
  });
});
