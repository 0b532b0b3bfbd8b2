import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MAX_DICTIONARY_ITEMS } from '@tessera/core/contracts/dictionaries';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { largeWorkbook, refusedMembers, uploadWorkbook, workbookOf } from '../../../test/workbook-upload.ts';

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

const workbook = (header: string[], rows: (string | null)[][]) => workbookOf(header, rows, 'items');
const importFile = (content: Buffer | string, lang = 'zh-CN') => uploadWorkbook(t, admin, `${URL}/${dictionary.id}/import`, content, { headers: { 'accept-language': lang } });
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
    const res = await importFile(exported.rawPayload);
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
    for (const bad of [await workbook(['名称 (zh-CN)'], [['x']]), await workbook(['编码'], [['x']]), await workbook(['编码', '名称'], [])]) {
      const r = await importFile(bad);
      expect(r.statusCode).toBe(400);
      expect(refusedMembers(r)).toEqual(['file']);
    }
  });

  it('refuses what is not a workbook with a 400 naming the file: other bytes, a JSON body, no body', async () => {
    const url = `${URL}/${dictionary.id}/import`;
    for (const res of [
      await importFile(Buffer.from('编码,名称\n01,原材料\n')),
      await importFile('not a workbook'),
      await t.call(admin, { method: 'POST', url, payload: { fileName: 'items.xlsx', content: 'UEsDBA==' } }),
      await t.call(admin, { method: 'POST', url }),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('ValidationError');
      expect(refusedMembers(res)).toEqual(['file']);
    }
    expect((await importFile('x', 'en-US')).json().error.message).toBe('The file is not a valid Excel workbook (.xlsx)');
  });

  it('refuses a cell with NUL or a lone surrogate, naming the cell', async () => {
    const res = await importFile(await workbook(['编码', '名称 (zh-CN)'], [['09', 'c_xD800_d']]));
    expect(res.statusCode, res.body).toBe(400);
    expect(refusedMembers(res)).toEqual(['file']);
    expect(res.json().error.message).toContain('B2');
  });

  it('stops reading at the first row past the cap and imports nothing', async () => {
    const before = await items();
    const over = IMPORT_MAX_DICTIONARY_ITEMS + 500;
    const res = await importFile(await largeWorkbook(['编码', '名称 (zh-CN)'], over, (i) => [`C${i}`, `项目${i}`]));
    expect(res.statusCode, res.body).toBe(400);
    expect(refusedMembers(res)).toEqual(['file']);
    // Row 1 is the header: the read ended at the first row past the cap.
    expect(res.json().error.message).toBe(`一个字典最多 ${IMPORT_MAX_DICTIONARY_ITEMS} 个项目，文件第 ${IMPORT_MAX_DICTIONARY_ITEMS + 2} 行已超出`);
    expect(await items()).toEqual(before);
  });

  it('refuses a file that would take the dictionary past its item cap', async () => {
    const before = await items();
    const rows = Array.from({ length: IMPORT_MAX_DICTIONARY_ITEMS - 1 }, (_, i) => [`N${i}`, `新${i}`]);
    const res = await importFile(await largeWorkbook(['编码', '名称 (zh-CN)'], rows.length, (i) => rows[i - 1]!));
    expect(res.statusCode, res.body).toBe(400);
    expect(refusedMembers(res)).toEqual(['file']);
    expect(res.json().error.message).toContain(`${IMPORT_MAX_DICTIONARY_ITEMS} 个项目`);
    expect(await items()).toEqual(before);
  });

  it('needs the dictionary update permission, and a dictionary that exists', async () => {
    const bytes = await workbook(['编码', '名称 (zh-CN)'], [['09', '九']]);
    expect((await uploadWorkbook(t, null, `${URL}/${dictionary.id}/import`, bytes)).statusCode).toBe(401);
    const missing = await uploadWorkbook(t, admin, `${URL}/0193f0a0-0000-7000-8000-00000000dead/import`, bytes);
    expect(missing.statusCode).toBe(404);
  });

  it('imports a large file within the cap in one save', async () => {
    const big = await t.call(admin, { method: 'POST', url: URL, payload: { code: 'Parts', title: { 'zh-CN': '零件' }, items: [] } });
    expect(big.statusCode, big.body).toBe(200);
    const res = await uploadWorkbook(t, admin, `${URL}/${big.json().id}/import`, await largeWorkbook(['编码', '名称 (zh-CN)', '启用'], 3000, (i) => [`P${i}`, `零件${i}`, i % 2 ? '是' : '否']));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ createdCount: 3000, updatedCount: 0 });
    expect(res.json().dictionary.items).toHaveLength(3000);
    expect(res.json().dictionary.items[1]).toMatchObject({ code: 'P2', label: { 'zh-CN': '零件2' }, isEnabled: false });
  });
});
