import { API_KEY_PATTERN, API_KEYS_PER_USER_MAX } from '@tessera/core/contracts/api-keys';
import { bizPermission, P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { BD, bd, newId, publishPage } from '../../../test/business-data-fixtures.ts';
import { control, view } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let admin: string;
let clerk: string;
let clerkId: string;
let roleId: string;
const MINE = '/api/app/my-api-keys';

beforeAll(async () => {
  t = await createTestApp({ apiKeyRateLimit: 1000 });
  admin = await t.login();
  roleId = await createRole(t.database.db, 'key-clerks');
  await grant(t.database.db, 'R', roleId, [P.AuditLogs, P.Users, P.Settings]);
  clerkId = await createUser(t.database.db, 'key-clerk', { roles: [roleId] });
  clerk = await t.login('key-clerk', FIXTURE_PASSWORD);
});
afterAll(() => t.close());

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function createKey(token: string, body: { name?: string; expiresAt?: string | null; codes?: string[] | null } = {}) {
  const res = await t.call(token, { method: 'POST', url: MINE, payload: { name: 'ERP sync', expiresAt: inAnHour(), codes: null, ...body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { apiKey: { id: string; prefix: string; status: string; codes: string[] | null }; key: string };
}

/** A call made with a key, by header (`X-API-Key`) or as a Bearer token. */
const withKey = (key: string, url: string, how: 'header' | 'bearer' = 'header', method: 'GET' | 'POST' = 'GET', payload?: object) =>
  t.app.inject({ method, url, payload, headers: how === 'header' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` } });

describe('personal API keys', () => {
  it('are shown once, stored hashed, and act as their owner by header or Bearer token', async () => {
    const { apiKey, key } = await createKey(clerk);
    expect(key).toMatch(API_KEY_PATTERN);
    expect(apiKey).toMatchObject({ name: 'ERP sync', status: 'active', codes: null, prefix: key.slice(0, 12) });
    const list = (await t.call(clerk, { method: 'GET', url: MINE })).json();
    expect(list.items.map((k: { id: string }) => k.id)).toContain(apiKey.id);
    expect(JSON.stringify(list)).not.toContain(key);
    const row = await t.database.db.selectFrom('api_keys').selectAll().where('id', '=', apiKey.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(key);

    const me = await withKey(key, '/api/app/sys-function/current-user');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ userName: 'key-clerk' });
    expect((await withKey(key, '/api/app/audit-logs?MaxResultCount=1', 'bearer')).statusCode).toBe(200);
    // Codes the owner does not hold stay out of reach.
    expect((await withKey(key, '/api/identity/roles')).statusCode).toBe(403);
    // A wrong, malformed or unknown key is a 401, never a fall-back to anonymous.
    expect((await withKey(`${key.slice(0, -1)}A` === key ? `${key.slice(0, -1)}B` : `${key.slice(0, -1)}A`, '/api/app/audit-logs')).statusCode).toBe(401);
    expect((await withKey('not-a-key', '/api/app/audit-logs')).statusCode).toBe(401);
  });

  it('records the last use and audits every call made with a key', async () => {
    const { apiKey, key } = await createKey(clerk, { name: 'Audited' });
    expect((await withKey(key, '/api/app/audit-logs?MaxResultCount=1')).statusCode).toBe(200);
    expect((await withKey(key, '/api/identity/roles')).statusCode).toBe(403);
    const used = (await t.call(clerk, { method: 'GET', url: MINE })).json().items.find((k: { id: string }) => k.id === apiKey.id);
    expect(used.lastUsedAt).not.toBeNull();
    expect(used.lastUsedIp).toBe('127.0.0.1');
    const entries = await t.database.db.selectFrom('audit_logs').selectAll().where('entity_type', '=', 'ApiKey').where('entity_id', '=', apiKey.id).orderBy('time').execute();
    expect(entries.map((e) => e.action)).toEqual(['ApiKeyCreated', 'ApiKeyUsed', 'ApiKeyUsed']);
    expect(entries[1]!.details).toMatchObject({ name: 'Audited', method: 'GET', route: '/api/app/audit-logs', status: 200 });
    expect(entries[2]!.details).toMatchObject({ route: '/api/identity/roles', status: 403 });
    expect(entries.every((e) => e.user_name === 'key-clerk')).toBe(true);
    // The denial is logged as the owner's, naming the key.
    const denial = await t.database.db.selectFrom('audit_logs').selectAll().where('action', '=', 'PermissionDenied').where('user_id', '=', clerkId).orderBy('time', 'desc').executeTakeFirstOrThrow();
    expect(denial.details).toMatchObject({ apiKeyId: apiKey.id, permission: P.Roles });
  });

  it('narrowed to some codes: only those, and only while the owner holds them', async () => {
    const { key, apiKey } = await createKey(clerk, { codes: [P.AuditLogs, P.Settings] });
    expect(apiKey.codes).toEqual([P.AuditLogs, P.Settings]);
    expect((await withKey(key, '/api/app/audit-logs?MaxResultCount=1')).statusCode).toBe(200);
    expect((await withKey(key, '/api/app/system-settings')).statusCode).toBe(200);
    // The owner holds Identity.Users, the key does not.
    expect((await t.call(clerk, { method: 'GET', url: '/api/identity/users' })).statusCode).toBe(200);
    expect((await withKey(key, '/api/identity/users')).statusCode).toBe(403);
    // The owner loses a code: the key loses it too.
    await t.database.db.deleteFrom('permission_grants').where('provider_key', '=', roleId).where('name', '=', P.Settings).execute();
    t.app.authCache.invalidateAccess();
    expect((await withKey(key, '/api/app/system-settings')).statusCode).toBe(403);
    expect((await withKey(key, '/api/app/audit-logs?MaxResultCount=1')).statusCode).toBe(200);
    await grant(t.database.db, 'R', roleId, [P.Settings]);
    t.app.authCache.invalidateAccess();
  });

  it('never holds more than its owner: codes the owner lacks, past or far expiries and a full ring are refused before writing', async () => {
    const before = await t.database.db.selectFrom('api_keys').select('id').execute();
    const cases: [object, string][] = [
      [{ codes: [P.AuditLogs, P.Roles] }, 'codes.1'],
      [{ codes: [] }, 'body.codes'],
      [{ expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'expiresAt'],
      [{ expiresAt: new Date(Date.now() + 3651 * 86_400_000).toISOString() }, 'expiresAt'],
      [{ expiresAt: 'tomorrow' }, 'body.expiresAt'],
      [{ name: '' }, 'body.name'],
      [{ name: 'x'.repeat(65) }, 'body.name'],
    ];
    for (const [body, member] of cases) {
      const res = await t.call(clerk, { method: 'POST', url: MINE, payload: { name: 'Bad', expiresAt: inAnHour(), codes: null, ...body } });
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(400);
      expect(res.json().error.validationErrors.flatMap((v: { members: string[] }) => v.members)).toContain(member);
    }
    expect(await t.database.db.selectFrom('api_keys').select('id').execute()).toHaveLength(before.length);

    const ringUser = await createUser(t.database.db, 'key-ring', { roles: [roleId] });
    const ring = await t.login('key-ring', FIXTURE_PASSWORD);
    await Promise.all(Array.from({ length: API_KEYS_PER_USER_MAX + 3 }, (_, i) => t.call(ring, { method: 'POST', url: MINE, payload: { name: `k${i}`, expiresAt: null, codes: null } })));
    const held = await t.database.db.selectFrom('api_keys').select('id').where('user_id', '=', ringUser).execute();
    expect(held).toHaveLength(API_KEYS_PER_USER_MAX);
    const full = await t.call(ring, { method: 'POST', url: MINE, payload: { name: 'one more', expiresAt: null, codes: null } });
    expect(full.statusCode).toBe(400);
  });

  it('a key cannot make keys, change the password or sign out: those need a session', async () => {
    const { key } = await createKey(clerk, { name: 'No renewal' });
    const make = await withKey(key, MINE, 'header', 'POST', { name: 'child', expiresAt: null, codes: null });
    expect(make.statusCode).toBe(403);
    expect(make.json().error.details).toEqual({ reason: 'SessionRequired' });
    expect((await withKey(key, MINE)).statusCode).toBe(403);
    expect((await withKey(key, '/api/account/my-profile/change-password', 'bearer', 'POST', { currentPassword: FIXTURE_PASSWORD, newPassword: 'Other#2026pw' })).statusCode).toBe(403);
    expect((await withKey(key, '/api/Auth/Logout', 'header', 'POST')).statusCode).toBe(403);
  });

  it('revoked: refused at once; expired: refused when the time comes', async () => {
    const { key, apiKey } = await createKey(clerk, { name: 'Short' });
    expect((await withKey(key, '/api/app/sys-function/current-user')).statusCode).toBe(200);
    const revoke = await t.call(clerk, { method: 'DELETE', url: `${MINE}/${apiKey.id}` });
    expect(revoke.statusCode, revoke.body).toBe(204);
    expect((await withKey(key, '/api/app/sys-function/current-user')).statusCode).toBe(401);
    const listed = (await t.call(clerk, { method: 'GET', url: MINE })).json().items.find((k: { id: string }) => k.id === apiKey.id);
    expect(listed).toMatchObject({ status: 'revoked' });
    expect(listed.revokedAt).not.toBeNull();
    // Someone else's key is not found, and stays live.
    const other = await createKey(admin, { name: 'admin key' });
    expect((await t.call(clerk, { method: 'DELETE', url: `${MINE}/${other.apiKey.id}` })).statusCode).toBe(404);
    expect((await withKey(other.key, '/api/app/sys-function/current-user')).statusCode).toBe(200);

    const soon = await createKey(clerk, { name: 'Soon', expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect((await withKey(soon.key, '/api/app/sys-function/current-user')).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await withKey(soon.key, '/api/app/sys-function/current-user')).statusCode).toBe(401);
    const expired = (await t.call(clerk, { method: 'GET', url: MINE })).json().items.find((k: { id: string }) => k.id === soon.apiKey.id);
    expect(expired.status).toBe('expired');
  });

  it("a disabled owner's keys stop working", async () => {
    const id = await createUser(t.database.db, 'key-leaver', { roles: [roleId] });
    const leaver = await t.login('key-leaver', FIXTURE_PASSWORD);
    const { key } = await createKey(leaver);
    expect((await withKey(key, '/api/app/sys-function/current-user')).statusCode).toBe(200);
    const user = (await t.call(admin, { method: 'GET', url: `/api/identity/users/${id}` })).json();
    const update = await t.call(admin, { method: 'PUT', url: `/api/identity/users/${id}`, payload: { ...user, isActive: false, roleNames: ['key-clerks'] } });
    expect(update.statusCode, update.body).toBe(200);
    expect((await withKey(key, '/api/app/sys-function/current-user')).statusCode).toBe(401);
  });

  it('lists the codes a key may be narrowed to: the owner’s own, named', async () => {
    const res = await t.call(clerk, { method: 'GET', url: `${MINE}/codes`, headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(200);
    const names = res.json().groups.flatMap((g: { permissions: { name: string }[] }) => g.permissions.map((p) => p.name));
    expect(names.sort()).toEqual([P.AuditLogs, P.Settings, P.Users].sort());
    expect(res.json().groups.find((g: { name: string }) => g.name === 'Tessera.AuditLogs').displayName).toBe('Audit log');
  });

  it('answers 429 with Retry-After past the per-key budget', async () => {
    const limited = await createTestApp({ apiKeyRateLimit: 3 });
    try {
      const token = await limited.login();
      const res = await limited.call(token, { method: 'POST', url: MINE, payload: { name: 'busy', expiresAt: null, codes: null } });
      const { key } = res.json();
      const call = () => limited.app.inject({ method: 'GET', url: '/api/app/sys-function/current-user', headers: { 'x-api-key': key } });
      for (let i = 0; i < 3; i++) expect((await call()).statusCode).toBe(200);
      const over = await call();
      expect(over.statusCode).toBe(429);
      expect(over.json().error.code).toBe('TooManyRequests');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // The session is not limited by the key's budget.
      expect((await limited.call(token, { method: 'GET', url: '/api/app/sys-function/current-user' })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('a key reads business records within its owner’s data scope', () => {
  it('sees the rows its owner may see, no more', async () => {
    const master = view('KeyOrder', [control('Name', 1001)]);
    const pageId = await publishPage(t, admin, 'KeyOrder', { viewControls: [master], pageButtons: [], dataLinkages: [] });
    const role = await createRole(t.database.db, 'key-order-clerks');
    await grant(t.database.db, 'R', role, [...pageWorkCodes('KeyOrder'), bizPermission.fieldEdit('KeyOrder', 'Name')]);
    const scope = await t.call(admin, { method: 'PUT', url: `/api/app/data-scopes?roleId=${role}`, payload: { items: [{ pageKey: 'KeyOrder', scope: 'own', customFilter: null }] } });
    expect(scope.statusCode, scope.body).toBe(200);
    await createUser(t.database.db, 'key-ann', { roles: [role] });
    await createUser(t.database.db, 'key-bob', { roles: [role] });
    const ann = await t.login('key-ann', FIXTURE_PASSWORD);
    const bob = await t.login('key-bob', FIXTURE_PASSWORD);
    for (const [token, name] of [[ann, 'Ann 1'], [bob, 'Bob 1'], [ann, 'Ann 2']] as const) {
      await bd(t, token, 'save-page', { pageId, viewDataList: [{ viewId: master.id, dataList: [{ Id: newId(), Name: name }] }] });
    }
    const { key } = await createKey(ann);
    const query = { pageId, viewId: master.id, filterConditions: [], Sorting: 'Name asc' };
    const res = await withKey(key, `${BD}/query-view-data`, 'header', 'POST', query);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((r: { Name: string }) => r.Name)).toEqual(['Ann 1', 'Ann 2']);
    // An administrator's key narrowed to this page's codes keeps the administrator's rows.
    const { key: adminKey } = await createKey(admin, { codes: [...pageWorkCodes('KeyOrder'), bizPermission.fieldView('KeyOrder', 'Name')] });
    const all = await withKey(adminKey, `${BD}/query-view-data`, 'header', 'POST', query);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().items.map((r: { Name: string }) => r.Name)).toEqual(['Ann 1', 'Ann 2', 'Bob 1']);
    expect((await withKey(adminKey, '/api/identity/users')).statusCode).toBe(403);
  });
});

describe('administrators', () => {
  it('list every key (filter, status, paging) and revoke any; others may not', async () => {
    const { apiKey, key } = await createKey(clerk, { name: 'Warehouse scanner' });
    const list = await t.call(admin, { method: 'GET', url: '/api/app/api-keys?Filter=warehouse&Status=active' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ totalCount: 1, items: [{ id: apiKey.id, userName: 'key-clerk', ownerName: 'key-clerk', status: 'active' }] });
    const byUser = (await t.call(admin, { method: 'GET', url: `/api/app/api-keys?UserId=${clerkId}&MaxResultCount=2&Sorting=name asc` })).json();
    expect(byUser.items).toHaveLength(2);
    expect(byUser.totalCount).toBeGreaterThan(2);
    const revoked = (await t.call(admin, { method: 'GET', url: '/api/app/api-keys?Status=revoked' })).json();
    expect(revoked.items.every((k: { status: string }) => k.status === 'revoked')).toBe(true);

    expect((await t.call(clerk, { method: 'GET', url: '/api/app/api-keys' })).statusCode).toBe(403);
    expect((await t.call(clerk, { method: 'POST', url: `/api/app/api-keys/${apiKey.id}/revoke` })).statusCode).toBe(403);
    const res = await t.call(admin, { method: 'POST', url: `/api/app/api-keys/${apiKey.id}/revoke` });
    expect(res.statusCode, res.body).toBe(204);
    expect((await withKey(key, '/api/app/sys-function/current-user')).statusCode).toBe(401);
    const entry = await t.database.db.selectFrom('audit_logs').selectAll().where('action', '=', 'ApiKeyRevoked').where('entity_id', '=', apiKey.id).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ user_name: 'admin', details: { ownerId: clerkId, name: 'Warehouse scanner' } });
    expect((await t.call(admin, { method: 'POST', url: `/api/app/api-keys/${newId()}/revoke` })).statusCode).toBe(404);
  });
});
