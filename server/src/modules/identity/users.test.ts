import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN_PASSWORD, type TestApp } from '../../../test/test-app.ts';
import { adminUserId, auditOf, createRole, createUnit, createUser, USER_PASSWORD } from '../../../test/identity-helpers.ts';

let t: TestApp;
let admin: string;
let adminId: string;
const users = '/api/identity/users';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  adminId = await adminUserId(t);
});
afterAll(() => t.close());

const me = (token: string) => t.call(token, { method: 'GET', url: '/api/app/sys-function/current-user' });
const userCount = async () => (await t.database.db.selectFrom('users').select('id').execute()).length;

describe('users: create, read, update', () => {
  it('creates a user with roles and units; the response never carries the hash', async () => {
    const unit = await createUnit(t, admin, '研发中心');
    const role = await createRole(t, admin, { name: 'developer' });
    const res = await t.call(admin, {
      method: 'POST',
      url: users,
      payload: {
        userName: 'zhang.san',
        name: '三',
        surname: '张',
        email: 'zhang.san@example.com',
        phoneNumber: '+86 138-0000-0000',
        isActive: true,
        lockoutEnabled: true,
        roleNames: ['Developer'],
        organizationUnitIds: [unit.id],
        password: USER_PASSWORD,
        avatar: 'data:image/png;base64,iVBORw0KGgo=',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({
      userName: 'zhang.san',
      email: 'zhang.san@example.com',
      roleNames: ['developer'],
      organizationUnits: [{ id: unit.id, displayName: '研发中心' }],
      isLockedOut: false,
    });
    expect(user.concurrencyStamp).toBeTruthy();
    expect(res.body).not.toMatch(/password|argon2/i);
    expect(role.userCount).toBe(0);
    const got = await t.call(admin, { method: 'GET', url: `${users}/${user.id}` });
    expect(got.json()).toEqual(user);
    expect(got.body).not.toMatch(/argon2/);

    // The text filter also finds the Chinese full name (surname then name) and is case-insensitive.
    for (const filter of ['张三', 'ZHANG.SAN@EXAMPLE', '138-0000']) {
      const found = (await t.call(admin, { method: 'GET', url: `${users}?Filter=${encodeURIComponent(filter)}` })).json();
      expect(found.items.map((u: { userName: string }) => u.userName), filter).toEqual(['zhang.san']);
    }

    const token = await t.login('zhang.san', USER_PASSWORD);
    expect((await me(token)).json()).toMatchObject({ userName: 'zhang.san', organizationUnitName: '研发中心', isAdmin: false });

    const audit = await auditOf(t, 'User', user.id);
    expect(audit[0]).toMatchObject({ action: 'Created' });
    expect(JSON.stringify(audit[0]!.details)).not.toMatch(/argon2|password_hash/);
    expect((audit[0]!.details as any).after.avatar).toBe('[image]');
  });

  it('gives the default roles when roleNames is omitted', async () => {
    await createRole(t, admin, { name: 'staff', isDefault: true });
    const user = await createUser(t, admin, { userName: 'defaulted' });
    expect(user.roleNames).toEqual(['staff']);
    const none = await createUser(t, admin, { userName: 'no-roles', roleNames: [] });
    expect(none.roleNames).toEqual([]);
  });

  it.each([
    ['missing user name', { password: USER_PASSWORD }, 'body.userName'],
    ['bad user name', { userName: 'has space', password: USER_PASSWORD }, 'body.userName'],
    ['missing password', { userName: 'nopw' }, 'body.password'],
    ['bad e-mail', { userName: 'bademail', email: 'not-an-email', password: USER_PASSWORD }, 'body.email'],
    ['bad phone', { userName: 'badphone', phoneNumber: 'call me', password: USER_PASSWORD }, 'body.phoneNumber'],
    ['bad avatar', { userName: 'badavatar', avatar: 'javascript:alert(1)', password: USER_PASSWORD }, 'body.avatar'],
    ['weak password', { userName: 'weakpw', password: 'short' }, 'password'],
    ['taken user name', { userName: 'ZHANG.SAN', password: USER_PASSWORD }, 'userName'],
    ['taken e-mail', { userName: 'other', email: 'Zhang.San@example.com', password: USER_PASSWORD }, 'email'],
    ['unknown role', { userName: 'norole', roleNames: ['nope'], password: USER_PASSWORD }, 'roleNames'],
    ['unknown unit', { userName: 'nounit', organizationUnitIds: ['0193f0a0-0000-7000-8000-000000000000'], password: USER_PASSWORD }, 'organizationUnitIds'],
  ])('refuses %s with 400 before writing', async (_name, payload, member) => {
    const before = await userCount();
    const res = await t.call(admin, { method: 'POST', url: users, payload });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.validationErrors.map((v: { members: string[] }) => v.members).flat()).toContain(member);
    expect(await userCount()).toBe(before);
  });

  it('updates with the current concurrency stamp, answers 409 on a stale one', async () => {
    const user = await createUser(t, admin, { userName: 'li.si', name: '四', roleNames: ['developer'] });
    const payload = { userName: 'li.si', name: '李四', surname: '李', email: 'li.si@example.com', phoneNumber: '', isActive: true, lockoutEnabled: true };
    const ok = await t.call(admin, { method: 'PUT', url: `${users}/${user.id}`, payload: { ...payload, concurrencyStamp: user.concurrencyStamp } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ name: '李四', roleNames: ['developer'] });
    expect(ok.json().concurrencyStamp).not.toBe(user.concurrencyStamp);

    const stale = await t.call(admin, { method: 'PUT', url: `${users}/${user.id}`, payload: { ...payload, name: '旧的', concurrencyStamp: user.concurrencyStamp } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('Conflict');
    expect((await t.call(admin, { method: 'GET', url: `${users}/${user.id}` })).json().name).toBe('李四');

    const missing = await t.call(admin, { method: 'PUT', url: `${users}/${user.id}`, payload });
    expect(missing.statusCode).toBe(400);

    const roles = await t.call(admin, { method: 'PUT', url: `${users}/${user.id}`, payload: { ...payload, roleNames: [], concurrencyStamp: ok.json().concurrencyStamp } });
    expect(roles.json().roleNames).toEqual([]);

    const audit = await auditOf(t, 'User', user.id);
    const update = audit.find((a) => a.action === 'Updated')!.details as any;
    expect(update.before.name).toBe('四');
    expect(update.after.name).toBe('李四');
  });

  it('answers 404 for an unknown user and 400 for a malformed id', async () => {
    expect((await t.call(admin, { method: 'GET', url: `${users}/0193f0a0-0000-7000-8000-000000000000` })).statusCode).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: `${users}/not-a-uuid` })).statusCode).toBe(400);
  });
});

describe('users: paged list with filters', () => {
  it('filters by text, unit (and below), role and active, with paging and sorting', async () => {
    const east = await createUnit(t, admin, '华东');
    const shanghai = await createUnit(t, admin, '上海分公司', east.id);
    const sales = await createRole(t, admin, { name: 'sales' });
    await createUser(t, admin, { userName: 'east.boss', organizationUnitIds: [east.id], roleNames: ['sales'] });
    await createUser(t, admin, { userName: 'sh.one', name: '王五', phoneNumber: '13912345678', organizationUnitIds: [shanghai.id], roleNames: [] });
    await createUser(t, admin, { userName: 'sh.two', organizationUnitIds: [shanghai.id], isActive: false, roleNames: ['sales'] });

    const list = async (query: string) => {
      const res = await t.call(admin, { method: 'GET', url: `${users}?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: { userName: string }[]; totalCount: number };
    };
    const names = (r: { items: { userName: string }[] }) => r.items.map((u) => u.userName);

    expect(names(await list('Filter=王五'))).toEqual(['sh.one']);
    expect(names(await list('Filter=1391234'))).toEqual(['sh.one']);
    expect(names(await list(`OrganizationUnitId=${east.id}`))).toEqual(['east.boss']);
    expect(names(await list(`OrganizationUnitId=${east.id}&IncludeChildUnits=true&Sorting=userName`))).toEqual(['east.boss', 'sh.one', 'sh.two']);
    expect(names(await list(`RoleId=${sales.id}&Sorting=userName desc`))).toEqual(['sh.two', 'east.boss']);
    expect(names(await list('RoleName=SALES&IsActive=true'))).toEqual(['east.boss']);
    expect(names(await list('IsActive=false'))).toEqual(['sh.two']);
    const page = await list(`OrganizationUnitId=${east.id}&IncludeChildUnits=true&Sorting=userName&SkipCount=1&MaxResultCount=1`);
    expect(page.totalCount).toBe(3);
    expect(names(page)).toEqual(['sh.one']);
    // Each listed user carries their role names and units.
    const listed = (await list(`OrganizationUnitId=${east.id}&IncludeChildUnits=true&Sorting=userName`)).items as unknown as {
      userName: string;
      roleNames: string[];
      organizationUnits: { id: string; displayName: string }[];
    }[];
    expect(listed.map((u) => [u.userName, u.roleNames, u.organizationUnits])).toEqual([
      ['east.boss', ['sales'], [{ id: east.id, displayName: '华东' }]],
      ['sh.one', [], [{ id: shanghai.id, displayName: '上海分公司' }]],
      ['sh.two', ['sales'], [{ id: shanghai.id, displayName: '上海分公司' }]],
    ]);
    expect((await list('SkipCount=100000')).items).toEqual([]);
    // LIKE wildcards in the filter match themselves.
    expect((await list('Filter=%25')).totalCount).toBe(0);
  });

  it('refuses bad paging input', async () => {
    for (const q of ['MaxResultCount=0', 'MaxResultCount=1001', 'SkipCount=-1', 'IsActive=maybe', 'OrganizationUnitId=x']) {
      expect((await t.call(admin, { method: 'GET', url: `${users}?${q}` })).statusCode, q).toBe(400);
    }
    // An unknown sorting falls back to the default instead of reaching SQL.
    expect((await t.call(admin, { method: 'GET', url: `${users}?Sorting=password_hash; drop table users` })).statusCode).toBe(200);
  });
});

describe('users: administration actions', () => {
  it('locks for some minutes and unlocks; a locked user cannot sign in and their sessions end', async () => {
    const user = await createUser(t, admin, { userName: 'lockme' });
    const token = await t.login('lockme', USER_PASSWORD);
    const lock = await t.call(admin, { method: 'POST', url: `${users}/${user.id}/lock`, payload: { minutes: 30 } });
    expect(lock.statusCode, lock.body).toBe(200);
    expect(lock.json().isLockedOut).toBe(true);
    expect(new Date(lock.json().lockoutEnd).getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    expect((await me(token)).statusCode).toBe(401);
    const login = await t.app.inject({ method: 'POST', url: '/api/Auth/Login', payload: { username: 'lockme', password: USER_PASSWORD } });
    expect(login.json().code).not.toBe(0);
    expect((await t.call(admin, { method: 'GET', url: `${users}?IsLockedOut=true` })).json().items.map((u: { id: string }) => u.id)).toContain(user.id);

    const unlock = await t.call(admin, { method: 'POST', url: `${users}/${user.id}/unlock` });
    expect(unlock.json()).toMatchObject({ isLockedOut: false, lockoutEnd: null });
    await t.login('lockme', USER_PASSWORD);

    const until = new Date(Date.now() + 3600_000).toISOString();
    expect((await t.call(admin, { method: 'POST', url: `${users}/${user.id}/lock`, payload: { until } })).json().lockoutEnd).toBe(until);
    for (const payload of [{}, { minutes: 5, until }, { minutes: 0 }, { until: 'tomorrow' }]) {
      expect((await t.call(admin, { method: 'POST', url: `${users}/${user.id}/lock`, payload })).statusCode).toBe(400);
    }
    expect((await t.call(admin, { method: 'POST', url: `${users}/${user.id}/lock`, payload: { until: '2000-01-01T00:00:00Z' } })).statusCode).toBe(400);
    const audit = await auditOf(t, 'User', user.id);
    expect(audit.filter((a) => (a.details as any)?.operation === 'lock').length).toBe(2);
  });

  it('resets a password under the policy and ends the sessions', async () => {
    const user = await createUser(t, admin, { userName: 'forgetful' });
    const token = await t.login('forgetful', USER_PASSWORD);
    const weak = await t.call(admin, { method: 'POST', url: `${users}/${user.id}/reset-password`, payload: { newPassword: 'abc' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.validationErrors[0].members).toEqual(['newPassword']);
    const ok = await t.call(admin, { method: 'POST', url: `${users}/${user.id}/reset-password`, payload: { newPassword: 'Brand-New#2026' } });
    expect(ok.statusCode).toBe(204);
    expect((await me(token)).statusCode).toBe(401);
    await expect(t.login('forgetful', USER_PASSWORD)).rejects.toThrow();
    await t.login('forgetful', 'Brand-New#2026');
  });

  it('revokes all sessions of a user at once', async () => {
    const user = await createUser(t, admin, { userName: 'traveller' });
    const a = await t.login('traveller', USER_PASSWORD);
    const b = await t.login('traveller', USER_PASSWORD);
    expect((await me(a)).statusCode).toBe(200);
    const res = await t.call(admin, { method: 'POST', url: `${users}/${user.id}/revoke-sessions` });
    expect(res.json()).toEqual({ revokedCount: 2 });
    expect((await me(a)).statusCode).toBe(401);
    expect((await me(b)).statusCode).toBe(401);
    const row = await t.database.db.selectFrom('sessions').select('revoked_at').where('user_id', '=', user.id).execute();
    expect(row.every((s) => s.revoked_at)).toBe(true);
  });

  it('soft-deletes a user: the row stays, sessions and memberships go, the name is free again', async () => {
    const unit = await createUnit(t, admin, '待删除成员部门');
    const user = await createUser(t, admin, { userName: 'goner', organizationUnitIds: [unit.id], roleNames: ['developer'] });
    await t.call(admin, { method: 'PUT', url: `/api/identity/organization-units/${unit.id}/members/leader`, payload: { userId: user.id } });
    const token = await t.login('goner', USER_PASSWORD);
    expect((await t.call(admin, { method: 'DELETE', url: `${users}/${user.id}` })).statusCode).toBe(204);
    expect((await me(token)).statusCode).toBe(401);
    expect((await t.call(admin, { method: 'GET', url: `${users}/${user.id}` })).statusCode).toBe(404);
    const row = await t.database.db.selectFrom('users').select(['is_deleted']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.is_deleted).toBe(true);
    expect((await t.call(admin, { method: 'GET', url: `/api/identity/organization-units/${unit.id}` })).json()).toMatchObject({ memberCount: 0, leaderUserId: null });
    const again = await createUser(t, admin, { userName: 'goner' });
    expect(again.id).not.toBe(user.id);
    const audit = await auditOf(t, 'User', user.id);
    const deleted = audit.find((a) => a.action === 'Deleted')!.details as any;
    expect(deleted.before).toMatchObject({ userName: 'goner', roleNames: ['developer'] });
    expect(deleted.after).toBeNull();
  });

  it('refuses to delete or lock yourself, or deactivate yourself', async () => {
    const del = await t.call(admin, { method: 'DELETE', url: `${users}/${adminId}` });
    expect(del.statusCode).toBe(400);
    expect(del.json().error.code).toBe('CannotDeleteSelf');
    const lock = await t.call(admin, { method: 'POST', url: `${users}/${adminId}/lock`, payload: { minutes: 5 } });
    expect(lock.json().error.code).toBe('CannotLockSelf');
    const current = (await t.call(admin, { method: 'GET', url: `${users}/${adminId}` })).json();
    const deactivate = await t.call(admin, {
      method: 'PUT',
      url: `${users}/${adminId}`,
      payload: { ...pick(current), isActive: false, concurrencyStamp: current.concurrencyStamp },
    });
    expect(deactivate.json().error.code).toBe('CannotDeactivateSelf');
    expect((await me(admin)).statusCode).toBe(200);
  });
});

const pick = (u: Record<string, unknown>) => ({
  userName: u.userName,
  name: u.name,
  surname: u.surname,
  email: u.email,
  phoneNumber: u.phoneNumber,
  isActive: u.isActive,
  lockoutEnabled: u.lockoutEnabled,
});

describe('administrator accounts', () => {
  it('the last administrator cannot be deleted, locked, deactivated or lose the admin role', async () => {
    // A delegated user manager: every identity permission, not an administrator.
    const operator = await createUser(t, admin, { userName: 'operator', roleNames: [] });
    const codes = (await t.database.db.selectFrom('permission_definitions').select('name').where('name', 'like', 'Identity.%').execute()).map((r) => r.name);
    await t.database.db.insertInto('permission_grants').values(codes.map((name) => ({ name, provider_name: 'U' as const, provider_key: operator.id }))).execute();
    t.app.authCache.invalidateAccess();
    const op = await t.login('operator', USER_PASSWORD);
    const adminRole = await t.database.db.selectFrom('roles').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow();
    const current = (await t.call(op, { method: 'GET', url: `${users}/${adminId}` })).json();

    const refused = async (res: Awaited<ReturnType<TestApp['call']>>) => {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('LastAdministrator');
    };
    await refused(await t.call(op, { method: 'DELETE', url: `${users}/${adminId}` }));
    await refused(await t.call(op, { method: 'POST', url: `${users}/${adminId}/lock`, payload: { minutes: 10 } }));
    await refused(await t.call(op, { method: 'PUT', url: `${users}/${adminId}`, payload: { ...pick(current), isActive: false, concurrencyStamp: current.concurrencyStamp } }));
    await refused(await t.call(op, { method: 'PUT', url: `${users}/${adminId}`, payload: { ...pick(current), roleNames: [], concurrencyStamp: current.concurrencyStamp } }));
    await refused(await t.call(op, { method: 'DELETE', url: `/api/identity/roles/${adminRole.id}/members/${adminId}` }));
    // The administrator cannot drop their own admin role either while they are the last one.
    await refused(await t.call(admin, { method: 'PUT', url: `${users}/${adminId}`, payload: { ...pick(current), roleNames: [], concurrencyStamp: current.concurrencyStamp } }));
    await refused(await t.call(admin, { method: 'DELETE', url: `/api/identity/roles/${adminRole.id}/members/${adminId}` }));
    expect((await me(admin)).json().isAdmin).toBe(true);
    expect((await t.call(op, { method: 'GET', url: `${users}/${adminId}` })).json().concurrencyStamp).toBe(current.concurrencyStamp);
  });

  it('only an administrator changes administrator accounts or hands out the admin role', async () => {
    const op = await t.login('operator', USER_PASSWORD);
    const operatorId = (await me(op)).json().userId;
    // The operator cannot make anyone an administrator, themselves included.
    const grant = await t.call(op, { method: 'POST', url: users, payload: { userName: 'sneaky', password: USER_PASSWORD, roleNames: ['admin'] } });
    expect(grant.statusCode).toBe(403);
    const opUser = (await t.call(op, { method: 'GET', url: `${users}/${operatorId}` })).json();
    expect((await t.call(op, { method: 'PUT', url: `${users}/${operatorId}`, payload: { ...pick(opUser), roleNames: ['admin'], concurrencyStamp: opUser.concurrencyStamp } })).statusCode).toBe(403);
    const adminRole = await t.database.db.selectFrom('roles').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow();
    expect((await t.call(op, { method: 'POST', url: `/api/identity/roles/${adminRole.id}/members`, payload: { userIds: [operatorId] } })).statusCode).toBe(403);

    // A second administrator: now the first is not the last, but the operator still cannot touch them.
    const second = await createUser(t, admin, { userName: 'second.admin', roleNames: ['admin'] });
    for (const [method, url, payload] of [
      ['DELETE', `${users}/${second.id}`, undefined],
      ['POST', `${users}/${second.id}/lock`, { minutes: 5 }],
      ['POST', `${users}/${second.id}/reset-password`, { newPassword: 'Taken-Over#1' }],
      ['POST', `${users}/${second.id}/revoke-sessions`, undefined],
      ['PUT', `${users}/${second.id}`, { ...pick(second), name: 'renamed', concurrencyStamp: second.concurrencyStamp }],
    ] as const) {
      const res = await t.call(op, { method, url, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    await t.login('second.admin', USER_PASSWORD);

    // An administrator may: the first admin demotes and then deletes the second.
    const fresh = (await t.call(admin, { method: 'GET', url: `${users}/${second.id}` })).json();
    const demote = await t.call(admin, { method: 'PUT', url: `${users}/${second.id}`, payload: { ...pick(fresh), roleNames: [], concurrencyStamp: fresh.concurrencyStamp } });
    expect(demote.statusCode, demote.body).toBe(200);
    expect((await t.call(admin, { method: 'DELETE', url: `${users}/${second.id}` })).statusCode).toBe(204);
  });

  it('a second administrator may lock, deactivate and delete the first', async () => {
    const second = await createUser(t, admin, { userName: 'deputy', roleNames: ['admin'] });
    const deputy = await t.login('deputy', USER_PASSWORD);
    const lock = await t.call(deputy, { method: 'POST', url: `${users}/${adminId}/lock`, payload: { minutes: 1 } });
    expect(lock.statusCode, lock.body).toBe(200);
    expect((await me(admin)).statusCode).toBe(401);
    // admin is locked: deputy is now the only effective administrator.
    const adminAccount = lock.json();
    const off = await t.call(deputy, { method: 'PUT', url: `${users}/${second.id}`, payload: { ...pick(second), isActive: false, concurrencyStamp: second.concurrencyStamp } });
    expect(off.json().error.code).toBe('CannotDeactivateSelf');
    expect((await t.call(deputy, { method: 'POST', url: `${users}/${adminId}/unlock` })).statusCode).toBe(200);
    const deactivate = await t.call(deputy, {
      method: 'PUT',
      url: `${users}/${adminId}`,
      payload: { ...pick(adminAccount), isActive: false, concurrencyStamp: (await t.call(deputy, { method: 'GET', url: `${users}/${adminId}` })).json().concurrencyStamp },
    });
    expect(deactivate.statusCode, deactivate.body).toBe(200);
    const reactivated = deactivate.json();
    const on = await t.call(deputy, { method: 'PUT', url: `${users}/${adminId}`, payload: { ...pick(reactivated), isActive: true, concurrencyStamp: reactivated.concurrencyStamp } });
    expect(on.statusCode).toBe(200);
    // Both administrators again; the original signs back in.
    admin = await t.login('admin', TEST_ADMIN_PASSWORD);
    expect((await me(admin)).json().isAdmin).toBe(true);
  });
});
