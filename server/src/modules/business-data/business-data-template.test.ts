import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BD, bd, createDictionary, importWorkbook, publishPage } from '../../../test/business-data-fixtures.ts';
import { control, view } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Issue 12: the import template — sheets named by the views' titles with the field codes in a
// hidden row, Excel drop-downs and type checks, a notes sheet with a sample row; filled in as it
// comes, it imports.

let t: TestApp;
let admin: string;
let pageId: string;
let masterId: string;
let linesId: string;

type Validation = { type: string; formulae: unknown[]; operator?: string };
const validationsOf = (sheet: ExcelJS.Worksheet) => (sheet as unknown as { dataValidations: { model: Record<string, Validation> } }).dataValidations.model;
const template = async (language = 'zh-CN') => {
  const res = await t.call(admin, { method: 'GET', url: `${BD}/import-template?pageId=${pageId}&viewId=${masterId}`, headers: { 'accept-language': language } });
  expect(res.statusCode, res.body).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return workbook;
};
const rowValues = (sheet: ExcelJS.Worksheet, n: number) => (sheet.getRow(n).values as unknown[]).slice(1);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  await createDictionary(t, admin, {
    code: 'TplSupplier',
    title: { 'zh-CN': '供应商', 'en-US': 'Supplier' },
    items: [
      { code: 'S001', label: { 'zh-CN': '供应商甲', 'en-US': 'Supplier A' } },
      { code: 'S002', label: { 'zh-CN': '供应商乙', 'en-US': 'Supplier B' } },
      { code: 'S009', label: { 'zh-CN': '停用供应商', 'en-US': 'Retired' }, isEnabled: false },
    ],
  });
  const master = view('Order', [
    control('Name', 1001, { title: '名称', extraProperties: { required: true, maxLength: 20 } }),
    control('Supplier', 1006, { title: '供应商', options: { dictionaryCode: 'TplSupplier' } }),
    control('Qty', 1002, { title: '数量', extraProperties: { min: 0 } }),
    control('Price', 1003, { title: '单价', extraProperties: { accuracy: 2 } }),
    control('OrderDate', 1004, { title: '日期', extraProperties: { dateType: 2 } }),
    control('Urgent', 1005, { title: '加急' }),
  ], { title: '采购订单' });
  const lines = view('Lines', [control('Product', 1001, { title: '产品' }), control('Maker', 1006, { title: '厂家', options: { dictionaryCode: 'TplSupplier' } })], {
    title: '订单明细',
    viewType: 2,
    parentViewControlId: master.id,
    associateForeignKeyCode: 'ParentViewDataId',
  });
  master.viewControls = [lines];
  masterId = master.id;
  linesId = lines.id;
  pageId = await publishPage(t, admin, 'TplOrder', { viewControls: [master], pageButtons: [], dataLinkages: [] });
});
afterAll(() => t.close());

describe('import template', () => {
  it('names sheets by the views, hides the codes row, and checks values with Excel data validation', async () => {
    const workbook = await template();
    expect(workbook.worksheets.filter((s) => s.state === 'visible').map((s) => s.name)).toEqual(['采购订单', '订单明细', '填写说明']);
    const order = workbook.getWorksheet('采购订单')!;
    expect(rowValues(order, 1)).toEqual(['名称', '供应商', '数量', '单价', '日期', '加急']);
    expect(rowValues(order, 2)).toEqual(['Name', 'Supplier', 'Qty', 'Price', 'OrderDate', 'Urgent']);
    expect(order.getRow(2).hidden).toBe(true);
    const rules = validationsOf(order);
    // Read back, ExcelJS lists a range's rule per cell: the first and the last row of the range have it.
    expect(rules['B1002']).toEqual(rules['B3']);
    expect(rules['B1003']).toBeUndefined();
    // The supplier column: a drop-down of the enabled items' labels, from the hidden lists sheet.
    const supplier = rules['B3']!;
    expect(supplier.type).toBe('list');
    const [listSheet, range] = String(supplier.formulae[0]).split('!');
    const lists = workbook.getWorksheet(listSheet!.replace(/'/g, ''))!;
    expect(lists.state).toBe('veryHidden');
    const [from, to] = range!.replace(/\$/g, '').split(':');
    const labels: unknown[] = [];
    for (let r = Number(from!.slice(1)); r <= Number(to!.slice(1)); r++) labels.push(lists.getCell(`${from![0]}${r}`).value);
    expect(labels).toEqual(['供应商甲', '供应商乙']);
    expect(rules['C3']).toMatchObject({ type: 'whole', operator: 'between' });
    expect(rules['C3']!.formulae[0]).toBe(0);
    expect(rules['D3']).toMatchObject({ type: 'decimal' });
    expect(rules['E3']).toMatchObject({ type: 'date' });
    expect(rules['F3']).toMatchObject({ type: 'list', formulae: ['"是,否"'] });
    expect(rules['A3']).toMatchObject({ type: 'textLength', formulae: [20] });
    // The detail sheet: its master-row column, then its fields; the maker drop-down too.
    const lines = workbook.getWorksheet('订单明细')!;
    expect(rowValues(lines, 1)).toEqual(['主表行号', '产品', '厂家']);
    expect(rowValues(lines, 2)).toEqual(['masterRow', 'Product', 'Maker']);
    expect(validationsOf(lines)['C3']).toMatchObject({ type: 'list' });
    // A header's comment says what the column takes.
    expect(String(order.getCell('A1').note)).toMatch(/必填/);
  });

  it('the notes sheet explains each column with a sample value and shows a sample row per sheet', async () => {
    const notes = (await template()).getWorksheet('填写说明')!;
    const rows: unknown[][] = [];
    notes.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows.find((r) => r[2] === 'Supplier')).toEqual(['采购订单', '供应商', 'Supplier', '否', '从下拉列表选择：供应商甲、供应商乙', '供应商甲']);
    expect(rows.find((r) => r[2] === 'Name')!.slice(3)).toEqual(['是', '文本，最多 20 个字', '名称示例']);
    const sample = rows.findIndex((r) => r[0] === '示例行：订单明细');
    expect(rows[sample + 1]).toEqual(['主表行号', '产品', '厂家']);
    expect(rows[sample + 2]).toEqual([3, '产品示例', '供应商甲']);
    // In English for an English caller.
    const english = await template('en-US');
    expect(english.worksheets.filter((s) => s.state === 'visible').map((s) => s.name)).toEqual(['采购订单', '订单明细', 'Instructions']);
    const supplierRule = validationsOf(english.getWorksheet('采购订单')!)['F3'];
    expect(supplierRule).toMatchObject({ formulae: ['"Yes,No"'] });
  });

  it('filled in as it comes, the template imports: codes row, notes and lists sheets are skipped', async () => {
    const workbook = await template();
    const order = workbook.getWorksheet('采购订单')!;
    order.getRow(3).values = ['螺丝采购', '供应商乙', 5, 1.25, new Date(Date.UTC(2026, 10, 26)), '是'];
    order.getRow(4).values = ['螺母采购', 'S001', 2, 3, null, '否'];
    const lines = workbook.getWorksheet('订单明细')!;
    lines.getRow(3).values = [3, '十字螺丝', '供应商甲'];
    lines.getRow(4).values = [4, '六角螺母', null];
    const res = await importWorkbook(t, admin, { pageId, viewId: masterId }, workbook);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 2, errors: [] });
    const list = await bd(t, admin, 'query-view-data', { pageId, viewId: masterId, Sorting: 'Qty desc' });
    expect(list.items.map((r: Record<string, unknown>) => [r.Name, r.Supplier, r.Qty, r.Urgent])).toEqual([
      ['螺丝采购', 'S002', 5, true],
      ['螺母采购', 'S001', 2, false],
    ]);
    const screws = list.items.find((r: { Name: string }) => r.Name === '螺丝采购');
    expect(screws.OrderDate).toBe('2026-11-26');
    const page = await bd(t, admin, 'query-page-data', { pageId, id: screws.Id });
    expect(page.viewDataList.find((v: { viewId: string }) => v.viewId === linesId).dataList.map((r: Record<string, unknown>) => [r.Product, r.Maker])).toEqual([['十字螺丝', 'S001']]);
  });
});
