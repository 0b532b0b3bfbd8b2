import { P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoleId, createRole, createUnit, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let admin: string;
const PM = '/api/permission-management/permissions';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const db = () => t.database.db;
const me = async (token: string) => (await t.call(token, { method: 'GET', url: '/api/app/sys-function/current-user' })).json();
const put = (token: string, providerName: string, providerKey: string, permissions: { name: string; isGranted: boolean }[]) =>
  t.call(token, { method: 'PUT', url: `${PM}?providerName=${providerName}&providerKey=${providerKey}`, payload: { permissions } });
const get = (token: string, providerName: string, providerKey: string, headers: Record<string, string> = {}) =>
  t.call(token, { method: 'GET', url: `${PM}?providerName=${providerName}&providerKey=${providerKey}`, headers });
const flat = (body: { groups: { permissions: { name: string; isGranted: boolean; grantedProviders: unknown[] }[] }[] }) =>
  new Map(body.groups.flatMap((g) => g.permissions).map((p) => [p.name, p]));

describe('permission management (ABP shape)', () => {
  it('lists every defined permission in groups with localized names', async () => {
    const roleId = await createRole(db(), 'viewers');
    const res = await get(admin, 'R', roleId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.entityDisplayName).toBe('viewers');
    expect(body.isReadOnly).toBe(false);
    const group = body.groups.find((g: { name: string }) => g.name === 'Tessera.Authorization');
    expect(group.displayName).toBe('权限管理');
    const grant = group.permissions.find((p: { name: string }) => p.name === P.PermissionsGrant);
    expect(grant).toEqual({ name: P.PermissionsGrant, displayName: '授予与撤销权限', parentName: P.Permissions, isGranted: false, grantedProviders: [] });
    const en = (await get(admin, 'R', roleId, { 'accept-language': 'en-US,en;q=0.9' })).json();
    expect(en.groups.find((g: { name: string }) => g.name === 'Tessera.Authorization').displayName).toBe('Authorization');
    const defined = await db().selectFrom('permission_definitions').select('name').execute();
    expect(flat(body).size).toBe(defined.length);
  });

  it('rejects a bad provider, a malformed key and answers 404 for an unknown one', async () => {
    expect((await get(admin, 'X', '0190a0a0-0000-7000-8000-000000000000')).statusCode).toBe(400);
    const bad = await get(admin, 'R', 'not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.validationErrors[0].members[0]).toContain('providerKey');
    expect((await get(admin, 'R', '0190a0a0-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect((await get(admin, 'U', '0190a0a0-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect((await get(admin, 'OU', '0190a0a0-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect((await put(admin, 'R', '0190a0a0-0000-7000-8000-000000000000', [])).statusCode).toBe(404);
  });

  it('grants and revokes a role’s permissions, audited with before and after', async () => {
    const roleId = await createRole(db(), 'auditors');
    expect((await put(admin, 'R', roleId, [{ name: P.AuditLogs, isGranted: true }, { name: P.AuditLogsExport, isGranted: true }])).statusCode).toBe(204);
    let perms = flat((await get(admin, 'R', roleId)).json());
    expect(perms.get(P.AuditLogs)).toMatchObject({ isGranted: true, grantedProviders: [{ providerName: 'R', providerKey: roleId }] });
    expect(perms.get(P.AuditLogsExport)?.isGranted).toBe(true);
    expect((await put(admin, 'R', roleId, [{ name: P.AuditLogsExport, isGranted: false }, { name: P.AuditLogs, isGranted: true }])).statusCode).toBe(204);
    perms = flat((await get(admin, 'R', roleId)).json());
    expect(perms.get(P.AuditLogs)?.isGranted).toBe(true);
    expect(perms.get(P.AuditLogsExport)?.isGranted).toBe(false);
    const rows = await db().selectFrom('permission_grants').select('name').where('provider_key', '=', roleId).execute();
    expect(rows.map((r) => r.name)).toEqual([P.AuditLogs]);
    const audit = await db()
      .selectFrom('audit_logs')
      .selectAll()
      .where('entity_type', '=', 'PermissionGrant')
      .where('entity_id', '=', `R:${roleId}`)
      .orderBy('time')
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[1]!.details).toMatchObject({ before: [P.AuditLogs, P.AuditLogsExport], after: [P.AuditLogs], revoked: [P.AuditLogsExport], granted: [] });
    expect(audit[1]!.user_name).toBe('admin');
  });

  it('rejects unknown and duplicate names before writing anything', async () => {
    const roleId = await createRole(db(), 'strict');
    const res = await put(admin, 'R', roleId, [
      { name: P.AuditLogs, isGranted: true },
      { name: 'Nope.Not.Defined', isGranted: true },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.validationErrors).toEqual([{ message: '未知权限“Nope.Not.Defined”', members: ['permissions.1.name'] }]);
    const dup = await put(admin, 'R', roleId, [
      { name: P.AuditLogs, isGranted: true },
      { name: P.AuditLogs, isGranted: false },
    ]);
    expect(dup.statusCode).toBe(400);
    expect(dup.json().error.validationErrors[0].members).toEqual(['permissions.1.name']);
    const malformed = await t.call(admin, { method: 'PUT', url: `${PM}?providerName=R&providerKey=${roleId}`, payload: { permissions: [{ name: P.AuditLogs }] } });
    expect(malformed.statusCode).toBe(400);
    const missingQuery = await t.call(admin, { method: 'PUT', url: PM, payload: { permissions: [] } });
    expect(missingQuery.statusCode).toBe(400);
    expect(await db().selectFrom('permission_grants').select('name').where('provider_key', '=', roleId).execute()).toEqual([]);
  });

  it('keeps the administrator role read-only: it holds everything', async () => {
    const adminRole = await adminRoleId(db());
    const body = (await get(admin, 'R', adminRole)).json();
    expect(body.isReadOnly).toBe(true);
    expect([...flat(body).values()].every((p) => p.isGranted)).toBe(true);
    const res = await put(admin, 'R', adminRole, [{ name: P.AuditLogs, isGranted: false }]);
    expect(res.statusCode).toBe(400);
  });
});

describe('a user’s access', () => {
  it('is the union of own grants, two roles, their unit and the unit above — and nothing else', async () => {
    const roleA = await createRole(db(), 'union-a');
    const roleB = await createRole(db(), 'union-b');
    const otherRole = await createRole(db(), 'union-other');
    const parentUnit = await createUnit(db(), 'Sales');
    const childUnit = await createUnit(db(), 'Sales East', parentUnit);
    const siblingUnit = await createUnit(db(), 'Sales West', parentUnit);
    const grandchild = await createUnit(db(), 'Sales East Team', childUnit);
    const userId = await createUser(db(), 'union-user', { roles: [roleA, roleB], units: [childUnit] });
    await grant(db(), 'U', userId, [P.AuditLogs]);
    await grant(db(), 'R', roleA, [P.MenusCreate, P.Menus]);
    await grant(db(), 'R', roleB, [P.Menus, P.MenusUpdate]);
    await grant(db(), 'OU', childUnit, [P.MenusDelete]);
    await grant(db(), 'OU', parentUnit, [P.AuditLogsExport]);
    // Grants that must not reach the user: another role, a sibling unit, a unit below theirs.
    await grant(db(), 'R', otherRole, [P.PermissionDefinitions]);
    await grant(db(), 'OU', siblingUnit, [P.DataScopesManage]);
    await grant(db(), 'OU', grandchild, [P.PermissionDefinitionsManage]);
    t.app.authCache.invalidateAccess();

    const token = await t.login('union-user', FIXTURE_PASSWORD);
    const info = await me(token);
    expect(info.isAdmin).toBe(false);
    expect(info.access).toEqual([P.AuditLogs, P.AuditLogsExport, P.Menus, P.MenusCreate, P.MenusUpdate, P.MenusDelete].sort());

    const perms = flat((await get(admin, 'U', userId)).json());
    expect(perms.get(P.AuditLogs)?.grantedProviders).toEqual([{ providerName: 'U', providerKey: userId }]);
    expect(perms.get(P.Menus)?.grantedProviders).toEqual(
      expect.arrayContaining([
        { providerName: 'R', providerKey: roleA },
        { providerName: 'R', providerKey: roleB },
      ]),
    );
    expect(perms.get(P.MenusDelete)).toMatchObject({ isGranted: true, grantedProviders: [{ providerName: 'OU', providerKey: childUnit }] });
    expect(perms.get(P.AuditLogsExport)).toMatchObject({ isGranted: true, grantedProviders: [{ providerName: 'OU', providerKey: parentUnit }] });
    for (const code of [P.PermissionDefinitions, P.DataScopesManage, P.PermissionDefinitionsManage]) {
      expect(perms.get(code)).toMatchObject({ isGranted: false, grantedProviders: [] });
    }

    // A unit inherits from the units above it.
    const unitPerms = flat((await get(admin, 'OU', childUnit)).json());
    expect(unitPerms.get(P.MenusDelete)?.grantedProviders).toEqual([{ providerName: 'OU', providerKey: childUnit }]);
    expect(unitPerms.get(P.AuditLogsExport)?.grantedProviders).toEqual([{ providerName: 'OU', providerKey: parentUnit }]);
    expect(unitPerms.get(P.PermissionDefinitionsManage)?.isGranted).toBe(false);

    // Revoking the user's own grant keeps what roles and units give.
    expect((await put(admin, 'U', userId, [{ name: P.AuditLogs, isGranted: false }, { name: P.Menus, isGranted: false }])).statusCode).toBe(204);
    const after = await me(token);
    expect(after.access).toEqual([P.AuditLogsExport, P.Menus, P.MenusCreate, P.MenusUpdate, P.MenusDelete].sort());
  });

  it('is everything for the administrator, including codes defined later', async () => {
    const created = await t.call(admin, {
      method: 'POST',
      url: '/api/app/permission-definitions',
      payload: { name: 'Biz.Orders.Approve', groupName: 'Biz.Orders', groupDisplayName: { 'zh-CN': '订单' }, displayName: { 'zh-CN': '审批' } },
    });
    expect(created.statusCode).toBe(200);
    const info = await me(admin);
    const defined = (await db().selectFrom('permission_definitions').select('name').execute()).map((r) => r.name).sort();
    expect([...info.access].sort()).toEqual(defined);
    expect(info.access).toContain('Biz.Orders.Approve');
  });

  it('opens a guarded route the moment it is granted and closes it the moment it is revoked', async () => {
    const roleId = await createRole(db(), 'late-auditors');
    await createUser(db(), 'late-auditor', { roles: [roleId] });
    const token = await t.login('late-auditor', FIXTURE_PASSWORD);
    const audit = () => t.call(token, { method: 'GET', url: '/api/app/audit-logs' });
    expect((await audit()).statusCode).toBe(403);
    expect((await put(admin, 'R', roleId, [{ name: P.AuditLogs, isGranted: true }])).statusCode).toBe(204);
    expect((await audit()).statusCode).toBe(200);
    expect((await put(admin, 'R', roleId, [{ name: P.AuditLogs, isGranted: false }])).statusCode).toBe(204);
    expect((await audit()).statusCode).toBe(403);
  });

  it('lets a delegated granter hand out only what they hold themselves', async () => {
    const granterRole = await createRole(db(), 'granters');
    const targetRole = await createRole(db(), 'granted');
    await grant(db(), 'R', granterRole, [P.Permissions, P.PermissionsGrant, P.Menus]);
    await createUser(db(), 'granter', { roles: [granterRole] });
    const token = await t.login('granter', FIXTURE_PASSWORD);
    expect((await get(token, 'R', targetRole)).statusCode).toBe(200);
    const beyond = await put(token, 'R', targetRole, [{ name: P.AuditLogs, isGranted: true }]);
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json().error.details.permissions).toEqual([P.AuditLogs]);
    expect((await put(token, 'R', targetRole, [{ name: P.Menus, isGranted: true }, { name: P.AuditLogs, isGranted: false }])).statusCode).toBe(204);
    expect((await put(token, 'R', granterRole, [{ name: P.AuditLogs, isGranted: true }])).statusCode).toBe(403);
  });

  it('refuses the grant screens to a user without the permission codes', async () => {
    await createUser(db(), 'nobody');
    const token = await t.login('nobody', FIXTURE_PASSWORD);
    const roleId = await createRole(db(), 'untouchable');
    expect((await get(token, 'R', roleId)).statusCode).toBe(403);
    expect((await put(token, 'R', roleId, [])).statusCode).toBe(403);
    expect((await t.call(token, { method: 'GET', url: '/api/app/permission-definitions' })).statusCode).toBe(403);
    expect((await t.call(token, { method: 'GET', url: `/api/app/data-scopes?roleId=${roleId}` })).statusCode).toBe(403);
    expect((await t.call(token, { method: 'PUT', url: `/api/app/data-scopes?roleId=${roleId}`, payload: { items: [] } })).statusCode).toBe(403);
    expect((await t.call(null, { method: 'GET', url: `${PM}?providerName=R&providerKey=${roleId}` })).statusCode).toBe(401);
  });
});
