import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P } from '@tessera/core/contracts/permissions';
import { createRole, grant } from '../../../test/access-fixtures.ts';
import { createUnit, createUser, USER_PASSWORD } from '../../../test/identity-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Moved from identity's roles tests with the selection items (GET /api/identity/selection-items).
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

describe('selection items (spec types 1 unit, 3 user, 4 role)', () => {
  it('searches each type on an administrator’s screen and resolves ids; a plain user needs a page context', async () => {
    const top = await createUnit(t, admin, '集团总部');
    const sub = await createUnit(t, admin, '采购部', top.id);
    const user = await createUser(t, admin, { userName: 'picker.user', name: '赵六', roleNames: [] });
    await createUser(t, admin, { userName: 'picker.off', name: '赵七', isActive: false, roleNames: [] });
    const plain = await t.login('picker.user', USER_PASSWORD);
    expect((await t.call(plain, { method: 'GET', url: '/api/identity/selection-items?type=3' })).statusCode).toBe(403);
    const get = async (query: string) => {
      const res = await t.call(admin, { method: 'GET', url: `/api/identity/selection-items?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: string; title: string; description: string | null }[];
    };
    expect(await get('type=1&filter=采购')).toEqual([{ id: sub.id, title: '采购部', description: '集团总部' }]);
    expect(await get('type=3&filter=赵')).toEqual([{ id: user.id, title: '赵六', description: 'picker.user' }]);
    expect((await get('type=4&filter=adm')).map((r) => r.title)).toEqual(['admin']);
    expect((await get(`type=1&ids=${top.id},${sub.id}`)).map((r) => r.title)).toEqual(['集团总部', '采购部']);
    expect((await get('type=3&maxResultCount=2')).length).toBe(2);
    for (const bad of ['type=2', 'type=x', '', 'type=3&ids=nope', 'type=3&maxResultCount=1000']) {
      expect((await t.call(admin, { method: 'GET', url: `/api/identity/selection-items?${bad}` })).statusCode, bad).toBe(400);
    }
    expect((await t.call(null, { method: 'GET', url: '/api/identity/selection-items?type=3' })).statusCode).toBe(401);
  });

  it('a workflow designer (Tessera.Workflows only) picks approvers: users, roles and units', async () => {
    const role = await createRole(t.app.db, 'Flow designers');
    await grant(t.app.db, 'R', role, [P.Workflows]);
    await createUser(t, admin, { userName: 'flow.designer', name: '流程设计', roleNames: ['Flow designers'] });
    const designer = await t.login('flow.designer', USER_PASSWORD);
    for (const type of [1, 3, 4]) {
      const res = await t.call(designer, { method: 'GET', url: `/api/identity/selection-items?type=${type}` });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});
