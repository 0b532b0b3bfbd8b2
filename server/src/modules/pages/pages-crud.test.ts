import { sql } from 'kysely';
import type { TPageDefinition } from '@tessera/core/page-definition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { bizTableName } from './biz-schema.ts';
import { bizSnapshot, columnsOf, control, insertRow, masterDetail, pagesApi, title, URL, view } from '../../../test/page-helpers.ts';
import { getPublishedPageDefinition, registerPageUsage } from './pages.service.ts';
import { ControlTypeId } from '@tessera/core/controls/registry';

let t: TestApp;
let admin: string;
let api: ReturnType<typeof pagesApi>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  api = pagesApi(t, () => admin);
});
afterAll(() => t.close());

const db = () => t.database.db;
const simple = (...codes: string[]): TPageDefinition => ({ viewControls: [view('Main', codes.map((c) => control(c, 1001)))], pageButtons: [], dataLinkages: [] });

/** Everything DDL could touch: the catalog's relation count and the `biz` schema's columns. */
async function schemaFingerprint() {
  const { rows } = await sql<{ n: string }>`select count(*) as n from pg_class`.execute(db());
  const pages = await db().selectFrom('page_definitions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { relations: Number(rows[0]!.n), biz: await bizSnapshot(db()), pages: Number(pages.n) };
}

describe('list, create, copy, rename', () => {
  it('searches code, name and description, pages and sorts', async () => {
    await api.ok('POST', URL, { code: 'ListAlpha', name: title('采购订单', 'Purchase order'), description: 'for suppliers' });
    await api.ok('POST', URL, { code: 'ListBeta', name: title('销售订单', 'Sales order') });
    await api.ok('POST', URL, { code: 'ListGamma', name: title('库存', 'Stock'), description: '50% off_' });

    const byCode = await api.ok('GET', `${URL}?Filter=listbeta`);
    expect(byCode.items.map((i: { code: string }) => i.code)).toEqual(['ListBeta']);
    const byName = await api.ok('GET', `${URL}?Filter=${encodeURIComponent('采购')}`);
    expect(byName.items.map((i: { code: string }) => i.code)).toEqual(['ListAlpha']);
    const byDescription = await api.ok('GET', `${URL}?Filter=suppliers`);
    expect(byDescription.totalCount).toBe(1);
    // LIKE wildcards in the search text are literal.
    expect((await api.ok('GET', `${URL}?Filter=${encodeURIComponent('%')}`)).items.map((i: { code: string }) => i.code)).toEqual(['ListGamma']);

    const page1 = await api.ok('GET', `${URL}?Filter=List&Sorting=code&MaxResultCount=2&SkipCount=0`);
    const page2 = await api.ok('GET', `${URL}?Filter=List&Sorting=code&MaxResultCount=2&SkipCount=2`);
    expect(page1.totalCount).toBe(3);
    expect(page1.items.map((i: { code: string }) => i.code)).toEqual(['ListAlpha', 'ListBeta']);
    expect(page2.items.map((i: { code: string }) => i.code)).toEqual(['ListGamma']);
    expect(page1.items[0]).not.toHaveProperty('definition');
    const desc = await api.ok('GET', `${URL}?Filter=List&Sorting=${encodeURIComponent('code desc')}`);
    expect(desc.items[0].code).toBe('ListGamma');
    expect((await api.call('GET', `${URL}?MaxResultCount=100000`)).statusCode).toBe(400);
  });

  it('refuses a taken code (case-insensitive) and bad input before writing', async () => {
    const before = await schemaFingerprint();
    const taken = await api.call('POST', URL, { code: 'LISTALPHA', name: title('x') });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.validationErrors[0].members).toEqual(['code']);
    expect((await api.call('POST', URL, { code: 'NoName' })).statusCode).toBe(400);
    expect(await schemaFingerprint()).toEqual(before);
  });

  it('copies a page with new ids (new tables later), never published; the source is untouched', async () => {
    const source = await api.create('CopySource', masterDetail([control('A', 1001), control('Sup', 1010)], [control('Q', 1002)]));
    expect((await api.publish(source.id)).statusCode).toBe(200);
    const copy = await api.ok('POST', `${URL}/${source.id}/copy`, { code: 'CopyTarget' });
    expect(copy).toMatchObject({ code: 'CopyTarget', status: 'draft', publishedVersion: null, name: source.name });
    const srcMaster = source.definition.viewControls[0];
    const cpMaster = copy.definition.viewControls[0];
    expect(cpMaster.id).not.toBe(srcMaster.id);
    expect(cpMaster.dataControls.map((c: { code: string }) => c.code)).toEqual(['A', 'Sup']);
    expect(cpMaster.dataControls[0].id).not.toBe(srcMaster.dataControls[0].id);
    // The child's parent reference follows the new master id.
    expect(cpMaster.viewControls[0].parentViewControlId).toBe(cpMaster.id);
    expect(await columnsOf(db(), cpMaster.id)).toEqual({});
    // Publishing the copy creates its own tables beside the source's.
    expect((await api.publish(copy.id)).statusCode).toBe(200);
    expect(Object.keys(await columnsOf(db(), cpMaster.id))).toContain('Sup');
    expect(Object.keys(await columnsOf(db(), srcMaster.id))).toContain('Sup');
    expect((await api.call('POST', `${URL}/${source.id}/copy`, { code: 'copytarget' })).statusCode).toBe(400);
  });

  it('renames: the name always, the code only before the first publish', async () => {
    const page = await api.create('RenameMe', simple('A'));
    const renamed = await api.ok('PUT', `${URL}/${page.id}/rename`, { code: 'Renamed', name: title('新名字', 'New name'), description: 'd' });
    expect(renamed).toMatchObject({ code: 'Renamed', name: { 'zh-CN': '新名字', 'en-US': 'New name' }, description: 'd' });
    expect((await api.call('PUT', `${URL}/${page.id}/rename`, { name: title('x'), concurrencyStamp: 'stale' })).statusCode).toBe(409);
    expect((await api.publish(page.id)).statusCode).toBe(200);
    const fixed = await api.call('PUT', `${URL}/${page.id}/rename`, { code: 'Other', name: title('x') });
    expect(fixed.statusCode).toBe(400);
    expect(fixed.json().error.validationErrors[0].members).toEqual(['code']);
    const nameOnly = await api.ok('PUT', `${URL}/${page.id}/rename`, { name: title('再改', 'Again') });
    expect(nameOnly).toMatchObject({ code: 'Renamed', name: { 'en-US': 'Again' }, status: 'published' });
  });

  it('documents every page-definition route in the OpenAPI document', async () => {
    const res = await t.call(null, { method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const route of [
      '/api/app/control-designer',
      '/api/app/page-definition',
      '/api/app/page-definition/{id}',
      '/api/app/page-definition/{id}/copy',
      '/api/app/page-definition/{id}/rename',
      '/api/app/page-definition/{id}/export',
      '/api/app/page-definition/import',
      '/api/app/page-definition/{id}/versions',
      '/api/app/page-definition/{id}/versions/{version}',
      '/api/app/page-definition/{id}/rollback/{version}',
      '/api/app/page-definition/{id}/check',
      '/api/app/page-definition/{id}/publish-plan',
      '/api/app/page-definition/{id}/publish',
    ]) {
      expect(paths, route).toContain(route);
    }
  });

  it('serves the designer palette', async () => {
    const palette = await api.ok('GET', '/api/app/control-designer');
    const lookup = palette.controlTypes.find((c: { code: number }) => c.code === ControlTypeId.Lookup);
    expect(lookup).toMatchObject({ tableFieldType: 6, sqlType: 'jsonb' });
    expect(lookup.properties.map((p: { key: string }) => p.key)).toEqual(expect.arrayContaining(['code', 'extraProperties.mapFields', 'extraProperties.joinConditions']));
    expect(palette.codePattern).toBe('^[A-Za-z][A-Za-z0-9_]{0,39}$');
    expect(palette.reservedCodes).toEqual(expect.arrayContaining(['Id', 'ParentViewDataId', 'ctid']));
    expect(palette.viewTypes.map((v: { code: number }) => v.code)).toEqual([1, 2, 3]);
  });
});

describe('optimistic concurrency on drafts', () => {
  it('two designers saving the same draft: the second gets 409, nothing is overwritten', async () => {
    const page = await api.create('Concurrent', simple('A'));
    const first = simple('FromFirst');
    const second = simple('FromSecond');
    const saved = await api.ok('PUT', `${URL}/${page.id}`, { definition: first, concurrencyStamp: page.concurrencyStamp });
    expect(saved.concurrencyStamp).not.toBe(page.concurrencyStamp);
    const stale = await api.call('PUT', `${URL}/${page.id}`, { definition: second, concurrencyStamp: page.concurrencyStamp });
    expect(stale.statusCode).toBe(409);
    const now = await api.get(page.id);
    expect(now.definition.viewControls[0].dataControls[0].code).toBe('FromFirst');
    // With the fresh stamp the second designer can save.
    await api.ok('PUT', `${URL}/${page.id}`, { definition: second, concurrencyStamp: saved.concurrencyStamp });
  });
});

describe('delete', () => {
  it('is refused while a business menu or a workflow uses the page, naming them', async () => {
    const page = await api.create('InUse', simple('A'));
    expect((await api.publish(page.id)).statusCode).toBe(200);
    const menu = await api.ok('POST', '/api/app/business-menu', { title: title('采购订单菜单', 'Order menu'), pageDefinitionId: page.id });
    const refused = await t.call(admin, { method: 'DELETE', url: `${URL}/${page.id}`, headers: { 'accept-language': 'en-US' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('Pages.InUse');
    expect(refused.json().error.message).toContain('business menu "Order menu"');
    expect(refused.json().error.details.menus).toEqual([{ id: menu.id, title: { 'zh-CN': '采购订单菜单', 'en-US': 'Order menu' } }]);
    const zh = await t.call(admin, { method: 'DELETE', url: `${URL}/${page.id}`, headers: { 'accept-language': 'zh-CN' } });
    expect(zh.json().error.message).toContain('业务菜单“采购订单菜单”');

    // A workflow module registers its lookup; its workflows block the delete as well.
    registerPageUsage(async (_db, pageId) => (pageId === page.id ? [{ kind: 'workflow', id: 'wf-1', title: title('审批流', 'Approval flow') }] : []));
    const both = await t.call(admin, { method: 'DELETE', url: `${URL}/${page.id}`, headers: { 'accept-language': 'en-US' } });
    expect(both.json().error.message).toContain('workflow "Approval flow"');
    expect(both.json().error.details.workflows).toEqual([{ id: 'wf-1', title: { 'zh-CN': '审批流', 'en-US': 'Approval flow' } }]);
    expect((await api.get(page.id)).id).toBe(page.id);
  });

  it('deletes an unused page: empty tables dropped, tables with data kept', async () => {
    const page = await api.create('DeleteMe', masterDetail([control('A', 1001)], [control('B', 1001)]));
    const other = await api.create('DeleteMeToo', simple('X'));
    expect((await api.publish(page.id)).statusCode).toBe(200);
    expect((await api.publish(other.id)).statusCode).toBe(200);
    const master = page.definition.viewControls[0].id;
    const child = page.definition.viewControls[0].viewControls[0].id;
    await insertRow(db(), other.definition.viewControls[0].id, { X: 'keep me' });

    expect((await api.call('DELETE', `${URL}/${page.id}`)).statusCode).toBe(204);
    expect((await api.call('GET', `${URL}/${page.id}`)).statusCode).toBe(404);
    expect(await columnsOf(db(), master)).toEqual({});
    expect(await columnsOf(db(), child)).toEqual({});
    expect((await api.call('GET', `${URL}/${page.id}/versions`)).statusCode).toBe(404);

    expect((await api.call('DELETE', `${URL}/${other.id}`)).statusCode).toBe(204);
    expect((await columnsOf(db(), other.definition.viewControls[0].id)).X).toBe('text');
  });
});

describe('identifier injection in every code field: refused by validation, no DDL runs', () => {
  const attacks = [
    'x"; drop table users; --',
    "a'); drop schema biz cascade; --",
    'Robert") ; select pg_sleep(5) --',
    '1abc',
    'a b',
    'a-b',
    '_lead',
    'ünicode',
    '订单',
    'A'.repeat(41),
    '',
  ];
  const reserved = ['Id', 'parentviewdataid', 'CREATIONTIME', 'ConcurrencyStamp', 'ctid', 'xmin', 'oid'];

  /** Mutations placing `bad` into one code field of an otherwise valid design. */
  const placements: [string, (d: TPageDefinition, bad: string) => void][] = [
    ['view code', (d, bad) => (d.viewControls[0]!.code = bad)],
    ['child view code', (d, bad) => (d.viewControls[0]!.viewControls[0]!.code = bad)],
    ['control code', (d, bad) => (d.viewControls[0]!.dataControls[0]!.code = bad)],
    ['child control code', (d, bad) => (d.viewControls[0]!.viewControls[0]!.dataControls[0]!.code = bad)],
    ['associateForeignKeyCode', (d, bad) => (d.viewControls[0]!.viewControls[0]!.associateForeignKeyCode = bad)],
    ['mapFields.sourceCode', (d, bad) => (d.viewControls[0]!.dataControls[1]!.extraProperties = { mapFields: [{ sourceCode: bad, targetCode: 'A' }] })],
    ['mapFields.targetCode', (d, bad) => (d.viewControls[0]!.dataControls[1]!.extraProperties = { mapFields: [{ sourceCode: 'A', targetCode: bad }] })],
    ['parentCode', (d, bad) => (d.viewControls[0]!.dataControls[1]!.extraProperties = { parentCode: bad })],
    ['page button code', (d, bad) => (d.pageButtons = [{ id: 'b1', code: bad, title: 'B', buttonType: 1 }])],
    ['view button code', (d, bad) => (d.viewControls[0]!.viewButtons = [{ id: 'b2', code: bad, title: 'B', buttonType: 1 }])],
    ['view id', (d, bad) => (d.viewControls[0]!.id = bad)],
    ['parentViewControlId', (d, bad) => (d.viewControls[0]!.viewControls[0]!.parentViewControlId = bad)],
    ['control id', (d, bad) => (d.viewControls[0]!.dataControls[0]!.id = bad)],
  ];
  const base = () => masterDetail([control('A', 1001), control('Sup', 1010)], [control('B', 1001)]);

  it('create, save, import: every placement of every attack answers 400 and changes nothing', async () => {
    const target = await api.create('InjectTarget', base());
    expect((await api.publish(target.id)).statusCode).toBe(200);
    const draftBefore = (await api.get(target.id)).definition;
    const before = await schemaFingerprint();
    let tried = 0;
    for (const [where, place] of placements) {
      for (const bad of attacks) {
        // Button codes may be absent; the empty string is not an attack there.
        // Optional references (button codes, the child key, parentCode, the parent view) may be
        // empty: absent, not an attack.
        if (bad === '' && /button|associate|parentCode|parentView/.test(where)) continue;
        // Control ids are not SQL (views' UUIDs name the tables): only characters outside
        // [A-Za-z0-9_-] are refused there.
        if (where === 'control id' && /^[A-Za-z0-9_-]{1,64}$/.test(bad)) continue;
        const d = base();
        place(d, bad);
        const created = await api.call('POST', URL, { code: 'Injected', name: title('x'), definition: d });
        expect(created.statusCode, `${where} ${JSON.stringify(bad)}: ${created.body}`).toBe(400);
        const stamp = (await api.get(target.id)).concurrencyStamp;
        const saved = await api.call('PUT', `${URL}/${target.id}`, { definition: d, concurrencyStamp: stamp });
        expect(saved.statusCode, `${where} ${JSON.stringify(bad)}`).toBe(400);
        const imported = await api.call('POST', `${URL}/import`, {
          document: { format: 'tessera.page-definition', formatVersion: 1, page: { code: 'Imported', name: title('x') }, definition: d },
        });
        expect(imported.statusCode, `${where} ${JSON.stringify(bad)}`).toBe(400);
        tried += 3;
      }
    }
    for (const bad of reserved) {
      for (const [where, place] of placements.filter(([w]) => w === 'control code' || w === 'child control code')) {
        const d = base();
        place(d, bad);
        const res = await api.call('POST', URL, { code: 'Reserved', name: title('x'), definition: d });
        expect(res.statusCode, `${where} ${bad}`).toBe(400);
        expect(res.json().error.validationErrors.some((v: { message: string }) => /保留/.test(v.message))).toBe(true);
        tried++;
      }
    }
    for (const bad of attacks) {
      const page = await api.call('POST', URL, { code: bad, name: title('x') });
      expect(page.statusCode, `page code ${JSON.stringify(bad)}`).toBe(400);
      expect((await api.call('POST', `${URL}/${target.id}/copy`, { code: bad })).statusCode).toBe(400);
      expect((await api.call('PUT', `${URL}/${target.id}/rename`, { code: bad, name: title('x') })).statusCode).toBe(400);
      const imported = await api.call('POST', `${URL}/import`, {
        document: { format: 'tessera.page-definition', formatVersion: 1, page: { code: bad, name: title('x') }, definition: base() },
      });
      expect(imported.statusCode).toBe(400);
      expect((await api.call('POST', `${URL}/import`, { code: bad, document: { format: 'tessera.page-definition', formatVersion: 1, page: { code: 'Ok', name: title('x') }, definition: base() } })).statusCode).toBe(400);
      tried += 5;
    }
    expect(tried).toBeGreaterThan(400);
    expect(await schemaFingerprint()).toEqual(before);
    expect((await api.get(target.id)).definition).toEqual(draftBefore);
    expect((await api.publish(target.id)).statusCode).toBe(200);
    expect(await schemaFingerprint()).toEqual(before);
  });

  it('codes unique per scope (case-insensitive) are a design problem: publish is refused before any DDL', async () => {
    const d = masterDetail([control('Amount', 1003), control('amount', 1001)], [control('Amount', 1003)]);
    const page = await api.create('DupCodes', d);
    const before = await schemaFingerprint();
    const res = await api.publish(page.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('Pages.DesignProblems');
    const problems = res.json().error.details.problems;
    // Same code in the child view is a different scope: only the master's pair is a problem.
    expect(problems.filter((p: { kind: string }) => p.kind === 'duplicateCode')).toHaveLength(1);
    expect(await schemaFingerprint()).toEqual(before);
    expect(await columnsOf(db(), d.viewControls[0]!.id)).toEqual({});
  });
});

describe('versions', () => {
  it('lists numbered versions with who/when, schema and design diff summaries; one version in detail', async () => {
    const d1 = simple('A', 'B');
    const page = await api.create('Versioned', d1);
    expect((await api.publish(page.id)).statusCode).toBe(200);
    const d2 = structuredClone(d1);
    d2.viewControls[0]!.dataControls[0]!.code = 'A2';
    d2.viewControls[0]!.dataControls.push(control('C', 1002));
    d2.viewControls[0]!.dataControls[1]!.title = 'B title';
    await api.save(page.id, d2);
    expect((await api.publish(page.id)).statusCode).toBe(200);

    const list = await api.ok('GET', `${URL}/${page.id}/versions`);
    expect(list.totalCount).toBe(2);
    expect(list.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(list.items[0]).toMatchObject({ publishedByName: 'admin', rolledBackFrom: null });
    expect(Date.parse(list.items[0].publishedTime)).toBeGreaterThan(Date.now() - 60_000);
    expect(list.items[0].designChanges).toMatchObject({
      controlsAdded: ['Main.C'],
      controlsRemoved: [],
      controlsRenamed: [{ from: 'Main.A', to: 'Main.A2' }],
      controlsChanged: ['Main.B'],
    });
    expect(list.items[1].designChanges).toMatchObject({ viewsAdded: ['Main'], controlsAdded: ['Main.A', 'Main.B'] });
    expect(list.items[0].changeSummary).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'renameColumn', from: 'A', to: 'A2' }),
        expect.objectContaining({ kind: 'addColumn', column: 'C', sqlType: 'bigint' }),
      ]),
    );
    const v1 = await api.ok('GET', `${URL}/${page.id}/versions/1`);
    expect(v1.definition.viewControls[0].dataControls.map((c: { code: string }) => c.code)).toEqual(['A', 'B']);
    expect((await api.call('GET', `${URL}/${page.id}/versions/9`)).statusCode).toBe(404);

    // Rollback to version 1: a new version 3, the draft replaced, the column renamed back.
    const rolled = await api.ok('POST', `${URL}/${page.id}/rollback/1`, {});
    expect(rolled.version).toMatchObject({ version: 3, rolledBackFrom: 1 });
    expect(rolled.version.designChanges).toMatchObject({ controlsRemoved: ['Main.C'], controlsRenamed: [{ from: 'Main.A2', to: 'Main.A' }] });
    expect(rolled.page.definition.viewControls[0].dataControls.map((c: { code: string }) => c.code)).toEqual(['A', 'B']);
    expect(Object.keys(await columnsOf(db(), d1.viewControls[0]!.id))).toEqual(expect.arrayContaining(['A', 'B']));
    expect((await getPublishedPageDefinition(db(), 'versioned'))?.version.version).toBe(3);
  });
});

describe('export and import from another instance', () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp();
  });
  afterAll(() => other.close());

  it('moves a published design to another instance: fresh ids, same design, publishes there', async () => {
    const d = masterDetail([control('OrderNo', 2001, { docNoOccasion: 1 }), control('Amount', 1003), control('Total', 1003)], [control('Qty', 1002), control('Price', 1003), control('Line', 1003)]);
    const lines = d.viewControls[0]!.viewControls[0]!;
    d.dataLinkages = [
      {
        id: 'lk1',
        dataLinkType: 1,
        triggerConditions: [{ dataControlId: lines.dataControls[0]!.id, dataControlCode: 'Qty', triggerFormula: 'true' }],
        assignments: [{ dataControlId: lines.dataControls[2]!.id, dataControlCode: 'Line', assignmentFormula: '{Qty} * {Price}' }],
        pageEvents: [],
        pageStateControls: [],
      },
      {
        id: 'lk2',
        dataLinkType: 1,
        triggerConditions: [{ dataControlId: lines.dataControls[2]!.id, dataControlCode: 'Line' }],
        assignments: [{ dataControlId: d.viewControls[0]!.dataControls[2]!.id, dataControlCode: 'Total', assignmentFormula: 'SUM({Lines.Line})' }],
        pageEvents: [],
        pageStateControls: [],
      },
    ];
    const page = await api.create('Exported', d);
    const first = await api.publish(page.id);
    expect(first.statusCode, first.body).toBe(200);
    const exportRes = await api.call('GET', `${URL}/${page.id}/export?source=published`);
    expect(exportRes.statusCode).toBe(200);
    expect(exportRes.headers['content-disposition']).toContain('Exported.page.json');
    const doc = exportRes.json();
    expect(doc).toMatchObject({ format: 'tessera.page-definition', formatVersion: 1, page: { code: 'Exported' } });

    // The file travels as text to the other instance.
    const file = JSON.parse(JSON.stringify(doc));
    const otherAdmin = await other.login();
    const otherApi = pagesApi(other, () => otherAdmin);
    const imported = await otherApi.ok('POST', `${URL}/import`, { document: file });
    expect(imported).toMatchObject({ code: 'Exported', status: 'draft', publishedVersion: null, name: page.name });
    const master = imported.definition.viewControls[0];
    expect(master.id).not.toBe(d.viewControls[0]!.id);
    expect(master.dataControls.map((c: { code: string }) => c.code)).toEqual(['OrderNo', 'Amount', 'Total']);
    expect(master.viewControls[0].parentViewControlId).toBe(master.id);
    const linkage = imported.definition.dataLinkages[0];
    expect(linkage.assignments[0].dataControlId).toBe(master.viewControls[0].dataControls[2].id);
    expect(imported.definition.dataLinkages[1].assignments[0].dataControlId).toBe(master.dataControls[2].id);
    expect(imported.definition.dataLinkages[1].triggerConditions[0].dataControlId).toBe(master.viewControls[0].dataControls[2].id);
    expect(linkage.triggerConditions[0].dataControlId).toBe(master.viewControls[0].dataControls[0].id);

    const published = await otherApi.publish(imported.id);
    expect(published.statusCode, published.body).toBe(200);
    const { rows } = await sql<{ n: string }>`select count(*) as n from information_schema.tables where table_schema = 'biz' and table_name = ${bizTableName(master.id)}`.execute(other.database.db);
    expect(Number(rows[0]!.n)).toBe(1);

    // Again on the same instance: the code is taken unless another is given.
    expect((await otherApi.call('POST', `${URL}/import`, { document: file })).statusCode).toBe(400);
    const renamed = await otherApi.ok('POST', `${URL}/import`, { document: file, code: 'ExportedCopy', name: title('副本', 'Copy') });
    expect(renamed.code).toBe('ExportedCopy');
    // Not an export file.
    expect((await otherApi.call('POST', `${URL}/import`, { document: { ...file, format: 'something-else' } })).statusCode).toBe(400);
  });

  it('relinks lookups to the same page and view codes on the importing instance', async () => {
    const supplierA = simple('Name', 'City');
    const supplierPageA = await api.create('Supplier', supplierA);
    expect((await api.publish(supplierPageA.id)).statusCode).toBe(200);
    const lookup = (sourceViewId: string) =>
      control('SupplierRef', 1010, {
        extraProperties: {
          dataSourceId: sourceViewId,
          dataSourceTitle: 'Name',
          mapFields: [{ sourceCode: 'Name', targetCode: 'SupplierName' }],
          joinConditions: [{ key: 'City', judgmentMethod: 1, value: 'Paris', viewId: sourceViewId }],
        },
      });
    const order = simple('SupplierName');
    order.viewControls[0]!.dataControls.push(lookup(supplierA.viewControls[0]!.id));
    const orderPage = await api.create('LookupOrder', order);
    const published = await api.publish(orderPage.id);
    expect(published.statusCode, published.body).toBe(200);
    const doc = await api.ok('GET', `${URL}/${orderPage.id}/export`);
    expect(doc.dataSources).toEqual([{ viewId: supplierA.viewControls[0]!.id, pageCode: 'Supplier', viewCode: 'Main' }]);

    const otherAdmin = await other.login();
    const otherApi = pagesApi(other, () => otherAdmin);
    // Before the source page exists there, the lookup stays unresolved and publishing says so.
    const early = await otherApi.ok('POST', `${URL}/import`, { document: doc, code: 'LookupOrderEarly' });
    expect(early.unresolvedDataSources).toEqual([{ viewId: supplierA.viewControls[0]!.id, pageCode: 'Supplier', viewCode: 'Main' }]);
    const refused = await otherApi.publish(early.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.problems.map((p: { kind: string }) => p.kind)).toContain('lookupMapping');

    const supplierB = simple('Name', 'City');
    const supplierPageB = await otherApi.create('Supplier', supplierB);
    expect((await otherApi.publish(supplierPageB.id)).statusCode).toBe(200);
    const imported = await otherApi.ok('POST', `${URL}/import`, { document: doc });
    expect(imported.unresolvedDataSources).toEqual([]);
    const ref = imported.definition.viewControls[0].dataControls.find((c: { code: string }) => c.code === 'SupplierRef');
    expect(ref.extraProperties.dataSourceId).toBe(supplierB.viewControls[0]!.id);
    expect(ref.extraProperties.joinConditions[0].viewId).toBe(supplierB.viewControls[0]!.id);
    const ok = await otherApi.publish(imported.id);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
