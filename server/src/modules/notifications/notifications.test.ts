import { P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { notifyUsers } from './notifications.service.ts';

let t: TestApp;
let admin: string;
let alice: { id: string; token: string };
let bob: { id: string; token: string };
const URL = '/api/app/notifications';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const aliceId = await createUser(t.database.db, 'alice');
  const bobId = await createUser(t.database.db, 'bob');
  alice = { id: aliceId, token: await t.login('alice', FIXTURE_PASSWORD) };
  bob = { id: bobId, token: await t.login('bob', FIXTURE_PASSWORD) };
});
afterAll(() => t.close());

const send = (body: object, token = admin) => t.call(token, { method: 'POST', url: URL, payload: body });
const list = async (token: string, query = '') => {
  const res = await t.call(token, { method: 'GET', url: `${URL}${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const unread = async (token: string) => (await t.call(token, { method: 'GET', url: `${URL}/unread-count` })).json();
const count = async () => Number((await t.database.db.selectFrom('notifications').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

describe('notifications', () => {
  it('needs a signed-in caller', async () => {
    expect((await t.call(null, { method: 'GET', url: URL })).statusCode).toBe(401);
    expect((await t.call(null, { method: 'GET', url: `${URL}/unread-count` })).statusCode).toBe(401);
  });

  it('starts with nothing: real zeros', async () => {
    expect(await list(alice.token)).toEqual({ items: [], totalCount: 0, unread: { notice: 0, message: 0, todo: 0, total: 0 } });
  });

  it('sends a notice to listed users, newest first, with sender and link', async () => {
    const res = await send({ type: 'notice', title: '系统维护', content: '今晚 22:00 停机', userIds: [alice.id, bob.id], link: '/system/documentation' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ count: 2 });
    expect((await send({ type: 'message', title: '你好', userIds: [alice.id] })).statusCode).toBe(200);
    await notifyUsers(t.database.db, { type: 'todo', title: '审批采购单 PO-1', link: '/flows/assignTask', userIds: [alice.id, alice.id] });

    const mine = await list(alice.token);
    expect(mine.totalCount).toBe(3);
    expect(mine.unread).toEqual({ notice: 1, message: 1, todo: 1, total: 3 });
    expect(mine.items.map((n: { title: string }) => n.title)).toEqual(['审批采购单 PO-1', '你好', '系统维护']);
    expect(mine.items[2]).toMatchObject({ type: 'notice', content: '今晚 22:00 停机', link: '/system/documentation', isRead: false, readTime: null, senderName: '管理员' });
    expect(mine.items[0].senderName).toBeNull();
    expect((await list(bob.token)).unread).toEqual({ notice: 1, message: 0, todo: 0, total: 1 });

    const audit = await t.database.db.selectFrom('audit_logs').select(['action', 'entity_type']).where('entity_type', '=', 'Notification').execute();
    expect(audit).toHaveLength(2);
  });

  it('filters by type and read state, and pages', async () => {
    const todos = await list(alice.token, '?type=todo');
    expect(todos.items.map((n: { type: string }) => n.type)).toEqual(['todo']);
    expect(todos.totalCount).toBe(1);
    const page = await list(alice.token, '?SkipCount=1&MaxResultCount=1');
    expect(page.totalCount).toBe(3);
    expect(page.items.map((n: { title: string }) => n.title)).toEqual(['你好']);
    expect((await list(alice.token, '?isRead=true')).totalCount).toBe(0);
    expect((await t.call(alice.token, { method: 'GET', url: `${URL}?type=alert` })).statusCode).toBe(400);
    expect((await t.call(alice.token, { method: 'GET', url: `${URL}?MaxResultCount=1001` })).statusCode).toBe(400);
  });

  it('marks one read, only the owner’s', async () => {
    const [todo] = (await list(alice.token, '?type=todo')).items;
    const bobsNotice = (await list(bob.token)).items[0];
    expect((await t.call(alice.token, { method: 'POST', url: `${URL}/${bobsNotice.id}/read` })).statusCode).toBe(404);
    expect((await list(bob.token)).unread.total).toBe(1);
    expect((await t.call(alice.token, { method: 'POST', url: `${URL}/not-an-id/read` })).statusCode).toBe(400);
    expect((await t.call(alice.token, { method: 'POST', url: `${URL}/${todo.id}/read` })).statusCode).toBe(204);
    // Marking again is harmless.
    expect((await t.call(alice.token, { method: 'POST', url: `${URL}/${todo.id}/read` })).statusCode).toBe(204);
    expect(await unread(alice.token)).toEqual({ notice: 1, message: 1, todo: 0, total: 2 });
    const read = await list(alice.token, '?isRead=true');
    expect(read.items).toHaveLength(1);
    expect(read.items[0]).toMatchObject({ id: todo.id, isRead: true });
    expect(Date.parse(read.items[0].readTime)).not.toBeNaN();
  });

  it('marks all read, of one type or of every type', async () => {
    const one = await t.call(alice.token, { method: 'POST', url: `${URL}/read-all`, payload: { type: 'message' } });
    expect(one.json()).toEqual({ count: 1 });
    expect(await unread(alice.token)).toEqual({ notice: 1, message: 0, todo: 0, total: 1 });
    const rest = await t.call(alice.token, { method: 'POST', url: `${URL}/read-all` });
    expect(rest.json()).toEqual({ count: 1 });
    expect(await unread(alice.token)).toEqual({ notice: 0, message: 0, todo: 0, total: 0 });
    expect(await unread(bob.token)).toEqual({ notice: 1, message: 0, todo: 0, total: 1 });
    expect((await t.call(alice.token, { method: 'POST', url: `${URL}/read-all`, payload: { type: 'x' } })).statusCode).toBe(400);
  });

  it('rejects bad input before writing anything', async () => {
    const before = await count();
    const cases = [
      { type: 'notice', title: 'x' },
      { type: 'notice', title: 'x', userIds: [alice.id], allUsers: true },
      { type: 'notice', title: '', userIds: [alice.id] },
      { type: 'alert', title: 'x', userIds: [alice.id] },
      { type: 'notice', title: 'x', userIds: ['nope'] },
      { type: 'notice', title: 'x', userIds: [alice.id], link: '//evil.example' },
      { type: 'notice', title: 'x', userIds: [alice.id], link: 'https://evil.example' },
      { type: 'notice', title: 'x', userIds: [alice.id, '0190a0a0-0000-7000-8000-000000000000'] },
    ];
    for (const body of cases) {
      const res = await send(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    expect(await count()).toBe(before);
  });

  it('needs the send permission to send; an authorised sender can reach every active user', async () => {
    expect((await send({ type: 'notice', title: 'x', userIds: [bob.id] }, alice.token)).statusCode).toBe(403);
    const role = await createRole(t.database.db, 'announcers');
    await grant(t.database.db, 'R', role, [P.NotificationsSend]);
    await createUser(t.database.db, 'carol', { roles: [role] });
    const carol = await t.login('carol', FIXTURE_PASSWORD);
    const res = await send({ type: 'notice', title: '全员通知', allUsers: true }, carol);
    expect(res.statusCode, res.body).toBe(200);
    const users = await t.database.db.selectFrom('users').select('id').where('is_deleted', '=', false).where('is_active', '=', true).execute();
    expect(res.json()).toEqual({ count: users.length });
    expect((await unread(bob.token)).notice).toBe(2);
  });
});
