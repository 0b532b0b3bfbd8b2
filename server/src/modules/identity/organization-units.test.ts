import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { auditOf, createUnit, createUser, USER_PASSWORD } from '../../../test/identity-helpers.ts';

let t: TestApp;
let admin: string;
const units = '/api/identity/organization-units';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const codeOf = async (id: string) =>
  (await t.database.db.selectFrom('organization_units').select('code').where('id', '=', id).executeTakeFirstOrThrow()).code;

describe('organisation unit tree', () => {
  it('creates units with materialised codes below their parent', async () => {
    const root = await createUnit(t, admin, '集团');
    expect(root.code).toMatch(/^\d{5}$/);
    expect(root.parentId).toBeNull();
    const sales = await createUnit(t, admin, '销售部', root.id);
    const rnd = await createUnit(t, admin, '研发部', root.id);
    expect(sales.code).toBe(`${root.code}.00001`);
    expect(rnd.code).toBe(`${root.code}.00002`);
    const team = await createUnit(t, admin, '前端组', rnd.id);
    expect(team.code).toBe(`${rnd.code}.00001`);

    const tree = (await t.call(admin, { method: 'GET', url: `${units}/tree` })).json();
    const group = tree.find((n: { id: string }) => n.id === root.id);
    expect(group.children.map((c: { displayName: string }) => c.displayName)).toEqual(['销售部', '研发部']);
    expect(group.children[1].children[0].displayName).toBe('前端组');
    expect(group.childCount).toBe(2);

    const audit = await auditOf(t, 'OrganizationUnit', team.id);
    expect(audit[0]).toMatchObject({ action: 'Created', user_name: 'admin' });
    expect(audit[0]!.details).toMatchObject({ before: null, after: { displayName: '前端组', code: team.code } });
  });

  it('lists paged with a name filter and a parent filter', async () => {
    const res = await t.call(admin, { method: 'GET', url: `${units}?Filter=部&MaxResultCount=1` });
    expect(res.statusCode).toBe(200);
    expect(res.json().totalCount).toBe(3); // 总部, 销售部, 研发部
    expect(res.json().items).toHaveLength(1);
    const root = (await t.call(admin, { method: 'GET', url: `${units}?Filter=集团` })).json().items[0];
    const children = (await t.call(admin, { method: 'GET', url: `${units}?ParentId=${root.id}&Sorting=code desc` })).json();
    expect(children.items.map((u: { displayName: string }) => u.displayName)).toEqual(['研发部', '销售部']);
  });

  it('refuses bad input with 400 before writing', async () => {
    const before = await t.database.db.selectFrom('organization_units').select('id').execute();
    const cases = [
      { displayName: '' },
      { displayName: 'x'.repeat(129) },
      { displayName: 'ok', parentId: 'not-a-uuid' },
      { displayName: 'ok', parentId: '0193f0a0-0000-7000-8000-000000000000' },
    ];
    for (const payload of cases) {
      const res = await t.call(admin, { method: 'POST', url: units, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    const root = (await t.call(admin, { method: 'GET', url: `${units}?Filter=集团` })).json().items[0];
    const dup = await t.call(admin, { method: 'POST', url: units, payload: { displayName: '销售部', parentId: root.id } });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().error.validationErrors[0].members).toEqual(['displayName']);
    expect(await t.database.db.selectFrom('organization_units').select('id').execute()).toHaveLength(before.length);
  });

  it('renames with the current stamp and answers 409 on a stale one', async () => {
    const unit = await createUnit(t, admin, '临时部');
    const renamed = await t.call(admin, { method: 'PUT', url: `${units}/${unit.id}`, payload: { displayName: '行政部', parentId: null, concurrencyStamp: unit.concurrencyStamp } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().displayName).toBe('行政部');
    const stale = await t.call(admin, { method: 'PUT', url: `${units}/${unit.id}`, payload: { displayName: '别名', parentId: null, concurrencyStamp: unit.concurrencyStamp } });
    expect(stale.statusCode).toBe(409);
    expect((await t.call(admin, { method: 'GET', url: `${units}/${unit.id}` })).json().displayName).toBe('行政部');
    const audit = await auditOf(t, 'OrganizationUnit', unit.id);
    expect(audit.find((a) => a.action === 'Updated')!.details).toMatchObject({ before: { displayName: '临时部' }, after: { displayName: '行政部' } });
  });

  it('moves a subtree: every code below is rewritten in one transaction', async () => {
    const a = await createUnit(t, admin, 'A');
    const a1 = await createUnit(t, admin, 'A1', a.id);
    const a11 = await createUnit(t, admin, 'A11', a1.id);
    const b = await createUnit(t, admin, 'B');
    const moved = await t.call(admin, { method: 'PUT', url: `${units}/${a1.id}`, payload: { displayName: 'A1', parentId: b.id, concurrencyStamp: a1.concurrencyStamp } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().parentId).toBe(b.id);
    expect(moved.json().code).toBe(`${b.code}.00001`);
    expect(await codeOf(a11.id)).toBe(`${b.code}.00001.00001`);
    expect((await t.call(admin, { method: 'GET', url: `${units}/${a.id}` })).json().childCount).toBe(0);
    // Back to the top level.
    const top = await t.call(admin, { method: 'PUT', url: `${units}/${a1.id}`, payload: { displayName: 'A1', parentId: null, concurrencyStamp: moved.json().concurrencyStamp } });
    expect(top.statusCode).toBe(200);
    expect(top.json().code).toMatch(/^\d{5}$/);
    expect(await codeOf(a11.id)).toBe(`${top.json().code}.00001`);
  });

  it('refuses to move a unit under itself or its descendants', async () => {
    const p = await createUnit(t, admin, 'P');
    const c = await createUnit(t, admin, 'C', p.id);
    const g = await createUnit(t, admin, 'G', c.id);
    for (const target of [p.id, c.id, g.id]) {
      const res = await t.call(admin, { method: 'PUT', url: `${units}/${p.id}`, payload: { displayName: 'P', parentId: target, concurrencyStamp: p.concurrencyStamp } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.validationErrors[0].members).toEqual(['parentId']);
    }
    expect(await codeOf(g.id)).toBe(`${p.code}.00001.00001`);
  });

  it('manages members and the leader', async () => {
    const unit = await createUnit(t, admin, '财务部');
    const u1 = await createUser(t, admin, { userName: 'fin1', name: '张三' });
    const u2 = await createUser(t, admin, { userName: 'fin2', name: '李四' });
    const add = await t.call(admin, { method: 'POST', url: `${units}/${unit.id}/members`, payload: { userIds: [u1.id, u2.id, u1.id] } });
    expect(add.json()).toEqual({ addedCount: 2 });
    const again = await t.call(admin, { method: 'POST', url: `${units}/${unit.id}/members`, payload: { userIds: [u1.id] } });
    expect(again.json()).toEqual({ addedCount: 0 });
    const unknown = await t.call(admin, { method: 'POST', url: `${units}/${unit.id}/members`, payload: { userIds: ['0193f0a0-0000-7000-8000-000000000000'] } });
    expect(unknown.statusCode).toBe(400);

    const notMember = await createUser(t, admin, { userName: 'outsider' });
    expect((await t.call(admin, { method: 'PUT', url: `${units}/${unit.id}/members/leader`, payload: { userId: notMember.id } })).statusCode).toBe(400);
    const leader = await t.call(admin, { method: 'PUT', url: `${units}/${unit.id}/members/leader`, payload: { userId: u1.id } });
    expect(leader.statusCode).toBe(200);
    expect(leader.json()).toMatchObject({ leaderUserId: u1.id, leaderName: '张三', memberCount: 2 });

    const members = (await t.call(admin, { method: 'GET', url: `${units}/${unit.id}/members?Filter=李` })).json();
    expect(members.totalCount).toBe(1);
    expect(members.items[0]).toMatchObject({ userName: 'fin2', isLeader: false });
    const all = (await t.call(admin, { method: 'GET', url: `${units}/${unit.id}/members?Sorting=userName desc` })).json();
    expect(all.items.map((m: { userName: string; isLeader: boolean }) => [m.userName, m.isLeader])).toEqual([
      ['fin2', false],
      ['fin1', true],
    ]);

    // The member's current-user info names the unit.
    const token = await t.login('fin1', USER_PASSWORD);
    expect((await t.call(token, { method: 'GET', url: '/api/app/sys-function/current-user' })).json().organizationUnitName).toBe('财务部');

    // Removing the leader clears the leadership.
    expect((await t.call(admin, { method: 'DELETE', url: `${units}/${unit.id}/members/${u1.id}` })).statusCode).toBe(204);
    expect((await t.call(admin, { method: 'GET', url: `${units}/${unit.id}` })).json()).toMatchObject({ leaderUserId: null, memberCount: 1 });
    expect((await t.call(admin, { method: 'DELETE', url: `${units}/${unit.id}/members/${u1.id}` })).statusCode).toBe(404);
    const memberAudit = await auditOf(t, 'OrganizationUnitMember', `${unit.id}:${u1.id}`);
    expect(memberAudit.map((a) => a.action)).toEqual(['Created', 'Deleted']);
  });

  it('lists members of the units below with IncludeChildren', async () => {
    const top = await createUnit(t, admin, '华东区');
    const sub = await createUnit(t, admin, '上海', top.id);
    const u = await createUser(t, admin, { userName: 'sh1', organizationUnitIds: [sub.id] });
    expect((await t.call(admin, { method: 'GET', url: `${units}/${top.id}/members` })).json().totalCount).toBe(0);
    const below = (await t.call(admin, { method: 'GET', url: `${units}/${top.id}/members?IncludeChildren=true` })).json();
    expect(below.items.map((m: { id: string }) => m.id)).toEqual([u.id]);
  });

  it('deletes only an empty unit unless cascade is confirmed', async () => {
    const top = await createUnit(t, admin, '待撤销');
    const child = await createUnit(t, admin, '子部门', top.id);
    const grandchild = await createUnit(t, admin, '小组', child.id);
    const member = await createUser(t, admin, { userName: 'leaving', organizationUnitIds: [grandchild.id] });
    await t.database.db.insertInto('permission_grants').values({ name: 'Identity.Users', provider_name: 'OU', provider_key: child.id }).execute();

    const refused = await t.call(admin, { method: 'DELETE', url: `${units}/${top.id}` });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'OrganizationUnitNotEmpty', details: { childCount: 2, memberCount: 1 } });
    expect((await t.call(admin, { method: 'GET', url: `${units}/${grandchild.id}` })).statusCode).toBe(200);

    const cascade = await t.call(admin, { method: 'DELETE', url: `${units}/${top.id}?cascade=true` });
    expect(cascade.statusCode).toBe(204);
    for (const id of [top.id, child.id, grandchild.id]) expect((await t.call(admin, { method: 'GET', url: `${units}/${id}` })).statusCode).toBe(404);
    const user = (await t.call(admin, { method: 'GET', url: `/api/identity/users/${member.id}` })).json();
    expect(user.organizationUnits).toEqual([]);
    expect(await t.database.db.selectFrom('permission_grants').select('id').where('provider_key', '=', child.id).execute()).toEqual([]);
    const audit = await auditOf(t, 'OrganizationUnit', top.id);
    const deleted = audit.find((a) => a.action === 'Deleted')!.details as Record<string, any>;
    expect(deleted.after).toBeNull();
    expect(deleted.before.descendants.map((d: { displayName: string }) => d.displayName)).toEqual(['子部门', '小组']);
    expect(deleted.before.detachedMemberIds).toEqual([member.id]);

    const empty = await createUnit(t, admin, '空部门');
    expect((await t.call(admin, { method: 'DELETE', url: `${units}/${empty.id}` })).statusCode).toBe(204);
    expect((await t.call(admin, { method: 'DELETE', url: `${units}/${empty.id}` })).statusCode).toBe(404);
  });

  it('keeps codes unique when units are created concurrently', async () => {
    const parent = await createUnit(t, admin, '并发');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.call(admin, { method: 'POST', url: units, payload: { displayName: `并发-${i}`, parentId: parent.id } })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const codes = results.map((r) => r.json().code);
    expect(new Set(codes).size).toBe(8);
  });
});
