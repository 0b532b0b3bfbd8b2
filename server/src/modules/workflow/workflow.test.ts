import { P } from '@tessera/core/contracts/permissions';
import type { TWorkflowGraph, TWorkflowNode } from '@tessera/core/contracts/workflow';
import { newWorkflowEdge as edge, newWorkflowNode as node } from '@tessera/core/workflow/defaults';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { control, masterDetail, pagesApi, URL as PAGES } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Workflow definitions (issue 13, first slice): CRUD, concurrency, publishing with the graph
// checked against the bound page, versions, copy, JSON export / import, permissions, hostile input.

let t: TestApp;
let admin: string;
let pageId: string;
let draftPageId: string;
const URL = '/api/app/workflow-definition';
const APPROVER = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const pages = pagesApi(t, () => admin);
  const design = masterDetail(
    [control('Amount', 1003), control('Manager', 4001), control('Status', 1001), control('Note', 1001)],
    [control('Item', 1001), control('LineAmount', 1003)],
  );
  pageId = (await pages.create('PurchaseOrder', design)).id;
  const published = await pages.publish(pageId);
  expect(published.statusCode, published.body).toBe(200);
  draftPageId = (await pages.create('NeverPublished')).id;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) =>
  t.call(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
  const res = await call(method, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const approval = (id: string, extra: Partial<Extract<TWorkflowNode, { type: 'approval' }>['config']> = {}) => {
  const n = node('approval', id, { x: 0, y: 100 }, `审批 ${id}`);
  n.config = { ...n.config, assignees: [{ kind: 'user', userIds: [APPROVER] }], ...extra };
  return n;
};

/** start → manager approval → exclusive: (total > 10000) director → end; default → end. */
function twoLevel(condition = 'OR(SUM({Lines.LineAmount}) > 10000, {Amount} > 10000)'): TWorkflowGraph {
  const first = approval('manager', {
    assignees: [{ kind: 'formField', controlCode: 'Manager' }, { kind: 'initiatorLeader', level: 1 }],
    fieldPermissions: { Note: 'editable', Amount: 'readonly', 'Lines.LineAmount': 'hidden' },
  });
  const director = approval('director', { mode: 'vote', votePassPercent: 60, timeout: { afterMinutes: 60, remindEveryMinutes: 30, remindTimes: 2, then: 'escalate', escalateToUserId: APPROVER } });
  const auto = node('automatic', 'mark');
  auto.config.assignments = [{ controlCode: 'Status', formula: '"approved"' }];
  return {
    nodes: [node('start', 'start'), first, node('exclusive', 'big'), director, auto, node('end', 'end')],
    edges: [
      edge('e1', 'start', 'manager'),
      edge('e2', 'manager', 'big'),
      edge('e3', 'big', 'director', { condition, priority: 1, name: '大额' }),
      edge('e4', 'big', 'mark', { isDefault: true }),
      edge('e5', 'director', 'mark'),
      edge('e6', 'mark', 'end'),
    ],
  };
}

const create = (body: object = {}) => ok('POST', URL, { name: '采购审批', pageId, ...body });

describe('workflow definitions', () => {
  it('creates a definition with a start and an end, disabled and never published', async () => {
    const d = await create({ description: '两级审批' });
    expect(d).toMatchObject({
      name: '采购审批',
      description: '两级审批',
      pageId,
      pageCode: 'PurchaseOrder',
      pageName: { 'zh-CN': 'PurchaseOrder' },
      condition: null,
      enabled: false,
      status: 'draft',
      publishedVersion: null,
      hasDraftChanges: true,
      lastModifierName: '管理员',
    });
    expect(d.graph.nodes.map((n: TWorkflowNode) => n.type)).toEqual(['start', 'end']);
    expect((await ok('GET', `${URL}/${d.id}`)).graph).toEqual(d.graph);
  });

  it('refuses bad input with 400s naming the member, before writing', async () => {
    const before = (await ok('GET', URL)).totalCount;
    const bad: [object, string][] = [
      [{ name: '' }, 'body.name'],
      [{ name: 'x'.repeat(101) }, 'body.name'],
      [{ pageId: 'not-a-uuid' }, 'body.pageId'],
      [{ pageId: '0190a1b2-c3d4-7e5f-8a9b-000000000000' }, 'pageId'],
      [{ condition: 'x'.repeat(4001) }, 'body.condition'],
      [{ graph: { nodes: [{ id: 's', type: 'teleport', name: 'x', position: { x: 0, y: 0 }, config: {} }], edges: [] } }, 'body.graph.nodes.0.type'],
      [{ graph: { nodes: [{ id: 'bad id!', type: 'start', name: 'x', position: { x: 0, y: 0 }, config: {} }], edges: [] } }, 'body.graph.nodes.0.id'],
      [{ graph: { nodes: [{ ...approval('a'), name: 'n'.repeat(101) }], edges: [] } }, 'body.graph.nodes.0.name'],
      [{ graph: { nodes: [approval('a', { votePassPercent: 101 })], edges: [] } }, 'body.graph.nodes.0.config.votePassPercent'],
      [{ graph: { nodes: [approval('a', { assignees: [{ kind: 'initiatorLeader', level: 11 }] })], edges: [] } }, 'body.graph.nodes.0.config.assignees.0.level'],
      [{ graph: { nodes: [approval('a', { assignees: [{ kind: 'user', userIds: ['nobody'] }] })], edges: [] } }, 'body.graph.nodes.0.config.assignees.0.userIds.0'],
      [{ graph: { nodes: [approval('a', { fieldPermissions: { 'bad key': 'hidden' } as never })], edges: [] } }, 'body.graph.nodes.0.config.fieldPermissions.bad key'],
      [{ graph: { nodes: [approval('a', { fieldPermissions: { Note: 'writable' } as never })], edges: [] } }, 'body.graph.nodes.0.config.fieldPermissions.Note'],
      [{ graph: { nodes: [{ ...node('start', 's'), position: { x: 1e300, y: 0 } }], edges: [] } }, 'body.graph.nodes.0.position.x'],
      [{ graph: { nodes: Array.from({ length: 301 }, (_, i) => node('end', `e${i}`)), edges: [] } }, 'body.graph.nodes'],
      [{ graph: { nodes: [], edges: [edge('x', 'a', 'b', { condition: 'x'.repeat(4001) })] } }, 'body.graph.edges.0.condition'],
      [{ name: 'a\u0000b' }, 'body.name'],
    ];
    for (const [patch, member] of bad) {
      const res = await call('POST', URL, { name: 'n', pageId, ...patch });
      expect(res.statusCode, `${member}: ${res.body.slice(0, 300)}`).toBe(400);
      const members = (res.json().error.validationErrors as { members: string[] }[]).flatMap((v) => v.members);
      expect(members, res.body.slice(0, 500)).toContain(member);
    }
    expect((await ok('GET', URL)).totalCount).toBe(before);
  });

  it('saves the draft with the concurrency stamp and answers 409 to a stale one', async () => {
    const d = await create({ name: '并发' });
    const saved = await ok('PUT', `${URL}/${d.id}`, { name: '并发 2', pageId, condition: '{Amount} > 0', graph: twoLevel(), concurrencyStamp: d.concurrencyStamp });
    expect(saved).toMatchObject({ name: '并发 2', condition: '{Amount} > 0' });
    expect(saved.concurrencyStamp).not.toBe(d.concurrencyStamp);
    expect(saved.graph).toEqual(twoLevel());
    const stale = await call('PUT', `${URL}/${d.id}`, { name: '覆盖', pageId, graph: twoLevel(), concurrencyStamp: d.concurrencyStamp });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('Conflict');
    expect((await ok('GET', `${URL}/${d.id}`)).name).toBe('并发 2');
    expect((await call('PUT', `${URL}/0190a1b2-c3d4-7e5f-8a9b-000000000001`, { name: 'x', pageId, graph: twoLevel(), concurrencyStamp: 'x' })).statusCode).toBe(404);
  });

  it('publishes versions 1 and 2, refuses a graph with problems listing them, and keeps versions', async () => {
    const d = await create({ name: '发布' });
    // The new definition's start → end publishes as it is; enabling needs a published version first.
    expect((await call('POST', `${URL}/${d.id}/enable`)).statusCode).toBe(400);
    const v1 = await ok('POST', `${URL}/${d.id}/publish`, {});
    expect(v1.version).toBe(1);
    expect(v1.definition).toMatchObject({ status: 'published', publishedVersion: 1, hasDraftChanges: false });

    const saved = await ok('PUT', `${URL}/${d.id}`, { name: '发布', pageId, graph: twoLevel(), concurrencyStamp: v1.definition.concurrencyStamp });
    expect(saved.hasDraftChanges).toBe(true);
    const v2 = await ok('POST', `${URL}/${d.id}/publish`, { concurrencyStamp: saved.concurrencyStamp });
    expect(v2.version).toBe(2);
    expect(v2.definition.hasDraftChanges).toBe(false);

    // A broken draft: no default branch, an approval without approvers, a condition naming a control the page lacks.
    const broken = twoLevel('{Nope} > 1');
    broken.edges[3] = { ...broken.edges[3]!, isDefault: false };
    (broken.nodes[3] as Extract<TWorkflowNode, { type: 'approval' }>).config.assignees = [];
    (broken.nodes[1] as Extract<TWorkflowNode, { type: 'approval' }>).config.fieldPermissions = { Ghost: 'hidden' };
    const bad = await ok('PUT', `${URL}/${d.id}`, { name: '发布', pageId, graph: broken, concurrencyStamp: v2.definition.concurrencyStamp });
    const refused = await call('POST', `${URL}/${d.id}/publish`, {}, admin);
    expect(refused.statusCode).toBe(400);
    const error = refused.json().error;
    expect(error.code).toBe('Workflow.GraphProblems');
    const codes = error.details.problems.map((p: { code: string }) => p.code);
    expect(codes).toEqual(expect.arrayContaining(['exclusiveNoDefault', 'conditionMissing', 'conditionInvalid', 'approvalNoAssignees', 'unknownControl']));
    expect(error.validationErrors.length).toBe(error.details.problems.length);
    expect(error.validationErrors.map((v: { members: string[] }) => v.members[0])).toEqual(expect.arrayContaining(['graph.nodes.3', 'graph.edges.2', 'graph.nodes.1']));
    expect(error.message).toMatch(/问题/);
    // English callers read English.
    const english = await t.call(admin, { method: 'POST', url: `${URL}/${d.id}/publish`, payload: {}, headers: { 'accept-language': 'en-US' } });
    expect(english.json().error.details.problems.find((p: { code: string }) => p.code === 'unknownControl').message).toBe('The page has no control "Ghost"');
    // A stale stamp on publish is a 409.
    expect((await call('POST', `${URL}/${d.id}/publish`, { concurrencyStamp: v2.definition.concurrencyStamp })).statusCode).toBe(409);

    const versions = await ok('GET', `${URL}/${d.id}/versions`);
    expect(versions.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions.items[0]).toMatchObject({ publisherName: '管理员', nodeCount: 6 });
    const version2 = await ok('GET', `${URL}/${d.id}/versions/2`);
    expect(version2).toMatchObject({ version: 2, definitionId: d.id, pageId, condition: null });
    expect(version2.graph).toEqual(twoLevel());
    expect((await call('GET', `${URL}/${d.id}/versions/3`)).statusCode).toBe(404);
    expect((await call('GET', `${URL}/${d.id}/versions/abc`)).statusCode).toBe(400);
    expect((await ok('GET', `${URL}/${d.id}`)).graph).toEqual(bad.graph);

    const enabled = await ok('POST', `${URL}/${d.id}/enable`);
    expect(enabled.enabled).toBe(true);
    expect((await ok('GET', `${URL}?Enabled=true`)).items.map((i: { id: string }) => i.id)).toEqual([d.id]);
    expect((await ok('POST', `${URL}/${d.id}/disable`)).enabled).toBe(false);
  });

  it('numbers concurrent publishes of one definition 1..n without a gap or a duplicate', async () => {
    const d = await create({ name: '并发发布', graph: twoLevel() });
    const results = await Promise.all(Array.from({ length: 5 }, () => call('POST', `${URL}/${d.id}/publish`, {})));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(results.map((r) => r.json().version).sort()).toEqual([1, 2, 3, 4, 5]);
    expect((await ok('GET', `${URL}/${d.id}`)).publishedVersion).toBe(5);
  });

  it('refuses to publish while the bound page is not published', async () => {
    const d = await create({ name: '未发布页面', pageId: draftPageId });
    const res = await call('POST', `${URL}/${d.id}/publish`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error.validationErrors[0].members).toEqual(['pageId']);
  });

  it('checks a graph against the page without saving', async () => {
    const good = await ok('POST', `${URL}/check`, { pageId, graph: twoLevel() });
    expect(good).toEqual({ ok: true, problems: [], pagePublished: true });
    const unpublished = await ok('POST', `${URL}/check`, { pageId: draftPageId, graph: twoLevel() });
    expect(unpublished).toEqual({ ok: false, problems: [], pagePublished: false });
    const bad = await ok('POST', `${URL}/check`, { pageId, condition: '{Amount} >', graph: twoLevel('SUM({Lines.Nope}) > 1') });
    expect(bad.ok).toBe(false);
    expect(bad.problems.map((p: { code: string }) => p.code)).toEqual(['conditionInvalid', 'definitionConditionInvalid']);
    expect(bad.problems[0]).toMatchObject({ edgeId: 'e3', nodeId: 'big' });
    expect(bad.problems[0].message).toMatch(/分支条件有误/);
  });

  it('offers the published pages to bind to and their designs, without the page designer\'s permission', async () => {
    const pages = await ok('GET', `${URL}/bindable-pages?Filter=purchase`);
    expect(pages).toEqual({ totalCount: 1, items: [{ id: pageId, code: 'PurchaseOrder', name: { 'zh-CN': 'PurchaseOrder', 'en-US': 'PurchaseOrder' }, publishedVersion: 1 }] });
    expect((await ok('GET', `${URL}/bindable-pages`)).items.map((p: { id: string }) => p.id)).not.toContain(draftPageId);
    const design = await ok('GET', `${URL}/page-design/${pageId}`);
    expect(design.page).toMatchObject({ id: pageId, publishedVersion: 1 });
    expect(design.definition.viewControls[0].dataControls.map((c: { code: string }) => c.code)).toEqual(['Amount', 'Manager', 'Status', 'Note']);
    expect((await call('GET', `${URL}/page-design/${draftPageId}`)).statusCode).toBe(404);
  });

  it('copies a definition as a new disabled draft', async () => {
    const source = await create({ name: '源流程', graph: twoLevel(), condition: '{Amount} > 1' });
    await ok('POST', `${URL}/${source.id}/publish`, {});
    const copy = await ok('POST', `${URL}/${source.id}/copy`, {});
    expect(copy).toMatchObject({ name: '源流程 - 副本', condition: '{Amount} > 1', pageId, enabled: false, status: 'draft', publishedVersion: null });
    expect(copy.id).not.toBe(source.id);
    expect(copy.graph).toEqual(source.graph);
    expect((await ok('POST', `${URL}/${source.id}/copy`, { name: '另一个' })).name).toBe('另一个');
  });

  it('lists with search, filters, paging and sorting', async () => {
    const all = await ok('GET', `${URL}?MaxResultCount=1000`);
    expect(all.totalCount).toBeGreaterThanOrEqual(5);
    const search = await ok('GET', `${URL}?Filter=${encodeURIComponent('源流程')}&Sorting=name`);
    expect(search.items.map((i: { name: string }) => i.name)).toEqual(['源流程', '源流程 - 副本']);
    const published = await ok('GET', `${URL}?Status=published`);
    expect(published.items.every((i: { status: string }) => i.status === 'published')).toBe(true);
    const drafts = await ok('GET', `${URL}?Status=draft&PageId=${draftPageId}`);
    expect(drafts.items.map((i: { name: string }) => i.name)).toEqual(['未发布页面']);
    const sorted = await ok('GET', `${URL}?Sorting=name%20asc&MaxResultCount=2&SkipCount=1`);
    expect(sorted.items).toHaveLength(2);
    const names = (await ok('GET', `${URL}?Sorting=name%20asc`)).items.map((i: { name: string }) => i.name);
    expect(sorted.items.map((i: { name: string }) => i.name)).toEqual(names.slice(1, 3));
    expect((await call('GET', `${URL}?Status=bogus`)).statusCode).toBe(400);
    expect((await call('GET', `${URL}?Sorting=${encodeURIComponent('name; drop table users')}`)).statusCode).toBe(200);
  });

  it('exports JSON and imports it as a new draft, by page id or, on another system, by page code', async () => {
    const source = await create({ name: '导出', graph: twoLevel(), condition: '{Amount} > 5', description: '说明' });
    const res = await call('GET', `${URL}/${source.id}/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''");
    const doc = res.json();
    expect(doc).toMatchObject({ format: 'tessera.workflow-definition', formatVersion: 1, definition: { name: '导出', page: { id: pageId, code: 'PurchaseOrder' } } });

    const imported = await ok('POST', `${URL}/import`, { document: doc });
    expect(imported).toMatchObject({ name: '导出', description: '说明', condition: '{Amount} > 5', pageId, enabled: false, status: 'draft', problems: [] });
    expect(imported.graph).toEqual(source.graph);
    // Round trip: exporting the import gives the same definition.
    const again = (await call('GET', `${URL}/${imported.id}/export`)).json();
    expect(again.definition).toEqual(doc.definition);

    // Another system: the page id is unknown, the code finds the page.
    const elsewhere = { ...doc, definition: { ...doc.definition, page: { id: '0190a1b2-c3d4-7e5f-8a9b-00000000abcd', code: 'purchaseorder' } } };
    expect((await ok('POST', `${URL}/import`, { document: elsewhere, name: '别处' })).pageId).toBe(pageId);
    const unknown = { ...doc, definition: { ...doc.definition, page: { id: null, code: 'NoSuchPage' } } };
    const refused = await call('POST', `${URL}/import`, { document: unknown });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.validationErrors[0].members).toEqual(['document.definition.page']);
    expect((await ok('POST', `${URL}/import`, { document: unknown, pageId: draftPageId })).pageId).toBe(draftPageId);
    // Import reports (does not refuse) what publishing would.
    const broken = { ...doc, definition: { ...doc.definition, graph: { nodes: [node('start', 's')], edges: [] } } };
    const withProblems = await ok('POST', `${URL}/import`, { document: broken });
    expect(withProblems.problems.map((p: { code: string }) => p.code)).toEqual(['noEnd']);
    // Not an export file.
    expect((await call('POST', `${URL}/import`, { document: { ...doc, format: 'something-else' } })).statusCode).toBe(400);
    expect((await call('POST', `${URL}/import`, { document: { ...doc, formatVersion: 2 } })).statusCode).toBe(400);
    // The published version: 400 before any publish.
    expect((await call('GET', `${URL}/${source.id}/export?source=published`)).statusCode).toBe(400);
  });

  it('deletes softly, and a bound page cannot be deleted while a definition uses it', async () => {
    const pages = pagesApi(t, () => admin);
    const page = await pages.create('Leave');
    const d = await create({ name: '请假', pageId: page.id });
    const inUse = await call('DELETE', `${PAGES}/${page.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error.details.workflows).toEqual([{ id: d.id, title: { 'zh-CN': '请假', 'en-US': '请假' } }]);
    expect(inUse.json().error.message).toContain('请假');

    const res = await call('DELETE', `${URL}/${d.id}`);
    expect(res.statusCode).toBe(204);
    expect((await call('GET', `${URL}/${d.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `${URL}/${d.id}`)).statusCode).toBe(404);
    const row = await t.database.db.selectFrom('workflow_definitions').select(['is_deleted', 'deleter_id']).where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row.is_deleted).toBe(true);
    // The page is free again; its soft-deleted definition goes with it.
    expect((await call('DELETE', `${PAGES}/${page.id}`)).statusCode).toBe(204);
    expect(await t.database.db.selectFrom('workflow_definitions').select('id').where('id', '=', d.id).executeTakeFirst()).toBeUndefined();
  });

  it('records audit entries for writes', async () => {
    const d = await create({ name: '审计' });
    await ok('POST', `${URL}/${d.id}/publish`, {});
    const actions = await t.database.db
      .selectFrom('audit_logs')
      .select('action')
      .where('entity_type', '=', 'WorkflowDefinition')
      .where('entity_id', '=', d.id)
      .orderBy('time')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['Created', 'Published']);
  });
});

describe('workflow definition permissions', () => {
  it('refuses every route to a user without Tessera.Workflows, and lets a user with it in', async () => {
    const db = t.database.db;
    await createUser(db, 'clerk');
    const role = await createRole(db, 'designer');
    await grant(db, 'R', role, [P.Workflows]);
    await createUser(db, 'designer', { roles: [role] });
    const clerk = await t.login('clerk', FIXTURE_PASSWORD);
    const designer = await t.login('designer', FIXTURE_PASSWORD);
    const d = await create({ name: '权限' });
    const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, object?][] = [
      ['GET', URL],
      ['GET', `${URL}/${d.id}`],
      ['POST', URL, { name: 'x', pageId }],
      ['PUT', `${URL}/${d.id}`, { name: 'x', pageId, graph: d.graph, concurrencyStamp: d.concurrencyStamp }],
      ['POST', `${URL}/${d.id}/copy`, {}],
      ['DELETE', `${URL}/${d.id}`],
      ['POST', `${URL}/${d.id}/enable`],
      ['POST', `${URL}/${d.id}/disable`],
      ['POST', `${URL}/${d.id}/publish`, {}],
      ['POST', `${URL}/check`, { pageId, graph: d.graph }],
      ['GET', `${URL}/${d.id}/versions`],
      ['GET', `${URL}/${d.id}/versions/1`],
      ['GET', `${URL}/${d.id}/export`],
      ['POST', `${URL}/import`, {}],
      ['GET', `${URL}/${d.id}/bpmn`],
      ['GET', `${URL}/bindable-pages`],
      ['GET', `${URL}/page-design/${pageId}`],
      ['POST', `${URL}/import-bpmn`, { xml: '<x/>' }],
    ];
    for (const [method, url, payload] of routes) {
      expect((await call(method, url, payload, clerk)).statusCode, `${method} ${url}`).toBe(403);
      expect((await t.call(null, { method, url, ...(payload ? { payload } : {}) })).statusCode, `${method} ${url} anonymous`).toBe(401);
    }
    expect((await call('GET', `${URL}/${d.id}`, undefined, designer)).statusCode).toBe(200);
    expect((await call('POST', `${URL}/${d.id}/copy`, {}, designer)).statusCode).toBe(200);
    // The flow designer reads the page it binds to without the page designer's permission.
    expect((await call('GET', `${URL}/page-design/${pageId}`, undefined, designer)).statusCode).toBe(200);
    expect((await call('GET', `${PAGES}/${pageId}`, undefined, designer)).statusCode).toBe(403);
  });
});
