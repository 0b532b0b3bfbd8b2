import type { ServiceContext } from '../../platform/context.ts';
import type { Kysely, Selectable } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import type {
  TI18nList,
  TLanguagePack,
  TLanguagePackInput,
  TLocalizationText,
  TLocalizationTextInput,
  TPagedTextList,
  TPagedTextsQuery,
  TPublicLanguagePack,
} from '@tessera/core/contracts/localization';
import type { Database, LanguagePacksTable, LocalizationTextsTable } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { pageWindow, parseSorting } from '../../platform/paging.ts';
import { invalidateDictionaries } from './localization-dictionary.service.ts';
import { l10nInvalid } from './localization.messages.ts';
import * as repo from './localization.repository.ts';
import { iso, isUniqueViolation } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;
type PackRow = Selectable<LanguagePacksTable> & { text_count?: number | string | null };
type TextRow = Selectable<LocalizationTextsTable>;


export const toPackDto = (row: PackRow): TLanguagePack => ({
  id: row.id,
  culture: row.culture,
  title: row.title,
  isEnabled: row.is_enabled,
  flag: row.flag,
  order: row.sort_order,
  isDefault: row.is_default,
  isBuiltIn: row.is_built_in,
  textCount: Number(row.text_count ?? 0),
  concurrencyStamp: row.concurrency_stamp,
  creationTime: iso(row.creation_time)!,
  lastModificationTime: iso(row.last_modification_time),
});

const toPublicPack = (row: PackRow): TPublicLanguagePack => ({ culture: row.culture, title: row.title, flag: row.flag, isDefault: row.is_default });

export const toTextDto = (row: TextRow): TLocalizationText => ({
  id: row.id,
  culture: row.culture,
  resourceName: row.resource_name,
  key: row.key,
  value: row.value,
  creationTime: iso(row.creation_time)!,
  lastModificationTime: iso(row.last_modification_time),
  lastModifierName: row.last_modifier_name,
});

/** After a committed change: this node's dictionaries go at once; other nodes see the new version. */
function changed(db: Db) {
  invalidateDictionaries(db);
}

// ---------------------------------------------------------------- packs

export async function listEnabledPacks(db: Db) {
  const items = (await repo.listPacks(db)).filter((p) => p.is_enabled).map(toPublicPack);
  return { items, totalCount: items.length };
}

export async function listAllPacks(db: Db) {
  const items = (await repo.listPacks(db)).map(toPackDto);
  return { items, totalCount: items.length };
}

/** spec §7 `POST /api/system/i18n/list`: the enabled packs and the default culture. */
export async function i18nList(db: Db): Promise<TI18nList> {
  const packs = (await repo.listPacks(db)).filter((p) => p.is_enabled);
  return { items: packs.map(toPublicPack), defaultCulture: packs.find((p) => p.is_default)?.culture ?? 'zh-CN' };
}

async function packDto(db: Db, id: string) {
  const row = (await repo.listPacks(db)).find((p) => p.id === id);
  if (!row) throw notFound({ id });
  return toPackDto(row);
}

export async function createPack(ctx: ServiceContext, input: TLanguagePackInput) {
  const isEnabled = input.isEnabled ?? true;
  const isDefault = input.isDefault ?? false;
  if (isDefault && !isEnabled) throw l10nInvalid(ctx, 'pack.defaultDisabled', ['isEnabled']);
  if (await repo.findPackByCulture(ctx.db, input.culture)) throw l10nInvalid(ctx, 'pack.cultureTaken', ['culture'], { culture: input.culture });
  const id = uuidv7();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const order = input.order ?? ((await repo.maxPackOrder(trx))?.max ?? -1) + 1;
      if (isDefault) await repo.clearDefault(trx, id);
      await repo.insertPack(trx, {
        id,
        culture: input.culture,
        title: input.title,
        is_enabled: isEnabled,
        flag: input.flag ?? null,
        sort_order: order,
        is_default: isDefault,
        is_built_in: false,
        concurrency_stamp: uuidv7(),
        creator_id: ctx.user?.id ?? null,
        last_modification_time: null,
        last_modifier_id: null,
      });
      await repo.bumpVersion(trx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw l10nInvalid(ctx, 'pack.cultureTaken', ['culture'], { culture: input.culture });
    throw err;
  }
  changed(ctx.db);
  const created = await packDto(ctx.db, id);
  await recordAudit(ctx, 'Created', { entityType: 'LanguagePack', entityId: id, details: { after: created } });
  return created;
}

export async function updatePack(ctx: ServiceContext, id: string, input: TLanguagePackInput) {
  const existing = await repo.findPack(ctx.db, id);
  if (!existing) throw notFound({ id });
  if (input.concurrencyStamp && input.concurrencyStamp !== existing.concurrency_stamp) throw conflict({ id });
  if (input.culture !== existing.culture) throw l10nInvalid(ctx, 'pack.cultureFixed', ['culture']);
  const isEnabled = input.isEnabled ?? existing.is_enabled;
  const isDefault = input.isDefault ?? existing.is_default;
  if (existing.is_default && !isDefault) throw l10nInvalid(ctx, 'pack.needDefault', ['isDefault']);
  if (isDefault && !isEnabled) throw l10nInvalid(ctx, 'pack.defaultDisabled', ['isEnabled']);
  const before = await packDto(ctx.db, id);
  await ctx.db.transaction().execute(async (trx) => {
    if (isDefault && !existing.is_default) await repo.clearDefault(trx, id);
    await repo.updatePack(trx, id, {
      title: input.title,
      is_enabled: isEnabled,
      flag: input.flag === undefined ? existing.flag : input.flag,
      sort_order: input.order ?? existing.sort_order,
      is_default: isDefault,
      concurrency_stamp: uuidv7(),
      last_modification_time: new Date(),
      last_modifier_id: ctx.user?.id ?? null,
    });
    await repo.bumpVersion(trx);
  });
  changed(ctx.db);
  const after = await packDto(ctx.db, id);
  await recordAudit(ctx, 'Updated', { entityType: 'LanguagePack', entityId: id, details: { before, after } });
  return after;
}

/** Deletes a pack with its texts; the built-in and the default packs stay. */
export async function deletePack(ctx: ServiceContext, id: string) {
  const existing = await repo.findPack(ctx.db, id);
  if (!existing) throw notFound({ id });
  if (existing.is_built_in) throw l10nInvalid(ctx, 'pack.builtInDelete', ['id'], { culture: existing.culture });
  if (existing.is_default) throw l10nInvalid(ctx, 'pack.defaultDelete', ['id']);
  const before = await packDto(ctx.db, id);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deletePack(trx, id);
    await repo.bumpVersion(trx);
  });
  changed(ctx.db);
  await recordAudit(ctx, 'Deleted', { entityType: 'LanguagePack', entityId: id, details: { before } });
}

// ---------------------------------------------------------------- texts

/** The pack's culture as stored (the input may differ in case), or a 400. */
async function packCulture(ctx: ServiceContext, culture: string) {
  const pack = await repo.findPackByCulture(ctx.db, culture);
  if (!pack) throw l10nInvalid(ctx, 'text.unknownPack', ['culture'], { culture });
  return pack.culture;
}

async function checkKey(ctx: ServiceContext, culture: string, input: TLocalizationTextInput, exceptId?: string) {
  const same = await repo.findTextByKey(ctx.db, culture, input.resourceName, input.key);
  if (same && same.id !== exceptId) {
    throw l10nInvalid(ctx, 'text.exists', ['key'], { resource: input.resourceName, key: input.key });
  }
  const clash = await repo.findClashingKey(ctx.db, culture, input.resourceName, input.key, exceptId);
  if (clash) throw l10nInvalid(ctx, 'text.keyClash', ['key'], { key: input.key, other: clash.key });
}

export async function createText(ctx: ServiceContext, input: TLocalizationTextInput) {
  const culture = await packCulture(ctx, input.culture);
  await checkKey(ctx, culture, input);
  const id = uuidv7();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.insertText(trx, {
        id,
        culture,
        resource_name: input.resourceName,
        key: input.key,
        value: input.value,
        creator_id: ctx.user?.id ?? null,
        last_modification_time: null,
        last_modifier_id: ctx.user?.id ?? null,
        last_modifier_name: ctx.user?.userName ?? null,
      });
      await repo.bumpVersion(trx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw l10nInvalid(ctx, 'text.exists', ['key'], { resource: input.resourceName, key: input.key });
    throw err;
  }
  changed(ctx.db);
  const created = toTextDto((await repo.findText(ctx.db, id))!);
  await recordAudit(ctx, 'Created', { entityType: 'LocalizationText', entityId: id, details: { after: created } });
  return created;
}

export async function updateText(ctx: ServiceContext, id: string, input: TLocalizationTextInput) {
  const existing = await repo.findText(ctx.db, id);
  if (!existing) throw notFound({ id });
  const culture = await packCulture(ctx, input.culture);
  await checkKey(ctx, culture, input, id);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.updateText(trx, id, {
        culture,
        resource_name: input.resourceName,
        key: input.key,
        value: input.value,
        last_modification_time: new Date(),
        last_modifier_id: ctx.user?.id ?? null,
        last_modifier_name: ctx.user?.userName ?? null,
      });
      await repo.bumpVersion(trx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw l10nInvalid(ctx, 'text.exists', ['key'], { resource: input.resourceName, key: input.key });
    throw err;
  }
  changed(ctx.db);
  const updated = toTextDto((await repo.findText(ctx.db, id))!);
  await recordAudit(ctx, 'Updated', { entityType: 'LocalizationText', entityId: id, details: { before: toTextDto(existing), after: updated } });
  return updated;
}

export async function deleteText(ctx: ServiceContext, id: string) {
  const existing = await repo.findText(ctx.db, id);
  if (!existing) throw notFound({ id });
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteText(trx, id);
    await repo.bumpVersion(trx);
  });
  changed(ctx.db);
  await recordAudit(ctx, 'Deleted', { entityType: 'LocalizationText', entityId: id, details: { before: toTextDto(existing) } });
}

const TEXT_SORTING = {
  key: 'key',
  resourcename: 'resource_name',
  value: 'value',
  culture: 'culture',
  lastmodificationtime: 'last_modification_time',
} as const;

export async function pagedTexts(db: Db, query: TPagedTextsQuery): Promise<TPagedTextList> {
  const { offset, limit } = pageWindow(query);
  const sort = parseSorting(query.Sorting, TEXT_SORTING, { column: 'resource_name', direction: 'asc' });
  const { rows, total } = await repo.pageTexts(db, {
    culture: query.Culture,
    referenceCulture: query.ReferenceCulture,
    onlyMissing: query.OnlyMissing,
    resourceName: query.ResourceName,
    key: query.Key,
    value: query.Value,
    filter: query.Filter?.trim() || undefined,
    sort,
    offset,
    limit,
  });
  return {
    totalCount: total,
    items: rows.map((r) => ({
      id: r.id,
      culture: r.culture,
      resourceName: r.resource_name,
      key: r.key,
      value: r.value,
      referenceValue: r.reference_value,
      isMissing: r.id === null,
      lastModificationTime: iso(r.last_modification_time),
      lastModifierName: r.last_modifier_name,
    })),
  };
}
