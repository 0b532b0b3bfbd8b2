import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { XLSX_TYPE } from '../src/platform/excel.ts';
import type { TestApp } from './test-app.ts';

/** Cell values of one sheet row. */
export type SheetRow = (string | number | boolean | Date | null)[];

/** A one-sheet workbook as .xlsx bytes: the header, then the rows. */
export async function workbookOf(header: string[], rows: SheetRow[], sheetName = 'Sheet1'): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet(sheetName);
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A large one-sheet workbook, written by ExcelJS's streaming writer (as a big export is): `count` rows of `row(i)`, i from 1. */
export async function largeWorkbook(header: string[], count: number, row: (i: number) => SheetRow): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = wb.addWorksheet('Sheet1');
  sheet.addRow(header).commit();
  for (let i = 1; i <= count; i++) sheet.addRow(row(i)).commit();
  sheet.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

/**
 * POSTs `body` as the raw request body of an import route (an .xlsx workbook unless
 * `contentType` says otherwise), signed in with `token`.
 */
export function uploadWorkbook(
  t: TestApp,
  token: string | null,
  url: string,
  body: Buffer | string,
  options: { contentType?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.call(token, { method: 'POST', url, payload: body, headers: { 'content-type': options.contentType ?? XLSX_TYPE, ...options.headers } });
}

/** The members the 400's validation errors name. */
export const refusedMembers = (res: LightMyRequestResponse): string[] =>
  (res.json().error?.validationErrors ?? []).flatMap((v: { members: string[] }) => v.members);
