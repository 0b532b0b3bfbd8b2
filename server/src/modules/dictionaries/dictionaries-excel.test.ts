import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let admin: string;
let dictionary: { id: string; items: { id: string; code: string }[] };
const URL = '/api/app/business-dictionary';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const res = await t.call(admin, {
    method: 'POST',
    url: URL,
    payload: {
      code: 'Category',
      title: { 'zh-CN': '类别', 'en-US': 'Category' },
      isTree: true,
      items: [
        { code: '01', label: { 'zh-CN': '原材料', 'en-US': 'Raw materials' }, color: 'blue' },
        { code: '0101', label: { 'zh-CN': '钢材', 'en-US': 'Steel' }, parentCode: '01' },
        { code: '02', label: { 'zh-CN': '成品', 'en-US': 'Finished goods' }, isEnabled: false },
      ],
    },
  });
  dictionary = res.json();
});
afterAll(() => t.close());

async function workbook(header: string[], rows: (string | null)[][]) {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('items');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}
const importFile = (content: string, lang = 'zh-CN') =>
  t.call(admin, { method: 'POST', url: `${URL}/${dictionary.id}/import`, payload: { fileName: 'items.xlsx', content }, headers: { 'accept-language': lang } });
const items = async () => (await t.call(admin, { method: 'GET', url: `${URL}/${dictionary.id}` })).json().items as { id: string; code: string; label: Record<string, string>; parentCode: string | null; isEnabled: boolean; color: string | null }[];

describe('dictionary Excel', () => {
  it('exports the items with a label column per language, codes as text', async () => {
    const res = await t.call(admin, { method: 'GET', url: `${URL}/${dictionary.id}/export` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('Category.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const values = (r: number) => (sheet.getRow(r).values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v)));
    expect(values(1)).toEqual(['编码', '名称 (zh-CN)', '名称 (en-US)', '上级编码', '启用', '颜色']);
    expect(values(2)).toEqual(['01', '原材料', 'Raw materials', '', '是', 'blue']);
    expect(values(3)).toEqual(['0101', '钢材', 'Steel', '01', '是', '']);
    expect(values(4)).toEqual(['02', '成品', 'Finished goods', '', '否', '']);
    const en = await t.call(admin, { method: 'GET', url: `${URL}/${dictionary.id}/export`, headers: { 'accept-language': 'en-US' } });
    const enBook = new ExcelJS.Workbook();
    await enBook.xlsx.load(en.rawPayload as unknown as ArrayBuffer);
    expect((enBook.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(['Code', 'Label (zh-CN)', 'Label (en-US)', 'Parent code', 'Enabled', 'Colour']);
  });

  it('re-imports an exported file unchanged', async () => {
    const before = await items();
    const exported = await t.call(admin, { method: 'GET', url: `${URL}/${dictionary.id}/export` });
    const res = await importFile(exported.rawPayload.toString('base64'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ createdCount: 0, updatedCount: 3 });
    expect(await items()).toEqual(before);
  });

  it('updates items by code and adds new ones, keeping ids and items missing from the file', async () => {
    const before = await items();
    const content = await workbook(
      ['Code', 'Label (en-US)', 'Label (vi)', 'Parent code', 'Enabled'],
      [
        ['02', 'Products', 'Sản phẩm', '', 'yes'],
        ['0201', 'Bicycles', null, '02', ''],
        ['0102', 'Copper', null, '01', 'no'],
      ],
    );
    const res = await importFile(content, 'en-US');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ createdCount: 2, updatedCount: 1 });
    const after = await items();
    expect(after.map((i) => [i.code, i.parentCode, i.isEnabled])).toEqual([
      ['01', null, true],
      ['0101', '01', true],
      ['0102', '01', false],
      ['02', null, true],
      ['0201', '02', true],
    ]);
    const products = after.find((i) => i.code === '02')!;
    expect(products.id).toBe(before.find((i) => i.code === '02')!.id);
    // Languages not in the file keep their text; the colour column was absent, so colours stay.
    expect(products.label).toEqual({ 'zh-CN': '成品', 'en-US': 'Products', vi: 'Sản phẩm' });
    expect(after.find((i) => i.code === '01')!.color).toBe('blue');
  });

  it('reports every bad row and imports nothing', async () => {
    const before = await items();
    const content = await workbook(
      ['编码', '名称 (zh-CN)', '上级编码', '启用', '颜色'],
      [
        ['', '无编码', '', '', ''],
        ['bad code', '空格', '', '', ''],
        ['03', '', '', '', ''],
        ['04', '甲', 'missing', '', ''],
        ['05', '乙', '', '也许', ''],
        ['06', '丙', '', '', 'rainbow'],
        ['07', '丁', '', '', ''],
        ['07', '戊', '', '', ''],
        ['01', '原材料', '0101', '', ''],
      ],
    );
    const res = await importFile(content);
    expect(res.statusCode).toBe(400);
    const rows = (res.json().error.details.rows as { row: number }[]).map((r) => r.row);
    expect(rows).toEqual([2, 3, 4, 6, 7, 9]);
    expect(res.json().error.message).toBe('有 6 处错误，未导入任何数据');
    // The parent checks run once the rows themselves are valid.
    const missingParent = await importFile(await workbook(['编码', '名称 (zh-CN)', '上级编码'], [['03', '丙', ''], ['04', '甲', 'missing']]));
    expect(missingParent.statusCode).toBe(400);
    expect(missingParent.json().error.details.rows).toEqual([{ row: 3, column: '上级编码', message: '上级项目“missing”不存在' }]);
    const cycle = await importFile(await workbook(['编码', '名称 (zh-CN)', '上级编码'], [['01', '原材料', '0101']]));
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().error.details.rows).toEqual([{ row: 2, column: '上级编码', message: '项目“01”不能放在它自己或它的下级之下' }]);
    expect(await items()).toEqual(before);
    for (const bad of [Buffer.from('not a workbook').toString('base64'), await workbook(['名称 (zh-CN)'], [['x']]), await workbook(['编码'], [['x']]), await workbook(['编码', '名称'], [])]) {
      const r = await importFile(bad);
      expect(r.statusCode).toBe(400);
      expect(r.json().error.validationErrors[0].members).toEqual(['content']);
    }
  });
});
