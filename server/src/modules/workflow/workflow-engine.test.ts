import { P } from '@tessera/core/contracts/permissions';
import type { TAssignee, TWorkflowGraph, TWorkflowNode, TWorkflowNodeOf } from '@tessera/core/contracts/workflow';
import type { TWorkflowInstanceDetail, TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import { newWorkflowEdge as edge, newWorkflowNode as node } from '@tessera/core/workflow/defaults';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUnit, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { control, insertRow, masterDetail, pagesApi } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { JobWorker } from '../../platform/jobs.ts';
import { bizTable, bizTableName } from '../pages/index.ts';

// The engine's feature matrix (issue 13): each row publishes a small definition on the Expense page,
// submits a fresh record as `ini`, runs a script of actions by users and checks the open tasks (per
// node), the instance's status and the record's FlowStatus after each step. Runs on PGlite, and on
// PostgreSQL with DATABASE_URL set.

let t: TestApp;
let admin: string;
let pageId: string;
let masterViewId: string;
let linesViewId: string;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};
const DEF = '/api/app/workflow-definition';
const INST = '/api/app/workflow-instance';
const TASK = '/api/app/workflow-task';
const db = () => t.app.db;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const design = masterDetail(
    [control('Title', 1001), control('Amount', 1003), control('Manager', 4001), control('Doubled', 1003)],
    [control('LineAmount', 1003)],
  );
  const pages = pagesApi(t, () => admin);
  const page = await pages.create('Expense', design);
  pageId = page.id;
  const published = await pages.publish(pageId);
  expect(published.statusCode, published.body).toBe(200);
  masterViewId = design.viewControls[0].id;
  linesViewId = design.viewControls[0].viewControls[0].id;
  // Units: top (leader d) ⊃ dept (leader c) ∋ ini.
  const top = await createUnit(db(), 'Top');
  const dept = await createUnit(db(), 'Dept', top);
  ids.top = top;
  ids.dept = dept;
  const submitters = await createRole(db(), 'Submitters');
  await grant(db(), 'R', submitters, pageWorkCodes('Expense'));
  ids.approvers = await createRole(db(), 'Approvers');
  // a and b open the records they approve (the record page's approval bar).
  await grant(db(), 'R', ids.approvers, pageWorkCodes('Expense'));
  ids.nobody = await createRole(db(), 'Nobody');
  ids.ini = await createUser(db(), 'ini', { roles: [submitters], units: [dept] });
  for (const name of ['a', 'b', 'c', 'd', 'e']) ids[name] = await createUser(db(), name, { roles: name === 'a' || name === 'b' ? [ids.approvers] : [] });
  ids.admin = (await db().selectFrom('users').select('id').where('user_name', '=', 'admin').executeTakeFirstOrThrow()).id;
  await db().updateTable('organization_units').set({ leader_user_id: ids.c }).where('id', '=', dept).execute();
  await db().updateTable('organization_units').set({ leader_user_id: ids.d }).where('id', '=', top).execute();
  for (const name of ['ini', 'a', 'b', 'c', 'd', 'e']) tokens[name] = await t.login(name, FIXTURE_PASSWORD);
  tokens.admin = admin;
});
afterAll(() => t.close());

const call = (as: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  t.call(tokens[as] ?? as, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
async function ok(as: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  const res = await call(as, method, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

// ---------------------------------------------------------------- graph builders

type ApprovalConfig = TWorkflowNodeOf<'approval'>['config'];
const users = (...names: string[]): TAssignee => ({ kind: 'user', userIds: names.map((n) => ids[n]) });
function approval(id: string, assignees: TAssignee[] | (() => TAssignee[]), extraOf: Partial<ApprovalConfig> | (() => Partial<ApprovalConfig>) = {}) {
  return () => {
    const extra = typeof extraOf === 'function' ? extraOf() : extraOf;
    const n = node('approval', id, { x: 0, y: 0 }, id);
    n.config = { ...n.config, commentRequiredOnReject: false, assignees: typeof assignees === 'function' ? assignees() : assignees, ...extra };
    return n as TWorkflowNode;
  };
}
/** start → the nodes in a line → end. */
function line(...nodes: (() => TWorkflowNode)[]): () => TWorkflowGraph {
  return () => {
    const built = [node('start', 'start'), ...nodes.map((f) => f()), node('end', 'end')];
    return { nodes: built, edges: built.slice(1).map((n, i) => edge(`e${i}`, built[i].id, n.id)) };
  };
}

let definitionCount = 0;
async function publishDefinition(graph: TWorkflowGraph): Promise<string> {
  const d = await ok('admin', 'POST', DEF, { name: `flow ${++definitionCount}`, pageId, graph });
  const published = await call('admin', 'POST', `${DEF}/${d.id}/publish`, {});
  expect(published.statusCode, published.body).toBe(200);
  await ok('admin', 'POST', `${DEF}/${d.id}/enable`);
  return d.id;
}

async function newRecord(values: { Amount?: number; Manager?: string; lines?: number[]; creator?: string } = {}): Promise<string> {
  const id = await insertRow(db(), masterViewId, { Title: `Expense ${randomUUID().slice(0, 6)}`, Amount: values.Amount ?? 100, Manager: values.Manager ?? null, CreatorId: values.creator ?? ids.ini });
  for (const amount of values.lines ?? []) await insertRow(db(), linesViewId, { LineAmount: amount }, id);
  return id;
}

async function flowStatusOf(recordId: string): Promise<number> {
  const { rows } = await sql<{ s: number }>`select "FlowStatus" as s from ${bizTable(bizTableName(masterViewId))} where "Id" = ${recordId}::uuid`.execute(db());
  return Number(rows[0].s);
}

const start = (definitionId: string, recordId: string, extra: object = {}) =>
  call('ini', 'POST', INST, { pageId, recordId, definitionId, clientRequestId: randomUUID(), ...extra });

/** Open approval tasks per node: node id → user names, sorted. */
function openTasks(detail: TWorkflowInstanceDetail): Record<string, string[]> {
  const byId = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
  const out: Record<string, string[]> = {};
  for (const task of detail.tasks) if (task.kind === 'approve' && task.status === 'pending') (out[task.nodeId] ??= []).push(byId[task.assigneeId]);
  for (const k of Object.keys(out)) out[k].sort();
  return out;
}

const detailOf = (id: string) => ok('admin', 'GET', `${INST}/${id}`) as Promise<TWorkflowInstanceDetail>;
async function taskOf(instanceId: string, user: string, nodeId: string): Promise<TWorkflowTask> {
  const detail = await detailOf(instanceId);
  const task = detail.tasks.find((x) => x.assigneeId === ids[user] && x.nodeId === nodeId && x.status === 'pending' && x.kind === 'approve');
  expect(task, `${user} has no pending task on ${nodeId}: ${JSON.stringify(openTasks(detail))}`).toBeTruthy();
  return task!;
}

// ---------------------------------------------------------------- the matrix

type Step =
  | { as: string; act: 'approve' | 'reject' | 'return' | 'transfer' | 'delegate' | 'add-signer' | 'remove-signer' | 'cc' | 'reclaim'; node: string; body?: object; status?: number }
  | { as: string; act: 'withdraw' | 'terminate'; status?: number };
interface Expectation {
  open: Record<string, string[]>;
  status: string;
  flow: number;
}
interface Row {
  name: string;
  graph: () => TWorkflowGraph;
  record?: Parameters<typeof newRecord>[0];
  startBody?: () => object;
  /** After the start, then after each step. */
  expect: Expectation[];
  steps: Step[];
}

const running = (open: Record<string, string[]>): Expectation => ({ open, status: 'running', flow: 1 });
const approved: Expectation = { open: {}, status: 'approved', flow: 2 };
const rejected: Expectation = { open: {}, status: 'rejected', flow: 3 };

/** Every action the node may allow. */
const ALL_ACTIONS: Partial<ApprovalConfig> = { actions: { reject: true, return: true, transfer: true, delegate: true, addSigner: true, removeSigner: true, cc: true } };

const ROWS: Row[] = [
  { name: 'or: the first approval completes the node', graph: line(approval('n1', () => [users('a', 'b')])), steps: [{ as: 'b', act: 'approve', node: 'n1' }], expect: [running({ n1: ['a', 'b'] }), approved] },
  {
    name: 'all: every assignee approves',
    graph: line(approval('n1', () => [users('a', 'b')], { mode: 'all' })),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['a', 'b'] }), running({ n1: ['b'] }), approved],
  },
  {
    name: 'vote 60%: a rejection leaves it open, two approvals pass',
    graph: line(approval('n1', () => [users('a', 'b', 'c')], { mode: 'vote', votePassPercent: 60 })),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'reject', node: 'n1' }, { as: 'c', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['a', 'b', 'c'] }), running({ n1: ['b', 'c'] }), running({ n1: ['c'] }), approved],
  },
  {
    name: 'vote 60%: decided as soon as it cannot pass',
    graph: line(approval('n1', () => [users('a', 'b', 'c')], { mode: 'vote', votePassPercent: 60 })),
    steps: [{ as: 'a', act: 'reject', node: 'n1' }, { as: 'b', act: 'reject', node: 'n1' }],
    expect: [running({ n1: ['a', 'b', 'c'] }), running({ n1: ['b', 'c'] }), rejected],
  },
  {
    name: 'sequential: the next task opens after the previous approves',
    graph: line(approval('n1', () => [users('a', 'b')], { mode: 'sequential' })),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['a'] }), running({ n1: ['b'] }), approved],
  },
  {
    name: 'exclusive: a child-view SUM takes the big branch',
    graph: () => exclusiveGraph(),
    record: { lines: [600, 600] },
    steps: [{ as: 'd', act: 'approve', node: 'big' }],
    expect: [running({ big: ['d'] }), approved],
  },
  { name: 'exclusive: the default branch', graph: () => exclusiveGraph(), record: { lines: [10] }, steps: [], expect: [running({ small: ['e'] })] },
  {
    name: 'parallel + join: the join waits for both branches',
    graph: () => ({
      nodes: [node('start', 's'), node('parallel', 'p'), approval('n1', () => [users('a')])(), approval('n2', () => [users('b')])(), node('join', 'j'), node('end', 'end')],
      edges: [edge('e1', 's', 'p'), edge('e2', 'p', 'n1'), edge('e3', 'p', 'n2'), edge('e4', 'n1', 'j'), edge('e5', 'n2', 'j'), edge('e6', 'j', 'end')],
    }),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'approve', node: 'n2' }],
    expect: [running({ n1: ['a'], n2: ['b'] }), running({ n2: ['b'] }), approved],
  },
  {
    name: 'parallel + a condition branch inside: the join does not wait for the branch not taken',
    graph: () => ({
      nodes: [node('start', 's'), node('parallel', 'p'), node('exclusive', 'x'), approval('y1', () => [users('a')])(), approval('y2', () => [users('b')])(), approval('n3', () => [users('c')])(), node('join', 'j'), node('end', 'end')],
      edges: [
        edge('e1', 's', 'p'),
        edge('e2', 'p', 'x'),
        edge('e3', 'p', 'n3'),
        edge('e4', 'x', 'y1', { condition: '{Amount} > 1000', priority: 1 }),
        edge('e5', 'x', 'y2', { isDefault: true }),
        edge('e6', 'y1', 'j'),
        edge('e7', 'y2', 'j'),
        edge('e8', 'n3', 'j'),
        edge('e9', 'j', 'end'),
      ],
    }),
    steps: [{ as: 'b', act: 'approve', node: 'y2' }, { as: 'c', act: 'approve', node: 'n3' }],
    expect: [running({ y2: ['b'], n3: ['c'] }), running({ n3: ['c'] }), approved],
  },
  {
    // Found by the crash run (test/workflow-crash.test.ts): the join waited for ever for the branch
    // that was not returned to.
    name: 'return from after a join into one parallel branch: the other branch stays done',
    graph: () => ({
      nodes: [node('start', 's'), node('parallel', 'p'), approval('n1', () => [users('a')])(), approval('n2', () => [users('b')])(), node('join', 'j'), approval('n3', () => [users('c')], { returnTo: 'any' })(), node('end', 'end')],
      edges: [edge('e1', 's', 'p'), edge('e2', 'p', 'n1'), edge('e3', 'p', 'n2'), edge('e4', 'n1', 'j'), edge('e5', 'n2', 'j'), edge('e6', 'j', 'n3'), edge('e7', 'n3', 'end')],
    }),
    steps: [
      { as: 'a', act: 'approve', node: 'n1' },
      { as: 'b', act: 'approve', node: 'n2' },
      { as: 'c', act: 'return', node: 'n3', body: { targetNodeId: 'n1' } },
      { as: 'a', act: 'approve', node: 'n1' },
      { as: 'c', act: 'approve', node: 'n3' },
    ],
    expect: [running({ n1: ['a'], n2: ['b'] }), running({ n2: ['b'] }), running({ n3: ['c'] }), running({ n1: ['a'] }), running({ n3: ['c'] }), approved],
  },
  {
    name: 'return inside one parallel branch: the other branch keeps running and arrives at the join',
    graph: () => ({
      nodes: [node('start', 's'), node('parallel', 'p'), approval('a1', () => [users('a')])(), approval('a2', () => [users('c')], { returnTo: 'previous' })(), approval('b1', () => [users('b')])(), node('join', 'j'), node('end', 'end')],
      edges: [edge('e1', 's', 'p'), edge('e2', 'p', 'a1'), edge('e3', 'a1', 'a2'), edge('e4', 'p', 'b1'), edge('e5', 'a2', 'j'), edge('e6', 'b1', 'j'), edge('e7', 'j', 'end')],
    }),
    steps: [
      { as: 'a', act: 'approve', node: 'a1' },
      { as: 'c', act: 'return', node: 'a2' },
      { as: 'b', act: 'approve', node: 'b1' },
      { as: 'a', act: 'approve', node: 'a1' },
      { as: 'c', act: 'approve', node: 'a2' },
    ],
    expect: [running({ a1: ['a'], b1: ['b'] }), running({ a2: ['c'], b1: ['b'] }), running({ a1: ['a'], b1: ['b'] }), running({ a1: ['a'] }), running({ a2: ['c'] }), approved],
  },
  {
    name: 'reject: a comment is required when the node says so; the instance ends rejected',
    graph: line(approval('n1', () => [users('a')], { commentRequiredOnReject: true })),
    steps: [{ as: 'a', act: 'reject', node: 'n1', status: 400 }, { as: 'a', act: 'reject', node: 'n1', body: { comment: '超预算' } }],
    expect: [running({ n1: ['a'] }), running({ n1: ['a'] }), rejected],
  },
  {
    name: 'return to the initiator: the instance ends withdrawn (FlowStatus 4)',
    graph: line(approval('n1', () => [users('a')])),
    steps: [{ as: 'a', act: 'return', node: 'n1' }],
    expect: [running({ n1: ['a'] }), { open: {}, status: 'withdrawn', flow: 4 }],
  },
  {
    name: 'return to the previous approval node',
    graph: line(approval('n1', () => [users('a')]), approval('n2', () => [users('b')], { returnTo: 'previous' })),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'return', node: 'n2' }, { as: 'a', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['a'] }), running({ n2: ['b'] }), running({ n1: ['a'] }), running({ n2: ['b'] })],
  },
  {
    name: 'return to a chosen earlier node (returnTo any)',
    graph: line(approval('n1', () => [users('a')]), approval('n2', () => [users('b')]), approval('n3', () => [users('c')], { returnTo: 'any' })),
    steps: [
      { as: 'a', act: 'approve', node: 'n1' },
      { as: 'b', act: 'approve', node: 'n2' },
      { as: 'c', act: 'return', node: 'n3', body: { targetNodeId: 'nope' }, status: 400 },
      { as: 'c', act: 'return', node: 'n3', body: { targetNodeId: 'n1' } },
    ],
    expect: [running({ n1: ['a'] }), running({ n2: ['b'] }), running({ n3: ['c'] }), running({ n3: ['c'] }), running({ n1: ['a'] })],
  },
  {
    name: 'transfer: the task moves to another user',
    graph: line(approval('n1', () => [users('a')])),
    steps: [
      { as: 'a', act: 'transfer', node: 'n1', body: { userIds: [] }, status: 400 },
      { as: 'a', act: 'transfer', node: 'n1', body: { userIds: ['b'] } },
      { as: 'b', act: 'approve', node: 'n1' },
    ],
    expect: [running({ n1: ['a'] }), running({ n1: ['a'] }), running({ n1: ['b'] }), approved],
  },
  {
    name: 'withdraw while nobody acted (FlowStatus 4)',
    graph: line(approval('n1', () => [users('a', 'b')], { mode: 'all' })),
    steps: [{ as: 'a', act: 'withdraw', status: 403 }, { as: 'ini', act: 'withdraw' }],
    expect: [running({ n1: ['a', 'b'] }), running({ n1: ['a', 'b'] }), { open: {}, status: 'withdrawn', flow: 4 }],
  },
  {
    name: 'withdraw refused once an approver of the current node acted',
    graph: line(approval('n1', () => [users('a', 'b')], { mode: 'all' })),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'ini', act: 'withdraw', status: 409 }],
    expect: [running({ n1: ['a', 'b'] }), running({ n1: ['b'] }), running({ n1: ['b'] })],
  },
  {
    name: 'terminate needs P.FlowInstances; the record is a draft again',
    graph: line(approval('n1', () => [users('a')])),
    steps: [{ as: 'ini', act: 'terminate', status: 403 }, { as: 'admin', act: 'terminate' }],
    expect: [running({ n1: ['a'] }), running({ n1: ['a'] }), { open: {}, status: 'terminated', flow: 0 }],
  },
  {
    name: 'empty assignees, autoApprove: the node passes',
    graph: line(approval('n1', () => [{ kind: 'role', roleIds: [ids.nobody] }], { emptyAssignee: { policy: 'autoApprove' } }), approval('n2', () => [{ kind: 'role', roleIds: [ids.approvers] }])),
    steps: [],
    expect: [running({ n2: ['a', 'b'] })],
  },
  {
    name: 'empty assignees, toAdmin',
    graph: line(approval('n1', () => [{ kind: 'role', roleIds: [ids.nobody] }], () => ({ emptyAssignee: { policy: 'toAdmin', adminUserId: ids.admin } }))),
    steps: [{ as: 'admin', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['admin'] }), approved],
  },
  {
    name: 'auto-approve: the initiator, and who approved before',
    graph: line(
      approval('n1', () => [users('ini', 'a')], { mode: 'all', autoApprove: { ifInitiator: true, ifApprovedBefore: false } }),
      approval('n2', () => [users('a', 'b')], { mode: 'all', autoApprove: { ifInitiator: false, ifApprovedBefore: true } }),
    ),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'approve', node: 'n2' }],
    expect: [running({ n1: ['a'] }), running({ n2: ['b'] }), approved],
  },
  {
    name: 'chosenAtSubmit: the initiator picks the approvers',
    graph: line(approval('n1', () => [{ kind: 'chosenAtSubmit' }])),
    startBody: () => ({ chosenAssignees: { n1: [ids.c] } }),
    steps: [{ as: 'c', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['c'] }), approved],
  },
  {
    name: "initiator's leaders: level 1 (the unit's) then level 2 (the unit above's)",
    graph: line(approval('n1', () => [{ kind: 'initiatorLeader', level: 1 }]), approval('n2', () => [{ kind: 'initiatorLeader', level: 2 }])),
    steps: [{ as: 'c', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['c'] }), running({ n2: ['d'] })],
  },
  {
    name: 'formField: the user in the record\'s picker control',
    graph: line(approval('n1', () => [{ kind: 'formField', controlCode: 'Manager' }])),
    record: { Manager: 'e' },
    steps: [{ as: 'e', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['e'] }), approved],
  },
  {
    name: 'unit members: with sub-units (ini, in Dept under Top; auto-approved as initiator) then without (nobody → admin)',
    graph: line(
      approval('n1', () => [{ kind: 'unit', unitIds: [ids.top], includeSubUnits: true }, users('a')], { mode: 'all', autoApprove: { ifInitiator: true, ifApprovedBefore: false } }),
      approval('n2', () => [{ kind: 'unit', unitIds: [ids.top] }], () => ({ emptyAssignee: { policy: 'toAdmin', adminUserId: ids.admin } })),
    ),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['a'] }), running({ n2: ['admin'] })],
  },
  {
    name: 'a stale task (or-sign decided by another) answers 409; a stranger 403',
    graph: line(approval('n1', () => [users('a', 'b')]), approval('n2', () => [users('c')])),
    steps: [{ as: 'e', act: 'approve', node: 'n1', status: 403 }, { as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'approve', node: 'n1', status: 409 }],
    expect: [running({ n1: ['a', 'b'] }), running({ n1: ['a', 'b'] }), running({ n2: ['c'] }), running({ n2: ['c'] })],
  },
  {
    name: 'delegate: the delegate acts, then the task comes back to its assignee',
    graph: line(approval('n1', () => [users('a')], ALL_ACTIONS)),
    steps: [
      { as: 'a', act: 'delegate', node: 'n1', body: { userIds: ['a'] }, status: 400 },
      { as: 'a', act: 'delegate', node: 'n1', body: { userIds: ['b', 'c'] }, status: 400 },
      { as: 'a', act: 'delegate', node: 'n1', body: { userIds: ['b'] } },
      { as: 'a', act: 'approve', node: 'n1', status: 409 },
      { as: 'b', act: 'approve', node: 'n1', body: { comment: '建议同意' } },
      { as: 'a', act: 'approve', node: 'n1' },
    ],
    expect: [running({ n1: ['a'] }), running({ n1: ['a'] }), running({ n1: ['a'] }), running({ n1: ['b'] }), running({ n1: ['b'] }), running({ n1: ['a'] }), approved],
  },
  {
    name: 'delegate is refused where the node does not allow it',
    graph: line(approval('n1', () => [users('a')])),
    steps: [{ as: 'a', act: 'delegate', node: 'n1', body: { userIds: ['b'] }, status: 400 }],
    expect: [running({ n1: ['a'] }), running({ n1: ['a'] })],
  },
  {
    name: 'add signers before: they approve first, then the task comes back',
    graph: line(approval('n1', () => [users('a')], ALL_ACTIONS)),
    steps: [
      { as: 'a', act: 'add-signer', node: 'n1', body: { userIds: ['b'] }, status: 400 },
      { as: 'a', act: 'add-signer', node: 'n1', body: { userIds: ['b', 'c'], position: 'before' } },
      { as: 'b', act: 'approve', node: 'n1' },
      { as: 'c', act: 'approve', node: 'n1' },
      { as: 'a', act: 'approve', node: 'n1' },
    ],
    expect: [running({ n1: ['a'] }), running({ n1: ['a'] }), running({ n1: ['b', 'c'] }), running({ n1: ['c'] }), running({ n1: ['a'] }), approved],
  },
  {
    name: 'add signers after: the assignee approves now, the node waits for them',
    graph: line(approval('n1', () => [users('a')], ALL_ACTIONS), approval('n2', () => [users('d')])),
    steps: [{ as: 'a', act: 'add-signer', node: 'n1', body: { userIds: ['b'], position: 'after' } }, { as: 'b', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['a'] }), running({ n1: ['b'] }), running({ n2: ['d'] })],
  },
  {
    name: "add signer after in or-sign: the others' tasks stay open until the added signer approves",
    graph: line(approval('n1', () => [users('a', 'c')], ALL_ACTIONS), approval('n2', () => [users('d')])),
    steps: [{ as: 'a', act: 'add-signer', node: 'n1', body: { userIds: ['b'], position: 'after' } }, { as: 'b', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['a', 'c'] }), running({ n1: ['b', 'c'] }), running({ n2: ['d'] })],
  },
  {
    name: "an added signer's rejection rejects the instance",
    graph: line(approval('n1', () => [users('a')], ALL_ACTIONS)),
    steps: [{ as: 'a', act: 'add-signer', node: 'n1', body: { userIds: ['b'], position: 'after' } }, { as: 'b', act: 'reject', node: 'n1' }],
    expect: [running({ n1: ['a'] }), running({ n1: ['b'] }), rejected],
  },
  {
    name: 'remove signers from a countersign: the rest decide',
    graph: line(approval('n1', () => [users('a', 'b', 'c')], { mode: 'all', ...ALL_ACTIONS })),
    steps: [
      { as: 'a', act: 'remove-signer', node: 'n1', body: { userIds: ['a'] }, status: 400 },
      { as: 'a', act: 'remove-signer', node: 'n1', body: { userIds: ['e'] }, status: 400 },
      { as: 'a', act: 'remove-signer', node: 'n1', body: { userIds: ['b'] } },
      { as: 'a', act: 'approve', node: 'n1' },
      { as: 'c', act: 'approve', node: 'n1' },
    ],
    expect: [running({ n1: ['a', 'b', 'c'] }), running({ n1: ['a', 'b', 'c'] }), running({ n1: ['a', 'b', 'c'] }), running({ n1: ['a', 'c'] }), running({ n1: ['c'] }), approved],
  },
  {
    name: 'remove a signer from a vote: the node is decided again and passes',
    graph: line(approval('n1', () => [users('a', 'b', 'c')], { mode: 'vote', votePassPercent: 50, ...ALL_ACTIONS })),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'remove-signer', node: 'n1', body: { userIds: ['c'] } }],
    expect: [running({ n1: ['a', 'b', 'c'] }), running({ n1: ['b', 'c'] }), approved],
  },
  {
    name: 'reclaim (拿回) while the next node is untouched; the node opens again for the reclaimer',
    graph: line(approval('n1', () => [users('a')]), approval('n2', () => [users('b')])),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'a', act: 'reclaim', node: 'n1' }, { as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'approve', node: 'n2' }],
    expect: [running({ n1: ['a'] }), running({ n2: ['b'] }), running({ n1: ['a'] }), running({ n2: ['b'] }), approved],
  },
  {
    name: "reclaim in a countersign keeps the others' approvals",
    graph: line(approval('n1', () => [users('a', 'b')], { mode: 'all' }), approval('n2', () => [users('c')])),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'approve', node: 'n1' }, { as: 'b', act: 'reclaim', node: 'n1' }, { as: 'b', act: 'approve', node: 'n1' }],
    expect: [running({ n1: ['a', 'b'] }), running({ n1: ['b'] }), running({ n2: ['c'] }), running({ n1: ['b'] }), running({ n2: ['c'] })],
  },
  {
    name: 'reclaim is refused once the next node acted, and when nothing followed',
    graph: line(approval('n1', () => [users('a')]), approval('n2', () => [users('b', 'c')], { mode: 'all' })),
    steps: [{ as: 'a', act: 'approve', node: 'n1' }, { as: 'b', act: 'approve', node: 'n2' }, { as: 'a', act: 'reclaim', node: 'n1', status: 409 }, { as: 'b', act: 'reclaim', node: 'n2', status: 409 }],
    expect: [running({ n1: ['a'] }), running({ n2: ['b', 'c'] }), running({ n2: ['c'] }), running({ n2: ['c'] }), running({ n2: ['c'] })],
  },
];

function exclusiveGraph(): TWorkflowGraph {
  return {
    nodes: [node('start', 's'), node('exclusive', 'x'), approval('big', () => [users('d')])(), approval('small', () => [users('e')])(), node('end', 'end')],
    edges: [
      edge('e1', 's', 'x'),
      edge('e2', 'x', 'big', { condition: 'SUM({Lines.LineAmount}) > 1000', priority: 1 }),
      edge('e3', 'x', 'small', { isDefault: true }),
      edge('e4', 'big', 'end'),
      edge('e5', 'small', 'end'),
    ],
  };
}

describe('workflow engine: feature matrix', () => {
  it.each(ROWS.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const definitionId = await publishDefinition(row.graph());
    const record = row.record?.Manager ? { ...row.record, Manager: ids[row.record.Manager] } : row.record;
    const recordId = await newRecord(record);
    const started = await start(definitionId, recordId, row.startBody?.() ?? {});
    expect(started.statusCode, started.body).toBe(200);
    const instanceId = started.json().id;
    const check = async (e: Expectation, label: string) => {
      const detail = await detailOf(instanceId);
      expect({ open: openTasks(detail), status: detail.status, flow: await flowStatusOf(recordId) }, label).toEqual(e);
    };
    await check(row.expect[0], 'after start');
    for (const [i, step] of row.steps.entries()) {
      let res;
      if (step.act === 'withdraw' || step.act === 'terminate') {
        res = await call(step.as, 'POST', `${INST}/${instanceId}/${step.act}`, { clientRequestId: randomUUID(), ...(step.act === 'terminate' ? { reason: 'test' } : {}) });
      } else {
        // 403: a stranger acts on a's task; 409: the actor's task the node closed meanwhile.
        const act = step as Extract<Step, { node: string }>;
        const detail = await detailOf(instanceId);
        const holder = step.status === 403 ? 'a' : step.as;
        const task =
          step.status === 409 || step.act === 'reclaim'
            ? detail.tasks.findLast((x) => x.assigneeId === ids[step.as] && x.nodeId === act.node && x.kind === 'approve')!
            : await taskOf(instanceId, holder, act.node);
        const body: Record<string, unknown> = { clientRequestId: randomUUID(), ...(act.body ?? {}) };
        if (Array.isArray(body.userIds)) body.userIds = (body.userIds as string[]).map((u) => ids[u] ?? u);
        res = await call(step.as, 'POST', `${TASK}/${task.id}/${step.act}`, body);
      }
      expect(res.statusCode, `step ${i} (${step.as} ${step.act}): ${res.body}`).toBe(step.status ?? 200);
      await check(row.expect[i + 1], `after step ${i} (${step.as} ${step.act})`);
    }
  });
});

describe('workflow engine: details', () => {
  it('chosenAtSubmit missing, empty assignees under refuse, and a second start on a running record are refused', async () => {
    const chosen = await publishDefinition(line(approval('n1', () => [{ kind: 'chosenAtSubmit' }]))());
    const r1 = await newRecord();
    const missing = await start(chosen, r1);
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json().error.validationErrors[0].members).toEqual(['chosenAssignees.n1']);
    const refuse = await publishDefinition(line(approval('n1', () => [{ kind: 'role', roleIds: [ids.nobody] }], { emptyAssignee: { policy: 'refuse' } }))());
    const refused = await start(refuse, r1);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(await flowStatusOf(r1)).toBe(0);
    const fine = await publishDefinition(line(approval('n1', () => [users('a')]))());
    expect((await start(fine, r1)).statusCode).toBe(200);
    const again = await start(fine, r1);
    expect(again.statusCode, again.body).toBe(409);
  });

  it('a double-submitted clientRequestId is applied once', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a', 'b')], { mode: 'all' }))());
    const recordId = await newRecord();
    const requestId = randomUUID();
    const first = await call('ini', 'POST', INST, { pageId, recordId, definitionId, clientRequestId: requestId });
    const second = await call('ini', 'POST', INST, { pageId, recordId, definitionId, clientRequestId: requestId });
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json().id).toBe(first.json().id);
    const task = await taskOf(first.json().id, 'a', 'n1');
    const body = { clientRequestId: randomUUID() };
    const [x, y] = await Promise.all([call('a', 'POST', `${TASK}/${task.id}/approve`, body), call('a', 'POST', `${TASK}/${task.id}/approve`, body)]);
    expect([x.statusCode, y.statusCode], y.body).toEqual([200, 200]);
    const detail = await detailOf(first.json().id);
    expect(detail.history.filter((h) => h.action === 'approve')).toHaveLength(1);
    expect(openTasks(detail)).toEqual({ n1: ['b'] });
  });

  it('cc: the recipient is told, the flow goes on; automatic assigns fields through the save pipeline', async () => {
    const cc = () => {
      const n = node('cc', 'cc1', { x: 0, y: 0 }, 'cc1');
      n.config.recipients = [users('e')];
      return n as TWorkflowNode;
    };
    const auto = () => {
      const n = node('automatic', 'auto', { x: 0, y: 0 }, 'auto');
      n.config.assignments = [{ controlCode: 'Doubled', formula: '{Amount} * 2' }];
      return n as TWorkflowNode;
    };
    const definitionId = await publishDefinition(line(cc, auto, approval('n1', () => [users('a')]))());
    const recordId = await newRecord({ Amount: 21 });
    const started = await start(definitionId, recordId);
    expect(started.statusCode, started.body).toBe(200);
    expect(openTasks(started.json())).toEqual({ n1: ['a'] });
    const { rows } = await sql<{ d: string }>`select "Doubled"::text as d from ${bizTable(bizTableName(masterViewId))} where "Id" = ${recordId}::uuid`.execute(db());
    expect(Number(rows[0].d)).toBe(42);
    const ccList = await ok('e', 'GET', `${TASK}/cc`);
    const mine = ccList.items.find((x: TWorkflowTask) => x.instanceId === started.json().id);
    expect(mine).toMatchObject({ kind: 'cc', status: 'pending', isRead: false, allowedActions: ['ccRead'] });
    const read = await ok('e', 'POST', `${TASK}/${mine.id}/cc-read`, { clientRequestId: randomUUID() });
    expect(read.task).toMatchObject({ status: 'approved', isRead: true });
    const detail = await detailOf(started.json().id);
    expect(detail.nodes.find((n) => n.nodeId === 'cc1')?.state).toBe('done');
    expect(detail.nodes.find((n) => n.nodeId === 'n1')?.state).toBe('active');
    expect(detail.history.map((h) => h.action)).toEqual(['start', 'automatic', 'ccRead']);
    // The outbox holds the events written with each change, unpublished.
    const outbox = await db().selectFrom('workflow_outbox').select(['event', 'payload', 'published_at']).where('instance_id', '=', started.json().id).orderBy('creation_time').orderBy('id').execute();
    expect(outbox.map((o) => [o.event, (o.payload as { nodeId?: string }).nodeId ?? null])).toEqual([
      ['instance.started', null],
      ['node.entered', 'start'],
      ['node.entered', 'cc1'],
      ['node.entered', 'auto'],
      ['node.entered', 'n1'],
    ]);
    expect(outbox.every((o) => o.published_at === null)).toBe(true);
  });

  it('to-do, done and for-record answer the caller; get is refused to strangers', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a')]))());
    const recordId = await newRecord();
    const before = await ok('ini', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${recordId}`);
    expect(before).toMatchObject({ flowStatus: 0, instance: null, myPendingTask: null, canWithdraw: false });
    expect(before.startableDefinitions.map((d: { id: string }) => d.id)).toContain(definitionId);
    const started = (await start(definitionId, recordId)).json();
    expect(await ok('ini', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${recordId}`)).toMatchObject({ flowStatus: 1, instance: { id: started.id, status: 'running' }, startableDefinitions: [], canWithdraw: true });
    const todo = await ok('a', 'GET', `${TASK}/todo`);
    const task = todo.items.find((x: TWorkflowTask) => x.instanceId === started.id);
    expect(task).toMatchObject({ nodeId: 'n1', status: 'pending', allowedActions: ['approve', 'reject', 'return', 'transfer', 'cc'], recordTitle: started.recordTitle, instanceStatus: 'running' });
    expect((await call('e', 'GET', `${INST}/${started.id}`)).statusCode).toBe(403);
    expect((await call('a', 'GET', `${INST}/${started.id}`)).statusCode).toBe(200);
    // One task by id (a notification's link): the assignee's own only.
    expect(await ok('a', 'GET', `${TASK}/${task.id}`)).toMatchObject({ id: task.id, status: 'pending', instanceStatus: 'running' });
    expect((await call('e', 'GET', `${TASK}/${task.id}`)).statusCode).toBe(404);
    await ok('a', 'POST', `${TASK}/${task.id}/approve`, { clientRequestId: randomUUID(), comment: '同意' });
    const done = await ok('a', 'GET', `${TASK}/done`);
    // The completed list says where the flow went on to (here: approved, a single node).
    expect(done.items[0]).toMatchObject({ id: task.id, status: 'approved', allowedActions: [], instanceStatus: 'approved' });
    const mine = await ok('ini', 'GET', `${INST}?scope=mine`);
    expect(mine.items.some((i: { id: string; status: string }) => i.id === started.id && i.status === 'approved')).toBe(true);
    expect((await call('ini', 'GET', `${INST}?scope=all`)).statusCode).toBe(403);
    expect((await ok('admin', 'GET', `${INST}?scope=all&status=approved`)).totalCount).toBeGreaterThan(0);
  });

  it('the actions offered follow the node and the task: a delegate only hands back; removable signers are named', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a', 'b')], { mode: 'all', ...ALL_ACTIONS }))());
    const started = (await start(definitionId, await newRecord())).json();
    const a = await taskOf(started.id, 'a', 'n1');
    expect(a.allowedActions).toEqual(['approve', 'reject', 'return', 'transfer', 'delegate', 'addSigner', 'removeSigner', 'cc']);
    expect(a.removableSigners).toEqual([{ id: ids.b, name: 'b' }]);
    await ok('a', 'POST', `${TASK}/${a.id}/delegate`, { clientRequestId: randomUUID(), userIds: [ids.c] });
    const c = await taskOf(started.id, 'c', 'n1');
    expect(c).toMatchObject({ origin: 'delegate', allowedActions: ['approve'] });
    // b may not remove a's suspended task nor the delegate.
    expect((await taskOf(started.id, 'b', 'n1')).removableSigners).toEqual([]);
    const refused = await call('c', 'POST', `${TASK}/${c.id}/reject`, { clientRequestId: randomUUID() });
    expect(refused.statusCode, refused.body).toBe(400);
    const history = (await detailOf(started.id)).history.map((h) => [h.action, h.targetUserId]);
    expect(history).toEqual([['start', null], ['delegate', ids.c]]);
  });

  it("a flow administrator (P.FlowInstances) may act on another's task; others may not", async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a')]), approval('n2', () => [users('b')]))());
    const started = (await start(definitionId, await newRecord())).json();
    const a = await taskOf(started.id, 'a', 'n1');
    expect((await call('e', 'POST', `${TASK}/${a.id}/approve`, { clientRequestId: randomUUID() })).statusCode).toBe(403);
    await ok('admin', 'POST', `${TASK}/${a.id}/approve`, { clientRequestId: randomUUID(), comment: '代为审批' });
    const detail = await detailOf(started.id);
    expect(openTasks(detail)).toEqual({ n2: ['b'] });
    expect(detail.history.at(-1)).toMatchObject({ action: 'approve', actorId: ids.admin, comment: '代为审批' });
    // Taking an approval back stays the approver's own.
    expect((await call('admin', 'POST', `${TASK}/${a.id}/reclaim`, { clientRequestId: randomUUID() })).statusCode).toBe(403);
  });

  it('CC from a task: the recipients get CC tasks, the flow does not wait', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a')]))());
    const started = (await start(definitionId, await newRecord())).json();
    const a = await taskOf(started.id, 'a', 'n1');
    expect((await call('a', 'POST', `${TASK}/${a.id}/cc`, { clientRequestId: randomUUID(), userIds: [] })).statusCode).toBe(400);
    await ok('a', 'POST', `${TASK}/${a.id}/cc`, { clientRequestId: randomUUID(), userIds: [ids.d, ids.e] });
    for (const u of ['d', 'e']) {
      const cc = await ok(u, 'GET', `${TASK}/cc`);
      expect(cc.items.find((x: TWorkflowTask) => x.instanceId === started.id)).toMatchObject({ kind: 'cc', nodeId: 'n1', isRead: false });
    }
    expect(openTasks(await detailOf(started.id))).toEqual({ n1: ['a'] });
  });

  it('urge (催办): the initiator reminds the pending assignees, once per 10 minutes; others are refused', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a', 'b')], { mode: 'all' }))());
    const recordId = await newRecord();
    const started = (await start(definitionId, recordId)).json();
    expect((await ok('ini', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${recordId}`)).canUrge).toBe(true);
    expect((await ok('a', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${recordId}`)).canUrge).toBe(false);
    const a = await taskOf(started.id, 'a', 'n1');
    expect((await call('b', 'POST', `${TASK}/${a.id}/urge`, { clientRequestId: randomUUID() })).statusCode).toBe(403);
    const once = { clientRequestId: randomUUID(), comment: '请尽快' };
    await ok('ini', 'POST', `${TASK}/${a.id}/urge`, once);
    await ok('ini', 'POST', `${TASK}/${a.id}/urge`, once); // the same request again: applied once
    const again = await call('ini', 'POST', `${TASK}/${a.id}/urge`, { clientRequestId: randomUUID() });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().error.code).toBe('Workflow.UrgedRecently');
    // The instance-wide urge reaches b (a was urged just now).
    await ok('ini', 'POST', `${INST}/${started.id}/urge`, { clientRequestId: randomUUID() });
    expect((await call('ini', 'POST', `${INST}/${started.id}/urge`, { clientRequestId: randomUUID() })).statusCode).toBe(409);
    // The urge's own notification (the task's new-task notification links the task too).
    const notes = await db().selectFrom('notifications').select(['user_id', 'content']).where('link', 'like', `%${a.id}%`).where('title', 'like', '催办%').execute();
    expect(notes).toHaveLength(1);
    expect(notes[0].content).toContain('请尽快');
    const history = (await detailOf(started.id)).history.filter((h) => h.action === 'urge').map((h) => h.targetUserId);
    expect(history).toEqual([ids.a, ids.b]);
    const audits = await db().selectFrom('audit_logs').select('id').where('action', '=', 'WorkflowUrge').where('entity_id', '=', started.id).execute();
    expect(audits).toHaveLength(2);
  });

  it('for-record offers reclaim (拿回) to the approver while the next node is untouched', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a')]), approval('n2', () => [users('b')]))());
    const recordId = await newRecord();
    const started = (await start(definitionId, recordId)).json();
    const a = await taskOf(started.id, 'a', 'n1');
    await ok('a', 'POST', `${TASK}/${a.id}/approve`, { clientRequestId: randomUUID() });
    const view = await ok('a', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${recordId}`);
    expect(view.myReclaimableTask).toMatchObject({ id: a.id, allowedActions: ['reclaim'] });
    const done = await ok('a', 'GET', `${TASK}/done`);
    expect(done.items.find((x: TWorkflowTask) => x.id === a.id).allowedActions).toEqual(['reclaim']);
    await ok('b', 'POST', `${TASK}/${(await taskOf(started.id, 'b', 'n2')).id}/approve`, { clientRequestId: randomUUID() });
    expect((await ok('a', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${recordId}`)).myReclaimableTask).toBeNull();
  });

  it("the flow's user picker answers the holder of a pending task and the record's submitter, display names only", async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a')]))());
    const recordId = await newRecord();
    const started = (await start(definitionId, recordId)).json();
    const a = await taskOf(started.id, 'a', 'n1');
    const found = await ok('a', 'GET', `${TASK}/users?taskId=${a.id}&filter=e`);
    expect(found.map((u: { title: string }) => u.title)).toContain('e');
    expect(found.every((u: { description: string | null }) => u.description === null)).toBe(true);
    expect(await ok('a', 'GET', `${TASK}/users?taskId=${a.id}&ids=${ids.b}`)).toEqual([{ id: ids.b, title: 'b', description: null }]);
    // Not the holder: refused; the submitter (who may edit the record) may pick approvers.
    expect((await call('e', 'GET', `${TASK}/users?taskId=${a.id}`)).statusCode).toBe(403);
    expect((await call('ini', 'GET', `${TASK}/users?pageId=${pageId}&recordId=${recordId}&filter=c`)).statusCode).toBe(200);
    expect((await call('e', 'GET', `${TASK}/users?pageId=${pageId}&recordId=${recordId}`)).statusCode).toBe(403);
    const bad = await call('a', 'GET', `${TASK}/users`);
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().error.validationErrors.length).toBeGreaterThan(0);
  });

  it("all instances follow the caller's data scope on the page: own records only, none without the page", async () => {
    const admins = await createRole(db(), 'Own-scope flow admins');
    await grant(db(), 'R', admins, [P.FlowInstances, ...pageWorkCodes('Expense')]);
    await db().insertInto('data_scopes').values({ id: randomUUID(), role_id: admins, page_key: 'Expense', scope: 'own', custom_filter: null }).execute();
    const blind = await createRole(db(), 'Flow admins without the page');
    await grant(db(), 'R', blind, [P.FlowInstances]);
    const scoped = await createUser(db(), 'scoped', { roles: [admins] });
    await createUser(db(), 'blind', { roles: [blind] });
    tokens.scoped = await t.login('scoped', FIXTURE_PASSWORD);
    tokens.blind = await t.login('blind', FIXTURE_PASSWORD);
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a')]))());
    const mine = await newRecord({ creator: scoped });
    const theirs = await newRecord();
    const started = [(await start(definitionId, mine)).json(), (await start(definitionId, theirs)).json()];
    const seen = async (as: string) => {
      const list = await ok(as, 'GET', `${INST}?scope=all&pageId=${pageId}&MaxResultCount=1000`);
      return started.filter((s) => list.items.some((i: { id: string }) => i.id === s.id)).map((s) => s.recordId);
    };
    expect(await seen('admin')).toEqual([mine, theirs]);
    expect(await seen('scoped')).toEqual([mine]);
    expect(await seen('blind')).toEqual([]);
    // Without a page filter too.
    const all = await ok('scoped', 'GET', `${INST}?scope=all&MaxResultCount=1000`);
    expect(all.items.some((i: { recordId: string }) => i.recordId === theirs)).toBe(false);
  });

  it('to-do and done filter by page and by text (record title, definition name)', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('d')]))());
    const started = (await start(definitionId, await newRecord())).json();
    const title = encodeURIComponent(started.recordTitle);
    const todo = async (query: string) => (await ok('d', 'GET', `${TASK}/todo?${query}`)).items.map((x: TWorkflowTask) => x.instanceId);
    expect(await todo(`Filter=${title}`)).toEqual([started.id]);
    expect(await todo(`Filter=${encodeURIComponent(started.definitionName)}`)).toContain(started.id);
    expect(await todo(`pageId=${pageId}`)).toContain(started.id);
    expect(await todo(`pageId=${randomUUID()}`)).toEqual([]);
    expect(await todo('Filter=no-such-title')).toEqual([]);
    const mine = await ok('d', 'GET', `${TASK}/todo?pageId=${pageId}&Filter=${title}`);
    expect(mine.totalCount).toBe(1);
    await ok('d', 'POST', `${TASK}/${mine.items[0].id}/approve`, { clientRequestId: randomUUID() });
    expect(await todo(`Filter=${title}`)).toEqual([]);
    const done = await ok('d', 'GET', `${TASK}/done?pageId=${pageId}&Filter=${title}`);
    expect({ ids: done.items.map((x: TWorkflowTask) => x.id), totalCount: done.totalCount }).toEqual({ ids: [mine.items[0].id], totalCount: 1 });
    expect((await ok('d', 'GET', `${TASK}/done?pageId=${randomUUID()}`)).totalCount).toBe(0);
  });

  it('a definition with running instances cannot be deleted', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a')]))());
    await start(definitionId, await newRecord());
    const res = await call('admin', 'DELETE', `${DEF}/${definitionId}`);
    expect(res.statusCode, res.body).toBe(409);
  });

  it('timeouts: a reminder notifies the assignee, then the task escalates (job queue)', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a')], { timeout: { afterMinutes: 60, remindEveryMinutes: 30, remindTimes: 1, then: 'escalate', escalateToUserId: ids.b } }))());
    const started = (await start(definitionId, await newRecord())).json();
    const task = await taskOf(started.id, 'a', 'n1');
    expect(task.dueTime).not.toBeNull();
    const at = (minutes: number) => new JobWorker(t.app, { pollMs: 0, now: () => new Date(Date.now() + minutes * 60_000) });
    expect(await at(31).runDue()).toBeGreaterThanOrEqual(1);
    const notes = await db().selectFrom('notifications').selectAll().where('user_id', '=', ids.a).where('type', '=', 'todo').execute();
    expect(notes.some((n) => n.link?.includes(task.id))).toBe(true);
    expect(openTasks(await detailOf(started.id))).toEqual({ n1: ['a'] });
    await at(61).runDue();
    const detail = await detailOf(started.id);
    expect(openTasks(detail)).toEqual({ n1: ['b'] });
    expect(detail.history.map((h) => h.action)).toEqual(['start', 'remind', 'escalate']);
    // The escalated task's reminder is set anew, but no timeout: escalating b's task to b would change
    // nothing (the crash run found such a job finishing and leaving the task as it was). Approving cancels it.
    const moved = await taskOf(started.id, 'b', 'n1');
    expect((await db().selectFrom('jobs').select('queue').where('key', 'like', `%${moved.id}`).where('state', '=', 'pending').execute()).map((j) => j.queue)).toEqual(['workflow.remind']);
    expect(moved.dueTime).not.toBeNull();
    await ok('b', 'POST', `${TASK}/${moved.id}/approve`, { clientRequestId: randomUUID() });
    const pending = await db().selectFrom('jobs').select('key').where('key', 'like', `%${moved.id}`).where('state', '=', 'pending').execute();
    expect(pending).toEqual([]);
  });

  it('timeouts: autoReject as a system action', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a')], { timeout: { afterMinutes: 5, then: 'autoReject' } }))());
    const recordId = await newRecord();
    const started = (await start(definitionId, recordId)).json();
    await new JobWorker(t.app, { pollMs: 0, now: () => new Date(Date.now() + 6 * 60_000) }).runDue();
    const detail = await detailOf(started.id);
    expect(detail.status).toBe('rejected');
    expect(detail.history.at(-1)).toMatchObject({ action: 'autoReject', actorId: null });
    expect(await flowStatusOf(recordId)).toBe(3);
    const events = await db().selectFrom('workflow_outbox').select('event').where('instance_id', '=', started.id).orderBy('creation_time').orderBy('id').execute();
    expect(events.map((e) => e.event)).toEqual(['instance.started', 'node.entered', 'node.entered', 'task.completed', 'instance.ended']);
  });

  it('timeouts: autoApprove walks on to the next node', async () => {
    const definitionId = await publishDefinition(line(approval('n1', () => [users('a')], { timeout: { afterMinutes: 5, then: 'autoApprove' } }), approval('n2', () => [users('b')]))());
    const started = (await start(definitionId, await newRecord())).json();
    await new JobWorker(t.app, { pollMs: 0, now: () => new Date(Date.now() + 6 * 60_000) }).runDue();
    const detail = await detailOf(started.id);
    expect(openTasks(detail)).toEqual({ n2: ['b'] });
    expect(detail.history.map((h) => h.action)).toEqual(['start', 'autoApprove']);
  });
});

describe('workflow engine: validation', () => {
  const bad = randomUUID();
  it.each([
    ['start without a record', 'POST', INST, { pageId: bad, clientRequestId: 'x' }],
    ['start without a request id', 'POST', INST, { pageId: bad, recordId: bad }],
    ['for-record without ids', 'GET', `${INST}/for-record`, undefined],
    ['list with a bad scope', 'GET', `${INST}?scope=everyone`, undefined],
    ['get with a bad id', 'GET', `${INST}/not-a-uuid`, undefined],
    ['withdraw without a request id', 'POST', `${INST}/${bad}/withdraw`, {}],
    ['terminate without a request id', 'POST', `${INST}/${bad}/terminate`, {}],
    ['to-do with a bad page', 'GET', `${TASK}/todo?pageId=nope`, undefined],
    ['done with a bad count', 'GET', `${TASK}/done?MaxResultCount=0`, undefined],
    ['cc with a bad skip', 'GET', `${TASK}/cc?SkipCount=-1`, undefined],
    ['approve without a request id', 'POST', `${TASK}/${bad}/approve`, {}],
    ['reject with a huge comment', 'POST', `${TASK}/${bad}/reject`, { clientRequestId: 'x', comment: 'x'.repeat(3000) }],
    ['return with a bad target', 'POST', `${TASK}/${bad}/return`, { clientRequestId: 'x', targetNodeId: 'x'.repeat(100) }],
    ['transfer with bad users', 'POST', `${TASK}/${bad}/transfer`, { clientRequestId: 'x', userIds: ['nope'] }],
    ['cc-read with a bad id', 'POST', `${TASK}/nope/cc-read`, { clientRequestId: 'x' }],
  ] as const)('%s → 400', async (_name, method, url, payload) => {
    const res = await call('admin', method, url, payload);
    expect(res.statusCode, res.body).toBe(400);
  });

  it('signed-out callers get 401; unknown tasks 404', async () => {
    expect((await t.call(null, { method: 'GET', url: `${TASK}/todo` })).statusCode).toBe(401);
    expect((await call('a', 'POST', `${TASK}/${randomUUID()}/approve`, { clientRequestId: 'x' })).statusCode).toBe(404);
    expect(P.FlowInstances).toBeTruthy();
  });
});
