import { bizPermission } from '@tessera/core/contracts/permissions';
import type { TFieldPermission, TWorkflowGraph, TWorkflowNode } from '@tessera/core/contracts/workflow';
import type { TWorkflowForRecord, TWorkflowInstanceDetail } from '@tessera/core/contracts/workflow-runtime';
import { newWorkflowEdge as edge, newWorkflowNode as node } from '@tessera/core/workflow/defaults';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { control, insertRow, masterDetail, pagesApi, rowsOf } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Approve with the approver's edits (issue 14): `record` on the approve request is saved through
// business-data's save pipeline in the approval's own transaction — the node's field permissions,
// the ConcurrencyStamp, history — and either both are stored or neither. Runs on PGlite, and on
// PostgreSQL with DATABASE_URL set.

let t: TestApp;
let pageId: string;
let otherPageId: string;
let masterViewId: string;
let otherMasterViewId: string;
let definitionId: string;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};
const INST = '/api/app/workflow-instance';
const TASK = '/api/app/workflow-task';
const BD = '/api/app/business-data';
const db = () => t.app.db;
type Rec = Record<string, unknown>;

const N1: Record<string, TFieldPermission> = { Amount: 'editable', Note: 'readonly', 'Lines.Price': 'editable' };

function approval(id: string, user: string, fieldPermissions: Record<string, TFieldPermission>): TWorkflowNode {
  const n = node('approval', id, { x: 0, y: 0 }, id);
  if (n.type !== 'approval') throw new Error('not an approval node');
  n.config = { ...n.config, commentRequiredOnReject: false, assignees: [{ kind: 'user', userIds: [ids[user]] }], fieldPermissions };
  return n;
}

beforeAll(async () => {
  t = await createTestApp();
  tokens.admin = await t.login();
  const design = masterDetail([control('Title', 1001), control('Amount', 1003), control('Note', 1001)], [control('Item', 1001), control('Price', 1003)]);
  const pages = pagesApi(t, () => tokens.admin);
  pageId = (await pages.create('Expense', design)).id;
  expect((await pages.publish(pageId)).statusCode).toBe(200);
  masterViewId = design.viewControls[0].id;
  const other = masterDetail([control('Title', 1001), control('Amount', 1003)], [control('Item', 1001)]);
  otherPageId = (await pages.create('Other', other)).id;
  expect((await pages.publish(otherPageId)).statusCode).toBe(200);
  otherMasterViewId = other.viewControls[0].id;
  const submitters = await createRole(db(), 'ExpenseSubmitters');
  await grant(db(), 'R', submitters, pageWorkCodes('Expense'));
  const readers = await createRole(db(), 'ExpenseReaders');
  await grant(db(), 'R', readers, [bizPermission.access('Expense'), ...['Title', 'Amount', 'Note', 'Item', 'Price'].map((c) => bizPermission.fieldView('Expense', c))]);
  ids.ini = await createUser(db(), 'ae-ini', { roles: [submitters] });
  for (const name of ['a', 'b']) ids[name] = await createUser(db(), `ae-${name}`, { roles: [readers] });
  for (const name of ['ini', 'a', 'b']) tokens[name] = await t.login(`ae-${name}`, FIXTURE_PASSWORD);
  const nodes = [node('start', 'start'), approval('n1', 'a', N1), approval('n2', 'b', {}), node('end', 'end')];
  const graph: TWorkflowGraph = { nodes, edges: nodes.slice(1).map((n, i) => edge(`e${i}`, nodes[i].id, n.id)) };
  definitionId = (await ok('admin', 'POST', '/api/app/workflow-definition', { name: 'expenses', pageId, graph })).id;
  await ok('admin', 'POST', `/api/app/workflow-definition/${definitionId}/publish`, {});
  await ok('admin', 'POST', `/api/app/workflow-definition/${definitionId}/enable`);
});
afterAll(() => t.close());

const call = (as: string, method: 'GET' | 'POST', url: string, payload?: unknown) => t.call(tokens[as], { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
async function ok(as: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await call(as, method, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** An expense submitted by `ini`: its first node (n1, user a) is pending; answers the record and a's task. */
async function submitted(): Promise<{ id: string; taskId: string; instanceId: string }> {
  const id = await insertRow(db(), masterViewId, { Title: 'Trip', Amount: 100, Note: 'first', CreatorId: ids.ini });
  const instance: TWorkflowInstanceDetail = await ok('ini', 'POST', INST, { pageId, recordId: id, definitionId, clientRequestId: randomUUID() });
  const info: TWorkflowForRecord = await ok('a', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${id}`);
  return { id, taskId: info.myPendingTask!.id, instanceId: instance.id };
}

/** The master record as `as` reads it (what the approval page's form holds). */
async function read(as: string, id: string): Promise<Rec> {
  const data = await ok(as, 'POST', `${BD}/query-page-data`, { pageId, id });
  return data.viewDataList.find((v: { viewId: string }) => v.viewId === masterViewId).dataList[0];
}

const edits = (master: Rec, page = pageId, viewId = masterViewId) => ({ pageId: page, viewDataList: [{ viewId, dataList: [master] }] });
const approve = (as: string, taskId: string, record?: unknown, clientRequestId: string = randomUUID()) => call(as, 'POST', `${TASK}/${taskId}/approve`, { clientRequestId, ...(record ? { record } : {}) });

async function stored(id: string) {
  return (await rowsOf(db(), masterViewId, ['Id', 'Title', 'Amount', 'Note', 'FlowStatus', 'ConcurrencyStamp'])).find((r) => r.Id === id)!;
}
async function taskStatus(taskId: string): Promise<string> {
  return (await ok('a', 'GET', `${TASK}/${taskId}`)).status;
}
async function approvals(instanceId: string): Promise<number> {
  const detail: TWorkflowInstanceDetail = await ok('admin', 'GET', `${INST}/${instanceId}`);
  return detail.history.filter((h) => h.action === 'approve').length;
}
const members = (body: { error: { validationErrors?: { members: string[] }[] } }) => (body.error.validationErrors ?? []).flatMap((v) => v.members).sort();

describe('approve with the approver\'s edits', () => {
  it('an editable field\'s change is stored with the approval, and the record\'s history shows it as the approver\'s', async () => {
    const { id, taskId, instanceId } = await submitted();
    const res = await approve('a', taskId, edits({ ...(await read('a', id)), Amount: 123.5 }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().task).toMatchObject({ status: 'approved' });
    expect(res.json().instance.currentNodes.map((n: { nodeId: string }) => n.nodeId)).toEqual(['n2']);
    expect(await stored(id)).toMatchObject({ Amount: '123.5', Note: 'first' });
    expect(Number((await stored(id)).FlowStatus)).toBe(1);
    expect(await approvals(instanceId)).toBe(1);
    const history = await ok('admin', 'GET', `${BD}/record-history?pageId=${pageId}&id=${id}`);
    const mine = history.items.filter((e: { userId: string | null }) => e.userId === ids.a);
    expect(mine).toHaveLength(1);
    expect(mine[0].changes).toMatchObject([{ code: 'Amount', before: 100, after: 123.5 }]);
  });

  it('a read-only field\'s change is refused (400 naming it under record.): the task stays pending, the record unchanged', async () => {
    const { id, taskId, instanceId } = await submitted();
    const before = await stored(id);
    const res = await approve('a', taskId, edits({ ...(await read('a', id)), Amount: 200, Note: 'mine' }));
    expect(res.statusCode, res.body).toBe(400);
    expect(members(res.json())).toEqual(['record.viewDataList.0.dataList.0.Note']);
    expect(await taskStatus(taskId)).toBe('pending');
    expect(await approvals(instanceId)).toBe(0);
    expect(await stored(id)).toEqual(before);
  });

  it('another record or page is refused (400), and so are edits on actions other than approve', async () => {
    const { id, taskId } = await submitted();
    const before = await stored(id);
    const elsewhere = await submitted();
    const otherRecord = await approve('a', taskId, edits({ ...(await read('a', elsewhere.id)), Amount: 5 }));
    expect(otherRecord.statusCode, otherRecord.body).toBe(400);
    expect(members(otherRecord.json())).toEqual(['record.viewDataList.0.dataList.0.Id']);
    const otherPage = await approve('a', taskId, edits({ Id: id, Title: 'x' }, otherPageId, otherMasterViewId));
    expect(otherPage.statusCode, otherPage.body).toBe(400);
    expect(members(otherPage.json())).toEqual(['record.pageId']);
    const reject = await call('a', 'POST', `${TASK}/${taskId}/reject`, { clientRequestId: randomUUID(), record: edits({ ...(await read('a', id)), Amount: 5 }) });
    expect(reject.statusCode, reject.body).toBe(400);
    expect(members(reject.json())).toEqual(['record']);
    // A flow administrator may approve another's task, but not with edits: the node's permissions are the assignee's.
    const onBehalf = await approve('admin', taskId, edits({ ...(await read('a', id)), Amount: 5 }));
    expect(onBehalf.statusCode, onBehalf.body).toBe(400);
    expect(members(onBehalf.json())).toEqual(['record']);
    expect(await taskStatus(taskId)).toBe('pending');
    expect(await stored(id)).toEqual(before);
    expect(await stored(elsewhere.id)).toMatchObject({ Amount: '100' });
  });

  it('a task no longer pending answers 409 and the edit is not stored', async () => {
    const { id, taskId } = await submitted();
    const form = await read('a', id);
    expect((await approve('a', taskId)).statusCode).toBe(200);
    const before = await stored(id);
    const late = await approve('a', taskId, edits({ ...form, ConcurrencyStamp: before.ConcurrencyStamp, Amount: 300 }));
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json().error.code).toBe('Workflow.TaskNotPending');
    expect(await stored(id)).toEqual(before);
  });

  it('a stale ConcurrencyStamp answers the conflict and approves nothing', async () => {
    const { id, taskId, instanceId } = await submitted();
    const form = await read('a', id);
    // Someone saved meanwhile (here: the approver in another tab).
    const saved = await call('a', 'POST', `${BD}/save-page`, edits({ ...form, Amount: 110 }));
    expect(saved.statusCode, saved.body).toBe(200);
    const before = await stored(id);
    const res = await approve('a', taskId, edits({ ...form, Amount: 120 }));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('Conflict');
    expect(await taskStatus(taskId)).toBe('pending');
    expect(await approvals(instanceId)).toBe(0);
    expect(await stored(id)).toEqual(before);
  });

  it('a retry with the same clientRequestId applies the edit and the approval once', async () => {
    const { id, taskId, instanceId } = await submitted();
    const body = edits({ ...(await read('a', id)), Amount: 150 });
    const requestId = randomUUID();
    const first = await approve('a', taskId, body, requestId);
    expect(first.statusCode, first.body).toBe(200);
    const after = await stored(id);
    const retry = await approve('a', taskId, body, requestId);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().task).toMatchObject({ status: 'approved' });
    expect(await stored(id)).toEqual(after);
    expect(after).toMatchObject({ Amount: '150' });
    expect(await approvals(instanceId)).toBe(1);
    const history = await ok('admin', 'GET', `${BD}/record-history?pageId=${pageId}&id=${id}`);
    expect(history.items.filter((e: { userId: string | null }) => e.userId === ids.a)).toHaveLength(1);
  });
});
