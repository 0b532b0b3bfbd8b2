import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { attachmentDisposition, clipCellText, EXCEL_CELL_LIMIT, parseBoolean, styleHeaderRow, workbookBuffer } from '../src/platform/excel.ts';

describe('platform/excel', () => {
  it('reads yes/no in every vocabulary the workbooks use, case-insensitive', () => {
    for (const yes of ['是', '启用', 'true', 'TRUE', 'Yes', 'y', 'Y', '1', ' active ', 'Enabled']) expect(parseBoolean(yes), yes).toBe(true);
    for (const no of ['否', '停用', 'false', 'False', 'NO', 'n', '0', 'inactive', 'DISABLED']) expect(parseBoolean(no), no).toBe(false);
    for (const unknown of ['', '  ', 'maybe', '2', 'yess', null, undefined]) expect(parseBoolean(unknown), String(unknown)).toBeNull();
  });

  it('writes a workbook with a bold, frozen header and reads it back', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Sheet');
    sheet.columns = [{ header: 'Code', key: 'code' }, { header: 'Name', key: 'name' }];
    styleHeaderRow(sheet);
    sheet.addRow({ code: 'A', name: '甲' });
    const plain = workbook.addWorksheet('Plain');
    plain.addRow(['x']);
    styleHeaderRow(plain, { shaded: false });
    const bytes = await workbookBuffer(workbook);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    {
      const read = new ExcelJS.Workbook();
      await read.xlsx.load(bytes as unknown as ArrayBuffer);
      const first = read!.worksheets[0]!;
      expect(first.getRow(1).font?.bold).toBe(true);
      expect(first.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(first.getRow(2).getCell(2).text).toBe('甲');
      expect((first.getCell(1, 1).fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb).toBe('FFE8F8F2');
      expect((read!.worksheets[1]!.getCell(1, 1).fill as ExcelJS.FillPattern | undefined)?.fgColor).toBeUndefined();
    }
  });

  it('clips long cell texts and names downloads safely', () => {
    expect(clipCellText('short')).toBe('short');
    expect(clipCellText('x'.repeat(EXCEL_CELL_LIMIT + 5))).toHaveLength(EXCEL_CELL_LIMIT + 1);
    expect(attachmentDisposition('用户导入模板.xlsx')).toBe(`attachment; filename="______.xlsx"; filename*=UTF-8''${encodeURIComponent('用户导入模板.xlsx')}`);
  });
});
