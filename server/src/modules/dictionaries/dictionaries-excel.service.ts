import ExcelJS from 'exceljs';
import { localizeIssueMessage } from '../../platform/validation-messages.ts';
import {
  IMPORT_MAX_DICTIONARY_ITEMS,
  MAX_DICTIONARY_ITEMS,
  ZDictionaryItemInput,
  type TDictionary,
  type TImportDictionaryItemsResult,
} from '@tessera/core/contracts/dictionaries';
import type { ServiceContext } from '../../platform/context.ts';
import { parseBoolean, styleHeaderRow, workbookBuffer } from '../../platform/excel.ts';
import { FILE_MEMBER, readHeadedSheet } from '../../platform/excel-reader.ts';
import { notFound } from '../../platform/errors.ts';
import { dictionaryInvalid, dictionaryText } from './dictionaries.messages.ts';
import { validationFailure } from '../../platform/module-messages.ts';
import * as repo from './dictionaries.repository.ts';
import { getDictionary, planItems, toItemDto, updateDictionary, type DictionaryItemInput } from './dictionaries.service.ts';

const BASE_CULTURES = ['zh-CN', 'en-US'];

type Column = { kind: 'code' } | { kind: 'parent' } | { kind: 'enabled' } | { kind: 'color' } | { kind: 'label'; culture: string };

const TITLES = {
  code: ['编码', 'code', 'item code', '项目编码'],
  parent: ['上级编码', 'parent code', 'parentcode', 'parent'],
  enabled: ['启用', 'enabled', 'isenabled'],
  color: ['颜色', 'colour', 'color'],
};
const LABEL_TITLE = /^(?:名称|label)\s*[(（]\s*([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\s*[)）]$/i;

function columnOf(title: string): Column | null {
  const t = title.trim().toLowerCase();
  for (const kind of ['code', 'parent', 'enabled', 'color'] as const) if (TITLES[kind].includes(t)) return { kind };
  const m = LABEL_TITLE.exec(title.trim());
  if (m) return { kind: 'label', culture: m[1]! };
  if (t === '名称') return { kind: 'label', culture: 'zh-CN' };
  if (t === 'label') return { kind: 'label', culture: 'en-US' };
  return null;
}

/** The items as a workbook: code, a label column per language, parent code, enabled, colour. */
export async function exportDictionaryItems(ctx: ServiceContext, id: string): Promise<{ fileName: string; content: Buffer }> {
  const dictionary = await getDictionary(ctx, id);
  const cultures = [...new Set([...BASE_CULTURES, ...dictionary.items.flatMap((i) => Object.keys(i.label))])];
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(dictionaryText(ctx, 'sheet.items'));
  const label = dictionaryText(ctx, 'sheet.label');
  sheet.columns = [
    { header: dictionaryText(ctx, 'sheet.code'), key: 'code', width: 20 },
    ...cultures.map((c) => ({ header: `${label} (${c})`, key: `label:${c}`, width: 24 })),
    { header: dictionaryText(ctx, 'sheet.parent'), key: 'parent', width: 16 },
    { header: dictionaryText(ctx, 'sheet.enabled'), key: 'enabled', width: 10 },
    { header: dictionaryText(ctx, 'sheet.color'), key: 'color', width: 12 },
  ];
  styleHeaderRow(sheet);
  const yes = dictionaryText(ctx, 'sheet.yes');
  const no = dictionaryText(ctx, 'sheet.no');
  for (const item of dictionary.items) {
    sheet.addRow({
      code: item.code,
      ...Object.fromEntries(cultures.map((c) => [`label:${c}`, item.label[c] ?? ''])),
      parent: item.parentCode ?? '',
      enabled: item.isEnabled ? yes : no,
      color: item.color ?? '',
    });
  }
  // Codes are text even when they look like numbers ("01").
  sheet.getColumn('code').numFmt = '@';
  sheet.getColumn('parent').numFmt = '@';
  return { fileName: `${dictionary.code}.xlsx`, content: await workbookBuffer(workbook) };
}

type SheetRow = { row: number; code: string; labels: Record<string, string>; parent?: string; enabled?: string; color?: string };

/**
 * The rows of the uploaded workbook (first sheet), read one by one: the header (row 1) must have a
 * code and a label column, and a row past IMPORT_MAX_DICTIONARY_ITEMS ends the read with a 400.
 */
async function readItemRows(ctx: ServiceContext, bytes: Buffer): Promise<SheetRow[]> {
  const columns = new Map<number, Column>();
  const rows: SheetRow[] = [];
  await readHeadedSheet(
    ctx,
    bytes,
    { maxRows: IMPORT_MAX_DICTIONARY_ITEMS, tooManyRows: ({ max, row }) => dictionaryInvalid(ctx, 'import.tooManyRows', [FILE_MEMBER], { max, row }) },
    {
      header(titles) {
        for (const [col, title] of titles) {
          const column = columnOf(title);
          if (column) columns.set(col, column);
        }
        const kinds = new Set([...columns.values()].map((c) => c.kind));
        if (!kinds.has('code')) throw dictionaryInvalid(ctx, 'import.missingColumn', [FILE_MEMBER], { column: dictionaryText(ctx, 'sheet.code') });
        if (!kinds.has('label')) throw dictionaryInvalid(ctx, 'import.noLabelColumn', [FILE_MEMBER]);
      },
      row(row) {
        const record: SheetRow = { row: row.number, code: '', labels: {} };
        for (const [col, column] of columns) {
          const text = row.getCell(col).text.trim();
          if (column.kind === 'label') record.labels[column.culture] = text;
          else if (column.kind === 'code') record.code = text;
          else record[column.kind] = text;
        }
        if (record.code || Object.values(record.labels).some(Boolean) || record.parent) rows.push(record);
      },
    },
  );
  if (rows.length === 0) throw dictionaryInvalid(ctx, 'import.noRows', [FILE_MEMBER]);
  return rows;
}

/**
 * Imports items from a workbook laid out like the export (`bytes`, the uploaded file). Rows are
 * matched to items by code: a known code updates that item in place (labels per language column,
 * parent, enabled, colour), a new code is added at the end. Items missing from the file stay as
 * they are. Every row is checked first and the errors are reported per row; if there is any,
 * nothing is written. The items are then saved in one transaction (`updateDictionary`).
 */
export async function importDictionaryItems(ctx: ServiceContext, id: string, bytes: Buffer): Promise<TImportDictionaryItemsResult> {
  const dictionary = await repo.findDictionary(ctx.db, id);
  if (!dictionary) throw notFound({ id });
  const rows = await readItemRows(ctx, bytes);

  const existing = await repo.itemsOf(ctx.db, id);
  const items: DictionaryItemInput[] = existing.map((row) => {
    const dto = toItemDto(row);
    return { id: dto.id, code: dto.code, label: dto.label, parentCode: dto.parentCode, isEnabled: dto.isEnabled, color: dto.color };
  });
  const indexByCode = new Map(items.map((item, index) => [item.code, index]));
  const rowOfIndex = new Map<number, number>();
  const errors: { row: number; column: string; message: string }[] = [];
  const fail = (row: number, column: string, message: string) => errors.push({ row, column, message });
  const seen = new Map<string, number>();
  let created = 0;
  let updated = 0;

  for (const r of rows) {
    if (!r.code) {
      fail(r.row, dictionaryText(ctx, 'sheet.code'), dictionaryText(ctx, 'import.required'));
      continue;
    }
    if (seen.has(r.code)) {
      fail(r.row, dictionaryText(ctx, 'sheet.code'), dictionaryText(ctx, 'import.duplicateInFile', { row: seen.get(r.code)! }));
      continue;
    }
    seen.set(r.code, r.row);
    // An empty cell means enabled.
    const enabled = r.enabled === undefined ? undefined : r.enabled.trim() === '' ? true : parseBoolean(r.enabled);
    if (enabled === null) fail(r.row, dictionaryText(ctx, 'sheet.enabled'), dictionaryText(ctx, 'import.badBoolean'));
    const at = indexByCode.get(r.code);
    const before = at === undefined ? undefined : items[at]!;
    const label = { ...(before?.label ?? {}) };
    for (const [culture, text] of Object.entries(r.labels)) if (text) label[culture] = text;
    const candidate = {
      ...(before?.id ? { id: before.id } : {}),
      code: r.code,
      label,
      parentCode: r.parent === undefined ? (before?.parentCode ?? null) : r.parent || null,
      isEnabled: enabled ?? before?.isEnabled ?? true,
      color: r.color === undefined ? (before?.color ?? null) : r.color || null,
    };
    const parsed = ZDictionaryItemInput.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'code');
        const column = key === 'label' ? dictionaryText(ctx, 'sheet.label') : key === 'parentCode' ? dictionaryText(ctx, 'sheet.parent') : key === 'color' ? dictionaryText(ctx, 'sheet.color') : dictionaryText(ctx, 'sheet.code');
        fail(r.row, column, key === 'label' && !Object.values(label).some(Boolean) ? dictionaryText(ctx, 'import.required') : localizeIssueMessage(issue, ctx.culture));
      }
      continue;
    }
    if (at === undefined) {
      indexByCode.set(r.code, items.length);
      rowOfIndex.set(items.length, r.row);
      items.push(parsed.data);
      created++;
    } else {
      items[at] = parsed.data;
      rowOfIndex.set(at, r.row);
      updated++;
    }
  }

  if (errors.length === 0 && items.length > MAX_DICTIONARY_ITEMS) {
    throw dictionaryInvalid(ctx, 'import.tooManyItems', [FILE_MEMBER], { max: MAX_DICTIONARY_ITEMS, count: items.length });
  }
  if (errors.length === 0) {
    const plan = planItems(ctx, id, dictionary.is_tree, items, existing);
    // An item the file did not touch can only fail because of a row that did (a cycle through it).
    const fromRows = plan.errors.some((e) => rowOfIndex.has(e.index)) ? plan.errors.filter((e) => rowOfIndex.has(e.index)) : plan.errors;
    for (const e of fromRows) {
      const member = e.members[0]?.split('.')[2] ?? 'code';
      const column = member === 'parentCode' ? dictionaryText(ctx, 'sheet.parent') : dictionaryText(ctx, 'sheet.code');
      fail(rowOfIndex.get(e.index) ?? 0, column, e.message);
    }
  }
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    throw validationFailure(
      dictionaryText(ctx, 'import.invalidRows', { count: errors.length }),
      errors.map((e) => ({ message: dictionaryText(ctx, 'import.rowError', e), members: [`rows.${e.row}`] })),
      { rows: errors },
    );
  }
  const saved: TDictionary = await updateDictionary(ctx, id, {
    code: dictionary.code,
    title: dictionary.title,
    description: dictionary.description,
    isTree: dictionary.is_tree,
    items,
    concurrencyStamp: dictionary.concurrency_stamp,
  });
  return { createdCount: created, updatedCount: updated, dictionary: saved };
}
