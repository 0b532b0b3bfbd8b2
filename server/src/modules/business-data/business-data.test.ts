import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bizPermission } from '@tessera/core/contracts/permissions';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { bizTable, bizTableName } from '../pages/index.ts';
import { control, masterDetail, view } from '../../../test/page-helpers.ts';
import { allTypesDefinition, bd, createDocumentNumberRule, createPurchaseOrderPage, newId, publishPage, type PurchaseOrderPage } from '../../../test/business-data-fixtures.ts';

let t: TestApp;
let admin: string;
let po: PurchaseOrderPage;
let ruleId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  ruleId = await createDocumentNumberRule(t, admin, 'PO');
  po = await createPurchaseOrderPage(t, admin, { ruleId });
});
afterAll(() => t.close());

const db = () => t.database.db;
const line = (Product: string, Quantity: unknown, Price: unknown, extra: object = {}) => ({ Id: newId(), Product, Quantity, Price, ...extra });
const orderPayload = (master: object, lines: object[]) => ({
  pageId: po.pageId,
  viewDataList: [
    { viewId: po.masterId, dataList: [master] },
    { viewId: po.linesId, dataList: lines },
  ],
});
const rowsOfView = (result: { viewDataList: { viewId: string; dataList: Record<string, unknown>[] }[] }, viewId: string) =>
  result.viewDataList.find((v) => v.viewId === viewId)!.dataList;
const countRows = async (viewId: string) => Number((await sql<{ n: string }>`select count(*) as n from ${bizTable(bizTableName(viewId))}`.execute(db())).rows[0]!.n);

describe('round trip of every control type', () => {
  it('saves and loads each type with its typed value', async () => {
    const { definition, view } = allTypesDefinition();
    const pageId = await publishPage(t, admin, 'AllTypes', definition);
    const id = newId();
    const input = {
      Id: id,
      Text: 'hello',
      Integer: '1,234',
      Money: '12.35',
      Day: '2024-03-05',
      Month: '2024-03',
      Stamp: '2024-03-05T08:30:00+08:00',
      Flag: 'true',
      Choice: 'r',
      Choice2: '1',
      Multi: ['a', 'b'],
      Values: 'x, y',
      Lookup: 'abc-123',
      DocNo: 'D-1',
      RefId: '0190a5c2-0000-7000-8000-000000000001',
      RefIds: '["x","y"]',
      People: [{ id: 'u1', title: 'Ann', type: 3 }],
      Required: 'yes',
    };
    const saved = await bd(t, admin, 'save-page', { pageId, viewDataList: [{ viewId: view.id, dataList: [input] }] });
    const expected = {
      Id: id,
      Text: 'hello',
      Integer: 1234,
      Money: 12.35,
      Day: '2024-03-05',
      Month: '2024-03-01',
      Stamp: '2024-03-05T00:30:00.000Z',
      Flag: true,
      Choice: 'r',
      Choice2: '1',
      Multi: ['a', 'b'],
      Values: ['x', 'y'],
      Lookup: 'abc-123',
      DocNo: 'D-1',
      RefId: '0190a5c2-0000-7000-8000-000000000001',
      RefIdArray: [{ id: '0190a5c2-0000-7000-8000-000000000001', title: '' }],
      RefIds: '["x","y"]',
      People: '[{"id":"u1","title":"Ann","type":3}]',
      Required: 'yes',
      DataStatus: 0,
    };
    expect(saved.viewDataList[0].dataList[0]).toMatchObject(expected);
    const loaded = await bd(t, admin, 'query-page-data', { pageId, id });
    expect(loaded.viewDataList[0].dataList[0]).toMatchObject(expected);
    expect(loaded.viewDataList[0].businessDataList[0]).toMatchObject({ Money: '12.35', Flag: '是', Choice: 'Red', Multi: 'A, B', People: 'Ann', Month: '2024-03' });
    // Stored exactly: numeric, not float; dates as instants.
    const raw = (await sql<Record<string, unknown>>`select "Money"::text as m, "Integer"::text as i, "Multi" as l from ${bizTable(bizTableName(view.id))}`.execute(db())).rows[0]!;
    expect(raw).toEqual({ m: '12.35', i: '1234', l: '["a","b"]' });
  });

  it('rejects values that do not fit their control type, naming the field', async () => {
    const { definition, view } = allTypesDefinition();
    definition.viewControls[0]!.id = newId();
    const pageId = await publishPage(t, admin, 'AllTypes2', { ...definition, viewControls: [{ ...view, id: newId() }] });
    const page = await t.call(admin, { method: 'GET', url: `/api/app/page-definition/${pageId}` });
    const viewId = page.json().definition.viewControls[0].id;
    const bad = await bd(t, admin, 'save-page', {
      pageId,
      viewDataList: [{ viewId, dataList: [{ Integer: '1.5', Money: 'abc', Day: '05/03/2024', Flag: 'maybe', Multi: { a: 1 }, People: 'not json', Text: 'x'.repeat(21), Required: '' }] }],
    }, 400);
    const members = bad.error.validationErrors.map((e: { members: string[] }) => e.members[0]).sort();
    expect(members).toEqual(
      ['Day', 'Flag', 'Integer', 'Money', 'Multi', 'People', 'Required', 'Text'].map((c) => `viewDataList.0.dataList.0.${c}`).sort(),
    );
    expect(await countRows(viewId)).toBe(0);
  });
});

describe('purchase order: save-page, recompute, document numbers', () => {
  let orderId: string;
  let stamp: string;

  it('creates an order with lines in one call: defaults, document number, amounts and total recomputed on the server', async () => {
    orderId = newId();
    const saved = await bd(t, admin, 'save-page', orderPayload(
      // Formula tampering: the client claims Total 999 and line amounts of 1.
      { Id: orderId, SupplierName: 'ACME', Total: 999, Note: 'first' },
      [line('Pen', 3, '1.50', { Amount: 1 }), line('Cup', 2, 4, { Amount: 1 })],
    ));
    const master = rowsOfView(saved, po.masterId)[0]!;
    const lines = rowsOfView(saved, po.linesId);
    expect(lines.map((l) => l.Amount)).toEqual([4.5, 8]);
    expect(master).toMatchObject({ Id: orderId, Total: 12.5, SupplierName: 'ACME', OrderNo: 'PO-00001', Approved: false });
    expect(master.OrderDate).toBe(new Date().toISOString().slice(0, 10));
    expect(lines.map((l) => l.ParentViewDataId)).toEqual([orderId, orderId]);
    stamp = String(master.ConcurrencyStamp);
  });

  it('updates: changed line, removed line, new line; stamps move on; a stale stamp is a 409 naming the editor', async () => {
    const loaded = await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: orderId });
    const [pen] = rowsOfView(loaded, po.linesId);
    const saved = await bd(t, admin, 'save-page', orderPayload(
      { Id: orderId, ConcurrencyStamp: stamp, Note: 'second' },
      [{ ...pen, Quantity: 10 }, line('Ink', 1, '0.99')],
    ));
    const master = rowsOfView(saved, po.masterId)[0]!;
    expect(master).toMatchObject({ Total: 15.99, Note: 'second', OrderNo: 'PO-00001' });
    expect(rowsOfView(saved, po.linesId).map((l) => l.Product)).toEqual(['Pen', 'Ink']);
    expect(master.ConcurrencyStamp).not.toBe(stamp);

    const stale = await bd(t, admin, 'save-page', orderPayload({ Id: orderId, ConcurrencyStamp: stamp, Note: 'third' }, []), 409);
    expect(stale.error.details).toMatchObject({ id: orderId, lastModifierName: '管理员' });
    expect(stale.error.message).toContain('管理员');
    stamp = String(master.ConcurrencyStamp);
  });

  it('a failing child row leaves nothing written (validation and database errors)', async () => {
    const before = { orders: await countRows(po.masterId), lines: await countRows(po.linesId) };
    const invalid = await bd(t, admin, 'save-page', orderPayload({ Id: newId(), SupplierName: 'Beta' }, [line('Ok', 1, 1), line('', 1, 1)]), 400);
    expect(invalid.error.validationErrors[0].members).toEqual(['viewDataList.1.dataList.1.Product']);
    // A line id already used by another order: the database refuses, the whole save rolls back.
    const loaded = await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: orderId });
    const taken = rowsOfView(loaded, po.linesId)[0]!.Id;
    await bd(t, admin, 'save-page', orderPayload({ Id: newId(), SupplierName: 'Gamma' }, [line('New', 1, 1), { ...line('Dup', 1, 1), Id: taken }]), 400);
    expect({ orders: await countRows(po.masterId), lines: await countRows(po.linesId) }).toEqual(before);
    // The document number the failed saves drew went back: the next order gets PO-00002.
    const next = await bd(t, admin, 'save-page', orderPayload({ SupplierName: 'Delta' }, []));
    expect(rowsOfView(next, po.masterId)[0]!.OrderNo).toBe('PO-00002');
  });

  it('consumes a reserved number (docNoOccasion 1) and refuses an unknown one', async () => {
    const { docNo } = await bd(t, admin, 'reserve-document-number', { pageId: po.pageId, dataControlId: po.c.OrderNo.id });
    expect(docNo).toBe('PO-00003');
    const saved = await bd(t, admin, 'save-page', orderPayload({ OrderNo: docNo, SupplierName: 'Eps' }, []));
    expect(rowsOfView(saved, po.masterId)[0]!.OrderNo).toBe('PO-00003');
    await bd(t, admin, 'save-page', orderPayload({ OrderNo: 'PO-99999', SupplierName: 'Zeta' }, []), 400);
  });

  it('refuses a typed number with more decimals than the field holds instead of rounding it; computed values are rounded', async () => {
    const res = await t.call(admin, { method: 'POST', url: '/api/app/business-data/save-page', headers: { 'accept-language': 'zh-CN' }, payload: orderPayload({ SupplierName: 'Precise' }, [line('a', 2, 2.555), line('b', 1, '0.125')]) });
    expect(res.statusCode, res.body).toBe(400);
    const errors = res.json().error.validationErrors as { message: string; members: string[] }[];
    expect(errors.map((e) => e.members[0])).toEqual(['viewDataList.1.dataList.0.Price', 'viewDataList.1.dataList.1.Price']);
    expect(errors[0]!.message).toBe('“Price”：最多 2 位小数');
    // Trailing zeros are not decimals; what a formula computes (Amount, Total) is the server's to round.
    const saved = await bd(t, admin, 'save-page', orderPayload({ SupplierName: 'Precise', Total: 1.23456 }, [line('a', 3, '1.50', { Amount: 4.4444 })]));
    expect(rowsOfView(saved, po.linesId)[0]).toMatchObject({ Price: 1.5, Amount: 4.5 });
    expect(rowsOfView(saved, po.masterId)[0]).toMatchObject({ Total: 4.5 });
  });

  it('computes a calculated control from its own formula on save, whatever the client sent', async () => {
    const calc = (code: string, formula: string) => control(code, 1003, { valueTakingType: 2, extraProperties: { accuracy: 2, formula } });
    const definition = masterDetail([control('Name', 1001), calc('Total', 'SUM({Lines.Amount})')], [control('Qty', 1002), control('Price', 1003, { extraProperties: { accuracy: 2 } }), calc('Amount', 'ROUND({Qty} * {Price}, 2)')]);
    const pageId = await publishPage(t, admin, 'OwnFormula', definition);
    const [master, lines] = [definition.viewControls[0]!, definition.viewControls[0]!.viewControls[0]!];
    const saved = await bd(t, admin, 'save-page', {
      pageId,
      viewDataList: [
        { viewId: master.id, dataList: [{ Name: 'calc', Total: 999 }] },
        { viewId: lines.id, dataList: [{ Qty: 3, Price: 2.5, Amount: 1 }, { Qty: 2, Price: 4 }] },
      ],
    });
    expect(rowsOfView(saved, lines.id).map((r) => r.Amount)).toEqual([7.5, 8]);
    expect(rowsOfView(saved, master.id)[0]).toMatchObject({ Total: 15.5 });
  });

  it('totals the marked number columns over every filtered row, not only the page', async () => {
    const v = view('Summed', [control('Name', 1001), control('Qty', 1002, { extraProperties: { summary: 'sum' } }), control('Price', 1003, { extraProperties: { accuracy: 2, summary: 'avg' } }), control('Note', 1003, { extraProperties: { summary: 'count' } })]);
    const pageId = await publishPage(t, admin, 'Summed', { viewControls: [v], pageButtons: [], dataLinkages: [] });
    await bd(t, admin, 'save-view', { pageId, viewId: v.id, dataList: [{ Name: 'a', Qty: 2, Price: 1.5, Note: 1 }, { Name: 'a', Qty: 3, Price: 2.5 }, { Name: 'b', Qty: 10, Price: 4 }] });
    const all = await bd(t, admin, 'query-view-data', { pageId, viewId: v.id, MaxResultCount: 1 });
    expect(all.items).toHaveLength(1);
    expect(all.summary).toEqual({ Qty: 15, Price: (1.5 + 2.5 + 4) / 3, Note: 3 });
    const onlyA = await bd(t, admin, 'query-view-data', { pageId, viewId: v.id, filterConditions: [{ key: 'Name', judgmentMethod: 'eq', value: 'a' }] });
    expect(onlyA.summary).toEqual({ Qty: 5, Price: 2, Note: 2 });
    // A list without marked columns answers no summary.
    expect((await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId })).summary).toBeUndefined();
  });

  it('voids the reserved number of a form left unsaved: only its holder may, and it is never used again', async () => {
    const { docNo } = await bd(t, admin, 'reserve-document-number', { pageId: po.pageId, dataControlId: po.c.OrderNo.id });
    // Someone else who may open the page cannot void it.
    const role = await createRole(t.database.db, 'po-clerk');
    await grant(t.database.db, 'R', role, [bizPermission.access(po.code)]);
    await createUser(t.database.db, 'void-clerk', { roles: [role] });
    const clerk = await t.login('void-clerk', FIXTURE_PASSWORD);
    await bd(t, clerk, 'void-document-number', { pageId: po.pageId, dataControlId: po.c.OrderNo.id, docNo }, 403);
    // The holder leaves the form: 204, and a save can no longer use the number.
    await bd(t, admin, 'void-document-number', { pageId: po.pageId, dataControlId: po.c.OrderNo.id, docNo }, 204);
    await bd(t, admin, 'save-page', orderPayload({ OrderNo: docNo, SupplierName: 'Left' }, []), 400);
    // Voided once is enough; unknown controls and malformed input are 400s.
    await bd(t, admin, 'void-document-number', { pageId: po.pageId, dataControlId: po.c.OrderNo.id, docNo }, 400);
    await bd(t, admin, 'void-document-number', { pageId: po.pageId, dataControlId: po.c.Note.id, docNo }, 400);
    await bd(t, admin, 'void-document-number', { pageId: po.pageId, dataControlId: po.c.OrderNo.id }, 400);
    const next = await bd(t, admin, 'reserve-document-number', { pageId: po.pageId, dataControlId: po.c.OrderNo.id });
    expect(next.docNo).not.toBe(docNo);
  });

  it('records history: who, when, before and after per field', async () => {
    const res = await t.call(admin, { method: 'GET', url: `/api/app/business-data/record-history?pageId=${po.pageId}&id=${orderId}` });
    expect(res.statusCode, res.body).toBe(200);
    const { items } = res.json();
    expect(items.map((i: { action: string }) => i.action)).toEqual(['Updated', 'Created']);
    expect(items[0]).toMatchObject({ userName: '管理员' });
    expect(items[0].changes).toEqual(expect.arrayContaining([
      expect.objectContaining({ code: 'Note', before: 'first', after: 'second' }),
      expect.objectContaining({ code: 'Total', before: 12.5, after: 15.99 }),
      expect.objectContaining({ code: 'Product', before: 'Cup', after: null, viewTitle: 'Lines', row: 2, line: 'removed' }),
      expect.objectContaining({ code: 'Product', before: null, after: 'Ink', viewTitle: 'Lines', row: 2, line: 'added' }),
      expect.objectContaining({ code: 'Quantity', after: 10, viewTitle: 'Lines', row: 1 }),
    ]));
    // The master's own fields name no line.
    expect(items[0].changes.find((c: { code: string }) => c.code === 'Note')).not.toHaveProperty('row');
  });

  it('deletes in a batch; deleted records are gone from lists and loads (404)', async () => {
    const extra = await bd(t, admin, 'save-page', orderPayload({ SupplierName: 'ToDelete' }, [line('x', 1, 1)]));
    const id = rowsOfView(extra, po.masterId)[0]!.Id;
    expect(await bd(t, admin, 'delete-data', { pageId: po.pageId, ids: [id] })).toEqual({ deleted: 1 });
    await bd(t, admin, 'query-page-data', { pageId: po.pageId, id }, 404);
    await bd(t, admin, 'delete-data', { pageId: po.pageId, ids: [id] }, 404);
    const list = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: 'SupplierName', judgmentMethod: 'eq', value: 'ToDelete' }] });
    expect(list.totalCount).toBe(0);
  });

  it('refuses to change or delete a record while its approval runs (FlowStatus 1), and allows it again after', async () => {
    const saved = await bd(t, admin, 'save-page', orderPayload({ SupplierName: 'InFlow' }, [line('x', 1, 1)]));
    const master = rowsOfView(saved, po.masterId)[0]!;
    const setFlow = (status: number) => sql`update ${bizTable(bizTableName(po.masterId))} set "FlowStatus" = ${status} where "Id" = ${String(master.Id)}::uuid`.execute(db());
    await setFlow(1);
    const change = await bd(t, admin, 'save-page', orderPayload({ Id: master.Id, ConcurrencyStamp: master.ConcurrencyStamp, Note: 'sneaky' }, []), 409);
    expect(change.error).toMatchObject({ code: 'BusinessData.InApproval', message: '该记录正在审批中，审批结束前不能修改或删除' });
    await bd(t, admin, 'delete-data', { pageId: po.pageId, ids: [master.Id] }, 409);
    const loaded = rowsOfView(await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: master.Id }), po.masterId)[0]!;
    expect(loaded).toMatchObject({ Note: '', FlowStatus: 1 });
    // The list filters by the approval status.
    const inFlow = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: 'FlowStatus', judgmentMethod: 'eq', value: '1' }] });
    expect(inFlow.items.map((r: { Id: string }) => r.Id)).toEqual([master.Id]);
    const drafts = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: 'FlowStatus', judgmentMethod: 'ne', value: 1 }] });
    expect(drafts.items.length).toBeGreaterThan(0);
    expect(drafts.items.every((r: { FlowStatus: number }) => r.FlowStatus === 0)).toBe(true);
    // Rejected (3): editable and deletable again.
    await setFlow(3);
    await bd(t, admin, 'save-page', orderPayload({ Id: master.Id, ConcurrencyStamp: master.ConcurrencyStamp, Note: 'fixed' }, []));
    expect(await bd(t, admin, 'delete-data', { pageId: po.pageId, ids: [master.Id] })).toEqual({ deleted: 1 });
  });
});

describe('query-view-data', () => {
  it('filters, sorts and pages; child views need their parent', async () => {
    for (const [name, note] of [['Alpha', 'a'], ['Bravo', 'b'], ['Charlie', 'c']]) await bd(t, admin, 'save-page', orderPayload({ SupplierName: name, Note: note }, [line('p', 2, 5)]));
    const res = await bd(t, admin, 'query-view-data', {
      pageId: po.code,
      viewId: po.masterId,
      filterConditions: [
        { key: 'SupplierName', judgmentMethod: 'in', value: ['Alpha', 'Bravo', 'Charlie'] },
        { key: 'Total', judgmentMethod: 'ge', value: 10, linkCondition: 'and' },
      ],
      Sorting: 'SupplierName desc',
      SkipCount: 1,
      MaxResultCount: 1,
    });
    expect(res).toMatchObject({ totalCount: 3, totalCountIsEstimate: false });
    expect(res.items.map((i: { SupplierName: string }) => i.SupplierName)).toEqual(['Bravo']);
    await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.linesId }, 400);
    const bad = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, Sorting: 'SupplierName; drop table x' }, 400);
    expect(bad.error.validationErrors[0].members).toEqual(['Sorting']);
    const hostile = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: '"Id"; --', judgmentMethod: 'eq', value: 1 }] }, 400);
    expect(hostile.error.validationErrors[0].members).toEqual(['filterConditions[0].key']);
  });
});

describe('lookups', () => {
  it('the open window reads the control’s source view (mapped columns only), searchable and paged', async () => {
    const supplierIds: string[] = [];
    for (const [name, city] of [['North Ltd', 'Oslo'], ['South Inc', 'Rome'], ['East Co', 'Oslo']]) {
      const saved = await bd(t, admin, 'save-page', { pageId: po.supplierPageId, viewDataList: [{ viewId: po.supplierViewId, dataList: [{ SupplierName: name, City: city, Rating: 3 }] }] });
      supplierIds.push(saved.viewDataList[0].dataList[0].Id);
    }
    const window = await bd(t, admin, 'query-open-windows-data', { pageId: po.pageId, dataControlId: po.c.Supplier.id, filter: 'th', maxResultCount: 1, skipCount: 0 });
    expect(window.totalCount).toBe(2);
    expect(window.items).toHaveLength(1);
    expect(Object.keys(window.items[0]).sort()).toEqual(['Id', 'SupplierName']);
    expect(window.columns).toEqual([{ code: 'SupplierName', title: 'SupplierName', tableFieldType: 1 }]);
    await bd(t, admin, 'query-open-windows-data', { pageId: po.pageId, dataControlId: po.c.Supplier.id, maxResultCount: 101 }, 400);
    await bd(t, admin, 'query-open-windows-data', { pageId: po.pageId, dataControlId: po.c.Note.id }, 400);
    const drop = await bd(t, admin, 'query-drop-down-data', { pageId: po.pageId, dataControlId: po.c.Supplier.id });
    expect(drop.items.map((i: { label: string }) => i.label).sort()).toEqual(['East Co', 'North Ltd', 'South Inc']);
  });
});

describe('rows created by a data linkage (spec §4 DataStatus 2)', () => {
  it('are stored with DataStatus 2 and replaced, not duplicated, when the linkage fires again', async () => {
    const kit = control('Kit', 1001);
    const item = control('Item', 1001);
    const master = view('Box', [kit]);
    const parts = view('Parts', [item], { viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId' });
    master.viewControls = [parts];
    const pageId = await publishPage(t, admin, 'Box', {
      viewControls: [master],
      pageButtons: [],
      dataLinkages: [{ id: newId(), dataLinkType: 1, triggerConditions: [{ dataControlId: kit.id, triggerFormula: '{Kit} = "pens"' }], assignments: [{ dataControlId: item.id, assignmentFormula: 'LIST("red", "blue")' }], pageEvents: [], pageStateControls: [] }],
    });
    const manual = { Id: newId(), Item: 'manual' };
    const first = await bd(t, admin, 'save-page', { pageId, viewDataList: [{ viewId: master.id, dataList: [{ Kit: 'pens' }] }, { viewId: parts.id, dataList: [manual] }] });
    const rows = rowsOfView(first, parts.id);
    expect(rows.map((r) => [r.Item, r.DataStatus, r.isLink])).toEqual([['manual', 0, false], ['red', 2, true], ['blue', 2, true]]);
    // Saving again (the client sends the linked rows back, even tampered): still exactly one set.
    const again = await bd(t, admin, 'save-page', {
      pageId,
      viewDataList: [
        { viewId: master.id, dataList: [rowsOfView(first, master.id)[0]] },
        { viewId: parts.id, dataList: rows.map((r) => (r.isLink ? { ...r, Item: 'tampered' } : r)) },
      ],
    });
    expect(rowsOfView(again, parts.id).map((r) => r.Item).sort()).toEqual(['blue', 'manual', 'red']);
  });
});

describe('DICT() in an assignment formula (spec §5)', () => {
  it('is recomputed on the server with the dictionary label in the caller’s language; a tampered label is replaced', async () => {
    const gender = control('Gender', 1006, { options: { dictionaryCode: 'Gender' } });
    const label = control('GenderLabel', 1001, { valueTakingType: 2 });
    const v = view('People', [gender, label]);
    const pageId = await publishPage(t, admin, 'DictPeople', {
      viewControls: [v],
      pageButtons: [],
      dataLinkages: [{ id: newId(), dataLinkType: 1, triggerConditions: [{ dataControlId: gender.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: label.id, assignmentFormula: 'DICT("Gender", {Gender})' }], pageEvents: [], pageStateControls: [] }],
    });
    const save = (record: object, language: string) =>
      t.call(admin, { method: 'POST', url: `/api/app/business-data/save-page`, headers: { 'accept-language': language }, payload: { pageId, viewDataList: [{ viewId: v.id, dataList: [record] }] } });
    const en = await save({ Gender: 'female', GenderLabel: 'tampered' }, 'en-US');
    expect(en.statusCode, en.body).toBe(200);
    const saved = rowsOfView(en.json(), v.id)[0]!;
    expect(saved.GenderLabel).toBe('Female');
    const zh = await save({ ...saved, Gender: 'male', GenderLabel: 'tampered' }, 'zh-CN');
    expect(zh.statusCode, zh.body).toBe(200);
    expect(rowsOfView(zh.json(), v.id)[0]!.GenderLabel).toBe('男');
    const stored = await sql<{ GenderLabel: string }>`select "GenderLabel" from ${bizTable(bizTableName(v.id))} where "Id" = ${String(saved.Id)}`.execute(db());
    expect(stored.rows[0]!.GenderLabel).toBe('男');
  });
});

describe('cascading options (spec §3 data control parentCode)', () => {
  it('a dictionary drop-down returns only the items under the parent control’s value in the row', async () => {
    const res = await t.call(admin, {
      method: 'POST',
      url: '/api/app/business-dictionary',
      payload: {
        code: 'CascadeRegion',
        title: { 'en-US': 'Region' },
        isTree: true,
        items: [
          { code: 'zj', label: { 'en-US': 'Zhejiang' } },
          { code: 'js', label: { 'en-US': 'Jiangsu' } },
          { code: 'hz', label: { 'en-US': 'Hangzhou' }, parentCode: 'zj' },
          { code: 'nb', label: { 'en-US': 'Ningbo' }, parentCode: 'zj' },
          { code: 'nj', label: { 'en-US': 'Nanjing' }, parentCode: 'js' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const province = control('Province', 1006, { options: { dictionaryCode: 'CascadeRegion' } });
    const city = control('City', 1006, { options: { dictionaryCode: 'CascadeRegion' }, extraProperties: { parentCode: 'Province' } });
    const v = view('Address', [province, city]);
    const pageId = await publishPage(t, admin, 'CascadeAddress', { viewControls: [v], pageButtons: [], dataLinkages: [] });
    const values = async (record?: object) => (await bd(t, admin, 'query-drop-down-data', { pageId, dataControlId: city.id, record })).items.map((i: { value: string }) => i.value);
    expect(await values({ Province: 'zj' })).toEqual(['hz', 'nb']);
    expect(await values({ Province: 'js' })).toEqual(['nj']);
    expect(await values({ Province: '' })).toEqual([]);
    // Without the row the client filters by parentValue itself: every item, each with its parent.
    expect(await values()).toEqual(['zj', 'hz', 'nb', 'js', 'nj']);
  });

  it('a lookup window and a source-view drop-down return only source rows whose parent column holds the row’s value', async () => {
    const cityName = control('CityName', 1001);
    const cityProvince = control('Province', 1001);
    const cities = view('Cities', [cityName, cityProvince]);
    const citiesPageId = await publishPage(t, admin, 'CascadeCities', { viewControls: [cities], pageButtons: [], dataLinkages: [] });
    for (const [CityName, Province] of [['Hangzhou', 'zj'], ['Ningbo', 'zj'], ['Nanjing', 'js']]) {
      await bd(t, admin, 'save-page', { pageId: citiesPageId, viewDataList: [{ viewId: cities.id, dataList: [{ CityName, Province }] }] });
    }
    const province = control('Province', 1001);
    const city = control('City', 1010, { extraProperties: { dataSourceId: cities.id, dataSourceTitle: 'CityName', parentCode: 'Province', mapFields: [{ sourceCode: 'CityName', targetCode: 'CityText' }] } });
    const orphan = control('Orphan', 1010, { extraProperties: { dataSourceId: cities.id, dataSourceTitle: 'CityName', parentCode: 'Country' } });
    const v = view('Shipment', [province, city, orphan, control('CityText', 1001), control('Country', 1001)]);
    const pageId = await publishPage(t, admin, 'CascadeShipment', { viewControls: [v], pageButtons: [], dataLinkages: [] });
    const window = async (record?: object) => (await bd(t, admin, 'query-open-windows-data', { pageId, dataControlId: city.id, record })).items.map((i: { CityName: string }) => i.CityName).sort();
    expect(await window({ Province: 'zj' })).toEqual(['Hangzhou', 'Ningbo']);
    expect(await window({ Province: 'js' })).toEqual(['Nanjing']);
    expect(await window({ Province: null })).toEqual([]);
    expect(await window()).toEqual(['Hangzhou', 'Nanjing', 'Ningbo']);
    const drop = await bd(t, admin, 'query-drop-down-data', { pageId, dataControlId: city.id, record: { Province: 'js' } });
    expect(drop.items.map((i: { label: string }) => i.label)).toEqual(['Nanjing']);
    // A parentCode the source view has no column for is a design error, not an unfiltered list.
    const bad = await bd(t, admin, 'query-open-windows-data', { pageId, dataControlId: orphan.id, record: { Country: 'cn' } }, 400);
    expect(JSON.stringify(bad)).toContain('Country');
  });
});

describe('the save answer (built from what was written, no re-read)', () => {
  const reload = (pageId: string, id: unknown) => bd(t, admin, 'query-page-data', { pageId, id });
  it('equals what a reload reads: every control type, new and updated', async () => {
    const { definition, view: v } = allTypesDefinition();
    const pageId = await publishPage(t, admin, 'AllTypesAnswer', definition);
    const input = {
      Text: 'hello', Integer: '1,234', Money: '12.35', Day: '2024-03-05', Month: '2024-03', Stamp: '2024-03-05T08:30:00+08:00', Flag: 'true', Choice: 'r', Choice2: '1',
      Multi: ['a', 'b'], Values: 'x, y', Lookup: 'abc-123', DocNo: 'D-1', RefId: '0190a5c2-0000-7000-8000-000000000001', RefIds: '["x","y"]', People: [{ id: 'u1', title: 'Ann', type: 3 }], Required: 'yes',
    };
    const created = await bd(t, admin, 'save-page', { pageId, viewDataList: [{ viewId: v.id, dataList: [input] }] });
    const id = created.viewDataList[0].dataList[0].Id;
    expect(created).toEqual(await reload(pageId, id));
    const updated = await bd(t, admin, 'save-page', { pageId, viewDataList: [{ viewId: v.id, dataList: [{ ...created.viewDataList[0].dataList[0], Text: 'changed', Lookup: 'other', Money: 1, Flag: false, Multi: [] }] }] });
    expect(updated).toEqual(await reload(pageId, id));
  });

  it('equals what a reload reads: lines added, changed, kept and removed; linkage rows; untouched child views', async () => {
    const first = await bd(t, admin, 'save-page', orderPayload({ SupplierName: 'Answer' }, [line('A', 1, 2), line('B', 2, 3), line('C', 3, 4)]));
    const master = rowsOfView(first, po.masterId)[0]!;
    expect(first).toEqual(await reload(po.pageId, master.Id));
    const [a, , c] = rowsOfView(first, po.linesId);
    const second = await bd(t, admin, 'save-page', orderPayload({ ...master, Note: 'n' }, [a, { ...c, Quantity: 10 }, line('D', 1, 1)]));
    expect(rowsOfView(second, po.linesId).map((r) => r.Product)).toEqual(['A', 'C', 'D']);
    expect(second).toEqual(await reload(po.pageId, master.Id));
    // Only the master submitted: the lines stay and are answered as stored.
    const third = await bd(t, admin, 'save-page', { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ ...rowsOfView(second, po.masterId)[0], Note: 'm' }] }] });
    expect(rowsOfView(third, po.linesId)).toHaveLength(3);
    expect(third).toEqual(await reload(po.pageId, master.Id));

    const kit = control('Kit', 1001);
    const item = control('Item', 1001);
    const box = view('AnswerBox', [kit]);
    const parts = view('AnswerParts', [item], { viewType: 2, parentViewControlId: box.id, associateForeignKeyCode: 'ParentViewDataId' });
    box.viewControls = [parts];
    const pageId = await publishPage(t, admin, 'AnswerBox', {
      viewControls: [box],
      pageButtons: [],
      dataLinkages: [{ id: newId(), dataLinkType: 1, triggerConditions: [{ dataControlId: kit.id, triggerFormula: '{Kit} = "pens"' }], assignments: [{ dataControlId: item.id, assignmentFormula: 'LIST("red", "blue")' }], pageEvents: [], pageStateControls: [] }],
    });
    const linked = await bd(t, admin, 'save-page', { pageId, viewDataList: [{ viewId: box.id, dataList: [{ Kit: 'pens' }] }, { viewId: parts.id, dataList: [{ Item: 'manual' }] }] });
    const boxId = rowsOfView(linked, box.id)[0]!.Id;
    expect(linked).toEqual(await reload(pageId, boxId));
    const relinked = await bd(t, admin, 'save-page', { pageId, viewDataList: [{ viewId: box.id, dataList: [rowsOfView(linked, box.id)[0]] }, { viewId: parts.id, dataList: rowsOfView(linked, parts.id) }] });
    expect(relinked).toEqual(await reload(pageId, boxId));
  });
});

describe('totalCount on big tables', () => {
  it('is exact below 10,000 matching rows and the flagged planner estimate above', async () => {
    const table = bizTable(bizTableName(po.masterId));
    await sql`insert into ${table} ("Id", "ConcurrencyStamp", "SupplierName", "Note") select gen_random_uuid(), 'bulk', 'Bulk ' || (g % 500), 'bulk' from generate_series(1, 12000) as g`.execute(db());
    await sql`analyze ${table}`.execute(db());
    const all = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, MaxResultCount: 20 });
    expect(all.totalCountIsEstimate).toBe(true);
    expect(all.totalCount).toBeGreaterThan(10_000);
    expect(all.items).toHaveLength(20);
    const some = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, MaxResultCount: 20, filterConditions: [{ key: 'SupplierName', judgmentMethod: 'eq', value: 'Bulk 7' }] });
    expect(some).toMatchObject({ totalCount: 24, totalCountIsEstimate: false });
    // Near the threshold the estimate is checked by a capped count: 12,000 'bulk' rows are more than 10,000.
    const many = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, MaxResultCount: 20, filterConditions: [{ key: 'Note', judgmentMethod: 'eq', value: 'bulk' }] });
    expect(many.totalCountIsEstimate).toBe(true);
    expect(many.totalCount).toBeGreaterThan(10_000);
  });
});

describe('drop-down options and concurrent saves', () => {
  it('serves static options and dictionary options (in the caller’s language), searchable and paged', async () => {
    const colour = control('Colour', 1006, { options: [{ label: 'Red', value: 'r' }, { label: 'Blue', value: 'b' }, { label: 'Green', value: 'g' }] });
    const gender = control('Gender', 1006, { options: { dictionaryCode: 'Gender' } });
    const v = view('Prefs', [colour, gender]);
    const pageId = await publishPage(t, admin, 'Prefs', { viewControls: [v], pageButtons: [], dataLinkages: [] });
    const fixed = await bd(t, admin, 'query-drop-down-data', { pageId, dataControlId: colour.id, filter: 'e', maxResultCount: 1 });
    expect(fixed).toEqual({ items: [{ value: 'r', label: 'Red' }], totalCount: 3 });
    const dict = await t.call(admin, { method: 'POST', url: '/api/app/business-data/query-drop-down-data', headers: { 'accept-language': 'en-US' }, payload: { pageId, dataControlId: gender.id } });
    expect(dict.json().items.map((i: { value: string; label: string }) => `${i.value}:${i.label}`)).toEqual(['male:Male', 'female:Female', 'unknown:Unknown']);
    await bd(t, admin, 'query-drop-down-data', { pageId, dataControlId: 'no-such-control' }, 404);
  });

  it('two saves racing with the same stamp: one wins, the other gets 409', async () => {
    const saved = await bd(t, admin, 'save-page', orderPayload({ SupplierName: 'Race' }, []));
    const master = rowsOfView(saved, po.masterId)[0]!;
    const attempt = (note: string) => t.call(admin, { method: 'POST', url: '/api/app/business-data/save-page', payload: orderPayload({ ...master, Note: note }, []) });
    const results = await Promise.all([attempt('one'), attempt('two')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.statusCode === 200)!.json();
    const stored = await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: master.Id });
    expect(stored.viewDataList[0].dataList[0].Note).toBe(rowsOfView(winner, po.masterId)[0]!.Note);
  });
});
