import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, FIXTURE_PASSWORD } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let token: string;
let userId: string;

interface Route {
  method: HTTPMethods;
  url: string;
  code: string;
}
let routes: Route[];

// Things that exist nowhere: an opened route answers 400/404 and writes nothing.
const NOBODY = '0193f0a0-0000-7000-8000-00000000dead';
const MODULE_PATHS = ['/api/system/menu/definitions', '/api/permission-management/', '/api/app/permission-definitions', '/api/app/data-scopes', '/api/app/business-menu', '/api/app/audit-logs'];

beforeAll(async () => {
  t = await createTestApp();
  userId = await createUser(t.database.db, 'matrix.user');
  token = await t.login('matrix.user', FIXTURE_PASSWORD);
  routes = t.app.routeTable
    .filter((r) => MODULE_PATHS.some((p) => r.url.startsWith(p)) && r.access?.kind === 'permission')
    .flatMap((r) =>
      (Array.isArray(r.method) ? r.method : [r.method])
        .filter((m) => m !== 'HEAD')
        .map((method) => ({
          method: method as HTTPMethods,
          url: r.url.replace(':name', 'Biz.Nobody.Here').replace(/:\w+/g, NOBODY),
          code: (r.access as { code: string }).code,
        })),
    );
});
afterAll(() => t.close());

const call = (r: Route) => t.call(token, { method: r.method, url: r.url, payload: ['POST', 'PUT'].includes(r.method) ? {} : undefined });

describe('authorization, menu and audit permission matrix', () => {
  it('guards the administration routes with Tessera.* codes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(17);
    for (const r of routes) expect(r.code).toMatch(/^Tessera\./);
  });

  it('a user without grants gets 403 from every one of them', async () => {
    for (const r of routes) expect((await call(r)).statusCode, `${r.method} ${r.url}`).toBe(403);
  });

  it('granting one code opens exactly the routes that need it', async () => {
    const before = await t.database.db.selectFrom('business_menus').select('id').execute();
    for (const code of [...new Set(routes.map((r) => r.code))]) {
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
    expect(await t.database.db.selectFrom('business_menus').select('id').execute()).toEqual(before);
  });
});
