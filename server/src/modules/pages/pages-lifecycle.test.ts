import { bizPermission } from '@tessera/core/contracts/permissions';
import type { TPageDefinition } from '@tessera/core/page-definition';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { bizTableName, getPublishedPage } from './biz-schema.ts';
import { columnsOf, control, insertRow, masterDetail, pagesApi, rowsOf, URL } from '../../../test/page-helpers.ts';

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
const clone = (d: TPageDefinition): TPageDefinition => structuredClone(d);

describe('page lifecycle: create → publish → change → republish with data → rollback', () => {
  let pageId: string;
  let v1: TPageDefinition;
  let design: TPageDefinition;
  const ids = { master: '', lines: '' };
  let orderId = '';

  it('creates a draft that touches no table', async () => {
    v1 = masterDetail(
      [
        control('OrderNo', 2001, { docNoOccasion: 1 }),
        control('Supplier', 1010),
        control('OrderDate', 1004, { extraProperties: { dateType: 2 } }),
        control('Amount', 1003, { extraProperties: { accuracy: 2 } }),
        control('Ref', 1001),
        control('Approved', 1005),
        control('Tags', 1008),
      ],
      [control('Item', 1001), control('Quantity', 1002), control('Price', 1003), control('LineAmount', 1003), control('Note', 1001)],
    );
    ids.master = v1.viewControls[0]!.id;
    ids.lines = v1.viewControls[0]!.viewControls[0]!.id;
    const page = await api.create('PurchaseOrder', v1);
    pageId = page.id;
    expect(page).toMatchObject({ code: 'PurchaseOrder', status: 'draft', publishedVersion: null });
    expect(await columnsOf(db(), ids.master)).toEqual({});
    expect(await getPublishedPage(db(), pageId)).toBeNull();
    const plan = await api.plan(pageId);
    expect(plan).toMatchObject({ nextVersion: 1, canPublish: true, blockers: [], problems: [] });
    expect(plan.changes.filter((c: { kind: string }) => c.kind === 'createTable')).toHaveLength(2);
  });

  it('publishes version 1: tables with system columns, typed columns, child foreign key, lookup index, permission codes', async () => {
    const res = await api.publish(pageId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.page).toMatchObject({ status: 'published', publishedVersion: 1 });
    expect(body.version).toMatchObject({ version: 1, publishedByName: 'admin', rolledBackFrom: null, hiddenColumns: [] });

    expect(await columnsOf(db(), ids.master)).toEqual({
      Id: 'uuid',
      ParentViewDataId: 'uuid',
      DataStatus: 'integer',
      CreatorId: 'uuid',
      CreationTime: 'timestamp with time zone',
      LastModifierId: 'uuid',
      LastModificationTime: 'timestamp with time zone',
      IsDeleted: 'boolean',
      DeletionTime: 'timestamp with time zone',
      ConcurrencyStamp: 'text',
      OwnerOrganizationUnitId: 'uuid',
      FlowStatus: 'integer',
      OrderNo: 'text',
      Supplier: 'jsonb',
      OrderDate: 'timestamp with time zone',
      Amount: 'numeric',
      Ref: 'text',
      Approved: 'boolean',
      Tags: 'text',
    });
    const lines = await columnsOf(db(), ids.lines);
    expect(lines).toMatchObject({ Item: 'text', Quantity: 'bigint', Price: 'numeric', LineAmount: 'numeric' });

    const fk = await sql<{ ref: string; del: string }>`
      select rf.relname as ref, con.confdeltype as del from pg_constraint con
      join pg_class cl on cl.oid = con.conrelid join pg_class rf on rf.oid = con.confrelid
      where con.contype = 'f' and cl.relname = ${bizTableName(ids.lines)}`.execute(db());
    expect(fk.rows).toEqual([{ ref: bizTableName(ids.master), del: 'c' }]);
    const indexes = await sql<{ def: string }>`select indexdef as def from pg_indexes where schemaname = 'biz'`.execute(db());
    const defs = indexes.rows.map((r) => r.def).join('\n');
    expect(defs).toContain(`${bizTableName(ids.master)} USING btree ("Supplier")`);
    expect(defs).toContain(`${bizTableName(ids.lines)} USING btree ("ParentViewDataId")`);

    const perms = await db().selectFrom('permission_definitions').selectAll().where('group_name', '=', 'Biz.PurchaseOrder').execute();
    const names = perms.map((p) => p.name);
    expect(names).toContain(bizPermission.access('PurchaseOrder'));
    expect(names).toContain(bizPermission.fieldView('PurchaseOrder', 'Amount'));
    expect(names).toContain(bizPermission.fieldEdit('PurchaseOrder', 'Quantity'));
    expect(perms.every((p) => p.is_system === false)).toBe(true);

    const published = await getPublishedPage(db(), 'purchaseorder');
    expect(published?.version.version).toBe(1);
    expect(published?.definition.viewControls[0]!.dataControls.map((c) => c.code)).toContain('Amount');
  });

  it('adds a control and republishes with data present; the data stays', async () => {
    orderId = await insertRow(db(), ids.master, { OrderNo: 'PO-1', Amount: '120.50', Ref: '12', Approved: true });
    const second = await insertRow(db(), ids.master, { OrderNo: 'PO-2', Amount: '8', Ref: '' });
    await insertRow(db(), ids.lines, { Item: 'Bolt', Quantity: 10, Price: '1.25' }, orderId);
    await insertRow(db(), ids.lines, { Item: 'Nut', Quantity: 4, Price: '0.5' }, second);

    design = clone(v1);
    design.viewControls[0]!.dataControls.push(control('Remark', 1001));
    // Widening needs no dry run: integer → decimal.
    design.viewControls[0]!.viewControls[0]!.dataControls.find((c) => c.code === 'Quantity')!.controlType = 1003;
    await api.save(pageId, design);
    expect((await api.get(pageId)).status).toBe('modified');
    // Drafts never reach the runtime.
    expect((await getPublishedPage(db(), pageId))?.definition.viewControls[0]!.dataControls.some((c) => c.code === 'Remark')).toBe(false);

    const res = await api.publish(pageId);
    expect(res.statusCode, res.body).toBe(200);
    const changes = res.json().version.changeSummary;
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'addColumn', column: 'Remark', sqlType: 'text' }));
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'alterType', column: 'Quantity', fromType: 'bigint', toType: 'numeric', narrowing: false }));
    expect((await columnsOf(db(), ids.master)).Remark).toBe('text');
    expect((await columnsOf(db(), ids.lines)).Quantity).toBe('numeric');
    expect(await rowsOf(db(), ids.master, ['OrderNo', 'Amount', 'Remark'])).toEqual([
      { OrderNo: 'PO-1', Amount: '120.50', Remark: null },
      { OrderNo: 'PO-2', Amount: '8', Remark: null },
    ]);
    expect(await rowsOf(db(), ids.lines, ['Item', 'Quantity'])).toEqual([
      { Item: 'Bolt', Quantity: '10' },
      { Item: 'Nut', Quantity: '4' },
    ]);
  });

  it('refuses a narrowing whose values do not cast, with the count and sample rows, and changes nothing', async () => {
    await insertRow(db(), ids.master, { OrderNo: 'PO-3', Ref: 'abc' });
    await insertRow(db(), ids.master, { OrderNo: 'PO-4', Ref: '1.5' });
    const narrowed = clone(design);
    narrowed.viewControls[0]!.dataControls.find((c) => c.code === 'Ref')!.controlType = 1002;
    await api.save(pageId, narrowed);

    const plan = await api.plan(pageId);
    expect(plan.canPublish).toBe(false);
    expect(plan.needsConfirmation).toBe(false);
    expect(plan.blockers).toEqual([
      expect.objectContaining({ kind: 'narrowing', column: 'Ref', fromType: 'text', toType: 'bigint', failingCount: 2, samples: [expect.objectContaining({ value: 'abc' }), expect.objectContaining({ value: '1.5' })] }),
    ]);
    const before = await columnsOf(db(), ids.master);
    const res = await api.publish(pageId);
    expect(res.statusCode).toBe(409);
    const error = res.json().error;
    expect(error.code).toBe('Pages.DataLoss');
    expect(error.message).toContain('2');
    expect(error.details.blockers[0]).toMatchObject({ kind: 'narrowing', failingCount: 2 });
    expect(error.details.blockers[0].samples).toHaveLength(2);
    expect(await columnsOf(db(), ids.master)).toEqual(before);
    expect((await api.get(pageId)).publishedVersion).toBe(2);

    // Once the data casts, the same change goes through; empty text becomes null.
    await sql`update ${sql.id('biz', bizTableName(ids.master))} set "Ref" = '34' where "Ref" in ('abc', '1.5')`.execute(db());
    const ok = await api.publish(pageId);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().version.changeSummary).toContainEqual(expect.objectContaining({ kind: 'alterType', column: 'Ref', narrowing: true }));
    expect((await columnsOf(db(), ids.master)).Ref).toBe('bigint');
    expect((await rowsOf(db(), ids.master, ['Ref'])).map((r) => r.Ref)).toEqual(['12', null, '34', '34']);
    design = narrowed;
  });

  it('renames a code as a rename: same control id, the data follows', async () => {
    const renamed = clone(design);
    renamed.viewControls[0]!.dataControls.find((c) => c.code === 'Amount')!.code = 'TotalAmount';
    renamed.viewControls[0]!.viewControls[0]!.dataControls.find((c) => c.code === 'Item')!.code = 'Product';
    await api.save(pageId, renamed);
    const res = await api.publish(pageId);
    expect(res.statusCode, res.body).toBe(200);
    const changes = res.json().version.changeSummary;
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'renameColumn', from: 'Amount', to: 'TotalAmount' }));
    expect(changes.some((c: { kind: string }) => c.kind === 'addColumn' || c.kind === 'dropColumn')).toBe(false);
    const cols = await columnsOf(db(), ids.master);
    expect(cols.TotalAmount).toBe('numeric');
    expect(cols.Amount).toBeUndefined();
    expect((await rowsOf(db(), ids.master, ['TotalAmount']))[0]).toEqual({ TotalAmount: '120.50' });
    expect((await rowsOf(db(), ids.lines, ['Product'])).map((r) => r.Product)).toEqual(['Bolt', 'Nut']);
    design = renamed;
  });

  it('swaps two codes through temporary names', async () => {
    const swapped = clone(design);
    const lines = swapped.viewControls[0]!.viewControls[0]!;
    lines.dataControls.find((c) => c.code === 'Price')!.code = 'LineAmount_';
    lines.dataControls.find((c) => c.code === 'LineAmount')!.code = 'Price';
    lines.dataControls.find((c) => c.code === 'LineAmount_')!.code = 'LineAmount';
    await api.save(pageId, swapped);
    const res = await api.publish(pageId);
    expect(res.statusCode, res.body).toBe(200);
    expect((await rowsOf(db(), ids.lines, ['Product', 'LineAmount', 'Price']))[0]).toEqual({ Product: 'Bolt', LineAmount: '1.25', Price: null });
    design = swapped;
  });

  it('refuses to remove a control whose column has data; hides it when confirmed; drops empty ones', async () => {
    const removed = clone(design);
    const master = removed.viewControls[0]!;
    master.dataControls = master.dataControls.filter((c) => c.code !== 'OrderNo' && c.code !== 'Remark');
    await api.save(pageId, removed);
    const plan = await api.plan(pageId);
    expect(plan).toMatchObject({ canPublish: false, needsConfirmation: true });
    expect(plan.blockers).toEqual([expect.objectContaining({ kind: 'removeWithData', column: 'OrderNo', rowCount: 4 })]);
    expect(plan.changes).toContainEqual(expect.objectContaining({ kind: 'dropColumn', column: 'Remark' }));

    const refused = await api.publish(pageId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details.needsConfirmation).toBe(true);
    expect((await columnsOf(db(), ids.master)).Remark).toBe('text');

    const res = await api.publish(pageId, { confirmHideColumns: true });
    expect(res.statusCode, res.body).toBe(200);
    const version = res.json().version;
    expect(version.hiddenColumns).toEqual([
      expect.objectContaining({ column: 'OrderNo', table: bizTableName(ids.master), rowCount: 4, hiddenInVersion: version.version }),
    ]);
    const cols = await columnsOf(db(), ids.master);
    expect(cols.OrderNo).toBe('text');
    expect(cols.Remark).toBeUndefined();
    expect((await rowsOf(db(), ids.master, ['OrderNo']))[0]).toEqual({ OrderNo: 'PO-1' });

    // The next publish keeps it hidden without asking again.
    await api.save(pageId, removed);
    const again = await api.publish(pageId);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().version.hiddenColumns).toEqual([expect.objectContaining({ column: 'OrderNo', hiddenInVersion: version.version })]);
  });

  it('removing a child view with rows asks first; confirmed it keeps the table', async () => {
    const noLines = clone(design);
    noLines.viewControls[0]!.dataControls = noLines.viewControls[0]!.dataControls.filter((c) => c.code !== 'OrderNo' && c.code !== 'Remark');
    noLines.viewControls[0]!.viewControls = [];
    await api.save(pageId, noLines);
    const plan = await api.plan(pageId);
    expect(plan.blockers).toEqual([expect.objectContaining({ kind: 'removeWithData', table: bizTableName(ids.lines), column: null, rowCount: 2 })]);
    expect((await api.publish(pageId)).statusCode).toBe(409);
    const res = await api.publish(pageId, { confirmHideColumns: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().version.hiddenColumns).toContainEqual(expect.objectContaining({ table: bizTableName(ids.lines), column: null, rowCount: 2 }));
    expect((await rowsOf(db(), ids.lines, ['Product'])).length).toBe(2);
  });

  it('rolls back to version 1: codes, types, hidden columns and the child table come back, data intact', async () => {
    const versions = (await api.ok('GET', `${URL}/${pageId}/versions`)).items;
    const latest = versions[0].version;
    expect(versions.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: latest }, (_, i) => latest - i));
    const one = await api.ok('GET', `${URL}/${pageId}/versions/1`);
    expect(one.definition).toEqual(JSON.parse(JSON.stringify(v1)));
    expect((await api.call('GET', `${URL}/${pageId}/versions/99`)).statusCode).toBe(404);

    const before = await api.get(pageId);
    const res = await api.call('POST', `${URL}/${pageId}/rollback/1`, {});
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.version).toMatchObject({ version: latest + 1, rolledBackFrom: 1, hiddenColumns: [] });
    expect(body.page.definition).toEqual(one.definition);
    expect(body.page.concurrencyStamp).not.toBe(before.concurrencyStamp);
    expect(body.page.status).toBe('published');

    const master = await columnsOf(db(), ids.master);
    expect(master).toMatchObject({ OrderNo: 'text', Amount: 'numeric', Ref: 'text' });
    expect(master.TotalAmount).toBeUndefined();
    const lines = await columnsOf(db(), ids.lines);
    expect(lines).toMatchObject({ Item: 'text', Quantity: 'bigint', Price: 'numeric', LineAmount: 'numeric' });
    expect(await rowsOf(db(), ids.master, ['OrderNo', 'Amount', 'Ref'])).toEqual([
      { OrderNo: 'PO-1', Amount: '120.50', Ref: '12' },
      { OrderNo: 'PO-2', Amount: '8', Ref: null },
      { OrderNo: 'PO-3', Amount: null, Ref: '34' },
      { OrderNo: 'PO-4', Amount: null, Ref: '34' },
    ]);
    expect(await rowsOf(db(), ids.lines, ['Item', 'Quantity', 'Price', 'LineAmount'])).toEqual([
      { Item: 'Bolt', Quantity: '10', Price: '1.25', LineAmount: null },
      { Item: 'Nut', Quantity: '4', Price: '0.5', LineAmount: null },
    ]);
    expect((await getPublishedPage(db(), pageId))?.version.version).toBe(latest + 1);
    expect((await api.call('POST', `${URL}/${pageId}/rollback/99`, {})).statusCode).toBe(404);
  });
});
