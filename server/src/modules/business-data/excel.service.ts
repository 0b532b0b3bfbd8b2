import { ControlTypeId, excelNumberFormatOf, formatControlValue, getControlType, readFileRefs } from '@tessera/core/controls/registry';
import { styleHeaderRow, workbookBuffer } from '../../platform/excel.ts';
import { breather } from '../../platform/breather.ts';
import { readWorkbookRows, type SheetInfo } from '../../platform/excel-reader.ts';
import type { ImportThread } from './import-thread.ts';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { uuidv7 } from '../../platform/ids.ts';
import type { TExportViewDataInput, TImportViewDataQuery, TImportViewDataResult } from '@tessera/core/contracts/business-data';
import type { ServiceContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { bizInvalid, translator, type Translate } from './business-data.messages.ts';
import * as repo from './business-data.repository.ts';
import { belowFilterFields } from './filter-sql.ts';
import { compileClientFilter, orderByOf, visibilityOf } from './query.service.ts';
import { readLabelledCells } from './import-labels.ts';
import { ValueLabels } from './labels.ts';
import { FILE_TYPES, LIST_TYPES, rowToRecord } from './record-values.ts';
import { openPage, PageAccess, requireView, type RuntimeControl, type RuntimePage, type RuntimeView } from './runtime-page.ts';
import { importRun, numberNewPage, planNewPage, PlannedPages, prepareNewPage, refreshStatistics, sessionOf, writeNewPages, type EntryInput, type PreparedPage } from './save/index.ts';

const BATCH = 2000;

/*
 * Excel export and import of a master view and every view below it. The first sheet holds the
 * master rows; each descendant view gets its own sheet (named by the view's code, in page order:
 * parents before children). The first column of a direct child's sheet, "Master row", is the sheet
 * row number of the master row it belongs to; that of a deeper view's sheet, "Parent row", the row
 * number in its parent view's sheet. Export writes every row the filter selects (all
 * pages) with a streaming workbook writer, fetching rows in batches, so memory stays flat. Import
 * validates every row through the same path as save-page inside ONE transaction: any error and
 * nothing is written; the answer lists every error by sheet row and column.
 * Cells hold plain values that import again: numbers, 是/否, ISO dates, comma-separated lists.
 */

const headerOf = (c: RuntimeControl, all: readonly RuntimeControl[]) => {
  const title = c.control.title?.trim() || c.code;
  return all.filter((o) => (o.control.title?.trim() || o.code) === title).length > 1 ? `${title} (${c.code})` : title;
};

/** A cell: labels for fields that show them (options, dictionaries, lookups), else the plain value. */
function cellValue(c: RuntimeControl, value: unknown, labels: ValueLabels): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  const text = labels.text(c, value);
  if (text !== null) return text;
  if (LIST_TYPES.has(c.controlType) && Array.isArray(value)) return value.join(', ');
  // Attachments and images: their files' names (the import skips these columns).
  if (FILE_TYPES.has(c.controlType)) return readFileRefs(value).map((f) => f.name).join(', ');
  if (c.tableFieldType === 5) return value === true ? '是' : '否';
  if (c.tableFieldType === 2 || c.tableFieldType === 3) return typeof value === 'number' ? value : Number(value);
  // Rich text is written as the text a person reads (an import makes paragraphs of it again).
  return getControlType(c.controlType).html ? formatControlValue(c.control, value) : String(value);
}

/**
 * A written row's cells as people read them elsewhere: numbers stay numbers, with the format of
 * their control (`#,##0.00`: thousands separators at its accuracy); text of several lines wraps.
 * `first`: the sheet column of the first field.
 */
function styleRow(row: ExcelJS.Row, fields: readonly RuntimeControl[], first: number): ExcelJS.Row {
  fields.forEach((c, i) => {
    const cell = row.getCell(first + i);
    if ((c.tableFieldType === 2 || c.tableFieldType === 3) && typeof cell.value === 'number') cell.numFmt = excelNumberFormatOf(c.control, cell.value);
    else if (getControlType(c.controlType).multiline && typeof cell.value === 'string' && cell.value.includes('\n')) cell.alignment = { wrapText: true, vertical: 'top' };
  });
  return row;
}

const cleanSheetName = (name: string) => name.replace(/[:\\/?*[\]]/g, '_').trim().slice(0, 31);
/**
 * A view's sheet name: its title (at most 31 characters, none of : \\ / ? * [ ]), or its code when
 * it has none or another view of the page has the same title.
 */
export function sheetName(view: RuntimeView, page: RuntimePage): string {
  const title = cleanSheetName(view.view.title ?? '');
  const shared = page.order.some((v) => v !== view && cleanSheetName(v.view.title ?? '').toLowerCase() === title.toLowerCase());
  return title && !shared ? title : cleanSheetName(view.code);
}
/** Every view below the master (the only view import and export start from), parents before children. */
const viewsBelowMaster = (page: RuntimePage) => page.order.slice(1);

/**
 * The views below the master that get a sheet, with their columns: those with fields, and those a
 * deeper sheet points at (a sheet of row numbers only, so the deeper rows keep their parent).
 */
export function sheetViews(page: RuntimePage, fieldsOf: (v: RuntimeView) => RuntimeControl[]) {
  const all = viewsBelowMaster(page).map((view) => ({ view, fields: fieldsOf(view) }));
  const included = new Set<RuntimeView>();
  // Children come after their parent in page order: walking backwards decides them first.
  for (const { view, fields } of [...all].reverse()) if (fields.length > 0 || view.children.some((c) => included.has(c))) included.add(view);
  return all.filter((s) => included.has(s.view));
}

/** A direct child's sheet names its master row; a deeper view's sheet its row in the parent's sheet. */
export type Link = 'master' | 'parent';
export const linkOf = (view: RuntimeView): Link => (view.parent?.parent ? 'parent' : 'master');
export const LINK_TITLE = { master: 'import.masterRow', parent: 'import.parentRow' } as const;
const headersOf = (key: (typeof LINK_TITLE)[Link], code: string) => new Set([code, translator('zh-CN')(key).toLowerCase(), translator('en-US')(key).toLowerCase()]);
/** The "Master row" / "Parent row" headers are recognised in either language. */
const LINK_HEADERS = { master: headersOf('import.masterRow', 'masterrow'), parent: headersOf('import.parentRow', 'parentrow') };
const sheetRowNumber = (value: unknown) => (typeof value === 'number' ? value : /^\d+$/.test(String(value).trim()) ? Number(String(value).trim()) : NaN);
/** Sheet columns of fields: the header (title, or title and code when titles repeat) keyed by code. */
export const fieldColumns = (fields: readonly RuntimeControl[]) => fields.map((c) => ({ header: headerOf(c, fields), key: c.code, width: 18 }));
/** A sheet below the master: its "Master row" / "Parent row" column, then its fields. */
export const linkedColumns = (t: Translate, view: RuntimeView, fields: readonly RuntimeControl[]) => [{ header: t(LINK_TITLE[linkOf(view)]), key: '#parent', width: 12 }, ...fieldColumns(fields)];

/** The master view of a page the caller works on (its Access is checked by the action that follows). */
export async function viewFor(ctx: ServiceContext, pageId: string, viewId: string) {
  const { t, page, access } = await openPage(ctx, pageId, { requireOpen: false });
  const view = requireView(page, viewId, t);
  if (view.parent) throw bizInvalid(t, [{ message: t('view.notChild'), members: ['viewId'] }]);
  return { t, page, view, access };
}

/** Streams the filtered rows of a master view as xlsx. Validation happens before the first byte. */
export async function exportViewData(ctx: ServiceContext, input: TExportViewDataInput): Promise<{ fileName: string; stream: PassThrough }> {
  const { t, page, view, access } = await viewFor(ctx, input.pageId, input.viewId);
  access.requireAction('export');
  const visible = access.visibleControls(view);
  const offset = input.offsetMinutes ?? 0;
  const below = belowFilterFields(view, (v) => access.visibleControls(v));
  const conditions = [...(await visibilityOf(ctx, page, view, null, t)), compileClientFilter(input.filterConditions, visible, offset, t, 'filterConditions', ctx.now(), below)];
  const orderBy = orderByOf(input.Sorting, visible, t);
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName(view, page));
  sheet.columns = fieldColumns(visible);
  const descendants = sheetViews(page, (v) => access.visibleControls(v));
  // The views a deeper sheet points at, and the last sheet that does (their ids are dropped after it).
  const lastChildOf = new Map(descendants.map((d) => [d.view.parent!, d.view]));
  void (async () => {
    try {
      // Row ids in sheet order (sheet row n holds ids[n - 2]) of the views a deeper sheet points
      // at: those sheets name the exact rows written here.
      const idsOf = new Map<RuntimeView, string[]>();
      const keepIds = (v: RuntimeView) => {
        if (!lastChildOf.has(v)) return null;
        const ids: string[] = [];
        idsOf.set(v, ids);
        return ids;
      };
      const masterIds = keepIds(view);
      // Labels are read per batch of rows (dictionaries once for the whole export).
      const labels = new ValueLabels(ctx, ctx.db, t);
      for (let skip = 0; ; skip += BATCH) {
        const rows = await repo.selectRows(ctx.db, view, conditions, orderBy, { limit: BATCH, offset: skip });
        const records = rows.map((row) => rowToRecord(row, visible));
        await labels.load(visible, records);
        for (const [i, record] of records.entries()) {
          masterIds?.push(String(rows[i]!.Id));
          styleRow(sheet.addRow(Object.fromEntries(visible.map((c) => [c.code, cellValue(c, record[c.code], labels)]))), visible, 1).commit();
        }
        if (rows.length < BATCH) break;
      }
      sheet.commit();
      for (const { view: child, fields } of descendants) {
        const parent = child.parent!;
        const parentIds = idsOf.get(parent) ?? [];
        const ownIds = keepIds(child);
        const childSheet = workbook.addWorksheet(sheetName(child, page));
        childSheet.columns = linkedColumns(t, child, fields);
        for (let at = 0; at < parentIds.length; at += BATCH) {
          const batch = parentIds.slice(at, at + BATCH);
          const sheetRowOf = new Map(batch.map((id, i) => [id, at + i + 2]));
          const rows = await repo.rowsByParents(ctx.db, child, batch);
          // Stable: the rows of one parent keep their entry order.
          rows.sort((a, b) => sheetRowOf.get(String(a.ParentViewDataId))! - sheetRowOf.get(String(b.ParentViewDataId))!);
          const records = rows.map((row) => rowToRecord(row, fields));
          await labels.load(fields, records);
          for (const [i, record] of records.entries()) {
            const row = rows[i]!;
            ownIds?.push(String(row.Id));
            styleRow(childSheet.addRow({ '#parent': sheetRowOf.get(String(row.ParentViewDataId)), ...Object.fromEntries(fields.map((c) => [c.code, cellValue(c, record[c.code], labels)])) }), fields, 2).commit();
          }
        }
        childSheet.commit();
        if (lastChildOf.get(parent) === child) idsOf.delete(parent);
      }
      await workbook.commit();
    } catch (err) {
      ctx.log.error({ err }, 'export failed');
      stream.destroy(err as Error);
    }
  })();
  return { fileName: `${page.pageCode}-${view.code}.xlsx`, stream };
}

/**
 * Fields an import sets: editable, not computed, not numbered by a rule (imports draw new numbers),
 * not attachments or images (a cell can only name files, which are uploaded in the form: their
 * columns are left out of the template and skipped on import, so an exported file imports as it is).
 */
export const importableControls = (view: RuntimeView, access: PageAccess) =>
  view.controls.filter((c) => access.canEdit(c.code) && Number(c.control.valueTakingType) !== 2 && !(c.controlType === ControlTypeId.DocumentNumber && c.control.extraProperties?.documentNumberRuleId) && !FILE_TYPES.has(c.controlType));

function plain(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'object') {
    if ('result' in value) return plain((value as { result: ExcelJS.CellValue }).result);
    if ('richText' in value) return (value as ExcelJS.CellRichTextValue).richText.map((r) => r.text).join('');
    if ('text' in value) return String((value as { text: unknown }).text);
    return '';
  }
  return value;
}

type ImportError = { sheet?: string | null; row: number; column: string | null; message: string };

/** A sheet's data row as read: its sheet row number, its field values by code, its link cell. */
type SheetRecord = { row: number; record: Record<string, unknown>; linkRow: unknown };

/** One sheet while it is read: the view it fills (null: not a view of the page) and its columns. */
interface SheetState {
  name: string;
  index: number;
  view: RuntimeView | null;
  columns: Map<number, RuntimeControl>;
  linkColumn: number;
  records: SheetRecord[];
}

/**
 * Header row → field (unknown headers are errors; the view's own computed / numbered / read-only
 * columns are skipped so an exported file imports as it is); `link`: the sheet's "Master row" /
 * "Parent row" column is found as well.
 */
function readHeader(state: SheetState, view: RuntimeView, header: ExcelJS.Row | null, access: PageAccess, t: Translate, errors: ImportError[], link: Link | null) {
  const at = link ? { sheet: state.name } : {};
  const editable = importableControls(view, access);
  const byHeader = new Map<string, RuntimeControl>();
  for (const c of editable) {
    byHeader.set(headerOf(c, editable).toLowerCase(), c);
    byHeader.set(c.code.toLowerCase(), c);
  }
  const skipped = new Set(view.controls.flatMap((c) => [headerOf(c, view.controls).toLowerCase(), c.code.toLowerCase()]));
  header?.eachCell((cell, col) => {
    const title = String(plain(cell.value)).trim();
    if (!title) return;
    const c = byHeader.get(title.toLowerCase());
    if (c) state.columns.set(col, c);
    else if (link && LINK_HEADERS[link].has(title.toLowerCase())) state.linkColumn = col;
    else if (!skipped.has(title.toLowerCase())) errors.push({ ...at, row: 1, column: title, message: t('import.header', { column: title }) });
  });
  if (link && !state.linkColumn) errors.push({ ...at, row: 1, column: null, message: t(link === 'master' ? 'import.noMasterRowColumn' : 'import.noParentRowColumn', { sheet: state.name }) });
}

/** The sheets of an import template that hold no data: its notes (either language) and its lists of choices. */
export const TEMPLATE_LISTS_SHEET = 'lists';
const TEMPLATE_SHEETS = new Set([TEMPLATE_LISTS_SHEET, translator('zh-CN')('template.notesSheet').toLowerCase(), translator('en-US')('template.notesSheet').toLowerCase()]);
/** The template's code of a sheet's "Master row" / "Parent row" column (in its hidden codes row). */
export const LINK_CODE = { master: 'masterRow', parent: 'parentRow' } as const;

/** The template's hidden second row: each column's field code (so a renamed title still imports). */
function isCodesRow(state: SheetState, row: ExcelJS.Row): boolean {
  let codes = 0;
  for (const [col, c] of state.columns) {
    const v = String(plain(row.getCell(col).value)).trim();
    if (v === '') continue;
    if (v.toLowerCase() !== c.code.toLowerCase()) return false;
    codes++;
  }
  return codes > 0;
}

/** A data row's field values (and link cell); null when it holds none of them. */
function readRecord(state: SheetState, row: ExcelJS.Row): SheetRecord | null {
  const record: Record<string, unknown> = {};
  let any = false;
  for (const [col, c] of state.columns) {
    const v = plain(row.getCell(col).value);
    if (v !== '') any = true;
    // A rich text cell holds plain text: it becomes escaped paragraphs.
    const fromCell = getControlType(c.controlType).fromCell;
    record[c.code] = fromCell && (typeof v === 'string' || typeof v === 'number') ? fromCell(String(v)) : v;
  }
  const linkRow = state.linkColumn ? plain(row.getCell(state.linkColumn).value) : null;
  return any || (linkRow !== null && linkRow !== '') ? { row: row.number, record, linkRow } : null;
}

/** Data rows of all sheets together; the first row past it ends the read (400). */
export const MAX_IMPORT_ROWS = 100_000;

/**
 * Imports every row or none — master rows from the first sheet, the rows of each view below the
 * master from the sheet named after it, each under the master / parent row it names. The file is
 * read row by row (platform/excel-reader.ts: the row cap is checked while reading); each master
 * row with all its rows below is parsed, linked and validated as save-page does, OUTSIDE any
 * transaction; then numbers are drawn and everything is written in ONE transaction (multi-row
 * inserts). A 400 lists each error by sheet, row and column; nothing is written then.
 */
export async function importViewData(ctx: ServiceContext, input: TImportViewDataQuery, bytes: Buffer, thread?: ImportThread): Promise<TImportViewDataResult> {
  // On PostgreSQL the work runs in the import worker (import-thread.ts), off the request thread.
  if (thread && ctx.config.databaseUrl) return thread.run(ctx, input, bytes);
  return importWorkbookHere(ctx, input, bytes);
}

/** The import itself, on this thread (the import worker's, or the embedded database's). */
export async function importWorkbookHere(ctx: ServiceContext, input: TImportViewDataQuery, bytes: Buffer): Promise<TImportViewDataResult> {
  const started = performance.now();
  const opened = await viewFor(ctx, input.pageId, input.viewId);
  const { t, page, view, access } = opened;
  access.requireAction('import');
  access.requireAction('add');
  const errors: ImportError[] = [];
  const descendants = viewsBelowMaster(page);
  const states: SheetState[] = [];
  const sheetOf = new Map<RuntimeView, SheetState>();
  // Sheets are matched to views as their first row arrives; a sheet that is not a view of the page is reported and skipped.
  const startSheet = (info: SheetInfo, header: ExcelJS.Row | null): SheetState => {
    const state: SheetState = { ...info, view: null, columns: new Map(), linkColumn: 0, records: [] };
    states.push(state);
    if (info.index === 0) {
      state.view = view;
      readHeader(state, view, header, access, t, errors, null);
      return state;
    }
    const name = info.name.trim().toLowerCase();
    // The template's notes and its hidden lists of choices are not data.
    if (TEMPLATE_SHEETS.has(name)) return state;
    const child = descendants.find((v) => sheetName(v, page).toLowerCase() === name || v.code.toLowerCase() === name || (v.view.title ?? '').trim().toLowerCase() === name);
    if (!child || sheetOf.has(child)) {
      errors.push({ sheet: info.name, row: 1, column: null, message: t('import.sheet', { sheet: info.name }) });
      return state;
    }
    state.view = child;
    sheetOf.set(child, state);
    readHeader(state, child, header, access, t, errors, linkOf(child));
    return state;
  };
  let current: SheetState | null = null;
  const sheets = await readWorkbookRows(ctx, bytes, { maxRows: MAX_IMPORT_ROWS }, (info, row) => {
    if (current?.index !== info.index) current = startSheet(info, row.number === 1 ? row : null);
    if (row.number === 1 || !current.view) return;
    if (row.number === 2 && isCodesRow(current, row)) return;
    const record = readRecord(current, row);
    if (record) current.records.push(record);
  });
  // A sheet without any row holding a value is still a sheet of the file (an empty master sheet, say).
  for (const info of sheets) if (!states.some((s) => s.index === info.index)) startSheet(info, null);
  const masterState = states.find((s) => s.index === 0)!;
  const records = masterState.records;
  if (records.length === 0 && errors.length === 0) errors.push({ row: 1, column: null, message: t('import.empty') });

  // Every data row of each sheet by sheet row: its row id (a parent's id is what save-page links a
  // deeper row by, ParentViewDataId) and the master row it belongs to (NaN while its own link is bad).
  const rowsOf = new Map<RuntimeView, Map<number, { id: string; master: number }>>([[view, new Map(records.map((r) => [r.row, { id: '', master: r.row }]))]]);
  // master sheet row → view → its rows, in sheet order.
  const childRows = new Map<number, Map<RuntimeView, { row: number; record: Record<string, unknown> }[]>>();
  // Page order: a parent's sheet is linked before the sheets that point at it, whatever the file's order.
  for (const child of descendants) {
    const state = sheetOf.get(child);
    if (!state) continue;
    const parent = child.parent!;
    const link = linkOf(child);
    const own = new Map(state.records.map((r) => [r.row, { id: uuidv7(), master: NaN }]));
    rowsOf.set(child, own);
    const parentRows = rowsOf.get(parent);
    for (const { row, record, linkRow } of state.records) {
      const target = parentRows?.get(sheetRowNumber(linkRow));
      if (!target) {
        const value = String(linkRow ?? '');
        const parentSheet = sheetOf.get(parent)?.name ?? sheetName(parent, page);
        errors.push({ sheet: state.name, row, column: t(LINK_TITLE[link]), message: link === 'master' ? t('import.badMasterRow', { value }) : t('import.badParentRow', { value, sheet: parentSheet }) });
        continue;
      }
      const self = own.get(row)!;
      self.master = target.master;
      // Ids as the browser's save-page payload carries them: a row's Id, a deeper row's parent Id.
      record.Id = self.id;
      if (link === 'parent') record.ParentViewDataId = target.id;
      if (Number.isNaN(target.master)) continue;
      let byView = childRows.get(target.master);
      if (!byView) childRows.set(target.master, (byView = new Map()));
      const list = byView.get(child) ?? [];
      list.push({ row, record });
      byView.set(child, list);
    }
  }

  const fail = () => {
    // Sheets were linked in page order; errors are listed in the file's order (the sort is stable,
    // and the master sheet's errors carry no sheet name: they stay first).
    const position = new Map(states.map((s) => [s.name, s.index]));
    errors.sort((a, b) => (position.get(a.sheet ?? '') ?? 0) - (position.get(b.sheet ?? '') ?? 0));
    return new AppError(400, 'ValidationError', null, {
      message: t('import.failed', { count: errors.length }),
      details: { imported: 0, errors: errors.slice(0, 1000) },
      validationErrors: errors
        .slice(0, 100)
        .map((e) => ({ message: `${e.sheet ? `${e.sheet} ` : ''}${e.row}${e.column ? ` ${e.column}` : ''}: ${e.message}`, members: [e.sheet ? `sheets.${e.sheet}.rows.${e.row}` : `rows.${e.row}`] })),
    });
  };
  if (errors.length) throw fail();

  const titleOf = (v: RuntimeView, code: string) => {
    const c = v.byCode.get(code);
    return c ? headerOf(c, v.controls) : null;
  };
  /** A master row with its rows below, as a save-page request would carry them, and where each came from. */
  const saveOf = ({ row, record }: SheetRecord) => {
    // entryIndex 0: the master; k: the k-th view below it submitted for this row.
    const entries = new Map<string, EntryInput>([[view.id, { view, entryIndex: 0, rows: [record] }]]);
    const sources: { view: RuntimeView; rows: number[] }[] = [{ view, rows: [row] }];
    for (const [child, list] of childRows.get(row) ?? []) {
      entries.set(child.id, { view: child, entryIndex: sources.length, rows: list.map((l) => l.record) });
      sources.push({ view: child, rows: list.map((l) => l.row) });
    }
    return { row, entries, sources };
  };
  type Save = ReturnType<typeof saveOf>;
  /** A save's 400 as row errors: each member names a row of a sheet and a field. */
  const collect = (err: unknown, { row, sources }: Save) => {
    if (!(err instanceof AppError) || err.statusCode !== 400) throw err;
    for (const v of err.options.validationErrors ?? [{ message: err.message, members: [] }]) {
      const member = v.members[0] ?? '';
      const at = /^viewDataList\.(\d+)\.dataList\.(\d+)\.(.+)$/.exec(member);
      const source = at ? sources[Number(at[1])] : undefined;
      if (at && source && source.view !== view) {
        errors.push({ sheet: sheetOf.get(source.view)?.name ?? null, row: source.rows[Number(at[2])] ?? row, column: titleOf(source.view, at[3]!), message: v.message });
      } else {
        const code = member.split('.').pop() ?? '';
        errors.push({ row, column: titleOf(view, code), message: v.message });
      }
    }
  };

  // Labels in the cells of option, dictionary and lookup fields become the values they name.
  const session = sessionOf(ctx, opened, input.offsetMinutes);
  const columns = states.flatMap((state) => [...state.columns.values()].map((control) => ({ control, records: state.records.map((r) => r.record) })));
  await readLabelledCells(ctx.db, session, columns);

  // Every record parsed, linked and validated outside the transaction; a page without document
  // numbers is planned at once (only its column values are kept), one with them after its numbers.
  const run = importRun(ctx.db, session);
  const planned = new PlannedPages();
  const toNumber: { prepared: PreparedPage; save: Save }[] = [];
  const pause = breather();
  const imported = records.length;
  for (let i = 0; i < records.length; i++) {
    const save = saveOf(records[i]!);
    // What the record was read as is not needed any more (the save holds its values until planned).
    records[i] = null!;
    try {
      const prepared = await prepareNewPage(ctx.db, run, save.entries);
      if (run.numbered) toNumber.push({ prepared, save });
      else planned.add(planNewPage(run, prepared));
    } catch (err) {
      collect(err, save);
    }
    await pause();
  }
  if (errors.length) throw fail();
  const writing = performance.now();
  await ctx.db.transaction().execute(async (trx) => {
    for (const { prepared, save } of toNumber) {
      try {
        await numberNewPage(trx, run, prepared);
        planned.add(planNewPage(run, prepared));
      } catch (err) {
        collect(err, save);
      }
    }
    // All or nothing: any error rolls the whole import back.
    if (errors.length) throw fail();
    await writeNewPages(trx, run, planned);
  });
  const written = performance.now();
  await refreshStatistics(ctx.db, run, planned);
  const ms = (from: number, to = performance.now()) => Math.round(to - from);
  ctx.log.info({ page: page.pageCode, records: imported, bytes: bytes.length, readAndValidateMs: ms(started, writing), writeMs: ms(writing, written), analyzeMs: ms(written) }, 'excel import written');
  return { imported, errors: [] };
}
