/**
 * Excel workbooks, the same way everywhere: the content type and download name, the header row's
 * style, writing a workbook to bytes, and the yes/no vocabulary of boolean cells (uploads are
 * read by excel-reader.ts). Modules build their sheets with ExcelJS and use these for the shared parts.
 */
import ExcelJS from 'exceljs';

/** The content type of an .xlsx download. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Excel keeps at most 32,767 characters in a cell; longer texts are cut a little below that. */
export const EXCEL_CELL_LIMIT = 32_000;

/** The header row's light green fill (the web app's accent, pale). */
const HEADER_FILL = 'FFE8F8F2';

/**
 * Styles the first row as the header: bold, shaded (unless `shaded: false`), frozen while the
 * rows scroll.
 */
export function styleHeaderRow(sheet: ExcelJS.Worksheet, options: { shaded?: boolean } = {}): void {
  const header = sheet.getRow(1);
  header.font = { bold: true };
  if (options.shaded !== false) header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: HEADER_FILL } };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
}

/** The workbook as .xlsx bytes. */
export async function workbookBuffer(workbook: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A cell text cut to what Excel keeps (with an ellipsis when cut). */
export const clipCellText = (text: string): string => (text.length > EXCEL_CELL_LIMIT ? `${text.slice(0, EXCEL_CELL_LIMIT)}…` : text);

// The union of the vocabularies the module workbooks used (users: active/inactive, dictionaries: enabled/disabled).
const TRUE_WORDS = new Set(['是', '启用', 'true', 'yes', 'y', '1', 'active', 'enabled']);
const FALSE_WORDS = new Set(['否', '停用', 'false', 'no', 'n', '0', 'inactive', 'disabled']);

/**
 * A yes/no cell in any of the words the workbooks use (是/否, 启用/停用, true/false, yes/no, y/n,
 * 1/0, active/inactive, enabled/disabled; case and surrounding spaces ignored). Null for an
 * empty cell or any other text: the caller decides what an empty cell means.
 */
export function parseBoolean(text: string | null | undefined): boolean | null {
  const v = (text ?? '').trim().toLowerCase();
  if (TRUE_WORDS.has(v)) return true;
  if (FALSE_WORDS.has(v)) return false;
  return null;
}

/**
 * A `content-disposition` value for a download: an ASCII fallback name and the real one
 * (RFC 6266 `filename*`), so Chinese names survive.
 */
export const attachmentDisposition = (fileName: string, kind: 'attachment' | 'inline' = 'attachment'): string =>
  `${kind}; filename="${fileName.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

/** A name people gave (a definition's, a document number) as a file name: without characters file systems refuse, at most 100 characters. */
export const safeFileName = (name: string): string => name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').slice(0, 100);
