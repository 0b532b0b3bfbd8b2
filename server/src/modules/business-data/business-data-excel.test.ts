import ExcelJS from 'exceljs';
import { MAX_IMPORT_ROWS } from './excel.service.ts';
import { largeWorkbook } from '../../../test/workbook-upload.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { BD, bd, importWorkbook, createDeliveryPlanPage, createDocumentNumberRule, createPurchaseOrderPage, newId, type DeliveryPlanPage, type PurchaseOrderPage } from '../../../test/business-data-fixtures.ts';

// Excel export (streamed, every filtered row) and import (validated, all or nothing), and save-view.

let t: TestApp;
let admin: string;
let po: PurchaseOrderPage;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  po = await createPurchaseOrderPage(t, admin);
  await bd(t, admin, 'save-view', {
    pageId: po.pageId,
    viewId: po.masterId,
    dataList: Array.from({ length: 150 }, (_, i) => ({ SupplierName: `S${String(i).padStart(3, '0')}`, Note: i % 2 ? 'odd' : 'even', Approved: i % 3 === 0 })),
  });
});
afterAll(() => t.close());

/** An import's answer, expected to succeed. */
async function importOk(response: ReturnType<typeof importWorkbook>) {
  const res = await response;
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function readSheet(buffer: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('excel', () => {
  it('exports every filtered row across pages, sorted, and imports it back (all or nothing)', async () => {
    const res = await t.call(admin, {
      method: 'POST',
      url: `${BD}/export-view-data`,
      payload: { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: 'Note', judgmentMethod: 'eq', value: 'odd' }], Sorting: 'SupplierName asc' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const rows = await readSheet(res.rawPayload);
    expect(rows[0]).toEqual(['OrderNo', 'Supplier', 'SupplierName', 'OrderDate', 'Total', 'Approved', 'Note']);
    expect(rows).toHaveLength(76);
    expect(rows[1]![2]).toBe('S001');
    expect(rows[75]![2]).toBe('S149');

    // The exported file imports again as it is (computed and numbered columns are skipped): 75 new records.
    const imported = await importOk(importWorkbook(t, admin, { pageId: po.pageId, viewId: po.masterId }, res.rawPayload));
    expect(imported).toEqual({ imported: 75, errors: [] });
    const copies = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: 'Note', judgmentMethod: 'eq', value: 'odd' }] });
    expect(copies.totalCount).toBe(150);
  });

  it('an import with a bad row writes nothing and reports each error by row and column', async () => {
    const before = (await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, MaxResultCount: 1 })).totalCount;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('x');
    sheet.addRow(['SupplierName', 'Note', 'OrderDate']);
    sheet.addRow(['ok 1', 'n', '2024-01-02']);
    sheet.addRow(['bad date', 'n', 'yesterday']);
    sheet.addRow(['too long', 'x'.repeat(60), '2024-01-02']);
    const res = await importWorkbook(t, admin, { pageId: po.pageId, viewId: po.masterId }, workbook);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.errors).toEqual([
      expect.objectContaining({ row: 3, column: 'OrderDate' }),
      expect.objectContaining({ row: 4, column: 'Note' }),
    ]);
    expect((await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, MaxResultCount: 1 })).totalCount).toBe(before);
    const unknown = new ExcelJS.Workbook();
    unknown.addWorksheet('x').addRow(['Nope']);
    const bad = await importWorkbook(t, admin, { pageId: po.pageId, viewId: po.masterId }, unknown);
    expect(bad.json().error.details.errors[0]).toMatchObject({ row: 1, column: 'Nope' });
  });

  it('the template lists the editable fields that are neither computed nor numbered', async () => {
    const res = await t.call(admin, { method: 'GET', url: `${BD}/import-template?pageId=${po.pageId}&viewId=${po.masterId}` });
    expect(res.statusCode).toBe(200);
    expect((await readSheet(res.rawPayload))[0]).toEqual(['OrderNo', 'Supplier', 'SupplierName', 'OrderDate', 'Approved', 'Note']);
  });
});

describe('excel with child rows (one sheet per child view, linked by master row)', () => {
  it('exports the lines of the exported orders and imports orders with their lines; totals recomputed', async () => {
    // Named after the 'S…' orders: the save-view test below takes the first two by name.
    await bd(t, admin, 'save-page', { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ SupplierName: 'Zkids A', Note: 'kids' }] }, { viewId: po.linesId, dataList: [{ Product: 'Pen', Quantity: 2, Price: 3 }, { Product: 'Ink', Quantity: 1, Price: 4 }] }] });
    await bd(t, admin, 'save-page', { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ SupplierName: 'Zkids B', Note: 'kids' }] }, { viewId: po.linesId, dataList: [{ Product: 'Cup', Quantity: 5, Price: 1 }] }] });
    const res = await t.call(admin, { method: 'POST', url: `${BD}/export-view-data`, headers: { 'accept-language': 'en-US' }, payload: { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: 'Note', judgmentMethod: 'eq', value: 'kids' }], Sorting: 'SupplierName desc' } });
    expect(res.statusCode, res.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Order', 'Lines']);
    const rowsOf = (w: ExcelJS.Worksheet) => {
      const out: unknown[][] = [];
      w.eachRow((r) => out.push((r.values as unknown[]).slice(1)));
      return out;
    };
    expect(rowsOf(workbook.worksheets[0]!).map((r) => r[2])).toEqual(['SupplierName', 'Zkids B', 'Zkids A']);
    expect(rowsOf(workbook.worksheets[1]!)).toEqual([
      ['Master row', 'Product', 'Quantity', 'Price', 'Amount'],
      [2, 'Cup', 5, 1, 5],
      [3, 'Pen', 2, 3, 6],
      [3, 'Ink', 1, 4, 4],
    ]);

    // Re-import as it is: two new orders, each with its own lines and recomputed total.
    expect(await importOk(importWorkbook(t, admin, { pageId: po.pageId, viewId: po.masterId }, res.rawPayload))).toEqual({ imported: 2, errors: [] });
    const copies = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: 'SupplierName', judgmentMethod: 'eq', value: 'Zkids A' }] });
    expect(copies.totalCount).toBe(2);
    for (const copy of copies.items) {
      const page = await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: copy.Id });
      expect(page.viewDataList[1].dataList.map((r: { Product: string; Amount: number }) => `${r.Product}:${r.Amount}`)).toEqual(['Pen:6', 'Ink:4']);
      expect(page.viewDataList[0].dataList[0].Total).toBe(10);
    }
  });

  it('a bad child row or a dangling master row writes nothing and is reported by sheet, row and column', async () => {
    const count = async () => (await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, MaxResultCount: 1 })).totalCount;
    const before = await count();
    const workbook = new ExcelJS.Workbook();
    const master = workbook.addWorksheet('Order');
    master.addRow(['SupplierName']);
    master.addRow(['Good one']);
    master.addRow(['Bad lines']);
    const childSheet = workbook.addWorksheet('Lines');
    childSheet.addRow(['主表行号', 'Product', 'Quantity', 'Price']);
    childSheet.addRow([2, 'Pen', 1, 1]);
    childSheet.addRow([3, 'Cup', 'many', 1]);
    childSheet.addRow([3, '', 1, 1]);
        const res = await importWorkbook(t, admin, { pageId: po.pageId, viewId: po.masterId }, workbook);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.errors).toEqual([
      expect.objectContaining({ sheet: 'Lines', row: 3, column: 'Quantity' }),
      expect.objectContaining({ sheet: 'Lines', row: 4, column: 'Product' }),
    ]);
    expect(await count()).toBe(before);
    childSheet.addRow([9, 'Orphan', 1, 1]);
    workbook.addWorksheet('Nope').addRow(['x']);
    const dangling = await importWorkbook(t, admin, { pageId: po.pageId, viewId: po.masterId }, workbook);
    expect(dangling.statusCode).toBe(400);
    expect(dangling.json().error.details.errors).toEqual([
      expect.objectContaining({ sheet: 'Lines', row: 5, column: '主表行号' }),
      expect.objectContaining({ sheet: 'Nope', row: 1 }),
    ]);
    expect(await count()).toBe(before);
  });

  it('the template has a sheet per child view with the master row column', async () => {
    const res = await t.call(admin, { method: 'GET', url: `${BD}/import-template?pageId=${po.pageId}&viewId=${po.masterId}`, headers: { 'accept-language': 'en-US' } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    // The data sheets, then the notes (the hidden lists sheet only when a field has choices).
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Order', 'Lines', 'Instructions']);
    expect((workbook.worksheets[1]!.getRow(1).values as unknown[]).slice(1)).toEqual(['Master row', 'Product', 'Quantity', 'Price']);
  });
});

describe('excel with rows below the child views (a sheet per view, linked by parent row)', () => {
  let dp: DeliveryPlanPage;
  type Row = Record<string, unknown>;
  const rowsOf = (w: ExcelJS.Worksheet) => {
    const out: unknown[][] = [];
    w.eachRow((r) => out.push((r.values as unknown[]).slice(1)));
    return out;
  };
  const load = async (buffer: Buffer) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    return { names: workbook.worksheets.map((w) => w.name), rows: Object.fromEntries(workbook.worksheets.map((w) => [w.name, rowsOf(w)])) };
  };
  const fileOf = async (workbook: ExcelJS.Workbook) => workbook;
  const count = async () => (await bd(t, admin, 'query-view-data', { pageId: dp.pageId, viewId: dp.masterId, MaxResultCount: 1 })).totalCount;
  /** A record's rows below the master, each described by its values and the chain of its parents. */
  async function treeOf(id: string) {
    const page = await bd(t, admin, 'query-page-data', { pageId: dp.pageId, id });
    const list = (viewId: string): Row[] => page.viewDataList.find((v: { viewId: string }) => v.viewId === viewId).dataList;
    const lines = new Map(list(dp.linesId).map((r) => [r.Id, `${r.Product}x${r.Quantity}`]));
    const deliveries = new Map(list(dp.deliveriesId).map((r) => [r.Id, `${lines.get(r.ParentViewDataId)}>${r.DeliverOn}x${r.Shipped}`]));
    const ids = [...list(dp.linesId), ...list(dp.deliveriesId), ...list(dp.checksId), ...list(dp.remarksId)].map((r) => String(r.Id));
    return {
      ids,
      lines: [...lines.values()],
      deliveries: [...deliveries.values()],
      checks: list(dp.checksId).map((r) => `${deliveries.get(r.ParentViewDataId)}>${r.Inspector}`),
      remarks: list(dp.remarksId).map((r) => r.Text),
    };
  }

  beforeAll(async () => {
    dp = await createDeliveryPlanPage(t, admin);
    const [pen, ink, cup, d1, d3] = [newId(), newId(), newId(), newId(), newId()];
    await bd(t, admin, 'save-page', {
      pageId: dp.pageId,
      viewDataList: [
        { viewId: dp.masterId, dataList: [{ SupplierName: 'GA', Note: 'deep' }] },
        { viewId: dp.linesId, dataList: [{ Id: pen, Product: 'Pen', Quantity: 2 }, { Id: ink, Product: 'Ink', Quantity: 1 }] },
        {
          viewId: dp.deliveriesId,
          dataList: [
            { Id: d1, ParentViewDataId: pen, DeliverOn: '2024-01-05', Shipped: 1 },
            { ParentViewDataId: pen, DeliverOn: '2024-02-01', Shipped: 1 },
            { Id: d3, ParentViewDataId: ink, DeliverOn: '2024-03-01', Shipped: 1 },
          ],
        },
        // Entered in the other order than their deliveries: the export orders them by parent row.
        { viewId: dp.checksId, dataList: [{ ParentViewDataId: d3, Inspector: 'Ann' }, { ParentViewDataId: d1, Inspector: 'Bob' }] },
        { viewId: dp.remarksId, dataList: [{ Text: 'urgent' }] },
      ],
    });
    await bd(t, admin, 'save-page', {
      pageId: dp.pageId,
      viewDataList: [
        { viewId: dp.masterId, dataList: [{ SupplierName: 'GB', Note: 'deep' }] },
        { viewId: dp.linesId, dataList: [{ Id: cup, Product: 'Cup', Quantity: 5 }] },
        { viewId: dp.deliveriesId, dataList: [{ ParentViewDataId: cup, DeliverOn: '2024-04-01', Shipped: 5 }] },
      ],
    });
  });

  it('exports a sheet per view below the master; deeper sheets name their row in the parent sheet; the file imports back as it is', async () => {
    const res = await t.call(admin, { method: 'POST', url: `${BD}/export-view-data`, headers: { 'accept-language': 'en-US' }, payload: { pageId: dp.pageId, viewId: dp.masterId, filterConditions: [{ key: 'Note', judgmentMethod: 'eq', value: 'deep' }], Sorting: 'SupplierName desc' } });
    expect(res.statusCode, res.body).toBe(200);
    const file = await load(res.rawPayload);
    expect(file.names).toEqual(['Order', 'Lines', 'Deliveries', 'Checks', 'Remarks']);
    expect(file.rows.Order).toEqual([['SupplierName', 'Note'], ['GB', 'deep'], ['GA', 'deep']]);
    expect(file.rows.Lines).toEqual([
      ['Master row', 'Product', 'Quantity'],
      [2, 'Cup', 5],
      [3, 'Pen', 2],
      [3, 'Ink', 1],
    ]);
    expect(file.rows.Deliveries).toEqual([
      ['Parent row', 'DeliverOn', 'Shipped'],
      [2, '2024-04-01', 5],
      [3, '2024-01-05', 1],
      [3, '2024-02-01', 1],
      [4, '2024-03-01', 1],
    ]);
    expect(file.rows.Checks).toEqual([
      ['Parent row', 'Inspector'],
      [3, 'Bob'],
      [5, 'Ann'],
    ]);
    expect(file.rows.Remarks).toEqual([['Master row', 'Text'], [3, 'urgent']]);

    // Re-import: two new orders, each with new rows at every depth under the right parents.
    expect(await importOk(importWorkbook(t, admin, { pageId: dp.pageId, viewId: dp.masterId }, res.rawPayload))).toEqual({ imported: 2, errors: [] });
    const expected = {
      GA: {
        lines: ['Penx2', 'Inkx1'],
        deliveries: ['Penx2>2024-01-05x1', 'Penx2>2024-02-01x1', 'Inkx1>2024-03-01x1'],
        checks: ['Penx2>2024-01-05x1>Bob', 'Inkx1>2024-03-01x1>Ann'],
        remarks: ['urgent'],
      },
      GB: { lines: ['Cupx5'], deliveries: ['Cupx5>2024-04-01x5'], checks: [], remarks: [] },
    };
    for (const [name, want] of Object.entries(expected)) {
      const found = await bd(t, admin, 'query-view-data', { pageId: dp.pageId, viewId: dp.masterId, filterConditions: [{ key: 'SupplierName', judgmentMethod: 'eq', value: name }], Sorting: 'CreationTime asc' });
      expect(found.totalCount).toBe(2);
      const [original, copy]: Awaited<ReturnType<typeof treeOf>>[] = await Promise.all(found.items.map((r: Row) => treeOf(String(r.Id))));
      // Sorting of checks aside (entry order), the copy holds the same tree as the original.
      expect({ ...original!, ids: undefined, checks: [...original!.checks].sort() }).toEqual({ ...want, ids: undefined, checks: [...want.checks].sort() });
      expect({ ...copy!, ids: undefined }).toEqual({ ...want, ids: undefined });
      expect(copy!.ids.filter((id) => original!.ids.includes(id))).toEqual([]);
    }
  });

  it('a bad cell or a dangling parent row below the child views writes nothing and is reported by sheet, row and column', async () => {
    const before = await count();
    const workbook = new ExcelJS.Workbook();
    const master = workbook.addWorksheet('Order');
    master.addRow(['SupplierName']);
    master.addRow(['Good one']);
    master.addRow(['Bad deliveries']);
    const lines = workbook.addWorksheet('Lines');
    lines.addRow(['主表行号', 'Product']);
    lines.addRow([2, 'Pen']);
    lines.addRow([3, 'Cup']);
    const deliveries = workbook.addWorksheet('Deliveries');
    deliveries.addRow(['上级行号', 'DeliverOn', 'Shipped']);
    deliveries.addRow([3, '2024-01-01', 1]);
    deliveries.addRow([2, 'not a date', 1]);
    deliveries.addRow([3, '2024-01-02', -1]);
    const checks = workbook.addWorksheet('Checks');
    checks.addRow(['parentrow', 'Inspector']);
    checks.addRow([2, 'Ann']);
    checks.addRow([4, '']);
    const res = await importWorkbook(t, admin, { pageId: dp.pageId, viewId: dp.masterId }, workbook);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.errors).toEqual([
      expect.objectContaining({ sheet: 'Deliveries', row: 3, column: 'DeliverOn' }),
      expect.objectContaining({ sheet: 'Deliveries', row: 4, column: 'Shipped' }),
      expect.objectContaining({ sheet: 'Checks', row: 3, column: 'Inspector' }),
    ]);
    expect(await count()).toBe(before);

    // Fixed cells, but rows naming parent rows that are not in the parent's sheet. A check under
    // the dangling delivery (row 5 exists) is not reported a second time.
    deliveries.getRow(3).getCell(2).value = '2024-01-03';
    deliveries.getRow(4).getCell(3).value = 2;
    checks.getRow(3).getCell(2).value = 'Bob';
    deliveries.addRow([9, '2024-01-04', 1]);
    checks.addRow([5, 'Amy']);
    checks.addRow([7, 'Zed']);
    const dangling = await importWorkbook(t, admin, { pageId: dp.pageId, viewId: dp.masterId }, workbook);
    expect(dangling.statusCode).toBe(400);
    expect(dangling.json().error.details.errors).toEqual([
      { sheet: 'Deliveries', row: 5, column: '上级行号', message: '上级行号“9”不是工作表“Lines”中的数据行' },
      { sheet: 'Checks', row: 5, column: '上级行号', message: '上级行号“7”不是工作表“Deliveries”中的数据行' },
    ]);
    expect(await count()).toBe(before);

    // Without the dangling rows the same file imports: two orders, the rows under the right parents.
    for (const row of [deliveries.getRow(5), checks.getRow(4), checks.getRow(5)]) row.eachCell((cell) => (cell.value = null));
    expect(await importOk(importWorkbook(t, admin, { pageId: dp.pageId, viewId: dp.masterId }, workbook))).toEqual({ imported: 2, errors: [] });
    expect(await count()).toBe(before + 2);
    const created = await bd(t, admin, 'query-view-data', { pageId: dp.pageId, viewId: dp.masterId, filterConditions: [{ key: 'SupplierName', judgmentMethod: 'eq', value: 'Bad deliveries' }] });
    const tree = await treeOf(created.items[0].Id);
    expect({ ...tree, ids: undefined }).toEqual({ ids: undefined, lines: ['Cupx0'], deliveries: ['Cupx0>2024-01-01x1', 'Cupx0>2024-01-02x2'], checks: ['Cupx0>2024-01-01x1>Ann', 'Cupx0>2024-01-02x2>Bob'], remarks: [] });
  });

  it('the template has a sheet per view below the master, deeper ones with the parent row column', async () => {
    const res = await t.call(admin, { method: 'GET', url: `${BD}/import-template?pageId=${dp.pageId}&viewId=${dp.masterId}`, headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(200);
    const file = await load(res.rawPayload);
    expect(file.names).toEqual(['Order', 'Lines', 'Deliveries', 'Checks', 'Remarks', 'Instructions']);
    delete file.rows.Instructions;
    expect(Object.values(file.rows).map((rows) => rows[0])).toEqual([
      ['SupplierName', 'Note'],
      ['Master row', 'Product', 'Quantity'],
      ['Parent row', 'DeliverOn', 'Shipped'],
      ['Parent row', 'Inspector'],
      ['Master row', 'Text'],
    ]);
    const zh = await t.call(admin, { method: 'GET', url: `${BD}/import-template?pageId=${dp.pageId}&viewId=${dp.masterId}`, headers: { 'accept-language': 'zh-CN' } });
    expect((await load(zh.rawPayload)).rows.Checks![0]).toEqual(['上级行号', 'Inspector']);
  });
});

describe('import: the file read row by row, validated outside the transaction, written in one', () => {
  it('draws document numbers, runs the linkages and writes history for every imported record', async () => {
    const ruleId = await createDocumentNumberRule(t, admin, 'IMP');
    const numbered = await createPurchaseOrderPage(t, admin, { code: 'NumberedImport', ruleId });
    const workbook = new ExcelJS.Workbook();
    const orders = workbook.addWorksheet('Order');
    orders.addRow(['SupplierName', 'Note']);
    for (const name of ['Ann', 'Bob', 'Cid']) orders.addRow([name, 'numbered']);
    const lines = workbook.addWorksheet('Lines');
    lines.addRow(['Master row', 'Product', 'Quantity', 'Price']);
    lines.addRow([2, 'Pen', 2, 3]);
    lines.addRow([3, 'Ink', 1, 4]);
    lines.addRow([3, 'Cup', 5, 1]);
    expect(await importOk(importWorkbook(t, admin, { pageId: numbered.pageId, viewId: numbered.masterId }, workbook))).toEqual({ imported: 3, errors: [] });
    const list = await bd(t, admin, 'query-view-data', { pageId: numbered.pageId, viewId: numbered.masterId, Sorting: 'OrderNo asc' });
    expect(list.items.map((r: { OrderNo: string; SupplierName: string; Total: number | null }) => [r.OrderNo, r.SupplierName, r.Total])).toEqual([
      ['IMP-00001', 'Ann', 6],
      ['IMP-00002', 'Bob', 9],
      ['IMP-00003', 'Cid', 0],
    ]);
    const history = await t.call(admin, { method: 'GET', url: `${BD}/record-history?pageId=${numbered.pageId}&id=${list.items[1].Id}` });
    expect(history.json().items.map((h: { action: string }) => h.action)).toEqual(['Created']);
    expect(history.json().items[0].changes).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'OrderNo', after: 'IMP-00002' }), expect.objectContaining({ code: 'Product', after: 'Cup' })]));
    // A refused import gives its numbers back: the next record continues the sequence.
    const bad = new ExcelJS.Workbook();
    bad.addWorksheet('Order').addRows([['SupplierName', 'OrderDate'], ['Dan', 'not a date']]);
    expect((await importWorkbook(t, admin, { pageId: numbered.pageId, viewId: numbered.masterId }, bad)).statusCode).toBe(400);
    const next = await bd(t, admin, 'save-page', { pageId: numbered.pageId, viewDataList: [{ viewId: numbered.masterId, dataList: [{ SupplierName: 'Eve' }] }] });
    // The same record saved by save-page: the same number sequence, the same total of no lines.
    expect(next.viewDataList[0].dataList[0]).toMatchObject({ OrderNo: 'IMP-00004', Total: 0 });
  });

  it('answers 400 naming the file for anything that is not a workbook, before writing', async () => {
    const target = { pageId: po.pageId, viewId: po.masterId };
    const before = (await bd(t, admin, 'query-view-data', { ...target, MaxResultCount: 1 })).totalCount;
    const url = `${BD}/import-view-data?pageId=${po.pageId}&viewId=${po.masterId}`;
    for (const res of [
      await importWorkbook(t, admin, target, Buffer.from('SupplierName\nAcme\n')),
      await t.call(admin, { method: 'POST', url, payload: { fileBase64: 'UEsDBA==' } }),
      await t.call(admin, { method: 'POST', url }),
      await t.call(admin, { method: 'POST', url, headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.alloc(0) }),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.validationErrors.flatMap((v: { members: string[] }) => v.members)).toEqual(['file']);
    }
    const wrongView = await t.call(admin, { method: 'POST', url: `${BD}/import-view-data?pageId=${po.pageId}`, headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.from('x') });
    expect(wrongView.statusCode).toBe(400);
    expect((await bd(t, admin, 'query-view-data', { ...target, MaxResultCount: 1 })).totalCount).toBe(before);
  });

  it(`refuses a file past ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows while reading it, with memory bounded, and writes nothing`, async () => {
    // 130,000 rows written by the streaming writer (about 2 MB): the whole-workbook reader this
    // replaced held ~1.7 GB for 300,000 rows; here the read stops at the first row past the cap.
    const file = await largeWorkbook(['SupplierName', 'Note'], 130_000, (i) => [`Bulk ${i}`, 'cap']);
    // The process's resident memory: on PostgreSQL the import runs in a worker thread of this process.
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const res = await importWorkbook(t, admin, { pageId: po.pageId, viewId: po.masterId }, file);
    clearInterval(sampler);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    // The data row past the cap is sheet row cap + 2 (row 1 is the header).
    expect(res.json().error.message).toContain(`第 ${MAX_IMPORT_ROWS + 2} 行`);
    expect(res.json().error.validationErrors[0].members).toEqual(['file']);
    expect(peak - baseline).toBeLessThan(300 * 1024 * 1024);
    const written = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: 'Note', judgmentMethod: 'eq', value: 'cap' }], MaxResultCount: 1 });
    expect(written.totalCount).toBe(0);
  }, 120_000);
});

describe('save-view', () => {
  it('adds, changes and deletes child rows of several orders in one call, recomputing each order', async () => {
    const list = await bd(t, admin, 'query-view-data', { pageId: po.pageId, viewId: po.masterId, MaxResultCount: 2, Sorting: 'SupplierName asc' });
    const [a, b] = list.items;
    await bd(t, admin, 'save-view', {
      pageId: po.pageId,
      viewId: po.linesId,
      dataList: [
        { ParentViewDataId: a.Id, Product: 'x', Quantity: 2, Price: 3 },
        { ParentViewDataId: a.Id, Product: 'y', Quantity: 1, Price: 1 },
        { ParentViewDataId: b.Id, Product: 'z', Quantity: 5, Price: 1 },
      ],
    });
    const pageA = await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: a.Id });
    expect(pageA.viewDataList[0].dataList[0].Total).toBe(7);
    const y = pageA.viewDataList[1].dataList.find((r: { Product: string }) => r.Product === 'y');
    const x = pageA.viewDataList[1].dataList.find((r: { Product: string }) => r.Product === 'x');
    await bd(t, admin, 'save-view', { pageId: po.pageId, viewId: po.linesId, dataList: [{ ...x, Quantity: 10 }], deletedIds: [y.Id] });
    const after = await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: a.Id });
    expect(after.viewDataList[1].dataList.map((r: { Product: string }) => r.Product)).toEqual(['x']);
    expect(after.viewDataList[0].dataList[0].Total).toBe(30);
    expect((await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: b.Id })).viewDataList[0].dataList[0].Total).toBe(5);
    await bd(t, admin, 'save-view', { pageId: po.pageId, viewId: po.linesId, dataList: [{ ParentViewDataId: '00000000-0000-4000-8000-000000000000', Product: 'q' }] }, 404);
  });
});
