import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDataControl } from '@tessera/core/page-definition';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { BD, bd, importWorkbook, newId, publishPage } from '../../../test/business-data-fixtures.ts';
import { control, view } from '../../../test/page-helpers.ts';
import { bizTable, bizTableName } from '../pages/index.ts';

// Issue 12, "control types missing from the palette": multi-line text (1011), rich text (1012,
// sanitised HTML) and currency amount (1015) through publish, save, list, history, export, import.

let t: TestApp;
let admin: string;
let pageId: string;
let viewId: string;

const c: Record<string, TDataControl> = {
  Name: control('Name', 1001),
  Memo: control('Memo', 1011),
  Body: control('Body', 1012),
  Amount: control('Amount', 1015, { extraProperties: { capitals: true } }),
  Cost: control('Cost', 1015, { extraProperties: { accuracy: 0 } }),
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const v = view('Notes', Object.values(c));
  viewId = v.id;
  pageId = await publishPage(t, admin, 'TextControls', { viewControls: [v], pageButtons: [], dataLinkages: [] });
});
afterAll(() => t.close());

const member = (code: string) => `viewDataList.0.dataList.0.${code}`;
const savePage = (record: object, headers: Record<string, string> = {}) =>
  t.call(admin, { method: 'POST', url: `${BD}/save-page`, headers, payload: { pageId, viewDataList: [{ viewId, dataList: [record] }] } });
const stored = async (id: string) => (await sql<Record<string, unknown>>`select * from ${bizTable(bizTableName(viewId))} where "Id" = ${id}`.execute(t.database.db)).rows[0]!;
function expectInvalid(res: { statusCode: number; body: string; json: () => any }, members: string[]) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().error.validationErrors.map((e: { members: string[] }) => e.members[0])).toEqual(members);
}

const HOSTILE =
  '<p><strong>Bold</strong> <em onclick="steal()">it</em></p><script>alert(1)</script><img src=x onerror=alert(1)>' +
  '<p><a href="javascript:alert(1)">bad</a> <a href="https://example.com/x" onmouseover="x()">good</a> <a href=" JaVaScRiPt:alert(1)">bad2</a></p>' +
  '<p style="position:fixed"><span style="color:#ff0000;position:absolute">red</span></p><iframe src="https://evil"></iframe><svg onload=alert(1)><a href="https://e.com">svg</a></svg>';

describe('the designer offers the three types', () => {
  it('control-designer lists 1011, 1012 and 1015 (with accuracy 2 and the capitals switch)', async () => {
    const res = await t.call(admin, { method: 'GET', url: '/api/app/control-designer' });
    expect(res.statusCode, res.body).toBe(200);
    const types = res.json().controlTypes as { code: number; tableFieldType: number; properties: { key: string; default?: unknown }[] }[];
    const byCode = new Map(types.map((x) => [x.code, x]));
    expect(byCode.get(1011)?.tableFieldType).toBe(1);
    expect(byCode.get(1012)?.tableFieldType).toBe(1);
    expect(byCode.get(1015)?.tableFieldType).toBe(3);
    const props = new Map(byCode.get(1015)!.properties.map((p) => [p.key, p]));
    expect(props.get('extraProperties.accuracy')?.default).toBe(2);
    expect(props.has('extraProperties.capitals')).toBe(true);
  });
});

describe('save', () => {
  it('keeps line breaks, cleans rich text, stores the amount at 2 places', async () => {
    const id = newId();
    const res = await savePage({ Id: id, Name: 'one', Memo: 'line 1\nline 2', Body: HOSTILE, Amount: '1,234.5', Cost: 99 });
    expect(res.statusCode, res.body).toBe(200);
    const row = await stored(id);
    expect(row.Memo).toBe('line 1\nline 2');
    const body = String(row.Body);
    expect(body).toContain('<strong>Bold</strong>');
    expect(body).toContain('<em>it</em>');
    expect(body).toContain('<a href="https://example.com/x" target="_blank" rel="noopener noreferrer nofollow">good</a>');
    expect(body).toContain('<span style="color:#ff0000">red</span>');
    for (const bad of ['<script', 'alert', 'onerror', 'onclick', 'onmouseover', 'javascript', 'JaVaScRiPt', '<img', '<iframe', '<svg', 'position', 'steal']) expect(body).not.toContain(bad);
    expect(String(row.Amount)).toBe('1234.50');
    // The answer carries what was stored.
    expect(res.json().viewDataList[0].dataList[0]).toMatchObject({ Body: body, Amount: 1234.5, Memo: 'line 1\nline 2' });
  });

  it('refuses texts past their limits with a localized 400 naming the field', async () => {
    const tooLong = await savePage({ Id: newId(), Name: 'long', Memo: 'x'.repeat(100_001), Body: `<p>${'x'.repeat(200_000)}</p>` }, { 'accept-language': 'zh-CN' });
    expectInvalid(tooLong, [member('Memo'), member('Body')]);
    const messages = tooLong.json().error.validationErrors.map((e: { message: string }) => e.message);
    expect(messages[0]).toContain('100000');
    expect(messages[1]).toContain('200000');
    expect(messages.join()).toContain('字符');
    // At the limit it saves.
    expect((await savePage({ Id: newId(), Name: 'limit', Body: 'x'.repeat(200_000) })).statusCode).toBe(200);
  });

  it('refuses an amount with more decimals than its accuracy (never rounds it silently)', async () => {
    const res = await savePage({ Id: newId(), Name: 'cents', Amount: '10.005', Cost: 1.5 }, { 'accept-language': 'zh-CN' });
    expectInvalid(res, [member('Amount'), member('Cost')]);
    expect(res.json().error.validationErrors[0].message).toContain('最多 2 位小数');
    expect(res.json().error.validationErrors[1].message).toContain('最多 0 位小数');
    expectInvalid(await savePage({ Id: newId(), Name: 'nan', Amount: 'ten' }), [member('Amount')]);
  });

  it('filters rich text with the text operators', async () => {
    const found = await bd(t, admin, 'query-view-data', { pageId, viewId, filterConditions: [{ key: 'Body', judgmentMethod: 'contains', value: 'Bold' }] });
    expect(found.items.map((i: { Name: string }) => i.Name)).toEqual(['one']);
    const amount = await bd(t, admin, 'query-view-data', { pageId, viewId, filterConditions: [{ key: 'Amount', judgmentMethod: 'between', value: '1000,2000' }] });
    expect(amount.items.map((i: { Name: string }) => i.Name)).toEqual(['one']);
  });
});

describe('history', () => {
  it('shows rich text as its plain text and amounts formatted', async () => {
    const id = newId();
    expect((await savePage({ Id: id, Name: 'hist', Body: '<p><b>old</b></p>' })).statusCode).toBe(200);
    const current = (await bd(t, admin, 'query-page-data', { pageId, id })).viewDataList[0].dataList[0];
    expect((await savePage({ ...current, Body: '<p>new <i>text</i></p><ul><li>item</li></ul>', Amount: 12345.6 })).statusCode).toBe(200);
    const history = await t.call(admin, { method: 'GET', url: `${BD}/record-history?pageId=${pageId}&id=${id}` });
    expect(history.statusCode, history.body).toBe(200);
    const change = history.json().items[0].changes.find((x: { code: string }) => x.code === 'Body');
    expect(change).toMatchObject({ before: '<p><b>old</b></p>', beforeText: 'old', afterText: 'new text\nitem' });
    // Numbers read as everywhere else.
    const amount = history.json().items[0].changes.find((x: { code: string }) => x.code === 'Amount');
    expect(amount).toMatchObject({ before: 0, after: 12345.6, beforeText: '0.00', afterText: '12,345.60' });
  });
});

describe('excel', () => {
  async function exportRows(filterValue: string) {
    const res = await t.call(admin, { method: 'POST', url: `${BD}/export-view-data`, payload: { pageId, viewId, filterConditions: [{ key: 'Name', judgmentMethod: 'eq', value: filterValue }] } });
    expect(res.statusCode, res.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    return { bytes: res.rawPayload, sheet: workbook.worksheets[0]! };
  }

  it('writes amounts as numbers with their format, multi-line text wrapped, rich text as plain text; the file imports back', async () => {
    const { bytes, sheet } = await exportRows('one');
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['Name', 'Memo', 'Body', 'Amount', 'Cost']);
    const row = sheet.getRow(2);
    expect(row.getCell(2).value).toBe('line 1\nline 2');
    expect(row.getCell(2).alignment?.wrapText).toBe(true);
    expect(row.getCell(3).value).toBe('Bold it\nbad good bad2\nred');
    expect(row.getCell(4).value).toBe(1234.5);
    expect(row.getCell(4).numFmt).toBe('#,##0.00');
    expect(row.getCell(5).value).toBe(99);
    expect(row.getCell(5).numFmt).toBe('#,##0');

    const imported = await importWorkbook(t, admin, { pageId, viewId }, bytes);
    expect(imported.statusCode, imported.body).toBe(200);
    const copies = await bd(t, admin, 'query-view-data', { pageId, viewId, filterConditions: [{ key: 'Name', judgmentMethod: 'eq', value: 'one' }], Sorting: 'CreationTime desc' });
    expect(copies.items).toHaveLength(2);
    // The plain text comes back as escaped paragraphs; the rest as it was.
    expect(copies.items[0]).toMatchObject({ Memo: 'line 1\nline 2', Body: '<p>Bold it</p><p>bad good bad2</p><p>red</p>', Amount: 1234.5, Cost: 99 });
  });

  it('imports rich text cells as text (markup escaped, never run) and checks amounts', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Notes');
    sheet.addRow(['Name', 'Body', 'Amount']);
    sheet.addRow(['imported', '<script>alert(1)</script>\nsecond & third', 12.5]);
    const ok = await importWorkbook(t, admin, { pageId, viewId }, workbook);
    expect(ok.statusCode, ok.body).toBe(200);
    const found = await bd(t, admin, 'query-view-data', { pageId, viewId, filterConditions: [{ key: 'Name', judgmentMethod: 'eq', value: 'imported' }] });
    expect(found.items[0]).toMatchObject({ Body: '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p><p>second &amp; third</p>', Amount: 12.5 });

    const bad = new ExcelJS.Workbook();
    const badSheet = bad.addWorksheet('Notes');
    badSheet.addRow(['Name', 'Amount']);
    badSheet.addRow(['bad', 1.005]);
    const refused = await importWorkbook(t, admin, { pageId, viewId }, bad);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.details.errors[0]).toMatchObject({ row: 2, column: 'Amount' });
  });
});
