import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { readHeadedSheet, readWorkbookRows, type SheetInfo } from './excel-reader.ts';

const zh = 'zh-CN' as const;
const en = 'en-US' as const;

async function bookBytes(fill: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  fill(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A workbook of the streaming writer (inline strings, no shared-strings part). */
async function streamedBytes(rows: number, sheetName = 'Data'): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = wb.addWorksheet(sheetName);
  sheet.addRow(['code', 'name']).commit();
  for (let i = 1; i <= rows; i++) sheet.addRow([`C${i}`, `名称${i}`]).commit();
  sheet.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

async function collect(bytes: Buffer, options: Parameters<typeof readWorkbookRows>[2] = { maxRows: 1000 }) {
  const seen: { sheet: SheetInfo; row: number; values: unknown[] }[] = [];
  const sheets = await readWorkbookRows(zh, bytes, options, (sheet, row) => {
    seen.push({ sheet, row: row.number, values: (row.values as unknown[]).slice(1) });
  });
  return { sheets, seen };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  const app = err as AppError;
  expect(app.statusCode).toBe(400);
  expect(app.options.validationErrors?.[0]?.members).toEqual(['file']);
  return app;
}

describe('readWorkbookRows', () => {
  it('reads every sheet in workbook order with texts, numbers, dates, booleans and formula results', async () => {
    const bytes = await bookBytes((wb) => {
      const a = wb.addWorksheet('主表');
      a.addRow(['名称', '数量', '日期', '启用', '合计']);
      a.addRow(['螺丝', 3, new Date(Date.UTC(2026, 10, 25)), true, { formula: 'B2*2', result: 6 }]);
      a.addRow([]);
      a.addRow(['螺母', 4.5, null, false, { formula: 'B4*2', result: 9 }]);
      const b = wb.addWorksheet('lines');
      b.addRow(['x']);
      b.addRow([{ richText: [{ text: '粗' }, { text: '体' }] }]);
    });
    const { sheets, seen } = await collect(bytes);
    expect(sheets).toEqual([
      { name: '主表', index: 0 },
      { name: 'lines', index: 1 },
    ]);
    expect(seen.map((s) => [s.sheet.name, s.row])).toEqual([
      ['主表', 1],
      ['主表', 2],
      ['主表', 4],
      ['lines', 1],
      ['lines', 2],
    ]);
    const second = seen[1]!.values;
    expect(second[0]).toBe('螺丝');
    expect(second[1]).toBe(3);
    expect((second[2] as Date).toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(second[3]).toBe(true);
    expect(second[4]).toEqual({ formula: 'B2*2', result: 6 });
    expect(seen[4]!.values[0]).toMatchObject({ richText: [{ text: '粗' }, { text: '体' }] });
  });

  it('keeps Chinese text intact across the chunks a large sheet is decompressed in', async () => {
    const text = (i: number) => `第${i}行：采购订单明细，供应商为华东精密机械有限公司`;
    const bytes = await bookBytes((wb) => {
      const s = wb.addWorksheet('S');
      s.addRow(['备注']);
      for (let i = 1; i <= 5000; i++) s.addRow([text(i)]);
    });
    const { seen } = await collect(bytes, { maxRows: 10_000 });
    expect(seen).toHaveLength(5001);
    const wrong = seen.slice(1).filter((s, i) => s.values[0] !== text(i + 1));
    expect(wrong).toEqual([]);
  });

  it('reads a workbook of the streaming writer (inline strings) and only its first sheet when asked', async () => {
    const bytes = await bookBytes((wb) => {
      wb.addWorksheet('one').addRow(['a']);
      wb.addWorksheet('two').addRow(['b']);
    });
    const first = await collect(bytes, { maxRows: 10, firstSheetOnly: true });
    expect(first.sheets.map((s) => s.name)).toEqual(['one']);
    const streamed = await collect(await streamedBytes(3));
    expect(streamed.seen.map((s) => s.values)).toEqual([
      ['code', 'name'],
      ['C1', '名称1'],
      ['C2', '名称2'],
      ['C3', '名称3'],
    ]);
  });

  it('stops at the first data row past the cap, having read no further', async () => {
    const bytes = await streamedBytes(50_000);
    let calls = 0;
    const err = await refusal(readWorkbookRows(zh, bytes, { maxRows: 100 }, () => void calls++));
    expect(err.message).toBe('文件数据超过 100 行（工作表“Data”第 102 行），请分批导入');
    // The header and the 100 rows within the cap reached the caller; nothing after them.
    expect(calls).toBe(101);
  });

  it('lets a module word the over-cap error itself', async () => {
    const mine = new AppError(400, 'ValidationError', null, { message: 'mine', validationErrors: [{ message: 'mine', members: ['file'] }] });
    const err = await refusal(readWorkbookRows(zh, await streamedBytes(5), { maxRows: 2, tooManyRows: () => mine }, () => {}));
    expect(err).toBe(mine);
  });

  it('refuses bytes that are not a workbook, and a zip without a workbook in it', async () => {
    const err = await refusal(readWorkbookRows(en, Buffer.from('name,qty\nbolt,3\n'), { maxRows: 10 }, () => {}));
    expect(err.message).toBe('The file is not a valid Excel workbook (.xlsx)');
    const truncated = await streamedBytes(2000);
    await refusal(readWorkbookRows(zh, truncated.subarray(0, truncated.length - 200), { maxRows: 10_000 }, () => {}));
  });

  // Excel writes characters XML cannot hold as `_xHHHH_`; they are read back as characters (as
  // ExcelJS's whole-workbook reader does), so NUL and lone surrogates can arrive this way.
  it('decodes _xHHHH_ escapes and names the first cell that breaks the text rule, or the sheet name', async () => {
    const ok = await collect(await bookBytes((wb) => wb.addWorksheet('S').addRow(['a_x0041_b', 'tab_x0009_'])));
    expect(ok.seen[0]!.values).toEqual(['aAb', 'tab\t']);
    for (const bad of ['bad_x0000_', 'lone_xD800_']) {
      const cell = await refusal(
        collect(
          await bookBytes((wb) => {
            const s = wb.addWorksheet('S');
            s.addRow(['a', 'b']);
            s.addRow(['ok', bad]);
          }),
        ),
      );
      expect(cell.message).toBe('工作表“S”的单元格 B2 包含空字符（U+0000）或不成对的代理项');
    }
  });

  it('reads a headed sheet: the header first (empty when row 1 is), a refused header before any data row', async () => {
    const seen: string[] = [];
    const headers: Map<number, string>[] = [];
    const handlers = { header: (t: Map<number, string>) => void headers.push(t), row: (r: ExcelJS.Row) => void seen.push(String(r.getCell(1).text)) };
    await readHeadedSheet(zh, await streamedBytes(2), { maxRows: 10 }, handlers);
    expect([...headers[0]!.values()]).toEqual(['code', 'name']);
    expect(seen).toEqual(['C1', 'C2']);
    const noHeader = await bookBytes((wb) => wb.addWorksheet('S').getRow(3).values = ['late']);
    headers.length = 0;
    await readHeadedSheet(zh, noHeader, { maxRows: 10 }, handlers);
    expect(headers).toEqual([new Map()]);
    let rows = 0;
    const refused = new AppError(400, 'ValidationError', null, { message: 'no code column', validationErrors: [{ message: 'no code column', members: ['file'] }] });
    const err = await refusal(readHeadedSheet(zh, await streamedBytes(5), { maxRows: 10 }, { header: () => { throw refused; }, row: () => void rows++ }));
    expect(err).toBe(refused);
    expect(rows).toBe(0);
  });
});
