import ExcelJS from 'exceljs';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_TYPE } from '../src/platform/excel.ts';
import { createRole, createUnit, createUser, USER_PASSWORD } from './identity-helpers.ts';
import { createTestApp, type TestApp } from './test-app.ts';

// Issue 25, delegated administration: an operator who manages users, roles, units, grants and data
// scopes — but does not hold `Tessera.AuditLogs` — may hand out, change or manage only what carries
// no more than they hold, and never raises their own power. Every identity, authorization and
// data-scope write is a row of the matrix: refused as asked, allowed within the operator's reach.

const POWER = 'Tessera.AuditLogs';
let t: TestApp;
let admin: string;
let op: string;
const ids: Record<string, string> = {};

const grant = (provider: 'U' | 'R' | 'OU', key: string, names: string[]) =>
  t.database.db.insertInto('permission_grants').values(names.map((name) => ({ name, provider_name: provider, provider_key: key }))).execute();

async function workbook(rows: (string | null)[][]) {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('用户');
  sheet.addRow(['用户名', '名字', '姓氏', '邮箱', '手机号', '密码', '角色', '组织机构', '启用']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
/** The users import: the workbook is the raw request body. */
const importUsers = async (rows: (string | null)[][]): Promise<InjectOptions> => ({
  method: 'POST',
  url: '/api/identity/users/import?fileName=u.xlsx',
  headers: { 'content-type': XLSX_TYPE },
  payload: await workbook(rows),
});

const userPayload = async (id: string, change: Record<string, unknown>) => {
  const u = (await t.call(admin, { method: 'GET', url: `/api/identity/users/${id}` })).json();
  return {
    userName: u.userName, name: u.name, surname: u.surname, email: u.email, phoneNumber: u.phoneNumber, isActive: u.isActive, lockoutEnabled: u.lockoutEnabled,
    roleNames: u.roleNames, organizationUnitIds: u.organizationUnits.map((x: { id: string }) => x.id), concurrencyStamp: u.concurrencyStamp, ...change,
  };
};
const rolePayload = async (id: string, change: Record<string, unknown>) => {
  const r = (await t.call(admin, { method: 'GET', url: `/api/identity/roles/${id}` })).json();
  return { name: r.name, description: r.description, isDefault: r.isDefault, isPublic: r.isPublic, concurrencyStamp: r.concurrencyStamp, ...change };
};
const unitPayload = async (id: string, change: Record<string, unknown>) => {
  const u = (await t.call(admin, { method: 'GET', url: `/api/identity/organization-units/${id}` })).json();
  return { displayName: u.displayName, parentId: u.parentId, concurrencyStamp: u.concurrencyStamp, ...change };
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const db = t.database.db;
  // The operator's codes come through a role of their own: every identity and authorization code.
  const operators = await createRole(t, admin, { name: 'operators' });
  const codes = (await db.selectFrom('permission_definitions').select('name').where('group_name', 'in', ['Identity', 'Tessera.Authorization']).execute()).map((r) => r.name);
  codes.push('Tessera.Settings', 'Tessera.Settings.Manage');
  expect(codes).toContain('Tessera.DataScopes.Manage');
  const opCodes = codes.filter((c) => c !== POWER);
  await grant('R', operators.id, opCodes);
  ids.operators = operators.id;
  ids.payroll = (await createRole(t, admin, { name: 'payroll' })).id; // carries POWER
  await grant('R', ids.payroll, [POWER]);
  ids.basic = (await createRole(t, admin, { name: 'basic' })).id; // carries a code the operator holds
  await grant('R', ids.basic, ['Identity.Users']);
  ids.spare = (await createRole(t, admin, { name: 'spare' })).id;
  ids.finance = (await createUnit(t, admin, 'Finance')).id; // members get POWER
  await grant('OU', ids.finance, [POWER]);
  ids.payrollUnit = (await createUnit(t, admin, 'Payroll', ids.finance)).id; // …and so do members of the units below
  ids.plain = (await createUnit(t, admin, 'Plain')).id;
  ids.sales = (await createUnit(t, admin, 'Sales')).id;
  ids.operator = (await createUser(t, admin, { userName: 'operator', roleNames: ['operators'] })).id;
  ids.boss = (await createUser(t, admin, { userName: 'boss', roleNames: ['payroll'] })).id;
  ids.clerk = (await createUser(t, admin, { userName: 'clerk', roleNames: [] })).id;
  ids.bossUnitMember = (await createUser(t, admin, { userName: 'boss2', roleNames: [], organizationUnitIds: [ids.payrollUnit] })).id;
  t.app.authCache.invalidateAccess();
  op = await t.login('operator', USER_PASSWORD);
});
afterAll(() => t.close());

type Row = [name: string, request: () => Promise<InjectOptions>];

const refused: Row[] = [
  ['give oneself a role that carries more (PUT own user)', async () => ({ method: 'PUT', url: `/api/identity/users/${ids.operator}`, payload: await userPayload(ids.operator, { roleNames: ['operators', 'payroll'] }) })],
  ['give oneself even a role within reach (own power)', async () => ({ method: 'PUT', url: `/api/identity/users/${ids.operator}`, payload: await userPayload(ids.operator, { roleNames: ['operators', 'basic'] }) })],
  ['give oneself a unit (PUT own user)', async () => ({ method: 'PUT', url: `/api/identity/users/${ids.operator}`, payload: await userPayload(ids.operator, { organizationUnitIds: [ids.plain] }) })],
  ['give a colleague a role that carries more', async () => ({ method: 'PUT', url: `/api/identity/users/${ids.clerk}`, payload: await userPayload(ids.clerk, { roleNames: ['payroll'] }) })],
  ['give a colleague a unit whose parent carries more', async () => ({ method: 'PUT', url: `/api/identity/users/${ids.clerk}`, payload: await userPayload(ids.clerk, { organizationUnitIds: [ids.payrollUnit] }) })],
  ['create a user with a role that carries more', async () => ({ method: 'POST', url: '/api/identity/users', payload: { userName: 'new1', email: 'new1@example.com', password: USER_PASSWORD, roleNames: ['payroll'] } })],
  ['create a user in a unit that carries more', async () => ({ method: 'POST', url: '/api/identity/users', payload: { userName: 'new2', email: 'new2@example.com', password: USER_PASSWORD, roleNames: [], organizationUnitIds: [ids.finance] } })],
  ['import a user with a role that carries more', () => importUsers([['new3', 'New', '', 'new3@example.com', '', USER_PASSWORD, 'payroll', '', '是']])],
  ['join a unit that carries more oneself', async () => ({ method: 'POST', url: `/api/identity/organization-units/${ids.finance}/members`, payload: { userIds: [ids.operator] } })],
  ['join even a plain unit oneself (own power)', async () => ({ method: 'POST', url: `/api/identity/organization-units/${ids.plain}/members`, payload: { userIds: [ids.operator] } })],
  ['add a colleague to a unit below one that carries more', async () => ({ method: 'POST', url: `/api/identity/organization-units/${ids.payrollUnit}/members`, payload: { userIds: [ids.clerk] } })],
  ['add a colleague to a role that carries more', async () => ({ method: 'POST', url: `/api/identity/roles/${ids.payroll}/members`, payload: { userIds: [ids.clerk] } })],
  ['add oneself to a role (own power)', async () => ({ method: 'POST', url: `/api/identity/roles/${ids.basic}/members`, payload: { userIds: [ids.operator] } })],
  ['make a role that carries more the default', async () => ({ method: 'PUT', url: `/api/identity/roles/${ids.payroll}`, payload: await rolePayload(ids.payroll, { isDefault: true }) })],
  ['make a role that carries more a default role of registration (system settings)', async () => ({ method: 'PUT', url: '/api/app/system-settings', payload: { registration: { isEnabled: true, defaultRoleIds: [ids.payroll] }, passwordPolicy: { minLength: 8, requiredClasses: 3 } } })],
  ['delete a role that carries more', async () => ({ method: 'DELETE', url: `/api/identity/roles/${ids.payroll}` })],
  ['move a unit under a parent that carries more', async () => ({ method: 'PUT', url: `/api/identity/organization-units/${ids.plain}`, payload: await unitPayload(ids.plain, { parentId: ids.finance }) })],
  ['set data scopes of a role that carries more', async () => ({ method: 'PUT', url: `/api/app/data-scopes?roleId=${ids.payroll}`, payload: { items: [{ pageKey: 'Orders', scope: 'all' }] } })],
  ['widen the data scope of one’s own role', async () => ({ method: 'PUT', url: `/api/app/data-scopes?roleId=${ids.operators}`, payload: { items: [{ pageKey: 'Orders', scope: 'all' }] } })],
  ['change grants of a role that carries more', async () => ({ method: 'PUT', url: `/api/permission-management/permissions?providerName=R&providerKey=${ids.payroll}`, payload: { permissions: [{ name: 'Identity.Users', isGranted: true }] } })],
  ['change grants of a unit that carries more', async () => ({ method: 'PUT', url: `/api/permission-management/permissions?providerName=OU&providerKey=${ids.payrollUnit}`, payload: { permissions: [{ name: 'Identity.Users', isGranted: true }] } })],
  ['change grants of a user who holds more', async () => ({ method: 'PUT', url: `/api/permission-management/permissions?providerName=U&providerKey=${ids.boss}`, payload: { permissions: [{ name: 'Identity.Users', isGranted: true }] } })],
  ['edit a user who holds more', async () => ({ method: 'PUT', url: `/api/identity/users/${ids.boss}`, payload: await userPayload(ids.boss, { name: 'Renamed' }) })],
  ['edit a user who holds more through a unit', async () => ({ method: 'PUT', url: `/api/identity/users/${ids.bossUnitMember}`, payload: await userPayload(ids.bossUnitMember, { name: 'Renamed' }) })],
  ['lock a user who holds more', async () => ({ method: 'POST', url: `/api/identity/users/${ids.boss}/lock`, payload: { minutes: 10 } })],
  ['unlock a user who holds more', async () => ({ method: 'POST', url: `/api/identity/users/${ids.boss}/unlock` })],
  ['reset the password of a user who holds more', async () => ({ method: 'POST', url: `/api/identity/users/${ids.boss}/reset-password`, payload: { newPassword: 'Taken#Over2026' } })],
  ['sign out a user who holds more', async () => ({ method: 'POST', url: `/api/identity/users/${ids.boss}/revoke-sessions` })],
  ['delete a user who holds more', async () => ({ method: 'DELETE', url: `/api/identity/users/${ids.boss}` })],
  ['take a user who holds more out of their role', async () => ({ method: 'DELETE', url: `/api/identity/roles/${ids.payroll}/members/${ids.boss}` })],
  ['take a user who holds more out of their unit', async () => ({ method: 'DELETE', url: `/api/identity/organization-units/${ids.payrollUnit}/members/${ids.bossUnitMember}` })],
];

/** What the database says about power: every grant, role membership, unit membership, default role, scope, user row. */
async function snapshot() {
  const db = t.database.db;
  const [grants, roles, units, defaults, scopes, users, tree, sessions] = await Promise.all([
    db.selectFrom('permission_grants').select(['name', 'provider_name', 'provider_key']).orderBy(['provider_key', 'name']).execute(),
    db.selectFrom('user_roles').selectAll().orderBy(['user_id', 'role_id']).execute(),
    db.selectFrom('user_organization_units').selectAll().orderBy(['user_id', 'organization_unit_id']).execute(),
    db.selectFrom('roles').select(['name', 'is_default']).orderBy('name').execute(),
    db.selectFrom('data_scopes').select(['role_id', 'page_key', 'scope']).orderBy(['role_id', 'page_key']).execute(),
    db.selectFrom('users').select(['user_name', 'name', 'password_hash', 'lockout_end', 'is_deleted']).orderBy('user_name').execute(),
    db.selectFrom('organization_units').select(['id', 'parent_id', 'code']).orderBy('code').execute(),
    db.selectFrom('sessions').select(['id', 'revoked_at']).orderBy('id').execute(),
  ]);
  return JSON.stringify({ grants, roles, units, defaults, scopes, users, tree, sessions });
}

describe('delegated administration: refused beyond the operator’s own reach', () => {
  it.each(refused)('%s → 403 with a clear message, nothing changed', async (_name, request) => {
    await t.login('boss', USER_PASSWORD); // a live session of the user who holds more
    const options = await request();
    const before = await snapshot();
    const res = await t.call(op, options);
    expect(res.statusCode, res.body).toBe(403);
    // Refused by the delegation rule, not for want of the route's own permission.
    expect(['BeyondOwnAccess', 'OwnPower', 'AdministratorRole', 'AdministratorAccount']).toContain(res.json().error.details?.reason);
    expect(res.json().error.message).toMatch(/超出您自身权限|不能为自己增加/);
    expect(await snapshot()).toBe(before);
  });

  it('the refusal names what is missing, in the caller’s language', async () => {
    const res = await t.call(op, { method: 'POST', url: `/api/identity/roles/${ids.payroll}/members`, payload: { userIds: [ids.clerk] }, headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(`You cannot give or manage more than you hold yourself: View the audit log (${POWER})`);
    expect(res.json().error.details).toMatchObject({ reason: 'BeyondOwnAccess', permissions: [POWER] });
  });
});

describe('delegated administration: allowed within reach', () => {
  const allowed: Row[] = [
    ['give a colleague a role within reach', async () => ({ method: 'PUT', url: `/api/identity/users/${ids.clerk}`, payload: await userPayload(ids.clerk, { roleNames: ['basic'] }) })],
    ['create a user with a role within reach in a plain unit', async () => ({ method: 'POST', url: '/api/identity/users', payload: { userName: 'new9', email: 'new9@example.com', password: USER_PASSWORD, roleNames: ['basic'], organizationUnitIds: [ids.plain] } })],
    ['import a user with a role within reach', () => importUsers([['new8', 'New', '', 'new8@example.com', '', USER_PASSWORD, 'basic', '', '是']])],
    ['add a colleague to a plain unit', async () => ({ method: 'POST', url: `/api/identity/organization-units/${ids.sales}/members`, payload: { userIds: [ids.clerk] } })],
    ['add a colleague to a role within reach', async () => ({ method: 'POST', url: `/api/identity/roles/${ids.spare}/members`, payload: { userIds: [ids.clerk] } })],
    ['make a role within reach the default', async () => ({ method: 'PUT', url: `/api/identity/roles/${ids.basic}`, payload: await rolePayload(ids.basic, { isDefault: true }) })],
    ['move a unit under a plain parent', async () => ({ method: 'PUT', url: `/api/identity/organization-units/${ids.plain}`, payload: await unitPayload(ids.plain, { parentId: ids.sales }) })],
    ['set data scopes of a role within reach', async () => ({ method: 'PUT', url: `/api/app/data-scopes?roleId=${ids.basic}`, payload: { items: [{ pageKey: 'Orders', scope: 'own' }] } })],
    ['grant a held code to a role within reach', async () => ({ method: 'PUT', url: `/api/permission-management/permissions?providerName=R&providerKey=${ids.basic}`, payload: { permissions: [{ name: 'Identity.Roles', isGranted: true }] } })],
    ['edit a colleague within reach', async () => ({ method: 'PUT', url: `/api/identity/users/${ids.clerk}`, payload: await userPayload(ids.clerk, { name: 'Clerk Li' }) })],
    ['reset a colleague’s password', async () => ({ method: 'POST', url: `/api/identity/users/${ids.clerk}/reset-password`, payload: { newPassword: 'Fresh#Pass2026' } })],
    ['lock and sign out a colleague', async () => ({ method: 'POST', url: `/api/identity/users/${ids.clerk}/lock`, payload: { minutes: 10 } })],
  ];
  it.each(allowed)('%s → done', async (_name, request) => {
    const res = await t.call(op, await request());
    expect(res.statusCode, res.body).toBeLessThan(300);
  });

  it('editing one’s own name is not a raise of power', async () => {
    const res = await t.call(op, { method: 'PUT', url: `/api/identity/users/${ids.operator}`, payload: await userPayload(ids.operator, { name: 'Operator Wang' }) });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('an administrator is refused nothing of it', async () => {
    const res = await t.call(admin, { method: 'POST', url: `/api/identity/roles/${ids.payroll}/members`, payload: { userIds: [ids.operator] } });
    expect(res.statusCode, res.body).toBe(200);
  });
});
