import type { ServiceContext } from '../../platform/context.ts';
import { styleHeaderRow, workbookBuffer } from '../../platform/excel.ts';
import { FILE_MEMBER, readHeadedSheet } from '../../platform/excel-reader.ts';
import ExcelJS from 'exceljs';
import { uuidv7 } from '../../platform/ids.ts';
import {
  IMPORT_MAX_TEXTS,
  isSafeTextPath,
  NAMESPACE_PATTERN,
  TEXT_KEY_PATTERN,
  TEXT_VALUE_MAX,
  type TImportPackInput,
  type TImportPackResult,
  type TLanguagePackFile,
} from '@tessera/core/contracts/localization';
import { recordAudit } from '../../platform/audit.ts';
import type { ValidationErrorItem } from '../../platform/errors.ts';
import { notFound } from '../../platform/errors.ts';
import { builtInTexts, flattenNested, invalidateDictionaries, setNested } from './localization-dictionary.service.ts';
import { l10nInvalid, l10nInvalidMany, l10nText } from './localization.messages.ts';
import * as repo from './localization.repository.ts';

const COLUMNS = ['namespace', 'key', 'value', 'source'] as const;
type Column = (typeof COLUMNS)[number];
const COLUMN_TITLES: Record<Column, { 'zh-CN': string; 'en-US': string }> = {
  namespace: { 'zh-CN': '命名空间', 'en-US': 'Namespace' },
  key: { 'zh-CN': '键', 'en-US': 'Key' },
  value: { 'zh-CN': '文本', 'en-US': 'Text' },
  source: { 'zh-CN': '来源', 'en-US': 'Source' },
};

interface PackText {
  resourceName: string;
  key: string;
  value: string;
  source: 'admin' | 'builtIn';
}

/** Every text of a pack: built-in texts with the administrators' texts over them. */
async function packTexts(ctx: ServiceContext, culture: string): Promise<PackText[]> {
  const merged = new Map<string, PackText>();
  for (const [resourceName, nested] of Object.entries(builtInTexts(culture))) {
    for (const [key, value] of flattenNested(nested)) merged.set(`${resourceName}\u0000${key}`, { resourceName, key, value: String(value), source: 'builtIn' });
  }
  for (const row of await repo.textsOfCulture(ctx.db, culture)) {
    merged.set(`${row.resource_name}\u0000${row.key}`, { resourceName: row.resource_name, key: row.key, value: row.value, source: 'admin' });
  }
  return [...merged.values()].sort((a, b) => a.resourceName.localeCompare(b.resourceName) || a.key.localeCompare(b.key));
}

async function existingPack(ctx: ServiceContext, culture: string) {
  const pack = await repo.findPackByCulture(ctx.db, culture);
  if (!pack) throw notFound({ culture });
  return pack;
}

/** The pack as a JSON file: `{ culture, title, texts: { namespace: nested } }`. */
export async function exportPackJson(ctx: ServiceContext, culture: string): Promise<TLanguagePackFile> {
  const pack = await existingPack(ctx, culture);
  const texts: TLanguagePackFile['texts'] = {};
  for (const t of await packTexts(ctx, pack.culture)) setNested((texts[t.resourceName] ??= {}), t.key, t.value);
  return { culture: pack.culture, title: pack.title, texts };
}

/** The pack as a workbook: namespace, key, text and where the text comes from. */
export async function exportPackXlsx(ctx: ServiceContext, culture: string): Promise<{ fileName: string; content: Buffer }> {
  const pack = await existingPack(ctx, culture);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(l10nText(ctx, 'sheet.texts'));
  const lang = ctx.culture;
  sheet.columns = COLUMNS.map((c) => ({ header: COLUMN_TITLES[c][lang], key: c, width: c === 'value' ? 60 : c === 'key' ? 36 : 16 }));
  styleHeaderRow(sheet);
  for (const t of await packTexts(ctx, pack.culture)) {
    sheet.addRow({
      namespace: t.resourceName,
      key: t.key,
      value: t.value,
      source: l10nText(ctx, t.source === 'admin' ? 'sheet.sourceAdmin' : 'sheet.sourceBuiltIn'),
    });
  }
  sheet.getColumn('value').alignment = { wrapText: true, vertical: 'top' };
  return { fileName: `language-pack-${pack.culture}.xlsx`, content: await workbookBuffer(workbook) };
}

interface Entry {
  where: string;
  resourceName: string;
  key: string;
  value: unknown;
}

function entriesFromJson(ctx: ServiceContext, content: unknown): Entry[] {
  const file = typeof content === 'string' ? safeJson(content) : content;
  const texts = (file as { texts?: unknown } | null)?.texts;
  if (!texts || typeof texts !== 'object' || Array.isArray(texts)) throw l10nInvalid(ctx, 'import.badJson', ['content']);
  const entries: Entry[] = [];
  for (const [resourceName, nested] of Object.entries(texts as Record<string, unknown>)) {
    if (!nested || typeof nested !== 'object' || Array.isArray(nested)) {
      entries.push({ where: resourceName, resourceName, key: '', value: nested });
      continue;
    }
    for (const [key, value] of flattenNested(nested as Record<string, never>)) {
      entries.push({ where: `${resourceName}:${key}`, resourceName, key, value });
      if (entries.length > IMPORT_MAX_TEXTS) throw l10nInvalid(ctx, 'import.tooMany', ['content'], { max: IMPORT_MAX_TEXTS });
    }
  }
  return entries;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The entries of an uploaded workbook (first sheet), read row by row: the header (row 1) names the
 * namespace, key and text columns; a row past IMPORT_MAX_TEXTS ends the read with a 400.
 */
async function entriesFromXlsx(ctx: ServiceContext, bytes: Buffer): Promise<Entry[]> {
  // Header titles in either language, or the field names themselves.
  const columnAt = new Map<Column, number>();
  const entries: Entry[] = [];
  await readHeadedSheet(
    ctx,
    bytes,
    { maxRows: IMPORT_MAX_TEXTS, tooManyRows: ({ max, row }) => l10nInvalid(ctx, 'import.tooManyRows', [FILE_MEMBER], { max, row }) },
    {
      header(titles) {
        for (const [col, text] of titles) {
          const title = text.trim().toLowerCase();
          const column = COLUMNS.find((c) => c === title || COLUMN_TITLES[c]['zh-CN'] === title || COLUMN_TITLES[c]['en-US'].toLowerCase() === title);
          if (column && !columnAt.has(column)) columnAt.set(column, col);
        }
        if (!columnAt.has('namespace') || !columnAt.has('key') || !columnAt.has('value')) throw l10nInvalid(ctx, 'import.unreadable', [FILE_MEMBER]);
      },
      row(row) {
        const cell = (c: Column) => row.getCell(columnAt.get(c)!).text;
        const resourceName = cell('namespace').trim();
        const key = cell('key').trim();
        const value = cell('value');
        if (!resourceName && !key && !value.trim()) return;
        entries.push({ where: `#${row.number}`, resourceName, key, value });
      },
    },
  );
  return entries;
}

/** Imports a JSON pack file (`{ texts: { namespace: nested } }`) into an existing pack; see `importEntries`. */
export async function importPackJson(ctx: ServiceContext, input: TImportPackInput): Promise<TImportPackResult> {
  const pack = await existingPackToImport(ctx, input.culture);
  return importEntries(ctx, pack, 'json', entriesFromJson(ctx, input.content));
}

/** Imports an uploaded workbook (`bytes`, laid out like the Excel export) into an existing pack; see `importEntries`. */
export async function importPackXlsx(ctx: ServiceContext, culture: string, bytes: Buffer): Promise<TImportPackResult> {
  const pack = await existingPackToImport(ctx, culture);
  return importEntries(ctx, pack, 'xlsx', await entriesFromXlsx(ctx, bytes));
}

async function existingPackToImport(ctx: ServiceContext, culture: string) {
  const pack = await repo.findPackByCulture(ctx.db, culture);
  if (!pack) throw l10nInvalid(ctx, 'text.unknownPack', ['culture'], { culture });
  return pack;
}

/**
 * Imports the entries of a pack file into an existing pack: every entry is checked first
 * (namespace, key, text, duplicates, keys that would clash with a group), and if any is wrong
 * nothing is written; then all are written in one transaction. Entries equal to the current text
 * are left alone; empty texts are skipped (not translated).
 */
async function importEntries(
  ctx: ServiceContext,
  pack: { id: string; culture: string },
  format: 'json' | 'xlsx',
  entries: Entry[],
): Promise<TImportPackResult> {
  const fileMember = format === 'json' ? 'content' : FILE_MEMBER;

  const errors: ValidationErrorItem[] = [];
  const fail = (where: string, message: string) =>
    errors.push({ message: l10nText(ctx, 'import.rowError', { where, message }), members: [where] });
  const wanted = new Map<string, { resourceName: string; key: string; value: string; where: string }>();
  for (const e of entries) {
    if (!NAMESPACE_PATTERN.test(e.resourceName) || !isSafeTextPath(e.resourceName)) {
      fail(e.where, l10nText(ctx, 'import.badNamespace'));
      continue;
    }
    if (!TEXT_KEY_PATTERN.test(e.key) || !isSafeTextPath(e.key)) {
      fail(e.where, l10nText(ctx, 'import.badKey'));
      continue;
    }
    if (typeof e.value !== 'string' || e.value.length > TEXT_VALUE_MAX) {
      fail(e.where, l10nText(ctx, 'import.badValue', { max: TEXT_VALUE_MAX }));
      continue;
    }
    if (!e.value.trim()) continue;
    const id = `${e.resourceName}\u0000${e.key}`;
    if (wanted.has(id)) {
      fail(e.where, l10nText(ctx, 'import.duplicate'));
      continue;
    }
    wanted.set(id, { resourceName: e.resourceName, key: e.key, value: e.value, where: e.where });
  }

  const existing = await repo.textsOfCulture(ctx.db, pack.culture);
  const existingById = new Map(existing.map((r) => [`${r.resource_name}\u0000${r.key}`, r]));
  // A key cannot be both a text and the group of other keys (nested resources).
  const keysByNamespace = new Map<string, Set<string>>();
  for (const r of [...existing.map((x) => ({ resourceName: x.resource_name, key: x.key })), ...wanted.values()]) {
    let keys = keysByNamespace.get(r.resourceName);
    if (!keys) keysByNamespace.set(r.resourceName, (keys = new Set()));
    keys.add(r.key);
  }
  for (const [resourceName, keys] of keysByNamespace) {
    for (const key of keys) {
      const parts = key.split('.');
      for (let i = 1; i < parts.length; i++) {
        const prefix = parts.slice(0, i).join('.');
        if (!keys.has(prefix)) continue;
        const blame = wanted.get(`${resourceName}\u0000${key}`) ?? wanted.get(`${resourceName}\u0000${prefix}`);
        if (blame) fail(blame.where, l10nText(ctx, 'text.keyClash', { key, other: prefix }));
      }
    }
  }
  if (errors.length) throw l10nInvalidMany(ctx, errors);
  if (wanted.size === 0 && entries.length === 0) throw l10nInvalid(ctx, 'import.noTexts', [fileMember]);

  const builtIn = new Map<string, string>();
  for (const [resourceName, nested] of Object.entries(builtInTexts(pack.culture))) {
    for (const [key, value] of flattenNested(nested)) builtIn.set(`${resourceName}\u0000${key}`, String(value));
  }
  const result: TImportPackResult = { created: 0, updated: 0, unchanged: 0 };
  const inserts: (typeof wanted extends Map<string, infer V> ? V : never)[] = [];
  const updates: { id: string; value: string }[] = [];
  for (const [id, w] of wanted) {
    const current = existingById.get(id);
    if (current) {
      if (current.value === w.value) result.unchanged++;
      else updates.push({ id: current.id, value: w.value });
    } else if (builtIn.get(id) === w.value) result.unchanged++;
    else inserts.push(w);
  }
  result.created = inserts.length;
  result.updated = updates.length;
  if (inserts.length || updates.length) {
    await ctx.db.transaction().execute(async (trx) => {
      const now = new Date();
      for (let i = 0; i < inserts.length; i += 500) {
        await repo.insertTexts(
          trx,
          inserts.slice(i, i + 500).map((w) => ({
            id: uuidv7(),
            culture: pack.culture,
            resource_name: w.resourceName,
            key: w.key,
            value: w.value,
            creator_id: ctx.user?.id ?? null,
            last_modification_time: null,
            last_modifier_id: ctx.user?.id ?? null,
            last_modifier_name: ctx.user?.userName ?? null,
          })),
        );
      }
      for (const u of updates) {
        await repo.updateText(trx, u.id, {
          value: u.value,
          last_modification_time: now,
          last_modifier_id: ctx.user?.id ?? null,
          last_modifier_name: ctx.user?.userName ?? null,
        });
      }
      await repo.bumpVersion(trx);
    });
    invalidateDictionaries(ctx.db);
  }
  await recordAudit(ctx, 'Imported', {
    entityType: 'LanguagePack',
    entityId: pack.id,
    details: { culture: pack.culture, format, ...result },
  });
  return result;
}
