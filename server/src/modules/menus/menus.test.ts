import type { TMenuItem } from '@tessera/core/contracts/menus';
import { P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { filterMenus, SYSTEM_SIDER } from './menus.service.ts';

let t: TestApp;
let admin: string;
const URL = '/api/system/menu/list';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const menus = async (token: string) => {
  const res = await t.call(token, { method: 'POST', url: URL });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { header: TMenuItem[]; sider: TMenuItem[] };
};
const paths = (items: TMenuItem[]): unknown[] => items.map((m) => (m.children ? [m.path, paths(m.children)] : m.path));
const flatten = (items: TMenuItem[]): TMenuItem[] => items.flatMap((m) => [m, ...flatten(m.children ?? [])]);

describe('system menus', () => {
  it('refuses a caller who is not signed in', async () => {
    expect((await t.call(null, { method: 'POST', url: URL })).statusCode).toBe(401);
  });

  it('shows a user without permission codes only what needs no code', async () => {
    await createUser(t.database.db, 'plain');
    const body = await menus(await t.login('plain', FIXTURE_PASSWORD));
    expect(paths(body.header)).toEqual(['/', '/log']);
    expect(paths(body.sider)).toEqual([
      ['/dashboard', ['/dashboard/console']],
      ['/system', ['/system/documentation']],
      ['/flows', ['/flows/assignTask', '/flows/completedTasks']],
    ]);
  });

  it('adds exactly the items whose codes the user holds', async () => {
    const role = await createRole(t.database.db, 'user-admins');
    await grant(t.database.db, 'R', role, [P.Users, P.AuditLogs]);
    await createUser(t.database.db, 'useradmin', { roles: [role] });
    const body = await menus(await t.login('useradmin', FIXTURE_PASSWORD));
    expect(paths(body.sider)).toEqual([
      ['/dashboard', ['/dashboard/console']],
      ['/builtIn', ['/builtIn/user']],
      ['/system', ['/system/documentation', '/system/audit']],
      ['/flows', ['/flows/assignTask', '/flows/completedTasks']],
    ]);
    expect(flatten(body.sider).find((m) => m.path === '/builtIn/user')?.auth).toEqual([P.Users]);
  });

  it('gives the administrator every area whose code is defined, with i18n keys as titles', async () => {
    const body = await menus(admin);
    const me = (await t.call(admin, { method: 'GET', url: '/api/app/sys-function/current-user' })).json() as { access: string[] };
    const access = new Set(me.access);
    expect(body.sider).toEqual(filterMenus(SYSTEM_SIDER, access));
    const visible = flatten(body.sider).map((m) => m.path);
    for (const path of ['/builtIn/organization', '/builtIn/user', '/builtIn/role', '/builtIn/menu', '/builtIn/authorization', '/design/workflow', '/design/authority', '/flows/instance', '/dataSet/source', '/dataSet/storedProcedure', '/dataSet/dictionary']) {
      expect(visible).toContain(path);
    }
    for (const item of flatten([...body.header, ...body.sider])) {
      expect(item.title).toMatch(/^menu:[A-Za-z]+$/);
      for (const code of item.auth ?? []) expect(access.has(code)).toBe(true);
    }
    expect(body.header.find((m) => m.path === '/log')).toMatchObject({ title: 'menu:system', mainShow: false });
  });

  it('filters nested items and drops groups left empty', () => {
    const tree: TMenuItem[] = [
      { path: '/a', title: 'menu:a', children: [{ path: '/a/x', title: 'menu:x', auth: ['X'] }] },
      { path: '/b', title: 'menu:b', auth: ['B'], children: [{ path: '/b/y', title: 'menu:y' }] },
      { path: '/c', title: 'menu:c', children: [{ path: '/c/z', title: 'menu:z', auth: ['Z', 'X'] }, { path: '/c/w', title: 'menu:w' }] },
    ];
    expect(paths(filterMenus(tree, new Set()))).toEqual([['/c', ['/c/w']]]);
    expect(paths(filterMenus(tree, new Set(['X', 'B'])))).toEqual([['/a', ['/a/x']], ['/b', ['/b/y']], ['/c', ['/c/w']]]);
    expect(paths(filterMenus(tree, new Set(['Z', 'X'])))).toEqual([['/a', ['/a/x']], ['/c', ['/c/z', '/c/w']]]);
  });

  it('lists every system item with its codes for menu administrators only', async () => {
    const url = '/api/system/menu/definitions';
    const userId = await createUser(t.database.db, 'menus.viewer');
    const token = await t.login('menus.viewer', FIXTURE_PASSWORD);
    expect((await t.call(token, { method: 'GET', url })).statusCode).toBe(403);
    await grant(t.database.db, 'U', userId, [P.Menus]);
    t.app.authCache.invalidateAccess();
    const res = await t.call(token, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { header: TMenuItem[]; sider: TMenuItem[] };
    // Unfiltered although the caller holds only the menu code: every area, with its codes.
    expect(paths(body.sider)).toEqual(paths(SYSTEM_SIDER));
    expect(flatten(body.sider).find((m) => m.path === '/builtIn/user')?.auth).toEqual([P.Users]);
    expect(body.header.map((m) => m.path)).toEqual(['/', '/log']);
  });
});
