/**
 * Uploaded workbooks, read one row at a time (issue 27 item 6): every import (business data,
 * users, dictionaries, language packs) reads its file here. The upload arrives as the request's
 * raw bytes (`acceptWorkbookUploads`), at most a few MB compressed; what is never built is the
 * whole workbook in memory (ExcelJS's `Workbook` took 1.7 GB for 300,000 rows). The rows of each
 * sheet are parsed by ExcelJS's streaming `WorkbookReader` and handed to the caller one by one, so
 * the caller keeps only what it needs, and the row cap is checked while reading: the first row
 * past it ends the read with a 400.
 *
 * Why the parts are opened here and not by `WorkbookReader` itself: Excel writes the shared
 * strings and styles AFTER the worksheets, which makes the reader spool every worksheet to a
 * temporary file (left behind when a read stops early), its stream helper buffers a whole part
 * without back-pressure, and it decodes UTF-8 chunk by chunk (a Chinese character split between
 * two chunks turns into U+FFFD). So the zip directory is opened from the bytes, the parts are read
 * in the order the reader needs (relations, workbook, styles, shared strings, then the sheets in
 * workbook order), each part decoded as one UTF-8 stream and bounded in size, and the reader's own
 * part parsers (pinned ExcelJS 4.4; `excel-reader.test.ts` covers them) do the XML.
 */
// unzipper ships no types; the reference carries ours to every project that compiles this file (bench too).
/// <reference path="../types/unzipper.d.ts" />
import { Readable, Transform, type TransformCallback } from 'node:stream';
import ExcelJS from 'exceljs';
import unzipper from 'unzipper';
import type { FastifyInstance } from 'fastify';
import { findTextIssues, isWellFormedText, replaceIllFormedText } from '@tessera/core/contracts/text';
import { AppError, invalid } from './errors.ts';
import { XLSX_TYPE } from './excel.ts';
import { cultureOf, translate, type MessageKey, type TextAudience } from './messages.ts';

/** The request member an upload's errors name. */
export const FILE_MEMBER = 'file';
/** Uploads larger than this are refused before reading (a workbook of 100,000 rows is ~3 MB). */
export const WORKBOOK_UPLOAD_LIMIT = 30 * 1024 * 1024;
/** The XML of a workbook's parts, decompressed, all together. */
const XML_LIMIT = 512 * 1024 * 1024;
/** The shared-strings part, decompressed (it is held in memory while the sheets are read). */
const SHARED_STRINGS_LIMIT = 128 * 1024 * 1024;

/**
 * Lets the routes of the plugin `app` receive a workbook as the raw request body (an .xlsx
 * content type or application/octet-stream), up to `limit` bytes; the handler gets a Buffer.
 * Call once per route plugin.
 */
export function acceptWorkbookUploads(app: FastifyInstance, limit = WORKBOOK_UPLOAD_LIMIT): void {
  app.addContentTypeParser([XLSX_TYPE, 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: limit }, (_req, body, done) => done(null, body));
}

/** The OpenAPI description of an import route whose body is a workbook of at most `maxRows` rows below the header. */
export const workbookUploadDescription = (maxRows: number, errors: string) =>
  `The body is the .xlsx file itself (content type \`${XLSX_TYPE}\` or \`application/octet-stream\`), at most ${maxRows} rows below the header. ${errors}; an unreadable file → 400 naming \`file\`.`;

/** A request body as workbook bytes; anything else (JSON, text, nothing) is the caller's mistake: 400. */
export function workbookBytes(who: TextAudience, body: unknown): Buffer {
  if (Buffer.isBuffer(body) && body.length > 0) return body;
  throw uploadInvalid(who, 'error.workbookUnreadable', {});
}

/** One sheet of the workbook, as the rows of it arrive. */
export interface SheetInfo {
  /** Its name as the workbook shows it. */
  name: string;
  /** 0 for the first sheet in the workbook's order. */
  index: number;
}

export interface ReadOptions {
  /** Data rows (below the header, holding any value) of all sheets read; the first row past it is a 400. */
  maxRows: number;
  /** Read only the first sheet (the others are not even decompressed). */
  firstSheetOnly?: boolean;
  /** The text of the over-cap error, when the module has its own (default: the platform's). */
  tooManyRows?: (info: { max: number; sheet: string; row: number }) => AppError;
}

/**
 * Calls `onRow` for every row of the uploaded workbook that holds a value, in workbook order
 * (sheet by sheet, row 1 — the header — included). Rows are ExcelJS rows: `row.getCell(col).text`,
 * `.value` as usual; the caller copies what it keeps. Answers the sheets read; 400 (member `file`)
 * when the bytes are not a workbook, a part is too large, a sheet name or cell breaks the text rule
 * of the contracts (no NUL, no unpaired surrogate), or a row is past `maxRows`.
 */
export async function readWorkbookRows(
  who: TextAudience,
  bytes: Buffer,
  options: ReadOptions,
  onRow: (sheet: SheetInfo, row: ExcelJS.Row) => void | Promise<void>,
): Promise<SheetInfo[]> {
  const parts = await openParts(who, bytes);
  const budget = { left: XML_LIMIT };
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' }) as unknown as PartParsers;
  try {
    const rels = parts.get('xl/_rels/workbook.xml.rels');
    const book = parts.get('xl/workbook.xml');
    if (!rels || !book) throw uploadInvalid(who, 'error.workbookUnreadable', {});
    await reader._parseRels(partStream(who, rels, budget));
    await reader._parseWorkbook(partStream(who, book, budget));
    const styles = parts.get('xl/styles.xml');
    if (styles) await reader._parseStyles(partStream(who, styles, budget));
    const strings = parts.get('xl/sharedStrings.xml');
    if (strings) {
      for await (const _ of reader._parseSharedStrings(partStream(who, strings, budget, SHARED_STRINGS_LIMIT))) void _;
    }
  } catch (err) {
    throw asUploadError(who, err);
  }

  const sheets: SheetInfo[] = [];
  let count = 0;
  const listed = reader.model?.sheets ?? [];
  for (const [index, listedSheet] of listed.entries()) {
    if (options.firstSheetOnly && index > 0) break;
    const target = (reader.workbookRels ?? []).find((r) => r.Id === listedSheet.rId)?.Target ?? '';
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
    const part = parts.get(path);
    const sheetNo = /sheet(\d+)\.xml$/.exec(path)?.[1];
    if (!part || !sheetNo) continue;
    const info: SheetInfo = { name: String(listedSheet.name ?? `Sheet${index + 1}`), index };
    if (!isWellFormedText(info.name)) throw illFormedCell(who, info.name, 'A1');
    sheets.push(info);
    const stream = partStream(who, part, budget);
    // What the caller's `onRow` throws is its own answer (or its own bug), never "unreadable file".
    let callerError: unknown = undefined;
    try {
      for (const { value: worksheet } of reader._parseWorksheet(stream, sheetNo)) {
        for await (const row of worksheet) {
          if (!row.hasValues) continue;
          row.eachCell({ includeEmpty: false }, (cell) => {
            const value = unescapeCell(cell.value);
            if (value !== cell.value) cell.value = value;
            if (findTextIssues(value, { limit: 1 }).length) throw illFormedCell(who, info.name, cell.address);
          });
          if (row.number > 1 && ++count > options.maxRows) {
            const at = { max: options.maxRows, sheet: info.name, row: row.number };
            throw options.tooManyRows?.(at) ?? uploadInvalid(who, 'error.workbookTooManyRows', at);
          }
          try {
            await onRow(info, row);
          } catch (err) {
            callerError = err;
            throw err;
          }
        }
      }
    } catch (err) {
      throw err === callerError ? err : asUploadError(who, err);
    } finally {
      stream.destroy();
    }
  }
  if (sheets.length === 0) throw uploadInvalid(who, 'error.workbookUnreadable', {});
  return sheets;
}

/**
 * The rows of a one-sheet import with a header row: `header` gets the texts of row 1 by column
 * (an empty map when the first row is empty or the sheet has no rows) and throws when a column the
 * import needs is missing — before any data row is read; `row` gets each data row below it.
 */
export async function readHeadedSheet(
  who: TextAudience,
  bytes: Buffer,
  options: Omit<ReadOptions, 'firstSheetOnly'>,
  handlers: { header(titles: Map<number, string>): void; row(row: ExcelJS.Row): void },
): Promise<void> {
  let headed = false;
  const header = (titles: Map<number, string>) => {
    headed = true;
    handlers.header(titles);
  };
  await readWorkbookRows(who, bytes, { ...options, firstSheetOnly: true }, (_sheet, row) => {
    if (row.number === 1) {
      const titles = new Map<number, string>();
      row.eachCell((cell, col) => void titles.set(col, cell.text));
      return header(titles);
    }
    if (!headed) header(new Map());
    handlers.row(row);
  });
  if (!headed) header(new Map());
}

/** Excel's `_xHHHH_` escape of a character XML cannot hold (ExcelJS's streaming reader leaves them as written). */
const EXCEL_ESCAPE = /_x([0-9A-F]{4})_/g;
const unescapeText = (text: string) => (text.includes('_x') ? text.replace(EXCEL_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text);

/** A cell value with the escapes of its texts (plain, rich or a formula's result) decoded; the same value when there are none. */
function unescapeCell(value: ExcelJS.CellValue): ExcelJS.CellValue {
  if (typeof value === 'string') return unescapeText(value);
  if (value && typeof value === 'object') {
    if ('richText' in value && Array.isArray(value.richText)) {
      if (!value.richText.some((r) => r.text?.includes('_x'))) return value;
      return { ...value, richText: value.richText.map((r) => ({ ...r, text: unescapeText(r.text ?? '') })) };
    }
    if ('formula' in value && typeof value.result === 'string') return { ...value, result: unescapeText(value.result) } as ExcelJS.CellValue;
  }
  return value;
}

/** The file parts of the zip by path; 400 when the bytes are not a zip. */
async function openParts(who: TextAudience, bytes: Buffer): Promise<Map<string, ZipPart>> {
  try {
    const directory = await unzipper.Open.buffer(bytes);
    return new Map(directory.files.filter((f) => f.type === 'File').map((f) => [f.path, f as ZipPart]));
  } catch {
    throw uploadInvalid(who, 'error.workbookUnreadable', {});
  }
}

/** A part's XML as text (one UTF-8 decoder for the whole part), refused past its limit or the workbook's. */
function partStream(who: TextAudience, part: ZipPart, budget: { left: number }, limit = Infinity): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      seen += chunk.length;
      budget.left -= chunk.length;
      if (seen > limit || budget.left < 0) done(uploadInvalid(who, 'error.workbookTooLarge', { max: Math.round(Math.min(limit, XML_LIMIT) / 1024 / 1024) }));
      else done(null, chunk);
    },
  });
  const source = part.stream();
  source.on('error', (err) => counter.destroy(err));
  const out = source.pipe(counter);
  out.setEncoding('utf8');
  return out;
}

/** Errors of reading: ours as they are, the parsers' (bad zip data, bad XML) as an unreadable file. */
function asUploadError(who: TextAudience, err: unknown): AppError {
  return err instanceof AppError ? err : uploadInvalid(who, 'error.workbookUnreadable', {});
}

function illFormedCell(who: TextAudience, sheet: string, cell: string): AppError {
  return uploadInvalid(who, 'error.illFormedCell', { sheet: replaceIllFormedText(sheet), cell });
}

const uploadInvalid = (who: TextAudience, key: MessageKey, params: Record<string, string | number>): AppError =>
  invalid(translate(cultureOf(who), key, params), [FILE_MEMBER]);

/** A file of the zip directory (unzipper's `Open`). */
interface ZipPart {
  path: string;
  stream(): Readable;
}

/** The part parsers of ExcelJS's WorkbookReader this module drives (see the header). */
interface PartParsers {
  workbookRels?: { Id: string; Target: string }[];
  model?: { sheets?: { name?: string; rId: string }[] };
  _parseRels(stream: Readable): Promise<void>;
  _parseWorkbook(stream: Readable): Promise<void>;
  _parseStyles(stream: Readable): Promise<void>;
  _parseSharedStrings(stream: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<{ eventType: string; value: AsyncIterable<ExcelJS.Row> }>;
}
