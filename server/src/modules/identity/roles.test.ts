import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { auditOf, createRole, createUser, USER_PASSWORD } from '../../../test/identity-helpers.ts';

let t: TestApp;
let admin: string;
const roles = '/api/identity/roles';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const adminRoleId = async () => (await t.database.db.selectFrom('roles').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow()).id;

describe('roles', () => {
  it('lists the static admin role first with its member and permission counts', async () => {
    await createRole(t, admin, { name: 'auditor', description: '审计人员' });
    const res = await t.call(admin, { method: 'GET', url: roles });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalCount).toBe(2);
    expect(body.items[0]).toMatchObject({ name: 'admin', isStatic: true, userCount: 1 });
    const definitions = await t.database.db.selectFrom('permission_definitions').select('name').execute();
    expect(body.items[0].grantedPermissionCount).toBe(definitions.length);
    expect(body.items[1]).toMatchObject({ name: 'auditor', description: '审计人员', isStatic: false, isDefault: false, isPublic: true, userCount: 0, grantedPermissionCount: 0 });
    expect((await t.call(admin, { method: 'GET', url: `${roles}?Filter=审计` })).json().items.map((r: { name: string }) => r.name)).toEqual(['auditor']);
  });

  it('creates, updates with a stamp (409 when stale) and counts grants', async () => {
    const role = await createRole(t, admin, { name: 'clerk', isDefault: true });
    expect(role).toMatchObject({ isDefault: true, isStatic: false });
    await t.database.db
      .insertInto('permission_grants')
      .values(['Identity.Users', 'Identity.Roles'].map((name) => ({ name, provider_name: 'R' as const, provider_key: role.id })))
      .execute();
    const put = await t.call(admin, {
      method: 'PUT',
      url: `${roles}/${role.id}`,
      payload: { name: 'office-clerk', description: '文员', isDefault: false, isPublic: false, concurrencyStamp: role.concurrencyStamp },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ name: 'office-clerk', isDefault: false, isPublic: false, grantedPermissionCount: 2 });
    const stale = await t.call(admin, { method: 'PUT', url: `${roles}/${role.id}`, payload: { name: 'x', concurrencyStamp: role.concurrencyStamp } });
    expect(stale.statusCode).toBe(409);
    expect((await t.call(admin, { method: 'GET', url: `${roles}?IsDefault=true` })).json().totalCount).toBe(0);
    const audit = await auditOf(t, 'Role', role.id);
    expect(audit.map((a) => a.action)).toEqual(['Created', 'Updated']);
    expect(audit[1]!.details).toMatchObject({ before: { name: 'clerk' }, after: { name: 'office-clerk' } });
  });

  it('refuses bad input with 400 before writing', async () => {
    const count = async () => (await t.database.db.selectFrom('roles').select('id').execute()).length;
    const before = await count();
    for (const payload of [{}, { name: '' }, { name: 'a,b' }, { name: 'x'.repeat(65) }, { name: 'ok', isDefault: 'yes' }, { name: 'ADMIN' }, { name: 'Auditor' }]) {
      const res = await t.call(admin, { method: 'POST', url: roles, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await count()).toBe(before);
  });

  it('protects static roles: no rename, no delete, never a default role', async () => {
    const id = await adminRoleId();
    const role = (await t.call(admin, { method: 'GET', url: `${roles}/${id}` })).json();
    const rename = await t.call(admin, { method: 'PUT', url: `${roles}/${id}`, payload: { name: 'root', concurrencyStamp: role.concurrencyStamp } });
    expect(rename.statusCode).toBe(400);
    expect(rename.json().error.code).toBe('StaticRole');
    const asDefault = await t.call(admin, { method: 'PUT', url: `${roles}/${id}`, payload: { name: 'admin', isDefault: true, concurrencyStamp: role.concurrencyStamp } });
    expect(asDefault.statusCode).toBe(400);
    const describe = await t.call(admin, { method: 'PUT', url: `${roles}/${id}`, payload: { name: 'admin', description: '系统管理员', concurrencyStamp: role.concurrencyStamp } });
    expect(describe.statusCode).toBe(200);
    const del = await t.call(admin, { method: 'DELETE', url: `${roles}/${id}` });
    expect(del.statusCode).toBe(400);
    expect(del.json().error.code).toBe('StaticRole');
  });

  it('lists, adds and removes members', async () => {
    const role = await createRole(t, admin, { name: 'approver' });
    const a = await createUser(t, admin, { userName: 'approver.a', name: '甲', roleNames: [] });
    const b = await createUser(t, admin, { userName: 'approver.b', name: '乙', roleNames: ['approver'] });
    const add = await t.call(admin, { method: 'POST', url: `${roles}/${role.id}/members`, payload: { userIds: [a.id, b.id] } });
    expect(add.json()).toEqual({ addedCount: 1 });
    const members = (await t.call(admin, { method: 'GET', url: `${roles}/${role.id}/members?Sorting=userName desc` })).json();
    expect(members.items.map((m: { userName: string }) => m.userName)).toEqual(['approver.b', 'approver.a']);
    expect((await t.call(admin, { method: 'GET', url: `${roles}/${role.id}/members?Filter=甲` })).json().totalCount).toBe(1);
    expect((await t.call(admin, { method: 'DELETE', url: `${roles}/${role.id}/members/${a.id}` })).statusCode).toBe(204);
    expect((await t.call(admin, { method: 'DELETE', url: `${roles}/${role.id}/members/${a.id}` })).statusCode).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: `${roles}/${role.id}` })).json().userCount).toBe(1);
    expect((await t.call(admin, { method: 'POST', url: `${roles}/${role.id}/members`, payload: { userIds: [] } })).statusCode).toBe(400);
  });

  it('deletes a role with its memberships and grants; members lose its permissions at once', async () => {
    const role = await createRole(t, admin, { name: 'temporary' });
    const user = await createUser(t, admin, { userName: 'temp.user', roleNames: ['temporary'] });
    await t.database.db.insertInto('permission_grants').values({ name: 'Identity.Users', provider_name: 'R', provider_key: role.id }).execute();
    t.app.authCache.invalidateAccess();
    const token = await t.login('temp.user', USER_PASSWORD);
    expect((await t.call(token, { method: 'GET', url: '/api/identity/users' })).statusCode).toBe(200);
    expect((await t.call(admin, { method: 'DELETE', url: `${roles}/${role.id}` })).statusCode).toBe(204);
    expect((await t.call(token, { method: 'GET', url: '/api/identity/users' })).statusCode).toBe(403);
    expect((await t.call(admin, { method: 'GET', url: `/api/identity/users/${user.id}` })).json().roleNames).toEqual([]);
    expect(await t.database.db.selectFrom('permission_grants').select('id').where('provider_key', '=', role.id).execute()).toEqual([]);
    const audit = await auditOf(t, 'Role', role.id);
    expect(audit.at(-1)!.details).toMatchObject({ before: { name: 'temporary', memberIds: [user.id], grantedPermissions: ['Identity.Users'] }, after: null });
    expect((await t.call(admin, { method: 'DELETE', url: `${roles}/${role.id}` })).statusCode).toBe(404);
  });
});
