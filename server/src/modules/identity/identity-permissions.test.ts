import type { HTTPMethods } from 'fastify';
import { P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createUser, USER_PASSWORD } from '../../../test/identity-helpers.ts';

let t: TestApp;
let token: string;
let userId: string;

interface Route {
  method: HTTPMethods;
  url: string;
  code: string;
}
let routes: Route[];

// Ids that exist nowhere: an opened route answers 400/404, never writes.
const NOBODY = '0193f0a0-0000-7000-8000-00000000dead';

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.login();
  const user = await createUser(t, admin, { userName: 'no.grants', roleNames: [] });
  userId = user.id;
  token = await t.login('no.grants', USER_PASSWORD);
  routes = t.app.routeTable
    .filter((r) => r.url.startsWith('/api/identity/') && r.access?.kind === 'permission')
    .flatMap((r) =>
      (Array.isArray(r.method) ? r.method : [r.method])
        .filter((m) => m !== 'HEAD')
        .map((method) => ({ method: method as HTTPMethods, url: r.url.replace(/:\w+/g, NOBODY), code: (r.access as { code: string }).code })),
    );
});
afterAll(() => t.close());

const call = (r: Route) => t.call(token, { method: r.method, url: r.url, payload: ['POST', 'PUT'].includes(r.method) ? {} : undefined });

describe('identity permission matrix', () => {
  it('guards every identity route with an Identity.* code', () => {
    expect(routes.length).toBeGreaterThanOrEqual(28);
    for (const r of routes) expect(r.code).toMatch(/^Identity\./);
    const codes = new Set(routes.map((r) => r.code));
    for (const code of [P.OrganizationUnits, P.OrganizationUnitsManageMembers, P.Users, P.UsersImport, P.UsersRevokeSessions, P.Roles, P.RolesDelete]) {
      expect(codes.has(code), code).toBe(true);
    }
  });

  it('a user without grants gets 403 from every identity route, and from the directory without a page context', async () => {
    for (const r of routes) expect((await call(r)).statusCode, `${r.method} ${r.url}`).toBe(403);
    expect((await t.call(token, { method: 'GET', url: '/api/identity/selection-items?type=3' })).statusCode).toBe(403);
  });

  it('granting one code opens exactly the routes that need it', async () => {
    const codes = [...new Set(routes.map((r) => r.code))];
    for (const code of codes) {
      await t.database.db.insertInto('permission_grants').values({ name: code, provider_name: 'U', provider_key: userId }).execute();
      t.app.authCache.invalidateAccess();
      for (const r of routes) {
        const status = (await call(r)).statusCode;
        if (r.code === code) expect(status, `${code} should open ${r.method} ${r.url}`).not.toBe(403);
        else expect(status, `${code} must not open ${r.method} ${r.url}`).toBe(403);
        expect(status).toBeLessThan(500);
      }
      await t.database.db.deleteFrom('permission_grants').where('provider_key', '=', userId).execute();
      t.app.authCache.invalidateAccess();
    }
  });

  it('a grant through a role or an organisation unit opens the route too', async () => {
    const unit = await t.database.db.selectFrom('organization_units').select('id').executeTakeFirstOrThrow();
    await t.database.db.insertInto('user_organization_units').values({ user_id: userId, organization_unit_id: unit.id }).execute();
    await t.database.db.insertInto('permission_grants').values({ name: P.Roles, provider_name: 'OU', provider_key: unit.id }).execute();
    t.app.authCache.invalidateAccess();
    expect((await t.call(token, { method: 'GET', url: '/api/identity/roles' })).statusCode).toBe(200);
    expect((await t.call(token, { method: 'GET', url: '/api/identity/users' })).statusCode).toBe(403);

    const admin = await t.login();
    const role = (await t.call(admin, { method: 'POST', url: '/api/identity/roles', payload: { name: 'viewer' } })).json();
    await t.database.db.insertInto('permission_grants').values({ name: P.Users, provider_name: 'R', provider_key: role.id }).execute();
    t.app.authCache.invalidateAccess();
    expect((await t.call(token, { method: 'GET', url: '/api/identity/users' })).statusCode).toBe(403);
    // Joining the role through the API takes effect at once.
    await t.call(admin, { method: 'POST', url: `/api/identity/roles/${role.id}/members`, payload: { userIds: [userId] } });
    expect((await t.call(token, { method: 'GET', url: '/api/identity/users' })).statusCode).toBe(200);
  });
});
