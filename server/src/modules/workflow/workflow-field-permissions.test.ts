import { bizPermission } from '@tessera/core/contracts/permissions';
import type { TFieldPermission, TWorkflowGraph, TWorkflowNode } from '@tessera/core/contracts/workflow';
import type { TWorkflowForRecord, TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import { newWorkflowEdge as edge, newWorkflowNode as node } from '@tessera/core/workflow/defaults';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { control, insertRow, masterDetail, pagesApi, rowsOf } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Field permissions of approval nodes, enforced on the approver's save (issue 13): the holder of a
// pending task changes the fields their node marks editable — without the page's edit rights — and
// nothing else; everybody else still meets 409 BusinessData.InApproval. Runs on PGlite, and on
// PostgreSQL with DATABASE_URL set.

let t: TestApp;
let pageId: string;
let masterViewId: string;
let linesViewId: string;
let definitionId: string;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};
const INST = '/api/app/workflow-instance';
const TASK = '/api/app/workflow-task';
const BD = '/api/app/business-data';
const db = () => t.app.db;
type Rec = Record<string, unknown>;

const N1: Record<string, TFieldPermission> = { Amount: 'editable', Note: 'readonly', Secret: 'hidden', 'Lines.Price': 'editable' };
const N2: Record<string, TFieldPermission> = { Note: 'editable', 'Lines.Item': 'editable', 'Lines.Price': 'editable' };

function approval(id: string, user: string, fieldPermissions: Record<string, TFieldPermission>): TWorkflowNode {
  const n = node('approval', id, { x: 0, y: 0 }, id);
  if (n.type !== 'approval') throw new Error('not an approval node');
  n.config = { ...n.config, commentRequiredOnReject: false, assignees: [{ kind: 'user', userIds: [ids[user]] }], fieldPermissions, actions: { ...n.config.actions, delegate: true } };
  return n;
}

beforeAll(async () => {
  t = await createTestApp();
  tokens.admin = await t.login();
  const amount = control('Amount', 1003);
  const grade = control('Grade', 1001);
  const design = masterDetail([control('Title', 1001), amount, control('Note', 1001), control('Secret', 1001), grade], [control('Item', 1001), control('Price', 1003)]);
  // A linkage fills Grade (read-only for n1's approver) from Amount (editable).
  design.dataLinkages = [{ id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: amount.id, triggerFormula: '{Amount} > 1000' }], assignments: [{ dataControlId: grade.id, assignmentFormula: '"big"' }], pageEvents: [], pageStateControls: [] }];
  const pages = pagesApi(t, () => tokens.admin);
  pageId = (await pages.create('Claim', design)).id;
  const published = await pages.publish(pageId);
  expect(published.statusCode, published.body).toBe(200);
  masterViewId = design.viewControls[0].id;
  linesViewId = design.viewControls[0].viewControls[0].id;
  const submitters = await createRole(db(), 'ClaimSubmitters');
  await grant(db(), 'R', submitters, pageWorkCodes('Claim'));
  // Approvers open the page and see its fields, but hold no edit right of their own.
  const readers = await createRole(db(), 'ClaimReaders');
  await grant(db(), 'R', readers, [bizPermission.access('Claim'), ...['Title', 'Amount', 'Note', 'Secret', 'Item', 'Price'].map((c) => bizPermission.fieldView('Claim', c))]);
  ids.ini = await createUser(db(), 'fp-ini', { roles: [submitters] });
  for (const name of ['a', 'b', 'e']) ids[name] = await createUser(db(), `fp-${name}`, { roles: [readers] });
  for (const name of ['ini', 'a', 'b', 'e']) tokens[name] = await t.login(`fp-${name}`, FIXTURE_PASSWORD);
  const nodes = [node('start', 'start'), approval('n1', 'a', N1), approval('n2', 'b', N2), node('end', 'end')];
  const graph: TWorkflowGraph = { nodes, edges: nodes.slice(1).map((n, i) => edge(`e${i}`, nodes[i].id, n.id)) };
  definitionId = (await ok('admin', 'POST', '/api/app/workflow-definition', { name: 'claims', pageId, graph })).id;
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

/** A claim with two lines, submitted by `ini`: its first node (n1, user a) is pending. */
async function submittedClaim(): Promise<string> {
  const id = await insertRow(db(), masterViewId, { Title: 'Trip', Amount: 100, Note: 'first', Secret: 's3cret', CreatorId: ids.ini });
  await insertRow(db(), linesViewId, { Item: 'Train', Price: 60 }, id);
  await insertRow(db(), linesViewId, { Item: 'Hotel', Price: 40 }, id);
  await ok('ini', 'POST', INST, { pageId, recordId: id, definitionId, clientRequestId: randomUUID() });
  return id;
}

/** The record as `as` reads it (what the form gets): master record and line rows. */
async function read(as: string, id: string): Promise<{ master: Rec; lines: Rec[] }> {
  const data = await ok(as, 'POST', `${BD}/query-page-data`, { pageId, id });
  const rows = (viewId: string) => data.viewDataList.find((v: { viewId: string }) => v.viewId === viewId).dataList as Rec[];
  return { master: rows(masterViewId)[0], lines: rows(linesViewId) };
}

/** Saves what `as` read with the given changes (as the form sends it back). */
function save(as: string, master: Rec, lines?: Rec[]) {
  const viewDataList = [{ viewId: masterViewId, dataList: [master] }, ...(lines ? [{ viewId: linesViewId, dataList: lines }] : [])];
  return call(as, 'POST', `${BD}/save-page`, { pageId, viewDataList });
}

async function stored(id: string) {
  const [master] = (await rowsOf(db(), masterViewId, ['Id', 'Title', 'Amount', 'Note', 'Secret', 'Grade', 'ConcurrencyStamp'])).filter((r) => r.Id === id);
  const lines = (await rowsOf(db(), linesViewId, ['Id', 'ParentViewDataId', 'Item', 'Price'])).filter((r) => r.ParentViewDataId === id);
  return { master, lines };
}

async function approve(as: string, id: string) {
  const info: TWorkflowForRecord = await ok(as, 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${id}`);
  const task = info.myPendingTask as TWorkflowTask;
  await ok(as, 'POST', `${TASK}/${task.id}/approve`, { clientRequestId: randomUUID() });
}

describe('field permissions of approval nodes', () => {
  it('for-record tells the approver their node\'s permissions; the record reads without its hidden fields', async () => {
    const id = await submittedClaim();
    const mine: TWorkflowForRecord = await ok('a', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${id}`);
    expect(mine.myPendingTask).toMatchObject({ nodeId: 'n1' });
    expect(mine.fieldPermissions).toEqual(N1);
    expect((await ok('ini', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${id}`)).fieldPermissions).toBeNull();
    expect((await ok('e', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${id}`)).fieldPermissions).toBeNull();
    const { master } = await read('a', id);
    expect(master).toMatchObject({ Title: 'Trip', Note: 'first', FlowStatus: 1 });
    expect(master).not.toHaveProperty('Secret');
    expect((await read('e', id)).master).toMatchObject({ Secret: 's3cret' });
  });

  it('the record\'s history leaves out the hidden fields for the approver', async () => {
    const created = await ok('admin', 'POST', `${BD}/save-page`, { pageId, viewDataList: [{ viewId: masterViewId, dataList: [{ Title: 'Desk', Amount: 80, Secret: 'k9' }] }] });
    const id = created.viewDataList.find((v: { viewId: string }) => v.viewId === masterViewId).dataList[0].Id;
    await ok('admin', 'POST', INST, { pageId, recordId: id, definitionId, clientRequestId: randomUUID() });
    const codes = async (as: string) => (await ok(as, 'GET', `${BD}/record-history?pageId=${pageId}&id=${id}`)).items.flatMap((e: { changes: { code: string }[] }) => e.changes.map((c) => c.code)).sort();
    expect(await codes('admin')).toEqual(['Amount', 'Secret', 'Title']);
    expect(await codes('a')).toEqual(['Amount', 'Title']);
  });

  it('the approver saves an editable field without the page\'s edit right; the answer hides the hidden ones', async () => {
    const id = await submittedClaim();
    const { master } = await read('a', id);
    const res = await save('a', { ...master, Amount: 120.5 });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().viewDataList.find((v: { viewId: string }) => v.viewId === masterViewId).dataList[0];
    expect(answer).toMatchObject({ Amount: 120.5, Note: 'first' });
    expect(answer).not.toHaveProperty('Secret');
    expect((await stored(id)).master).toMatchObject({ Amount: '120.5', Note: 'first', Secret: 's3cret' });
  });

  it('a change to a readonly, unnamed or hidden field is refused (400 naming it) and nothing is written', async () => {
    const id = await submittedClaim();
    const before = await stored(id);
    const { master } = await read('a', id);
    const res = await save('a', { ...master, Amount: 999, Note: 'changed', Title: 'Other', Secret: 'guess' });
    expect(res.statusCode, res.body).toBe(400);
    const members = res.json().error.validationErrors.flatMap((v: { members: string[] }) => v.members).sort();
    expect(members).toEqual(['viewDataList.0.dataList.0.Note', 'viewDataList.0.dataList.0.Secret', 'viewDataList.0.dataList.0.Title']);
    expect(res.json().error.validationErrors[0].message).toMatch(/审批节点不允许修改/);
    expect(await stored(id)).toEqual(before);
  });

  it('a read-only field may come back changed as the linkages compute it, not otherwise', async () => {
    const id = await submittedClaim();
    const { master } = await read('a', id);
    // As the browser sends it: its own run of the linkage filled Grade.
    const linked = await save('a', { ...master, Amount: 1500, Grade: 'big' });
    expect(linked.statusCode, linked.body).toBe(200);
    expect((await stored(id)).master).toMatchObject({ Amount: '1500', Grade: 'big' });
    const again = await read('a', id);
    const forged = await save('a', { ...again.master, Amount: 1600, Grade: 'huge' });
    expect(forged.statusCode, forged.body).toBe(400);
    expect(forged.json().error.validationErrors.flatMap((v: { members: string[] }) => v.members)).toEqual(['viewDataList.0.dataList.0.Grade']);
    expect((await stored(id)).master).toMatchObject({ Amount: '1500', Grade: 'big' });
  });

  it('others still meet 409 InApproval (403 without the edit right); nobody deletes the record while it is in approval', async () => {
    const id = await submittedClaim();
    for (const who of ['ini', 'admin']) {
      const { master } = await read(who, id);
      const res = await save(who, { ...master, Amount: 1 });
      expect(res.statusCode, `${who}: ${res.body}`).toBe(409);
      expect(res.json().error.code).toBe('BusinessData.InApproval');
    }
    const { master } = await read('e', id);
    expect((await save('e', { ...master, Amount: 1 })).statusCode).toBe(403);
    // The pending task grants no delete: the approver lacks the right, admin meets the approval.
    expect((await call('a', 'POST', `${BD}/delete-data`, { pageId, ids: [id] })).statusCode).toBe(403);
    expect((await call('admin', 'POST', `${BD}/delete-data`, { pageId, ids: [id] })).statusCode).toBe(409);
    expect((await stored(id)).master).toMatchObject({ Amount: '100' });
  });

  it('child rows: editable cells change; rows are fixed unless every control of the view is editable', async () => {
    const id = await submittedClaim();
    const { master, lines } = await read('a', id);
    // n1: Lines.Price editable, Lines.Item not named (read-only).
    const priced = await save('a', master, lines.map((l) => ({ ...l, Price: Number(l.Price) + 1 })));
    expect(priced.statusCode, priced.body).toBe(200);
    expect((await stored(id)).lines.map((l) => l.Price).sort()).toEqual(['41', '61']);
    const again = await read('a', id);
    const before = await stored(id);
    const renamed = await save('a', again.master, again.lines.map((l, i) => (i === 0 ? { ...l, Item: 'Plane' } : l)));
    expect(renamed.statusCode, renamed.body).toBe(400);
    expect(renamed.json().error.validationErrors[0].members).toEqual(['viewDataList.1.dataList.0.Item']);
    const added = await save('a', again.master, [...again.lines, { Id: randomUUID(), Price: 5 }]);
    expect(added.statusCode, added.body).toBe(400);
    expect(added.json().error.validationErrors[0].members).toEqual(['viewDataList.1.dataList.2']);
    const removed = await save('a', again.master, again.lines.slice(1));
    expect(removed.statusCode, removed.body).toBe(400);
    expect(removed.json().error.validationErrors[0].members).toEqual([`rows.${again.lines[0].Id}`]);
    // save-view (rows of the child view) goes through the same check.
    const viaView = await call('a', 'POST', `${BD}/save-view`, { pageId, viewId: linesViewId, dataList: [{ ...again.lines[0], Item: 'Bus' }], deletedIds: [] });
    expect(viaView.statusCode, viaView.body).toBe(400);
    expect(await stored(id)).toEqual(before);
  });

  it('a delegate holds the node\'s permissions while the task is delegated; the suspended assignee does not', async () => {
    const id = await submittedClaim();
    const info: TWorkflowForRecord = await ok('a', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${id}`);
    await ok('a', 'POST', `${TASK}/${info.myPendingTask!.id}/delegate`, { clientRequestId: randomUUID(), userIds: [ids.e] });
    expect((await ok('a', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${id}`)).fieldPermissions).toBeNull();
    expect((await ok('e', 'GET', `${INST}/for-record?pageId=${pageId}&recordId=${id}`)).fieldPermissions).toEqual(N1);
    const asA = await read('a', id);
    expect((await save('a', { ...asA.master, Amount: 5 })).statusCode).toBe(403);
    const asE = await read('e', id);
    expect(asE.master).not.toHaveProperty('Secret');
    expect((await save('e', { ...asE.master, Note: 'mine' })).statusCode).toBe(400);
    const saved = await save('e', { ...asE.master, Amount: 130 });
    expect(saved.statusCode, saved.body).toBe(200);
    // The delegate hands it back: the assignee's task is pending again, and so are its permissions.
    await approve('e', id);
    const back = await read('a', id);
    const res = await save('a', { ...back.master, Amount: 140 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(id)).master).toMatchObject({ Amount: '140' });
  });

  it('after approve the next node\'s permissions apply; the approval\'s end leaves the page\'s own rights', async () => {
    const id = await submittedClaim();
    await approve('a', id);
    // a's task is done: a is one of the others now (without an edit right of their own: 403).
    const asA = await read('a', id);
    expect((await save('a', { ...asA.master, Amount: 5 })).statusCode).toBe(403);
    // n2 (b): Note editable, Amount not; every Lines control editable, so lines may be added and deleted.
    const { master, lines } = await read('b', id);
    expect(master).toMatchObject({ Secret: 's3cret' });
    expect((await save('b', { ...master, Amount: 5 })).statusCode).toBe(400);
    const res = await save('b', { ...master, Note: 'checked' }, [lines[1], { Id: randomUUID(), Item: 'Taxi', Price: 12 }]);
    expect(res.statusCode, res.body).toBe(200);
    const now = await stored(id);
    expect(now.master).toMatchObject({ Note: 'checked', Amount: '100' });
    expect(now.lines.map((l) => l.Item).sort()).toEqual(['Hotel', 'Taxi']);
    await approve('b', id);
    // Approved (FlowStatus 2): b has no edit right on the page of their own.
    const after = await read('b', id);
    expect((await save('b', { ...after.master, Note: 'late' })).statusCode).toBe(403);
  });
});
