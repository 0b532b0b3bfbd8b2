import { P } from '@tessera/core/contracts/permissions';
import type { TAssignee, TWorkflowGraph, TWorkflowNode, TWorkflowNodeOf } from '@tessera/core/contracts/workflow';
import type { TWorkflowInstanceDetail, TWorkflowInstanceList } from '@tessera/core/contracts/workflow-runtime';
import { newWorkflowEdge as edge, newWorkflowNode as node } from '@tessera/core/workflow/defaults';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { control, insertRow, masterDetail, pagesApi } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { bizTable, bizTableName } from '../pages/index.ts';

// Flow management (issue 14, `/flows/instance`): the all-instances list's filters and the
// interventions of a holder of P.FlowInstances (reassign, jump, add / replace assignees, resend
// reminders, terminate), each with a required reason, a history entry and an audit entry, applied
// once per clientRequestId. Runs on PGlite, and on PostgreSQL with DATABASE_URL set.

let t: TestApp;
let pageId: string;
let masterViewId: string;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};
const DEF = '/api/app/workflow-definition';
const INST = '/api/app/workflow-instance';
const db = () => t.app.db;

beforeAll(async () => {
  t = await createTestApp();
  tokens.admin = await t.login();
  const design = masterDetail([control('Title', 1001), control('Amount', 1003)], [control('LineAmount', 1003)]);
  const pages = pagesApi(t, () => tokens.admin);
  const page = await pages.create('Claim', design);
  pageId = page.id;
  expect((await pages.publish(pageId)).statusCode).toBe(200);
  masterViewId = design.viewControls[0].id;
  const submitters = await createRole(db(), 'Submitters');
  await grant(db(), 'R', submitters, pageWorkCodes('Claim'));
  for (const name of ['ini', 'ini2', 'a', 'b', 'c', 'd']) ids[name] = await createUser(db(), name, { roles: [submitters] });
  // A flow administrator: P.FlowInstances and the page's codes, nothing else.
  const flowAdmins = await createRole(db(), 'Flow admins');
  await grant(db(), 'R', flowAdmins, [P.FlowInstances, ...pageWorkCodes('Claim')]);
  ids.mgr = await createUser(db(), 'mgr', { roles: [flowAdmins] });
  for (const name of ['ini', 'ini2', 'a', 'b', 'c', 'd', 'mgr']) tokens[name] = await t.login(name, FIXTURE_PASSWORD);
});
afterAll(() => t.close());

const call = (as: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.call(tokens[as], { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
async function ok<T = TWorkflowInstanceDetail>(as: string, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<T> {
  const res = await call(as, method, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

type ApprovalConfig = TWorkflowNodeOf<'approval'>['config'];
const users = (...names: string[]): TAssignee => ({ kind: 'user', userIds: names.map((n) => ids[n]) });
function approval(id: string, name: string, assignees: string[], extra: Partial<ApprovalConfig> = {}): TWorkflowNode {
  const n = node('approval', id, { x: 0, y: 0 }, name);
  n.config = { ...n.config, commentRequiredOnReject: false, assignees: [users(...assignees)], ...extra };
  return n as TWorkflowNode;
}
function line(...nodes: TWorkflowNode[]): TWorkflowGraph {
  const built = [node('start', 'start'), ...nodes, node('end', 'end')];
  return { nodes: built, edges: built.slice(1).map((n, i) => edge(`e${i}`, built[i].id, n.id)) };
}

let definitions = 0;
async function publish(graph: TWorkflowGraph): Promise<string> {
  const d = await ok<{ id: string }>('admin', 'POST', DEF, { name: `claim flow ${++definitions}`, pageId, graph });
  expect((await call('admin', 'POST', `${DEF}/${d.id}/publish`, {})).statusCode).toBe(200);
  await ok('admin', 'POST', `${DEF}/${d.id}/enable`);
  return d.id;
}

async function startOn(definitionId: string, as = 'ini'): Promise<{ instanceId: string; recordId: string }> {
  const recordId = await insertRow(db(), masterViewId, { Title: `Claim ${randomUUID().slice(0, 6)}`, Amount: 10, CreatorId: ids[as] });
  const started = await ok(as, 'POST', INST, { pageId, recordId, definitionId, clientRequestId: randomUUID() });
  return { instanceId: started.id, recordId };
}

const detailOf = (id: string) => ok('admin', 'GET', `${INST}/${id}`);
const pendingOf = (d: TWorkflowInstanceDetail, user: string) => d.tasks.find((x) => x.kind === 'approve' && x.status === 'pending' && x.assigneeId === ids[user]);
/** Open approve tasks: node id → user names (sorted) with their status. */
function open(d: TWorkflowInstanceDetail): Record<string, string[]> {
  const byId = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
  const out: Record<string, string[]> = {};
  for (const x of d.tasks) if (x.kind === 'approve' && ['pending', 'waiting', 'suspended'].includes(x.status)) (out[x.nodeId] ??= []).push(`${byId[x.assigneeId]}:${x.status}`);
  for (const k of Object.keys(out)) out[k].sort();
  return out;
}
const auditOf = (instanceId: string, action: string) =>
  db().selectFrom('audit_logs').select(['action', 'user_name', 'details']).where('entity_id', '=', instanceId).where('action', '=', action).orderBy('time').execute();
async function flowStatusOf(recordId: string): Promise<number> {
  const { rows } = await sql<{ s: number }>`select "FlowStatus" as s from ${bizTable(bizTableName(masterViewId))} where "Id" = ${recordId}::uuid`.execute(db());
  return Number(rows[0].s);
}
const list = (as: string, query: string) => ok<TWorkflowInstanceList>(as, 'GET', `${INST}?MaxResultCount=100&${query}`);
const idsOf = (l: TWorkflowInstanceList) => l.items.map((i) => i.id).sort();
/** A member as the caller sent it (schema errors name `body.x`, the service's `x`). */
const memberName = (m: string) => m.replace(/^(body|querystring)\./, '');
const sorted = (...xs: string[]) => [...xs].sort();

describe('flow management: the instance list filters', () => {
  it('filters by flow, status, initiator, started time, current node and assignee (scope all and mine)', async () => {
    const d1 = await publish(line(approval('n1', 'Manager check', ['a']), approval('n2', 'Director check', ['b'])));
    const d2 = await publish(line(approval('f1', 'Finance review', ['c'])));
    const i1 = await startOn(d1);
    const i2 = await startOn(d1);
    await ok('a', 'POST', `/api/app/workflow-task/${pendingOf(await detailOf(i2.instanceId), 'a')!.id}/approve`, { clientRequestId: randomUUID() });
    const i3 = await startOn(d2);
    const i4 = await startOn(d1);
    await ok('admin', 'POST', `${INST}/${i4.instanceId}/terminate`, { clientRequestId: randomUUID(), reason: 'duplicate' });
    const i5 = await startOn(d1, 'ini2');
    await db().updateTable('workflow_instances').set({ started_time: new Date('2020-01-01T00:00:00Z') }).where('id', '=', i1.instanceId).execute();

    const all = `scope=all&definitionId=${d1}`;
    expect(idsOf(await list('admin', all))).toEqual(sorted(i1.instanceId, i2.instanceId, i4.instanceId, i5.instanceId));
    expect(idsOf(await list('admin', `${all}&status=running`))).toEqual(sorted(i1.instanceId, i2.instanceId, i5.instanceId));
    expect(idsOf(await list('admin', `${all}&initiatorId=${ids.ini2}`))).toEqual([i5.instanceId]);
    expect(idsOf(await list('admin', `${all}&startedFrom=2020-01-01T00:00:00Z&startedTo=2020-01-01T00:00:00Z`))).toEqual([i1.instanceId]);
    expect(idsOf(await list('admin', `${all}&startedFrom=2021-01-01T00:00:00%2B08:00`))).toEqual(sorted(i2.instanceId, i4.instanceId, i5.instanceId));
    expect(idsOf(await list('admin', `scope=all&currentNodeName=finance`))).toEqual([i3.instanceId]);
    expect(idsOf(await list('admin', `${all}&currentNodeName=Director`))).toEqual([i2.instanceId]);
    expect(idsOf(await list('admin', `${all}&currentNodeId=n1`))).toEqual(sorted(i1.instanceId, i5.instanceId));
    expect(idsOf(await list('admin', `scope=all&assigneeId=${ids.b}`))).toEqual([i2.instanceId]);
    expect(idsOf(await list('admin', `${all}&assigneeId=${ids.a}`))).toEqual(sorted(i1.instanceId, i5.instanceId));
    const page = await ok<TWorkflowInstanceList>('admin', 'GET', `${INST}?${all}&MaxResultCount=1`);
    expect([page.items.length, page.totalCount]).toEqual([1, 4]);
    // Mine: the caller's own, the same filters.
    expect(idsOf(await list('ini', `definitionId=${d1}&status=running`))).toEqual(sorted(i1.instanceId, i2.instanceId));
    expect(idsOf(await list('ini', `definitionId=${d1}&initiatorId=${ids.ini2}`))).toEqual([]);
  });

  it.each([
    ['a date without a time', 'startedFrom=2024-01-01'],
    ['the year 0', 'startedFrom=0000-01-01T00:00:00Z'],
    ['the year 10000', 'startedTo=%2B010000-01-01T00:00:00Z'],
    ['a bad flow id', 'definitionId=nope'],
    ['a bad assignee id', 'assigneeId=nope'],
    ['a bad initiator id', 'initiatorId=1'],
    ['a bad status', 'status=lost'],
    ['a huge node name', `currentNodeName=${'x'.repeat(200)}`],
  ])('%s → 400 with validationErrors', async (_name, query) => {
    const res = await call('admin', 'GET', `${INST}?scope=all&${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.validationErrors?.length).toBeGreaterThan(0);
  });
});

describe('flow management: rights and validation', () => {
  let instanceId: string;
  let taskId: string;
  beforeAll(async () => {
    const d = await publish(line(approval('n1', 'Check', ['a']), approval('n2', 'Sign', ['b'])));
    ({ instanceId } = await startOn(d));
    taskId = pendingOf(await detailOf(instanceId), 'a')!.id;
  });
  const bodies = () => ({
    reassign: { taskId, userId: ids.c },
    jump: { targetNodeId: 'n2' },
    assignees: { nodeId: 'n1', userIds: [ids.c], mode: 'add' },
    remind: {},
    terminate: {},
  });

  it('a user without P.FlowInstances gets 403 on the all-instances list and on every intervention', async () => {
    expect((await call('a', 'GET', `${INST}?scope=all`)).statusCode).toBe(403);
    expect((await call('a', 'GET', `${INST}/flows`)).statusCode).toBe(403);
    // The flow filter's choices: the definitions that have instances, for the flow administrator.
    const flows = (await ok<{ items: { id: string; name: string }[] }>('admin', 'GET', `${INST}/flows`)).items;
    const instance = await detailOf(instanceId);
    expect(flows.map((f) => f.id)).toContain(instance.definitionId);
    for (const [name, body] of Object.entries(bodies())) {
      const res = await call('ini', 'POST', `${INST}/${instanceId}/${name}`, { ...body, reason: 'why', clientRequestId: randomUUID() });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(403);
    }
    expect(open(await detailOf(instanceId))).toEqual({ n1: ['a:pending'] });
  });

  it('every intervention needs a reason (1–2000 characters) → 400', async () => {
    for (const [name, body] of Object.entries(bodies())) {
      for (const reason of [undefined, '', '   ', 'x'.repeat(2001)]) {
        const res = await call('admin', 'POST', `${INST}/${instanceId}/${name}`, { ...body, reason, clientRequestId: randomUUID() });
        expect(res.statusCode, `${name} ${JSON.stringify(reason)?.slice(0, 10)}: ${res.body}`).toBe(400);
        expect(res.json().error.validationErrors?.[0]?.members.map(memberName)).toEqual(['reason']);
      }
    }
  });

  it.each([
    ['reassign: a bad task id', 'reassign', () => ({ taskId: 'nope', userId: ids.c }), 'taskId'],
    ['reassign: an unknown task', 'reassign', () => ({ taskId: randomUUID(), userId: ids.c }), 'taskId'],
    ['reassign: an unknown user', 'reassign', () => ({ taskId, userId: randomUUID() }), 'userId'],
    ['reassign: to its own assignee', 'reassign', () => ({ taskId, userId: ids.a }), 'userId'],
    ['jump: an unknown node', 'jump', () => ({ targetNodeId: 'nowhere' }), 'targetNodeId'],
    ['jump: the start node', 'jump', () => ({ targetNodeId: 'start' }), 'targetNodeId'],
    ['assignees: no users', 'assignees', () => ({ nodeId: 'n1', userIds: [], mode: 'add' }), 'userIds'],
    ['assignees: an unknown user', 'assignees', () => ({ nodeId: 'n1', userIds: [randomUUID()], mode: 'add' }), 'userIds'],
    ['assignees: a node not active', 'assignees', () => ({ nodeId: 'n2', userIds: [ids.c], mode: 'add' }), 'nodeId'],
    ['assignees: a bad mode', 'assignees', () => ({ nodeId: 'n1', userIds: [ids.c], mode: 'swap' }), 'mode'],
    ['assignees: nobody new', 'assignees', () => ({ nodeId: 'n1', userIds: [ids.a], mode: 'add' }), 'userIds'],
  ])('%s → 400 naming %s', async (_name, route, body, member) => {
    const res = await call('admin', 'POST', `${INST}/${instanceId}/${route}`, { ...body(), reason: 'why', clientRequestId: randomUUID() });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.validationErrors?.[0]?.members.map(memberName)).toEqual([member]);
    expect(open(await detailOf(instanceId))).toEqual({ n1: ['a:pending'] });
  });

  it('the messages follow the caller\'s language', async () => {
    const res = await t.call(tokens.admin, { method: 'POST', url: `${INST}/${instanceId}/jump`, headers: { 'accept-language': 'en-US' }, payload: { targetNodeId: 'start', reason: 'why', clientRequestId: randomUUID() } });
    expect(res.json().error.message).toContain('cannot jump');
  });

  it('a flow administrator (P.FlowInstances alone) lists, intervenes and browses the users to pick', async () => {
    expect((await list('mgr', `scope=all&currentNodeId=n1`)).items.map((i) => i.id)).toContain(instanceId);
    const reminded = await ok('mgr', 'POST', `${INST}/${instanceId}/remind`, { reason: 'please', clientRequestId: randomUUID() });
    expect(reminded.history.at(-1)).toMatchObject({ action: 'resendReminder', actorId: ids.mgr, comment: 'please' });
    expect((await call('mgr', 'GET', '/api/identity/selection-items?type=3&filter=c')).statusCode).toBe(200);
  });

  it('an unknown instance → 404', async () => {
    expect((await call('admin', 'POST', `${INST}/${randomUUID()}/remind`, { reason: 'why', clientRequestId: randomUUID() })).statusCode).toBe(404);
  });
});

describe('flow management: the interventions', () => {
  it('reassign: the open task moves to another user (same node visit and order), with history, audit and one application per request', async () => {
    const d = await publish(line(approval('n1', 'Check', ['a', 'b'], { mode: 'sequential' })));
    const { instanceId } = await startOn(d);
    const before = await detailOf(instanceId);
    const waiting = before.tasks.find((x) => x.assigneeId === ids.b)!;
    expect(waiting.status).toBe('waiting');
    const body = { taskId: waiting.id, userId: ids.c, reason: 'b is on leave', clientRequestId: randomUUID() };
    const after = await ok('admin', 'POST', `${INST}/${instanceId}/reassign`, body);
    expect(open(after)).toEqual({ n1: ['a:pending', 'c:waiting'] });
    expect(after.tasks.find((x) => x.id === waiting.id)!.status).toBe('transferred');
    expect(after.history.at(-1)).toMatchObject({ action: 'reassign', comment: 'b is on leave', targetUserId: ids.c, nodeId: 'n1' });
    // Repeated: nothing more.
    const again = await ok('admin', 'POST', `${INST}/${instanceId}/reassign`, body);
    expect(again.history.length).toBe(after.history.length);
    const audit = await auditOf(instanceId, 'WorkflowReassigned');
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ reason: 'b is on leave', before: { assigneeId: ids.b, status: 'waiting' }, after: { assigneeId: ids.c, status: 'waiting' } });
    // The order holds: a approves, then c's task opens.
    await ok('a', 'POST', `/api/app/workflow-task/${pendingOf(after, 'a')!.id}/approve`, { clientRequestId: randomUUID() });
    expect(open(await detailOf(instanceId))).toEqual({ n1: ['c:pending'] });
    // The new holder sees it in their to-do list.
    const todo = await ok<{ items: { instanceId: string }[] }>('c', 'GET', '/api/app/workflow-task/todo');
    expect(todo.items.some((x) => x.instanceId === instanceId)).toBe(true);
  });

  it('jump: to a later node closes the open tasks; to the end approves the record; then 409', async () => {
    const d = await publish(line(approval('n1', 'Check', ['a']), approval('n2', 'Sign', ['b']), approval('n3', 'Pay', ['c'])));
    const { instanceId, recordId } = await startOn(d);
    const first = await detailOf(instanceId);
    const jumped = await ok('admin', 'POST', `${INST}/${instanceId}/jump`, { targetNodeId: 'n3', reason: 'skip the check', clientRequestId: randomUUID() });
    expect(open(jumped)).toEqual({ n3: ['c:pending'] });
    expect(jumped.tasks.find((x) => x.id === pendingOf(first, 'a')!.id)!.status).toBe('cancelled');
    expect(jumped.nodes.find((n) => n.nodeId === 'n3')!.state).toBe('active');
    expect(jumped.history.at(-1)).toMatchObject({ action: 'jump', targetNodeId: 'n3', comment: 'skip the check' });
    // Back to an earlier node.
    expect(open(await ok('admin', 'POST', `${INST}/${instanceId}/jump`, { targetNodeId: 'n1', reason: 'again', clientRequestId: randomUUID() }))).toEqual({ n1: ['a:pending'] });
    const ended = await ok('admin', 'POST', `${INST}/${instanceId}/jump`, { targetNodeId: 'end', reason: 'approved on paper', clientRequestId: randomUUID() });
    expect(ended.status).toBe('approved');
    expect(open(ended)).toEqual({});
    expect(await flowStatusOf(recordId)).toBe(2);
    const audit = await auditOf(instanceId, 'WorkflowJumped');
    expect(audit).toHaveLength(3);
    expect(audit[2].details).toMatchObject({ reason: 'approved on paper', before: { activeNodeIds: ['n1'] }, after: { targetNodeId: 'end', status: 'approved' } });
    const late = await call('admin', 'POST', `${INST}/${instanceId}/jump`, { targetNodeId: 'n1', reason: 'x', clientRequestId: randomUUID() });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('Workflow.InstanceNotRunning');
  });

  it('assignees: add (sequential: waiting at the end) and replace (the others cancelled, the node decided again)', async () => {
    const seq = await publish(line(approval('n1', 'Check', ['a', 'b'], { mode: 'sequential' })));
    const s = await startOn(seq);
    const added = await ok('admin', 'POST', `${INST}/${s.instanceId}/assignees`, { nodeId: 'n1', userIds: [ids.c], mode: 'add', reason: 'needs c', clientRequestId: randomUUID() });
    expect(open(added)).toEqual({ n1: ['a:pending', 'b:waiting', 'c:waiting'] });
    expect(added.history.at(-1)).toMatchObject({ action: 'addAssignees', comment: 'needs c' });

    const all = await publish(line(approval('n1', 'Check', ['a', 'b'], { mode: 'all' }), approval('n2', 'Sign', ['d'])));
    const r = await startOn(all);
    await ok('b', 'POST', `/api/app/workflow-task/${pendingOf(await detailOf(r.instanceId), 'b')!.id}/approve`, { clientRequestId: randomUUID() });
    const replaced = await ok('admin', 'POST', `${INST}/${r.instanceId}/assignees`, { nodeId: 'n1', userIds: [ids.c], mode: 'replace', reason: 'a left', clientRequestId: randomUUID() });
    expect(open(replaced)).toEqual({ n1: ['c:pending'] });
    const audit = await auditOf(r.instanceId, 'WorkflowAssigneesReplaced');
    expect(audit[0].details).toMatchObject({ reason: 'a left', mode: 'replace', before: [{ assigneeId: ids.a }], after: [{ assigneeId: ids.c }] });
    // Replace by nobody open but b (approved already): all mode completes, the flow goes on.
    const s2 = await startOn(all);
    await ok('b', 'POST', `/api/app/workflow-task/${pendingOf(await detailOf(s2.instanceId), 'b')!.id}/approve`, { clientRequestId: randomUUID() });
    const decided = await ok('admin', 'POST', `${INST}/${s2.instanceId}/assignees`, { nodeId: 'n1', userIds: [ids.b], mode: 'replace', reason: 'b alone', clientRequestId: randomUUID() });
    expect(open(decided)).toEqual({ n2: ['d:pending'] });
  });

  it('remind: every pending assignee is notified again, without the 10-minute limit', async () => {
    const d = await publish(line(approval('n1', 'Check', ['a', 'b'])));
    const { instanceId } = await startOn(d);
    const count = async () => Number((await db().selectFrom('notifications').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', 'in', [ids.a, ids.b]).where('link', 'like', '/flows/assignTask%').executeTakeFirstOrThrow()).n);
    const before = await count();
    const body = { reason: 'month end', clientRequestId: randomUUID() };
    await ok('admin', 'POST', `${INST}/${instanceId}/remind`, body);
    await ok('admin', 'POST', `${INST}/${instanceId}/remind`, body);
    const again = await ok('admin', 'POST', `${INST}/${instanceId}/remind`, { reason: 'still month end', clientRequestId: randomUUID() });
    expect((await count()) - before).toBe(4);
    expect(again.history.filter((h) => h.action === 'resendReminder').map((h) => h.comment)).toEqual(['month end', 'month end', 'still month end', 'still month end']);
    expect(await auditOf(instanceId, 'WorkflowRemindersResent')).toHaveLength(2);
  });

  it('terminate: needs a reason (or the older comment), audited with it', async () => {
    const d = await publish(line(approval('n1', 'Check', ['a'])));
    const { instanceId, recordId } = await startOn(d);
    const missing = await call('admin', 'POST', `${INST}/${instanceId}/terminate`, { clientRequestId: randomUUID() });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.validationErrors[0].members.map(memberName)).toEqual(['reason']);
    const body = { reason: 'wrong page', clientRequestId: randomUUID() };
    const ended = await ok('admin', 'POST', `${INST}/${instanceId}/terminate`, body);
    expect(ended.status).toBe('terminated');
    expect(ended.history.at(-1)).toMatchObject({ action: 'terminate', comment: 'wrong page' });
    await ok('admin', 'POST', `${INST}/${instanceId}/terminate`, body);
    const audit = await auditOf(instanceId, 'WorkflowTerminated');
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ reason: 'wrong page', after: { status: 'terminated' } });
    expect(await flowStatusOf(recordId)).toBe(0);
    const other = await startOn(d);
    expect((await ok('admin', 'POST', `${INST}/${other.instanceId}/terminate`, { comment: 'old client', clientRequestId: randomUUID() })).status).toBe('terminated');
  });
});
