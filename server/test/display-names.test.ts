import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bd, createPurchaseOrderPage, newId, type PurchaseOrderPage } from './business-data-fixtures.ts';
import { createUnit, createUser, USER_PASSWORD } from './identity-helpers.ts';
import { createTestApp, type TestApp } from './test-app.ts';

// Issue 12, defect 8: people are shown by their full name (surname + given name in Chinese,
// given name + surname in English), never by the given name alone — in the current user, record
// histories, a save conflict, the pickers, a unit's leader, the grants' provider and the audit log.
let t: TestApp;
let admin: string;
let zhang: { id: string; token: string };
let ann: { id: string; token: string };
let po: PurchaseOrderPage;

const zh = { 'accept-language': 'zh-CN' };
const en = { 'accept-language': 'en-US' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const z = await createUser(t, admin, { userName: 'zhang.san', name: '三', surname: '张', roleNames: ['admin'] });
  const a = await createUser(t, admin, { userName: 'ann.lee', name: 'Ann', surname: 'Lee', roleNames: ['admin'] });
  zhang = { id: z.id, token: await t.login('zhang.san', USER_PASSWORD) };
  ann = { id: a.id, token: await t.login('ann.lee', USER_PASSWORD) };
  po = await createPurchaseOrderPage(t, admin);
});
afterAll(() => t.close());

async function get(token: string, url: string, headers: Record<string, string> = zh) {
  const res = await t.call(token, { method: 'GET', url, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('full names (defect 8)', () => {
  it('gives the browser the given name and the surname of the signed-in user', async () => {
    expect(await get(zhang.token, '/api/app/sys-function/current-user')).toMatchObject({ userName: 'zhang.san', name: '三', surname: '张' });
    const login = await t.call(null, { method: 'POST', url: '/api/Auth/Login', payload: { username: 'ann.lee', password: USER_PASSWORD } });
    expect(login.json().data.user).toMatchObject({ name: 'Ann', surname: 'Lee' });
  });

  it('names the author of a change by full name in the reader’s language, and in a save conflict', async () => {
    const id = newId();
    const saved = await t.call(zhang.token, {
      method: 'POST',
      url: '/api/app/business-data/save-page',
      headers: zh,
      payload: { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ Id: id, Note: 'first' }] }] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const stamp = saved.json().viewDataList[0].dataList[0].ConcurrencyStamp;
    await bd(t, ann.token, 'save-page', { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ Id: id, Note: 'second', ConcurrencyStamp: stamp }] }] });

    const url = `/api/app/business-data/record-history?pageId=${po.pageId}&id=${id}`;
    expect((await get(admin, url, zh)).items.map((i: { userName: string }) => i.userName)).toEqual(['Lee Ann', '张三']);
    expect((await get(admin, url, en)).items.map((i: { userName: string }) => i.userName)).toEqual(['Ann Lee', '张三']);

    const stale = await t.call(zhang.token, {
      method: 'POST',
      url: '/api/app/business-data/save-page',
      headers: en,
      payload: { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ Id: id, Note: 'third', ConcurrencyStamp: stamp }] }] },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.details.lastModifierName).toBe('Ann Lee');
    expect(stale.json().error.message).toContain('Ann Lee');
  });

  it('shows full names in the user picker, as a unit’s leader and on the grants screen', async () => {
    expect((await get(admin, '/api/identity/selection-items?type=3&filter=zhang')).map((u: { title: string }) => u.title)).toEqual(['张三']);
    expect((await get(admin, `/api/identity/selection-items?type=3&ids=${ann.id}`, en)).map((u: { title: string }) => u.title)).toEqual(['Ann Lee']);

    const unit = await createUnit(t, admin, '采购部');
    expect((await t.call(admin, { method: 'POST', url: `/api/identity/organization-units/${unit.id}/members`, payload: { userIds: [zhang.id] } })).statusCode).toBe(200);
    const leader = await t.call(admin, { method: 'PUT', url: `/api/identity/organization-units/${unit.id}/members/leader`, headers: zh, payload: { userId: zhang.id } });
    expect(leader.statusCode, leader.body).toBe(200);
    expect(leader.json().leaderName).toBe('张三');

    const grants = await get(admin, `/api/permission-management/permissions?providerName=U&providerKey=${ann.id}`, en);
    expect(grants.entityDisplayName).toBe('Ann Lee (ann.lee)');
  });

  it('shows the full name beside the account in the audit log', async () => {
    const { items } = await get(admin, '/api/app/audit-logs?UserName=zhang.san&Action=LoginSucceeded');
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]).toMatchObject({ userName: 'zhang.san', name: '张三' });
    const annEntry = (await get(admin, '/api/app/audit-logs?UserName=ann.lee', en)).items[0];
    expect(annEntry).toMatchObject({ userName: 'ann.lee', name: 'Ann Lee' });
  });
});
