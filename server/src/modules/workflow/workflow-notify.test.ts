import type { TAssignee, TWorkflowGraph, TWorkflowNode, TWorkflowNodeOf } from '@tessera/core/contracts/workflow';
import type { TWorkflowInstanceDetail, TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import { newWorkflowEdge as edge, newWorkflowNode as node } from '@tessera/core/workflow/defaults';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { control, insertRow, masterDetail, pagesApi } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { JobWorker } from '../../platform/jobs.ts';
import { registerNotificationChannel, type UserNotification } from '../notifications/index.ts';

// Workflow notifications (issue 14) through the notifications module's channels: a test channel
// registered here receives every message a flow sends; the in-app channel writes the same ones to
// the notifications table. Runs on PGlite, and on PostgreSQL with DATABASE_URL set.

let t: TestApp;
let pageId: string;
let masterViewId: string;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};
const DEF = '/api/app/workflow-definition';
const INST = '/api/app/workflow-instance';
const TASK = '/api/app/workflow-task';
const db = () => t.app.db;

/** What the test channel received, as `event → recipient names`. */
const received: UserNotification[] = [];
let unregister: () => void;
const nameOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;
const sent = () => received.map((m) => `${m.event} → ${m.userIds.map(nameOf).join(',')}`);

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.login();
  const design = masterDetail([control('Title', 1001), control('Amount', 1003)], [control('LineAmount', 1003)]);
  const pages = pagesApi(t, () => admin);
  pageId = (await pages.create('Claim', design)).id;
  expect((await pages.publish(pageId)).statusCode).toBe(200);
  masterViewId = design.viewControls[0].id;
  const role = await createRole(db(), 'Staff');
  await grant(db(), 'R', role, pageWorkCodes('Claim'));
  for (const name of ['ini', 'a', 'b', 'c', 'd', 'e']) {
    ids[name] = await createUser(db(), name, { roles: [role] });
    tokens[name] = await t.login(name, FIXTURE_PASSWORD);
  }
  tokens.admin = admin;
  unregister = registerNotificationChannel({ name: 'test', deliver: async (_db, message) => void received.push(message) });
});
afterAll(async () => {
  unregister?.();
  await t.close();
});
beforeEach(() => {
  received.length = 0;
});

const call = (as: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.call(tokens[as], { method, url, headers: { 'accept-language': 'zh-CN' }, ...(payload === undefined ? {} : { payload: payload as object }) });
async function ok(as: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await call(as, method, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

type ApprovalConfig = TWorkflowNodeOf<'approval'>['config'];
const users = (...names: string[]): TAssignee => ({ kind: 'user', userIds: names.map((n) => ids[n]) });
const ALL_ACTIONS: Partial<ApprovalConfig> = { actions: { reject: true, return: true, transfer: true, delegate: true, addSigner: true, removeSigner: true, cc: true } };
function approval(id: string, assignees: string[], extra: Partial<ApprovalConfig> = {}): TWorkflowNode {
  const n = node('approval', id, { x: 0, y: 0 }, `审批${id}`);
  n.config = { ...n.config, commentRequiredOnReject: false, assignees: [users(...assignees)], ...ALL_ACTIONS, ...extra };
  return n as TWorkflowNode;
}
function ccNode(id: string, recipients: string[]): TWorkflowNode {
  const n = node('cc', id, { x: 0, y: 0 }, `抄送${id}`) as TWorkflowNodeOf<'cc'>;
  n.config = { ...n.config, recipients: [users(...recipients)] };
  return n as TWorkflowNode;
}
const line = (...nodes: TWorkflowNode[]): TWorkflowGraph => {
  const built = [node('start', 'start'), ...nodes, node('end', 'end')];
  return { nodes: built, edges: built.slice(1).map((n, i) => edge(`e${i}`, built[i].id, n.id)) };
};

let definitions = 0;
async function startFlow(graph: TWorkflowGraph, clientRequestId = randomUUID()): Promise<TWorkflowInstanceDetail> {
  const d = await ok('admin', 'POST', DEF, { name: `报销 ${++definitions}`, pageId, graph });
  await ok('admin', 'POST', `${DEF}/${d.id}/publish`, {});
  await ok('admin', 'POST', `${DEF}/${d.id}/enable`);
  const recordId = await insertRow(db(), masterViewId, { Title: `Claim ${definitions}`, Amount: 10, CreatorId: ids.ini });
  return ok('ini', 'POST', INST, { pageId, recordId, definitionId: d.id, clientRequestId });
}
async function pendingTask(instanceId: string, user: string): Promise<TWorkflowTask> {
  const detail: TWorkflowInstanceDetail = await ok('admin', 'GET', `${INST}/${instanceId}`);
  const task = detail.tasks.find((x) => x.assigneeId === ids[user] && x.kind === 'approve' && x.status === 'pending');
  expect(task, `${user} has no pending task`).toBeTruthy();
  return task!;
}
const act = (as: string, task: TWorkflowTask, action: string, body: object = {}) => ok(as, 'POST', `${TASK}/${task.id}/${action}`, { clientRequestId: randomUUID(), ...body });

describe('workflow notifications', () => {
  it('a run: each new pending task once (sequential next, transfer), CC, the rejection to the initiator; repeats send nothing', async () => {
    const startRequest = randomUUID();
    const started = await startFlow(line(approval('n1', ['a', 'b'], { mode: 'sequential' }), ccNode('cc1', ['e']), approval('n2', ['c'])), startRequest);
    expect(sent()).toEqual(['workflow.task → a']);
    const first = received[0];
    const aTask = await pendingTask(started.id, 'a');
    expect(first).toMatchObject({ type: 'todo', link: `/flows/assignTask?taskId=${aTask.id}`, sender: { id: ids.ini } });
    expect(first.title).toMatch(/^待审批：报销 \d+ · Claim \d+$/);
    expect(first.content).toContain('审批n1');
    // The same start again answers the instance and sends nothing.
    await ok('ini', 'POST', INST, { pageId, recordId: started.recordId, definitionId: started.definitionId, clientRequestId: startRequest });
    expect(sent()).toEqual(['workflow.task → a']);

    // Sequential: b's waiting task turns pending → b is told; a repeated approval sends nothing more.
    received.length = 0;
    const approveOnce = { clientRequestId: randomUUID() };
    await ok('a', 'POST', `${TASK}/${aTask.id}/approve`, approveOnce);
    await ok('a', 'POST', `${TASK}/${aTask.id}/approve`, approveOnce);
    expect(sent()).toEqual(['workflow.task → b']);

    // Transfer: the new assignee is told (as a transfer).
    received.length = 0;
    await act('b', await pendingTask(started.id, 'b'), 'transfer', { userIds: [ids.d] });
    expect(sent()).toEqual(['workflow.task → d']);
    expect(received[0].content).toContain('转交');

    // d approves: the CC node copies e, n2 opens for c.
    received.length = 0;
    await act('d', await pendingTask(started.id, 'd'), 'approve');
    expect(sent().sort()).toEqual(['workflow.cc → e', 'workflow.task → c']);
    expect(received.find((m) => m.event === 'workflow.cc')).toMatchObject({ type: 'message', link: '/flows/completedTasks?tab=cc' });

    // c rejects with a comment: the initiator is told, with the comment.
    received.length = 0;
    await act('c', await pendingTask(started.id, 'c'), 'reject', { comment: '金额不符' });
    expect(sent()).toEqual(['workflow.rejected → ini']);
    expect(received[0]).toMatchObject({ type: 'message', link: '/flows/completedTasks?tab=started', sender: { id: ids.c } });
    expect(received[0].title).toMatch(/^已驳回：/);
    expect(received[0].content).toContain('金额不符');

    // The in-app channel wrote the same messages (one row per recipient).
    const rows = await db().selectFrom('notifications').select(['user_id', 'type', 'link']).where('title', 'like', `%Claim ${definitions}`).execute();
    expect(rows.map((r) => `${nameOf(r.user_id)}:${r.type}`).sort()).toEqual(['a:todo', 'b:todo', 'c:todo', 'd:todo', 'e:message', 'ini:message']);
  });

  it('approved → the initiator; delegate, added signers and CC from a task are told once', async () => {
    const started = await startFlow(line(approval('n1', ['a'])));
    received.length = 0;
    const a = await pendingTask(started.id, 'a');
    await act('a', a, 'cc', { userIds: [ids.e], comment: '请知悉' });
    expect(sent()).toEqual(['workflow.cc → e']);
    expect(received[0].content).toContain('请知悉');
    received.length = 0;
    await act('a', a, 'delegate', { userIds: [ids.b] });
    expect(sent()).toEqual(['workflow.task → b']);
    received.length = 0;
    // The delegate hands the task back: a's suspended task is pending again without a second message.
    await act('b', await pendingTask(started.id, 'b'), 'approve', { comment: '可以' });
    expect(sent()).toEqual([]);
    received.length = 0;
    await act('a', a, 'add-signer', { position: 'after', userIds: [ids.c] });
    expect(sent()).toEqual(['workflow.task → c']);
    received.length = 0;
    await act('c', await pendingTask(started.id, 'c'), 'approve');
    expect(sent()).toEqual(['workflow.approved → ini']);
    expect(received[0].title).toMatch(/^已通过：/);
  });

  it('returned to the initiator → the initiator; returned to an earlier node → its assignee', async () => {
    const started = await startFlow(line(approval('n1', ['a']), approval('n2', ['b'], { returnTo: 'any' })));
    await act('a', await pendingTask(started.id, 'a'), 'approve');
    received.length = 0;
    await act('b', await pendingTask(started.id, 'b'), 'return', { targetNodeId: 'n1', comment: '补充附件' });
    expect(sent()).toEqual(['workflow.task → a']);
    await act('a', await pendingTask(started.id, 'a'), 'approve');
    received.length = 0;
    await act('b', await pendingTask(started.id, 'b'), 'return', { targetNodeId: 'start', comment: '重新填写' });
    expect(sent()).toEqual(['workflow.returned → ini']);
    expect(received[0].content).toContain('重新填写');
  });

  it('urge and the timers (reminder, escalation) go through the channels', async () => {
    const started = await startFlow(line(approval('n1', ['a'], { timeout: { afterMinutes: 60, remindEveryMinutes: 30, remindTimes: 1, then: 'escalate', escalateToUserId: ids.b } })));
    received.length = 0;
    const a = await pendingTask(started.id, 'a');
    await ok('ini', 'POST', `${TASK}/${a.id}/urge`, { clientRequestId: randomUUID(), comment: '急' });
    expect(sent()).toEqual(['workflow.urge → a']);
    const at = (minutes: number) => new JobWorker(t.app, { pollMs: 0, now: () => new Date(Date.now() + minutes * 60_000) });
    await at(31).runDue();
    expect(sent()).toEqual(['workflow.urge → a', 'workflow.remind → a']);
    await at(61).runDue();
    expect(sent()).toEqual(['workflow.urge → a', 'workflow.remind → a', 'workflow.task → b']);
    expect(received[2].sender).toBeNull();
  });

  it("a handled task's to-do notification is marked read; flow management's reassign tells the new assignee", async () => {
    const unread = async (user: string) => (await ok(user, 'GET', '/api/app/notifications/unread-count')).todo as number;
    // Earlier cases left tasks open: counts are compared with these.
    const base: Record<string, number> = {};
    for (const u of ['a', 'b', 'c']) base[u] = await unread(u);
    const unreadTodo = async (user: string) => (await unread(user)) - base[user];
    const started = await startFlow(line(approval('n1', ['a', 'b'], { mode: 'all' })));
    expect(await unreadTodo('a')).toBe(1);
    expect(await unreadTodo('b')).toBe(1);
    await act('a', await pendingTask(started.id, 'a'), 'approve');
    // a's task is done: its notification too; b's stays until b acts.
    expect(await unreadTodo('a')).toBe(0);
    expect(await unreadTodo('b')).toBe(1);
    received.length = 0;
    const bTask = await pendingTask(started.id, 'b');
    await ok('admin', 'POST', `${INST}/${started.id}/reassign`, { taskId: bTask.id, userId: ids.c, reason: '出差', clientRequestId: randomUUID() });
    expect(sent()).toEqual(['workflow.task → c']);
    expect(await unreadTodo('b')).toBe(0);
    expect(await unreadTodo('c')).toBe(1);
    // Withdrawn / terminated: the cancelled task's notification is done as well.
    await ok('admin', 'POST', `${INST}/${started.id}/terminate`, { reason: '作废', clientRequestId: randomUUID() });
    expect(await unreadTodo('c')).toBe(0);
  });

  it('a channel that throws rolls the action back (it runs in the transaction)', async () => {
    const started = await startFlow(line(approval('n1', ['a']), approval('n2', ['b'])));
    const off = registerNotificationChannel({
      name: 'broken',
      deliver: async () => {
        throw new Error('channel down');
      },
    });
    try {
      const res = await call('a', 'POST', `${TASK}/${(await pendingTask(started.id, 'a')).id}/approve`, { clientRequestId: randomUUID() });
      expect(res.statusCode).toBe(500);
    } finally {
      off();
    }
    expect((await pendingTask(started.id, 'a')).status).toBe('pending');
  });
});
