/**
 * Business dictionaries (`/dataSet/dictionary`): CRUD with items, usage checks, options for pickers.
 *
 * For other modules: `listDictionaryOptions(db, dictionaryCode, culture, { includeDisabled })` reads
 * the options of a business dictionary (or, when no business dictionary has the code, a system
 * dictionary) in the caller's language — what drop-down controls and business-data's
 * `query-drop-down-data` show. Values are item codes (stable when labels change); disabled items
 * are left out unless `includeDisabled` (to label a value an old record still holds).
 */
import type { Insertable, Kysely, Selectable } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import type { z } from 'zod';
import type {
  TDictionary,
  TDictionaryItem,
  TDictionaryList,
  TDictionaryOption,
  TDictionaryQuery,
  TDictionarySummary,
  ZDictionaryInput,
  ZDictionaryItemInput,
} from '@tessera/core/contracts/dictionaries';
import type { Database, DictionariesTable, DictionaryItemsTable } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { AppError, conflict, notFound, type ValidationErrorItem } from '../../platform/errors.ts';
import { localize } from '../../platform/localized-text.ts';
import type { TextAudience } from '../../platform/messages.ts';
import { parseSorting, pageWindow } from '../../platform/paging.ts';
import { dictionaryInvalid, dictionaryText } from './dictionaries.messages.ts';
import { validationFailure } from '../../platform/module-messages.ts';
import * as repo from './dictionaries.repository.ts';
import { pagesUsingDictionary } from './dictionary-usage.ts';
import { findSysDictionary } from './sys-dictionaries.ts';
import { iso, isUniqueViolation } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;
type DictionaryRow = Selectable<DictionariesTable>;
type ItemRow = Selectable<DictionaryItemsTable>;
export type DictionaryInput = z.output<typeof ZDictionaryInput>;
export type DictionaryItemInput = z.output<typeof ZDictionaryItemInput>;


export const toItemDto = (row: ItemRow): TDictionaryItem => ({
  id: row.id,
  code: row.code,
  label: row.label,
  parentCode: row.parent_code,
  order: row.sort_order,
  isEnabled: row.is_enabled,
  color: row.color,
});

function toSummary(row: DictionaryRow, items: { itemCount: number; enabledItemCount: number }): TDictionarySummary {
  return {
    id: row.id,
    code: row.code,
    title: row.title,
    description: row.description,
    isTree: row.is_tree,
    ...items,
    concurrencyStamp: row.concurrency_stamp,
    creationTime: iso(row.creation_time)!,
    lastModificationTime: iso(row.last_modification_time),
  };
}

function toDictionary(row: DictionaryRow, items: ItemRow[]): TDictionary {
  return {
    ...toSummary(row, { itemCount: items.length, enabledItemCount: items.filter((i) => i.is_enabled).length }),
    items: items.map(toItemDto),
  };
}

const SORTABLE = { code: 'd.code', creationtime: 'd.creation_time', lastmodificationtime: 'd.last_modification_time' } as const;

export async function listDictionaries(ctx: ServiceContext, query: TDictionaryQuery): Promise<TDictionaryList> {
  const filter = { text: query.Filter?.trim() || undefined, isTree: query.IsTree };
  const sort = parseSorting(query.Sorting, SORTABLE, { column: 'd.creation_time', direction: 'desc' });
  const [rows, totalCount] = await Promise.all([
    repo.listDictionaries(ctx.db, filter, sort, pageWindow(query)),
    repo.countDictionaries(ctx.db, filter),
  ]);
  return {
    items: rows.map((r) => toSummary(r, { itemCount: Number(r.item_count), enabledItemCount: Number(r.enabled_item_count) })),
    totalCount,
  };
}

export async function getDictionary(ctx: ServiceContext, id: string): Promise<TDictionary> {
  const row = await repo.findDictionary(ctx.db, id);
  if (!row) throw notFound({ id });
  return toDictionary(row, await repo.itemsOf(ctx.db, id));
}

/**
 * Checks the submitted items against the stored ones and lays them out for storing. Items are
 * matched by id, or by code when the id is omitted; an existing item keeps its code. Tree items
 * name their parent by code; the stored order is a depth-first walk (siblings in submitted order),
 * so reading by order lists every parent before its children.
 */
export function planItems(
  who: TextAudience,
  dictionaryId: string,
  isTree: boolean,
  input: DictionaryItemInput[],
  existing: ItemRow[],
): { rows: Insertable<DictionaryItemsTable>[]; errors: (ValidationErrorItem & { index: number })[] } {
  const errors: (ValidationErrorItem & { index: number })[] = [];
  const fail = (index: number, member: string, message: string) => errors.push({ index, message, members: [`items.${index}.${member}`] });
  const byId = new Map(existing.map((i) => [i.id, i]));
  const byCode = new Map(existing.map((i) => [i.code, i]));
  const seenCodes = new Map<string, number>();
  const seenIds = new Set<string>();
  const planned = input.map((item, index) => {
    let id = item.id;
    if (id) {
      const stored = byId.get(id);
      if (!stored) fail(index, 'id', dictionaryText(who, 'item.unknownId'));
      else if (stored.code !== item.code) fail(index, 'code', dictionaryText(who, 'item.codeChanged', { from: stored.code, to: item.code }));
    } else {
      id = byCode.get(item.code)?.id ?? uuidv7();
    }
    if (seenIds.has(id)) fail(index, 'id', dictionaryText(who, 'item.duplicateId'));
    seenIds.add(id);
    if (seenCodes.has(item.code)) fail(index, 'code', dictionaryText(who, 'item.duplicateCode', { code: item.code }));
    else seenCodes.set(item.code, index);
    const parentCode = item.parentCode || null;
    if (parentCode && !isTree) fail(index, 'parentCode', dictionaryText(who, 'item.parentNotTree'));
    else if (parentCode && !seenCodes.has(parentCode) && !input.some((other) => other.code === parentCode)) {
      fail(index, 'parentCode', dictionaryText(who, 'item.parentMissing', { code: parentCode }));
    }
    return { index, id, item, parentCode: isTree ? parentCode : null };
  });
  if (errors.length) return { rows: [], errors };

  const children = new Map<string | null, typeof planned>();
  for (const p of planned) {
    const list = children.get(p.parentCode) ?? [];
    list.push(p);
    children.set(p.parentCode, list);
  }
  const ordered: typeof planned = [];
  const walk = (parent: string | null) => {
    for (const p of children.get(parent) ?? []) {
      ordered.push(p);
      walk(p.item.code);
    }
  };
  walk(null);
  // Every parent exists, so an item the walk never reaches sits on a cycle.
  if (ordered.length < planned.length) {
    const reached = new Set(ordered.map((p) => p.id));
    for (const p of planned) if (!reached.has(p.id)) fail(p.index, 'parentCode', dictionaryText(who, 'item.cycle', { code: p.item.code }));
    return { rows: [], errors };
  }
  return {
    rows: ordered.map((p, order) => ({
      id: p.id,
      dictionary_id: dictionaryId,
      code: p.item.code,
      label: JSON.stringify(cleanText(p.item.label)),
      parent_code: p.parentCode,
      sort_order: order,
      is_enabled: p.item.isEnabled ?? byId.get(p.id)?.is_enabled ?? true,
      color: p.item.color || null,
    })),
    errors,
  };
}

/** Drops empty languages from a multilingual text. */
const cleanText = (text: Record<string, string>) => Object.fromEntries(Object.entries(text).filter(([, v]) => v.trim()));

function itemFailure(errors: ValidationErrorItem[]) {
  return validationFailure(errors[0]!.message, errors.map(({ message, members }) => ({ message, members })));
}

/** At most this many items go into an audit entry (a dictionary may hold thousands). */
const AUDIT_ITEMS = 500;
const auditView = (d: TDictionary) => {
  const { items, ...rest } = d;
  return items.length > AUDIT_ITEMS ? { ...rest, items: items.slice(0, AUDIT_ITEMS), itemsTruncated: true } : d;
};

export async function createDictionary(ctx: ServiceContext, input: DictionaryInput): Promise<TDictionary> {
  if (await repo.findDictionaryByCode(ctx.db, input.code)) throw dictionaryInvalid(ctx, 'dictionary.codeTaken', ['code'], { code: input.code });
  const id = uuidv7();
  const isTree = input.isTree ?? false;
  const plan = planItems(ctx, id, isTree, input.items, []);
  if (plan.errors.length) throw itemFailure(plan.errors);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.insertDictionary(trx, {
        id,
        code: input.code,
        title: JSON.stringify(cleanText(input.title)),
        description: input.description ?? '',
        is_tree: isTree,
        concurrency_stamp: uuidv7(),
        creator_id: ctx.user?.id ?? null,
        last_modification_time: null,
        last_modifier_id: null,
      });
      await repo.replaceItems(trx, id, plan.rows);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw dictionaryInvalid(ctx, 'dictionary.codeTaken', ['code'], { code: input.code });
    throw err;
  }
  invalidateLabels(ctx.db);
  const created = await getDictionary(ctx, id);
  await recordAudit(ctx, 'Created', { entityType: 'Dictionary', entityId: id, details: { before: null, after: auditView(created) } });
  return created;
}

function inUse(who: TextAudience, key: 'dictionary.inUse' | 'dictionary.codeInUse', pages: string[]) {
  const message = dictionaryText(who, key, { pages: pages.join('、') });
  return new AppError(400, 'DictionaryInUse', null, { message, details: { pages }, validationErrors: [{ message, members: key === 'dictionary.codeInUse' ? ['code'] : [] }] });
}

/** Saves the whole dictionary (header and items) in one transaction. */
export async function updateDictionary(ctx: ServiceContext, id: string, input: DictionaryInput): Promise<TDictionary> {
  const existing = await repo.findDictionary(ctx.db, id);
  if (!existing) throw notFound({ id });
  if (input.concurrencyStamp && input.concurrencyStamp !== existing.concurrency_stamp) throw conflict({ id });
  if (input.code !== existing.code) {
    const other = await repo.findDictionaryByCode(ctx.db, input.code);
    if (other && other.id !== id) throw dictionaryInvalid(ctx, 'dictionary.codeTaken', ['code'], { code: input.code });
    // Pages refer to a dictionary by its code.
    const pages = await pagesUsingDictionary(ctx.db, { id, code: existing.code });
    if (pages.length) throw inUse(ctx, 'dictionary.codeInUse', pages);
  }
  const before = toDictionary(existing, await repo.itemsOf(ctx.db, id));
  const isTree = input.isTree ?? existing.is_tree;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // Re-read the items inside the transaction: the plan must match what it replaces.
      const plan = planItems(ctx, id, isTree, input.items, await repo.itemsOf(trx, id));
      if (plan.errors.length) throw itemFailure(plan.errors);
      await repo.updateDictionary(trx, id, {
        code: input.code,
        title: JSON.stringify(cleanText(input.title)),
        description: input.description ?? existing.description,
        is_tree: isTree,
        concurrency_stamp: uuidv7(),
        last_modification_time: new Date(),
        last_modifier_id: ctx.user?.id ?? null,
      });
      await repo.replaceItems(trx, id, plan.rows);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw dictionaryInvalid(ctx, 'dictionary.codeTaken', ['code'], { code: input.code });
    throw err;
  }
  invalidateLabels(ctx.db);
  const updated = await getDictionary(ctx, id);
  await recordAudit(ctx, 'Updated', { entityType: 'Dictionary', entityId: id, details: { before: auditView(before), after: auditView(updated) } });
  return updated;
}

/** Refused while a published page uses the dictionary; the error names the pages. */
export async function deleteDictionary(ctx: ServiceContext, id: string): Promise<void> {
  const existing = await repo.findDictionary(ctx.db, id);
  if (!existing) throw notFound({ id });
  const pages = await pagesUsingDictionary(ctx.db, { id, code: existing.code });
  if (pages.length) throw inUse(ctx, 'dictionary.inUse', pages);
  const before = toDictionary(existing, await repo.itemsOf(ctx.db, id));
  await ctx.db.transaction().execute((trx) => repo.deleteDictionary(trx, id));
  invalidateLabels(ctx.db);
  await recordAudit(ctx, 'Deleted', { entityType: 'Dictionary', entityId: id, details: { before: auditView(before), after: null } });
}

/**
 * The options of a dictionary (business first, then system) in the caller's language, for
 * drop-down controls and the business-data module's `query-drop-down-data`. A disabled item — or
 * one under a disabled parent — is left out unless `includeDisabled` (a record that already holds
 * the value still shows its label).
 */
export async function listDictionaryOptions(
  db: Db,
  dictionaryCode: string,
  culture: string,
  options: { includeDisabled?: boolean } = {},
): Promise<TDictionaryOption[]> {
  const found = await findDictionaryOptions(db, dictionaryCode, culture, options);
  if (found) return found;
  const message = dictionaryText(culture.startsWith('en') ? 'en-US' : 'zh-CN', 'dictionary.unknown', { code: dictionaryCode });
  throw new AppError(404, 'DictionaryNotFound', null, { message, details: { dictionaryCode } });
}

/** A dictionary item with its label in every language it has, and whether it may be newly chosen. */
export interface DictionaryItemLabels {
  value: string;
  /** culture → label, as the item holds them. */
  labels: Record<string, string>;
  /** False for a disabled item or one under a disabled parent. */
  isEnabled: boolean;
}

/** Effective states: an item under a disabled parent is disabled. Items come parents first. */
function withEffectiveState(items: readonly Pick<TDictionaryItem, 'code' | 'label' | 'parentCode' | 'isEnabled'>[]): DictionaryItemLabels[] {
  const enabled = new Map<string, boolean>();
  for (const item of items) enabled.set(item.code, item.isEnabled && (item.parentCode ? enabled.get(item.parentCode) !== false : true));
  return items.map((item) => ({ value: item.code, labels: { ...item.label }, isEnabled: enabled.get(item.code) ?? false }));
}

/**
 * The items of several dictionaries (business first, then system) with every language's label, in
 * one query whatever their number — for callers that label many values at once (business lists,
 * exports, history) or read labels back (imports). A code no dictionary has maps to null.
 */
export async function findDictionaryItemsByCodes(db: Db, codes: readonly string[]): Promise<Map<string, DictionaryItemLabels[] | null>> {
  const wanted = [...new Set(codes)];
  const byDictionary = new Map<string, { code: string; label: Record<string, string>; parentCode: string | null; isEnabled: boolean }[]>();
  for (const row of await repo.itemsOfCodes(db, wanted)) {
    const key = row.dictionary_code.toLowerCase();
    const list = byDictionary.get(key) ?? [];
    if (row.code !== null) list.push({ code: row.code, label: row.label ?? {}, parentCode: row.parent_code, isEnabled: row.is_enabled ?? false });
    byDictionary.set(key, list);
  }
  const out = new Map<string, DictionaryItemLabels[] | null>();
  for (const code of wanted) {
    const list = byDictionary.get(code.toLowerCase()) ?? findSysDictionary(code)?.items;
    out.set(code, list ? withEffectiveState(list) : null);
  }
  return out;
}

/**
 * Labels are read on every business list, export and history of a page that shows them, so each
 * node keeps what `findDictionaryItemsByCodes` read for 5 s (dropped at once by this node's
 * dictionary writes; another node's writes show within the 5 s). For display only: what may be
 * chosen is always read fresh.
 */
const LABELS_TTL_MS = 5_000;
const labelCache = new WeakMap<Db, Map<string, { items: DictionaryItemLabels[] | null; at: number }>>();
const invalidateLabels = (db: Db) => labelCache.delete(db);

/** As `findDictionaryItemsByCodes`, from the node's 5 s cache where it can. */
export async function dictionaryLabelsByCodes(db: Db, codes: readonly string[]): Promise<Map<string, DictionaryItemLabels[] | null>> {
  let cache = labelCache.get(db);
  if (!cache) labelCache.set(db, (cache = new Map()));
  const now = Date.now();
  const out = new Map<string, DictionaryItemLabels[] | null>();
  const missing: string[] = [];
  for (const code of new Set(codes)) {
    const hit = cache.get(code.toLowerCase());
    if (hit && now - hit.at < LABELS_TTL_MS) out.set(code, hit.items);
    else missing.push(code);
  }
  if (missing.length) {
    for (const [code, items] of await findDictionaryItemsByCodes(db, missing)) {
      cache.set(code.toLowerCase(), { items, at: now });
      out.set(code, items);
    }
  }
  return out;
}

/** As `listDictionaryOptions`, with null for a code no dictionary has (for callers to whom that is no error). */
export async function findDictionaryOptions(
  db: Db,
  dictionaryCode: string,
  culture: string,
  options: { includeDisabled?: boolean } = {},
): Promise<TDictionaryOption[] | null> {
  const row = await repo.findDictionaryByCode(db, dictionaryCode);
  let items: TDictionaryItem[];
  if (row) items = (await repo.itemsOf(db, row.id)).map(toItemDto);
  else {
    const sys = findSysDictionary(dictionaryCode);
    if (!sys) return null;
    items = sys.items;
  }
  const enabled = new Map(withEffectiveState(items).map((i) => [i.value, i.isEnabled]));
  return items
    .filter((item) => options.includeDisabled || enabled.get(item.code))
    .map((item) => ({
      value: item.code,
      label: localize(item.label, culture) || item.code,
      parentValue: item.parentCode,
      color: item.color,
      isEnabled: enabled.get(item.code) ?? false,
    }));
}
