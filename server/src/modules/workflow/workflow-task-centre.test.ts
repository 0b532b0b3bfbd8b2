import type { TWorkflowGraph, TWorkflowNode } from '@tessera/core/contracts/workflow';
import type { TBatchApproveResult, TWorkflowTaskList } from '@tessera/core/contracts/workflow-runtime';
import { newWorkflowEdge as edge, newWorkflowNode as node } from '@tessera/core/workflow/defaults';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { control, insertRow, masterDetail, pagesApi } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// The task centre's to-do list (issue 14): filters, the count, batch approve, and the live signal
// that tells an open browser to read its count again. PGlite, and PostgreSQL with DATABASE_URL.

let t: TestApp;
let pageId: string;
let masterViewId: string;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};
const DEF = '/api/app/workflow-definition';
const INST = '/api/app/workflow-instance';
const TASK = '/api/app/workflow-task';
const db = () => t.app.db;
let flowA: string;
let flowB: string;

const call = (as: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.call(tokens[as], { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
async function ok(as: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await call(as, method, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

function approval(id: string, assignee: string, extra: object = {}): TWorkflowNode {
  const n = node('approval', id, { x: 0, y: 0 }, id);
  n.config = { ...n.config, commentRequiredOnReject: false, assignees: [{ kind: 'user', userIds: [ids[assignee]] }], ...extra };
  return n as TWorkflowNode;
}
const line = (...nodes: TWorkflowNode[]): TWorkflowGraph => {
  const built = [node('start', 'start'), ...nodes, node('end', 'end')] as TWorkflowNode[];
  return { nodes: built, edges: built.slice(1).map((n, i) => edge(`e${i}`, built[i].id, n.id)) };
};
async function publish(name: string, graph: TWorkflowGraph): Promise<string> {
  const d = await ok('admin', 'POST', DEF, { name, pageId, graph });
  await ok('admin', 'POST', `${DEF}/${d.id}/publish`, {});
  await ok('admin', 'POST', `${DEF}/${d.id}/enable`);
  return d.id;
}
/** A record of `creator`, submitted to `definitionId`: the instance id. */
async function submit(definitionId: string, creator: string, title: string): Promise<string> {
  const recordId = await insertRow(db(), masterViewId, { Title: title, Amount: 1, CreatorId: ids[creator] });
  const started = await ok(creator, 'POST', INST, { pageId, recordId, definitionId, clientRequestId: randomUUID() });
  return started.id;
}
const todo = (as: string, query = '') => ok(as, 'GET', `${TASK}/todo${query}`) as Promise<TWorkflowTaskList>;
const titles = (list: TWorkflowTaskList) => list.items.map((i) => i.recordTitle).sort();

beforeAll(async () => {
  t = await createTestApp();
  tokens.admin = await t.login();
  const design = masterDetail([control('Title', 1001), control('Amount', 1003)], [control('LineAmount', 1003)]);
  const pages = pagesApi(t, () => tokens.admin);
  pageId = (await pages.create('Order', design)).id;
  expect((await pages.publish(pageId)).statusCode).toBe(200);
  masterViewId = design.viewControls[0].id;
  const staff = await createRole(db(), 'Staff');
  await grant(db(), 'R', staff, pageWorkCodes('Order'));
  for (const name of ['ini', 'ini2', 'a', 'b']) {
    ids[name] = await createUser(db(), name, { roles: [staff] });
    tokens[name] = await t.login(name, FIXTURE_PASSWORD);
  }
  // Flow A: a approves (due in an hour); flow B: a, then b.
  flowA = await publish('Flow A', line(approval('n1', 'a', { timeout: { afterMinutes: 60, then: 'none' } })));
  flowB = await publish('Flow B', line(approval('n1', 'a'), approval('n2', 'b')));
});
afterAll(() => t.close());

describe('to-do filters and count', () => {
  it('narrows the to-do list by flow, initiator, arrival time and overdue; the count is the open tasks', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    await submit(flowA, 'ini', 'A by ini');
    await submit(flowB, 'ini', 'B by ini');
    await submit(flowB, 'ini2', 'B by ini2');
    const all = await todo('a');
    expect(titles(all)).toEqual(['A by ini', 'B by ini', 'B by ini2']);
    expect(all.totalCount).toBe(3);
    expect(titles(await todo('a', `?definitionId=${flowB}`))).toEqual(['B by ini', 'B by ini2']);
    expect(titles(await todo('a', `?initiatorId=${ids.ini2}`))).toEqual(['B by ini2']);
    expect(titles(await todo('a', `?definitionId=${flowB}&initiatorId=${ids.ini}`))).toEqual(['B by ini']);
    expect((await todo('a', `?from=${encodeURIComponent(before)}`)).totalCount).toBe(3);
    expect((await todo('a', `?to=${encodeURIComponent(before)}`)).totalCount).toBe(0);
    // Nothing is overdue yet; flow A's task is once its due time passed.
    expect((await todo('a', '?overdue=true')).totalCount).toBe(0);
    await db().updateTable('workflow_tasks').set({ due_time: new Date(Date.now() - 60_000) }).where('assignee_id', '=', ids.a).where('status', '=', 'pending').where('due_time', 'is not', null).execute();
    expect(titles(await todo('a', '?overdue=true'))).toEqual(['A by ini']);
    expect(await ok('a', 'GET', `${TASK}/todo-count`)).toEqual({ count: 3 });
    // The filter choices: the flows and initiators of a's open tasks, with their numbers.
    const facets = await ok('a', 'GET', `${TASK}/todo-facets`);
    expect(facets.flows).toEqual([
      { id: flowA, name: 'Flow A', count: 1 },
      { id: flowB, name: 'Flow B', count: 2 },
    ]);
    expect(facets.initiators.map((i: { id: string; count: number }) => [i.id, i.count]).sort()).toEqual([[ids.ini, 2], [ids.ini2, 1]].sort());
    expect(facets.initiators.every((i: { name: string | null }) => i.name)).toBe(true);
    expect(await ok('b', 'GET', `${TASK}/todo-facets`)).toEqual({ flows: [], initiators: [] });
    // Another user's list and count hold none of a's tasks.
    expect((await todo('b')).totalCount).toBe(0);
    expect(await ok('b', 'GET', `${TASK}/todo-count`)).toEqual({ count: 0 });
  });

  it('answers 400 for bad filters, 401 without a session', async () => {
    for (const q of ['definitionId=nope', 'initiatorId=1', 'from=yesterday', 'overdue=maybe', 'MaxResultCount=0']) {
      const res = await call('a', 'GET', `${TASK}/todo?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.validationErrors.length, q).toBeGreaterThan(0);
    }
    expect((await t.call(null, { method: 'GET', url: `${TASK}/todo-count` })).statusCode).toBe(401);
  });
});

describe('batch approve', () => {
  it('approves the caller\'s pending tasks with one comment, reports each, and a retry approves nothing twice', async () => {
    await submit(flowB, 'ini', 'Batch 1');
    await submit(flowB, 'ini', 'Batch 2');
    const mine = (await todo('a', '?Filter=Batch')).items;
    expect(mine).toHaveLength(2);
    const bTask = (await todo('b')).items[0]?.id ?? randomUUID();
    const body = { taskIds: [...mine.map((m) => m.id), bTask], comment: '同意', clientRequestId: randomUUID() };
    const first = (await ok('a', 'POST', `${TASK}/batch-approve`, body)) as TBatchApproveResult;
    expect(first.results.map((r) => r.ok)).toEqual([true, true, false]);
    expect(first.results[2].code).toBe('NotFound');
    // The flows went on to b, with a's comment in their history.
    expect(titles(await todo('b', '?Filter=Batch'))).toEqual(['Batch 1', 'Batch 2']);
    const detail = await ok('admin', 'GET', `${INST}/${mine[0].instanceId}`);
    expect(detail.history.filter((h: { action: string }) => h.action === 'approve').map((h: { comment: string }) => h.comment)).toEqual(['同意']);
    // The same batch again (a retry after a lost answer): every task reports approved, nothing is written twice.
    const again = (await ok('a', 'POST', `${TASK}/batch-approve`, body)) as TBatchApproveResult;
    expect(again.results.map((r) => r.ok)).toEqual([true, true, false]);
    const after = await ok('admin', 'GET', `${INST}/${mine[0].instanceId}`);
    expect(after.history.filter((h: { action: string }) => h.action === 'approve')).toHaveLength(1);
    // A new batch on tasks no longer pending: each says so (409), nothing else happens.
    const late = (await ok('a', 'POST', `${TASK}/batch-approve`, { taskIds: mine.map((m) => m.id), clientRequestId: randomUUID() })) as TBatchApproveResult;
    expect(late.results.map((r) => r.code)).toEqual(['Workflow.TaskNotPending', 'Workflow.TaskNotPending']);
  });

  it('refuses bad input with 400 before acting', async () => {
    for (const body of [{ taskIds: [], clientRequestId: 'x' }, { taskIds: ['nope'], clientRequestId: 'x' }, { taskIds: [randomUUID()] }, { taskIds: [randomUUID()], clientRequestId: 'x'.repeat(41) }]) {
      const res = await call('a', 'POST', `${TASK}/batch-approve`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('live signals', () => {
  /** Reads server-sent events of `as` until `want` arrives (or 2 s pass): the events seen. */
  async function openStream(as: string) {
    const { port } = t.app.server.address() as AddressInfo;
    const abort = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/app/notifications/live`, { headers: { authorization: `Bearer ${tokens[as]}`, accept: 'text/event-stream' }, signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('content-encoding')).toBeNull();
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const events: string[] = [];
    let buffer = '';
    const next = async (want: string, withinMs = 2000): Promise<boolean> => {
      const deadline = Date.now() + withinMs;
      while (!events.includes(want)) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
        if (chunk === null || chunk.done) return events.includes(want);
        buffer += chunk.value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const name = /^event: (.+)$/m.exec(block)?.[1];
          if (name) events.push(name);
        }
      }
      return true;
    };
    return { events, next, close: () => abort.abort() };
  }

  it('tells an open stream of the assignee within 2 s that their to-do changed, and nobody else', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const a = await openStream('a');
    const b = await openStream('b');
    expect(await a.next('ready')).toBe(true);
    expect(await b.next('ready')).toBe(true);
    expect(t.app.live.streamCount).toBe(2);
    const started = Date.now();
    await submit(flowA, 'ini', 'Live 1');
    expect(await a.next('todo')).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(b.events).not.toContain('todo');
    // A notification to b: b's stream hears of it.
    await ok('admin', 'POST', '/api/app/notifications', { type: 'notice', title: 'Hello', userIds: [ids.b] });
    expect(await b.next('notifications')).toBe(true);
    a.close();
    b.close();
    // Closed by the browser: the process lets the streams go.
    await expect.poll(() => t.app.live.streamCount, { timeout: 2000 }).toBe(0);
  });

  it('refuses a stream without a session, and answers a caller that did not ask for a stream at once (406)', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    expect((await fetch(`http://127.0.0.1:${port}/api/app/notifications/live`, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    const plain = await call('a', 'GET', '/api/app/notifications/live');
    expect(plain.statusCode).toBe(406);
  });
});
