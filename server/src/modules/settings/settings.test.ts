import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P } from '@tessera/core/contracts/permissions';
import { adminRoleId, createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { register } from '../../../test/registration-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

const url = '/api/app/system-settings';
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

describe('system settings', () => {
  it('shows registration off, no default role and the default password policy on a new installation', async () => {
    const res = await t.call(admin, { method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ registration: { isEnabled: false, defaultRoleIds: [] }, passwordPolicy: { minLength: 8, requiredClasses: 3 } });
    expect(res.json().roles).toEqual([expect.objectContaining({ name: 'admin', isAdmin: true })]);
  });

  it('needs Tessera.Settings to read and Tessera.Settings.Manage to change', async () => {
    const role = await createRole(t.database.db, 'settings-readers');
    await grant(t.database.db, 'R', role, [P.Settings]);
    await createUser(t.database.db, 'reader', { roles: [role] });
    await createUser(t.database.db, 'plain');
    const reader = await t.login('reader', FIXTURE_PASSWORD);
    const plain = await t.login('plain', FIXTURE_PASSWORD);
    expect((await t.call(plain, { method: 'GET', url })).statusCode).toBe(403);
    expect((await t.call(reader, { method: 'GET', url })).statusCode).toBe(200);
    const body = { registration: { isEnabled: true, defaultRoleIds: [] }, passwordPolicy: { minLength: 8, requiredClasses: 3 } };
    expect((await t.call(reader, { method: 'PUT', url, payload: body })).statusCode).toBe(403);
  });

  it('refuses bad input with validationErrors and writes nothing', async () => {
    const cases = [
      { registration: { isEnabled: true, defaultRoleIds: [] }, passwordPolicy: { minLength: 4, requiredClasses: 3 } },
      { registration: { isEnabled: true, defaultRoleIds: ['not-a-uuid'] }, passwordPolicy: { minLength: 8, requiredClasses: 3 } },
      { registration: { isEnabled: true, defaultRoleIds: [await adminRoleId(t.database.db)] }, passwordPolicy: { minLength: 8, requiredClasses: 3 } },
      { registration: { isEnabled: true, defaultRoleIds: ['0190d5f8-0000-7000-8000-000000000000'] }, passwordPolicy: { minLength: 8, requiredClasses: 3 } },
    ];
    for (const payload of cases) {
      const res = await t.call(admin, { method: 'PUT', url, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    expect(await t.database.db.selectFrom('settings').select('key').where('key', 'in', ['registration.enabled', 'passwordPolicy']).execute()).toEqual([]);
    expect((await t.database.db.selectFrom('roles').select('id').where('is_default', '=', true).execute()).length).toBe(0);
  });

  it('turns registration on with a default role and a stricter policy; registration follows them', async () => {
    const staff = await createRole(t.database.db, 'staff');
    const payload = { registration: { isEnabled: true, defaultRoleIds: [staff] }, passwordPolicy: { minLength: 12, requiredClasses: 4 } };
    const res = await t.call(admin, { method: 'PUT', url, payload });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject(payload);
    expect((await t.app.inject({ method: 'GET', url: '/api/register/options' })).json()).toEqual({ isEnabled: true, passwordPolicy: payload.passwordPolicy });
    await expect(register(t, 'weak@example.com', 'Passw0rd!')).rejects.toThrow(/400/);
    const body = await register(t, 'strong@example.com', 'Passw0rd!Long');
    const roles = await t.database.db.selectFrom('user_roles').select('role_id').where('user_id', '=', body.data.uuid).execute();
    expect(roles.map((r) => r.role_id)).toEqual([staff]);
    const audit = await t.database.db.selectFrom('audit_logs').select('details').where('entity_type', '=', 'SystemSettings').executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ before: { registration: { isEnabled: false } }, after: { registration: { isEnabled: true } } });
  });

  it('is the menu item /system/settings for those who hold Tessera.Settings', async () => {
    const menus = (await t.call(admin, { method: 'POST', url: '/api/system/menu/list' })).json();
    const system = menus.sider.find((m: { path: string }) => m.path === '/system');
    expect(system.children.map((c: { path: string }) => c.path)).toContain('/system/settings');
  });
});
