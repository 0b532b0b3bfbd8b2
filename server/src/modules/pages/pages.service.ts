/*
 * Page definitions: CRUD, copy, rename, delete, import/export, versions (routes in pages.routes.ts;
 * publishing and rollback in publish.service.ts).
 *
 * For other modules (the business runtime of issue 8, workflows, print templates …) — use these,
 * never the page tables directly:
 *
 * - `getPublishedPageDefinition(db, idOrCode)` → `{ page, version, definition } | null`: the latest
 *   published version (what users see; drafts never leave this module). Same as
 *   `getPublishedPage` in biz-schema.ts.
 * - `getPageVersionDefinition(db, pageId, version)` → the definition of one published version.
 * - `getPublishedVersionNumber(db, idOrCode)` → `{ id, version } | null`: cheap, for caches keyed by
 *   the published version.
 * - `findPublishedPagesWithView(db, viewId)` → ids of the pages whose published version holds a view
 *   (candidates: the caller checks the parsed definition).
 * - Table and column naming (biz-schema.ts, re-exported here): `bizTableName(viewId)` →
 *   `v_<uuid without dashes>` in schema `biz`; `bizTable(table)` / `bizTableOf(viewId)` → a safe
 *   `biz."v_…"` reference; `ident(code)` → a safe quoted column; one column per data control named
 *   by its code, typed by `columnSqlType(tableFieldType)`; `SYSTEM_COLUMNS` (Id, ParentViewDataId,
 *   DataStatus, …); `bizViews(definition)` → per data view its table, parent view and columns;
 *   `isContainerView(viewType)` (containers have no table).
 * - `getPageSummaries(db, ids)` / `findPageSummary(db, idOrCode)` → id, code, name and published
 *   version of pages another module references (a workflow's bound page), drafts included;
 *   `listPublishedPageSummaries(db, text, window)` → the published pages it may bind to.
 * - `registerPageUsage(source)`: a module whose records reference pages (workflows, …) registers
 *   a lookup; deleting a page is refused while any source reports a user, naming them.
 */
import type { ServiceContext } from '../../platform/context.ts';
import type { Kysely, Selectable } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import { flattenViews, ZPageDefinition, type TPageDefinition, type TView } from '@tessera/core/page-definition';
import {
  EMPTY_PAGE_DESIGN,
  PAGE_EXPORT_FORMAT,
  ZHiddenColumn,
  ZPublishChange,
  type TCopyPageDefinitionInput,
  type TExportDataSource,
  type TCreatePageDefinitionInput,
  type TImportPageDefinitionInput,
  type TPageDefinitionDetail,
  type TPageDefinitionList,
  type TPageDefinitionListItem,
  type TPageDefinitionQuery,
  type TPageExportDocument,
  type TPageVersionDetail,
  type TPageVersionList,
  type TPageVersionListItem,
  type TRenamePageDefinitionInput,
  type TSavePageDraftInput,
  type TBindablePageList,
  type TBindablePageQuery,
  type TPublishedPageDesign,
} from '@tessera/core/contracts/pages';
import { z } from 'zod';
import type { Database, LocalizedText, PageDefinitionsTable } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { pageWindow, parseSorting } from '../../platform/paging.ts';
import { removePermissionGroup } from '../authorization/index.ts';
import { bizTable, bizViews, getPublishedPage, type PublishedPage } from './biz-schema.ts';
import { designChanges } from './design-diff.ts';
import { readLiveTables } from './live-schema.ts';
import { pagesError, requestTranslator } from './pages.messages.ts';
import * as repo from './pages.repository.ts';
import { dropPageViews } from './page-views.ts';
import { iso, isUniqueViolation } from '../../platform/sql-values.ts';

type PageRow = Selectable<PageDefinitionsTable>;
type Db = Kysely<Database>;

export {
  bizTable,
  bizTableName,
  bizTableOf,
  bizViews,
  columnSqlType,
  ident,
  isContainerView,
  SYSTEM_COLUMNS,
  type BizColumn,
  type BizView,
  type PublishedPage,
} from './biz-schema.ts';

/** The latest published version of a page by id or code (case-insensitive); null when never published. */
export function getPublishedPageDefinition(db: Db, pageIdOrCode: string): Promise<PublishedPage | null> {
  return getPublishedPage(db, pageIdOrCode);
}

/** A page's id and published version (null when unknown or never published): one indexed lookup. */
export async function getPublishedVersionNumber(db: Db, pageIdOrCode: string): Promise<{ id: string; version: number } | null> {
  const row = await repo.findPublishedVersionNumber(db, pageIdOrCode);
  return row && row.published_version !== null ? { id: row.id, version: row.published_version } : null;
}

/** Pages whose latest published definition mentions the view id (the caller confirms by parsing it). */
export const findPublishedPagesWithView = (db: Db, viewId: string): Promise<string[]> => repo.publishedPagesMentioning(db, viewId);

/** The definition of one published version (null when the page or version does not exist). */
export async function getPageVersionDefinition(db: Db, pageId: string, version: number): Promise<TPageDefinition | null> {
  const row = await repo.findVersion(db, pageId, version);
  return row ? ZPageDefinition.parse(row.definition) : null;
}

/** Something that references a page and blocks its deletion (a business menu, a workflow, …). */
export interface PageUser {
  kind: 'menu' | 'workflow' | 'printTemplate';
  id: string;
  title: LocalizedText;
}
export type PageUsageSource = (db: Db, pageId: string) => Promise<PageUser[]>;
const usageSources: PageUsageSource[] = [];

/** Registers a lookup of the records that use a page; `deletePageDefinition` refuses while any answers. */
export function registerPageUsage(source: PageUsageSource): void {
  usageSources.push(source);
}

/** What another module shows of a page it references, and checks before binding to it. */
export interface PageSummary {
  id: string;
  code: string;
  name: LocalizedText;
  /** Null while the page was never published. */
  publishedVersion: number | null;
}
const toSummary = (r: { id: string; code: string; name: LocalizedText; published_version: number | null }): PageSummary => ({
  id: r.id,
  code: r.code,
  name: r.name,
  publishedVersion: r.published_version,
});

/** Pages by id (missing ids are absent from the map). */
export async function getPageSummaries(db: Db, ids: readonly string[]): Promise<Map<string, PageSummary>> {
  const valid = [...new Set(ids)].filter((id) => UUID_PATTERN.test(id));
  if (valid.length === 0) return new Map();
  return new Map((await repo.pageSummaries(db, { ids: valid })).map((r) => [r.id, toSummary(r)]));
}

/** A page by id, or by code (case-insensitive) when the argument is not a UUID; null when there is none. */
export async function findPageSummary(db: Db, idOrCode: string): Promise<PageSummary | null> {
  const rows = UUID_PATTERN.test(idOrCode) ? await repo.pageSummaries(db, { ids: [idOrCode] }) : await repo.pageSummaries(db, { code: idOrCode });
  return rows[0] ? toSummary(rows[0]) : null;
}
/** Published pages (code or name matching `Filter`), by code, paged: the pages another module's definitions may bind to (its page picker). */
export async function listBindablePages(db: Db, query: TBindablePageQuery): Promise<TBindablePageList> {
  const { rows, totalCount } = await repo.publishedPageSummaries(db, query.Filter?.trim() || undefined, pageWindow(query));
  return { items: rows.map((r) => ({ id: r.id, code: r.code, name: r.name, publishedVersion: r.published_version! })), totalCount };
}

/** A page's latest published design, for another module's designer; 404 when the page was never published. */
export async function getPublishedPageDesign(db: Db, pageId: string): Promise<TPublishedPageDesign> {
  const published = await getPublishedPageDefinition(db, pageId);
  if (!published || published.page.id !== pageId) throw notFound({ pageId });
  const { page, version, definition } = published;
  return { page: { id: page.id, code: page.code, name: page.name, publishedVersion: version.version }, definition };
}
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toListItem(row: Omit<PageRow, 'draft'>): TPageDefinitionListItem {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    status: row.status,
    publishedVersion: row.published_version,
    publishedTime: iso(row.published_time),
    concurrencyStamp: row.concurrency_stamp,
    creatorId: row.creator_id,
    creationTime: iso(row.creation_time)!,
    lastModifierId: row.last_modifier_id,
    lastModificationTime: iso(row.last_modification_time),
  };
}

export const toDetail = (row: PageRow): TPageDefinitionDetail => ({ ...toListItem(row), definition: ZPageDefinition.parse(row.draft) });

const SORTING = {
  code: 'code',
  name: 'name',
  status: 'status',
  creationtime: 'creation_time',
  lastmodificationtime: 'last_modification_time',
  publishedtime: 'published_time',
} as const satisfies Record<string, repo.PageSortColumn>;

export async function listPageDefinitions(db: Db, query: TPageDefinitionQuery): Promise<TPageDefinitionList> {
  const text = query.Filter?.trim() || undefined;
  const sort = parseSorting<repo.PageSortColumn>(query.Sorting, SORTING, { column: 'creation_time', direction: 'desc' });
  const [totalCount, rows] = [await repo.countPages(db, text, query.Status), await repo.listPages(db, text, query.Status, sort, pageWindow(query))];
  return { items: rows.map(toListItem), totalCount };
}

export async function requirePage(db: Db, id: string): Promise<PageRow> {
  const row = await repo.findPage(db, id);
  if (!row) throw notFound({ id });
  return row;
}

export async function getPageDefinition(db: Db, id: string) {
  return toDetail(await requirePage(db, id));
}

async function ensureCodeFree(ctx: ServiceContext, code: string, members: string[], self?: string) {
  const existing = await repo.findPageByCode(ctx.db, code);
  if (existing && existing.id !== self) throw pagesError(ctx, 400, 'ValidationError', 'page.codeTaken', { code }, { members });
}

function newPageRow(ctx: ServiceContext, code: string, name: LocalizedText, description: string | null | undefined, definition: TPageDefinition) {
  return {
    id: uuidv7(),
    code,
    name: JSON.stringify(name),
    description: description ?? null,
    draft: JSON.stringify(definition),
    concurrency_stamp: uuidv7(),
    creator_id: ctx.user?.id ?? null,
    creation_time: new Date(),
    published_version: null,
    published_time: null,
    last_modification_time: null,
    last_modifier_id: null,
  };
}

async function insertNew(ctx: ServiceContext, row: ReturnType<typeof newPageRow>, action: string) {
  try {
    await ctx.db.transaction().execute((trx) => repo.insertPage(trx, row));
  } catch (err) {
    // Two creations racing for one code: the unique index decides.
    if (isUniqueViolation(err)) throw pagesError(ctx, 400, 'ValidationError', 'page.codeTaken', { code: row.code }, { members: ['code'] });
    throw err;
  }
  const created = await requirePage(ctx.db, row.id);
  await recordAudit(ctx, 'Created', { entityType: 'PageDefinition', entityId: row.id, details: { action, after: toListItem(created) } });
  return toDetail(created);
}

export async function createPageDefinition(ctx: ServiceContext, input: TCreatePageDefinitionInput) {
  await ensureCodeFree(ctx, input.code, ['code']);
  const definition = ZPageDefinition.parse(input.definition ?? EMPTY_PAGE_DESIGN);
  return insertNew(ctx, newPageRow(ctx, input.code, input.name, input.description, definition), 'create');
}

/** Autosave: the draft only (users never see it); a stale stamp is a 409, never an overwrite. */
export async function saveDraft(ctx: ServiceContext, id: string, input: TSavePageDraftInput) {
  const existing = await requirePage(ctx.db, id);
  const definition = ZPageDefinition.parse(input.definition);
  const ok = await ctx.db.transaction().execute((trx) =>
    repo.updatePageIfStamp(trx, id, input.concurrencyStamp, {
      draft: JSON.stringify(definition),
      concurrency_stamp: uuidv7(),
      status: existing.published_version === null ? 'draft' : 'modified',
      last_modification_time: new Date(),
      last_modifier_id: ctx.user?.id ?? null,
    }),
  );
  if (!ok) throw conflict({ id, concurrencyStamp: (await requirePage(ctx.db, id)).concurrency_stamp });
  return toDetail(await requirePage(ctx.db, id));
}

export async function renamePage(ctx: ServiceContext, id: string, input: TRenamePageDefinitionInput) {
  const existing = await requirePage(ctx.db, id);
  if (input.concurrencyStamp && input.concurrencyStamp !== existing.concurrency_stamp) throw conflict({ id });
  const code = input.code ?? existing.code;
  if (code !== existing.code) {
    if (existing.published_version !== null) throw pagesError(ctx, 400, 'ValidationError', 'page.codeFixed', {}, { members: ['code'] });
    await ensureCodeFree(ctx, code, ['code'], id);
  }
  await ctx.db.transaction().execute((trx) =>
    repo.updatePage(trx, id, {
      code,
      name: JSON.stringify(input.name),
      description: input.description === undefined ? existing.description : input.description,
      last_modification_time: new Date(),
      last_modifier_id: ctx.user?.id ?? null,
    }),
  );
  const after = await requirePage(ctx.db, id);
  await recordAudit(ctx, 'Updated', { entityType: 'PageDefinition', entityId: id, details: { before: toListItem(existing), after: toListItem(after) } });
  return toDetail(after);
}

export async function copyPage(ctx: ServiceContext, id: string, input: TCopyPageDefinitionInput) {
  const source = await requirePage(ctx.db, id);
  await ensureCodeFree(ctx, input.code, ['code']);
  const definition = remapIds(ZPageDefinition.parse(source.draft));
  const name = input.name ?? source.name;
  return insertNew(ctx, newPageRow(ctx, input.code, name, source.description, definition), 'copy');
}

/**
 * Deletes the page and its versions. Refused while business menus open it. Its empty tables are
 * dropped; tables holding data stay (named in the audit entry), never dropped silently.
 */
export async function deletePageDefinition(ctx: ServiceContext, id: string) {
  const existing = await requirePage(ctx.db, id);
  const users = (await Promise.all(usageSources.map((source) => source(ctx.db, id)))).flat();
  const menus = users.filter((u) => u.kind === 'menu');
  const workflows = users.filter((u) => u.kind === 'workflow');
  const printTemplates = users.filter((u) => u.kind === 'printTemplate');
  if (users.length > 0) {
    const t = requestTranslator(ctx);
    const english = ctx.culture === 'en-US';
    const titleOf = (title: LocalizedText, fallback: string) =>
      (english ? (title['en-US'] ?? title['zh-CN']) : (title['zh-CN'] ?? title['en-US'])) ?? Object.values(title)[0] ?? fallback;
    const names = [
      ...menus.map((m) => t('page.usedByMenu', { title: titleOf(m.title, m.id) })),
      ...workflows.map((w) => t('page.usedByWorkflow', { title: titleOf(w.title, w.id) })),
      ...printTemplates.map((p) => t('page.usedByPrintTemplate', { title: titleOf(p.title, p.id) })),
    ];
    throw pagesError(ctx, 409, 'Pages.InUse', 'page.inUse', { menus: names.join(', ') }, {
      details: { menus: menus.map((m) => ({ id: m.id, title: m.title })), workflows: workflows.map((w) => ({ id: w.id, title: w.title })), printTemplates: printTemplates.map((p) => ({ id: p.id, title: p.title })) },
    });
  }
  const kept = await ctx.db.transaction().execute(async (trx) => {
    const versions = await repo.allVersions(trx, id);
    const tables = new Set<string>();
    for (const v of versions) {
      for (const view of bizViews(ZPageDefinition.parse(v.definition))) tables.add(view.table);
      for (const h of z.array(ZHiddenColumn).parse(v.hidden_columns)) tables.add(h.table);
    }
    const live = await readLiveTables(trx, [...tables]);
    const rows = new Map<string, number>();
    for (const table of live.keys()) rows.set(table, await repo.countBizRows(trx, table));
    const keep = new Set<string>();
    for (const [table, n] of rows) {
      if (n === 0) continue;
      for (let at: string | null = table; at && live.has(at) && !keep.has(at); at = live.get(at)!.parentFk?.refTable ?? null) keep.add(at);
    }
    const depth = (table: string) => {
      let d = 0;
      for (let at = live.get(table)?.parentFk?.refTable ?? null; at && d < 100; at = live.get(at)?.parentFk?.refTable ?? null) d++;
      return d;
    };
    const drop = [...live.keys()].filter((t) => !keep.has(t)).sort((a, b) => depth(b) - depth(a));
    await dropPageViews(trx, id);
    for (const table of drop) await repo.dropBizTable(trx, table);
    const permissionNames = await removePermissionGroup(trx, `Biz.${existing.code}`);
    await repo.deletePage(trx, id);
    return { keptTables: [...keep].map((t) => ({ table: t, rows: rows.get(t) ?? 0 })), droppedTables: drop, permissions: permissionNames };
  });
  ctx.caches.auth.invalidateAccess();
  await recordAudit(ctx, 'Deleted', { entityType: 'PageDefinition', entityId: id, details: { before: toListItem(existing), ...kept } });
}

// ---------------------------------------------------------------- export / import

export async function exportPage(ctx: ServiceContext, id: string, source: 'draft' | 'published'): Promise<TPageExportDocument> {
  const page = await requirePage(ctx.db, id);
  let definition = ZPageDefinition.parse(page.draft);
  if (source === 'published') {
    if (page.published_version === null) throw pagesError(ctx, 400, 'ValidationError', 'page.notPublished', {}, { members: ['source'] });
    const version = await repo.findVersion(ctx.db, id, page.published_version);
    definition = ZPageDefinition.parse(version!.definition);
  }
  return {
    format: PAGE_EXPORT_FORMAT,
    formatVersion: 1,
    exportedAt: new Date().toISOString(),
    page: { code: page.code, name: page.name, description: page.description },
    definition,
    dataSources: await externalSources(ctx.db, id, definition),
  };
}

/** Views of other pages a design's lookups read: every `dataSourceId` and join-condition `viewId` not in the design. */
function referencedViewIds(definition: TPageDefinition): Set<string> {
  const own = new Set(flattenViews(definition).map(({ view }) => view.id));
  const ids = new Set<string>();
  for (const { view } of flattenViews(definition)) {
    for (const c of view.dataControls) {
      const source = c.extraProperties?.dataSourceId;
      if (typeof source === 'string' && source && !own.has(source)) ids.add(source);
      for (const j of c.extraProperties?.joinConditions ?? []) if (j.viewId && !own.has(j.viewId)) ids.add(j.viewId);
    }
  }
  return ids;
}

async function externalSources(db: Db, pageId: string, definition: TPageDefinition): Promise<TExportDataSource[]> {
  const wanted = referencedViewIds(definition);
  if (wanted.size === 0) return [];
  const out: TExportDataSource[] = [];
  for (const row of await repo.latestPublishedDefinitions(db)) {
    if (row.id === pageId) continue;
    const parsed = ZPageDefinition.safeParse(row.definition);
    if (!parsed.success) continue;
    for (const { view } of flattenViews(parsed.data)) {
      if (wanted.delete(view.id)) out.push({ viewId: view.id, pageCode: row.code, viewCode: view.code });
    }
  }
  return out;
}

/** Old source view id → the view with the same page code and view code published here. */
async function resolveSources(db: Db, sources: TExportDataSource[]): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  const pages = new Map<string, TPageDefinition | null>();
  for (const source of sources) {
    const key = source.pageCode.toLowerCase();
    if (!pages.has(key)) pages.set(key, (await getPublishedPage(db, source.pageCode))?.definition ?? null);
    const local = flattenViews(pages.get(key) ?? { viewControls: [] }).find(({ view }) => view.code.toLowerCase() === source.viewCode.toLowerCase());
    if (local) map.set(source.viewId, local.view.id);
  }
  return map;
}

/** Points lookups at the importing instance's views (unresolved ones stay; publishing reports them). */
function relinkSources(definition: TPageDefinition, map: Map<string, string>): TPageDefinition {
  if (map.size === 0) return definition;
  for (const { view } of flattenViews(definition)) {
    for (const c of view.dataControls) {
      const extra = c.extraProperties;
      if (!extra) continue;
      if (typeof extra.dataSourceId === 'string' && map.has(extra.dataSourceId)) extra.dataSourceId = map.get(extra.dataSourceId)!;
      for (const j of extra.joinConditions ?? []) if (j.viewId && map.has(j.viewId)) j.viewId = map.get(j.viewId)!;
    }
  }
  return definition;
}

/** A fresh page from an export: new ids everywhere (so new tables), never published. */
export async function importPage(ctx: ServiceContext, input: TImportPageDefinitionInput) {
  const code = input.code ?? input.document.page.code;
  await ensureCodeFree(ctx, code, [input.code ? 'code' : 'document.page.code']);
  const dataSources = input.document.dataSources ?? [];
  const sources = await resolveSources(ctx.db, dataSources);
  const definition = relinkSources(remapIds(ZPageDefinition.parse(input.document.definition)), sources);
  const name = input.name ?? input.document.page.name;
  const page = await insertNew(ctx, newPageRow(ctx, code, name, input.document.page.description, definition), 'import');
  return { ...page, unresolvedDataSources: dataSources.filter((s) => !sources.has(s.viewId)) };
}

/**
 * Replaces every view, control, button and linkage id with a new one and follows the references
 * (parent view, parent control, linkage targets, state objects, join-condition views, data sources
 * inside the page). Views get UUIDs (their tables are named after them).
 */
export function remapIds(definition: TPageDefinition): TPageDefinition {
  const copy = structuredClone(definition);
  const ids = new Map<string, string>();
  const fresh = (old: string) => {
    if (!ids.has(old)) ids.set(old, uuidv7());
    return ids.get(old)!;
  };
  const walk = (views: TView[]) => {
    for (const view of views) {
      fresh(view.id);
      for (const c of view.dataControls) fresh(c.id);
      for (const b of view.viewButtons) fresh(b.id);
      walk(view.viewControls ?? []);
    }
  };
  walk(copy.viewControls);
  for (const b of copy.pageButtons) fresh(b.id);
  for (const l of copy.dataLinkages) if (l.id) fresh(l.id);
  const map = (id: string | null | undefined) => (id && ids.has(id) ? ids.get(id)! : id);

  const rewrite = (views: TView[]) => {
    for (const view of views) {
      view.id = map(view.id)!;
      view.parentViewControlId = map(view.parentViewControlId);
      for (const c of view.dataControls) {
        c.id = map(c.id)!;
        c.parentDataControlId = map(c.parentDataControlId);
        if (c.extraProperties) {
          if (typeof c.extraProperties.dataSourceId === 'string') c.extraProperties.dataSourceId = map(c.extraProperties.dataSourceId);
          for (const j of c.extraProperties.joinConditions ?? []) j.viewId = map(j.viewId);
        }
      }
      for (const b of view.viewButtons) b.id = map(b.id)!;
      rewrite(view.viewControls ?? []);
    }
  };
  rewrite(copy.viewControls);
  for (const b of copy.pageButtons) b.id = map(b.id)!;
  for (const l of copy.dataLinkages) {
    l.id = map(l.id);
    for (const tc of l.triggerConditions) tc.dataControlId = map(tc.dataControlId);
    for (const a of l.assignments) a.dataControlId = map(a.dataControlId);
    for (const e of l.pageEvents) e.bingDataControlId = map(e.bingDataControlId);
    for (const s of l.pageStateControls) s.controlObjectId = map(s.controlObjectId)!;
  }
  return copy;
}

// ---------------------------------------------------------------- versions

type VersionRow = Awaited<ReturnType<typeof repo.listVersions>>[number];

export function toVersionItem(row: VersionRow): TPageVersionListItem {
  return {
    version: row.version,
    publishedBy: row.published_by,
    publishedByName: row.user_name ?? null,
    publishedTime: iso(row.published_time)!,
    changeSummary: z.array(ZPublishChange).parse(row.change_summary),
    hiddenColumns: z.array(ZHiddenColumn).parse(row.hidden_columns),
    rolledBackFrom: row.rolled_back_from,
  };
}

/** Per version number, the design diff against the version before it. */
async function designChangesOf(db: Db, id: string) {
  const all = (await repo.allVersions(db, id)).sort((a, b) => a.version - b.version);
  const out = new Map<number, ReturnType<typeof designChanges>>();
  let previous: TPageDefinition | null = null;
  for (const v of all) {
    const definition = ZPageDefinition.parse(v.definition);
    out.set(v.version, designChanges(previous, definition));
    previous = definition;
  }
  return out;
}

export async function listPageVersions(db: Db, id: string): Promise<TPageVersionList> {
  await requirePage(db, id);
  const rows = await repo.listVersions(db, id);
  const changes = await designChangesOf(db, id);
  return { items: rows.map((r) => ({ ...toVersionItem(r), designChanges: changes.get(r.version) })), totalCount: rows.length };
}

export async function getPageVersion(ctx: ServiceContext, id: string, version: number): Promise<TPageVersionDetail> {
  await requirePage(ctx.db, id);
  const row = await repo.findVersion(ctx.db, id, version);
  if (!row) throw pagesError(ctx, 404, 'NotFound', 'page.versionMissing', { version });
  const definition = ZPageDefinition.parse(row.definition);
  const previous = version > 1 ? await getPageVersionDefinition(ctx.db, id, version - 1) : null;
  return { ...toVersionItem(row), designChanges: designChanges(previous, definition), definition };
}
