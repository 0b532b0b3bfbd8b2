/*
 * Print templates (`/design/sheetIndex`, `/sheet`): list, read, create, save the draft, copy,
 * delete, enable / disable, publish (the draft becomes version N+1, which printing uses),
 * versions and restore, export and import. Rendering is in print-render.service.ts.
 */
import {
  emptyPrintLayout,
  PRINT_LIMITS,
  PRINT_TEMPLATE_EXPORT_FORMAT,
  ZPrintLayout,
  type TCreatePrintTemplateInput,
  type TImportPrintTemplateInput,
  type TPrintLayout,
  type TPrintPageDesign,
  type TPrintTemplateDetail,
  type TPrintTemplateExportDocument,
  type TPrintTemplateList,
  type TPrintTemplateListItem,
  type TPrintTemplateQuery,
  type TPrintTemplateVersionList,
  type TUpdatePrintTemplateInput,
} from '@tessera/core/contracts/print-templates';
import { dataViews } from '@tessera/core/contracts/pages';
import { compileFormula } from '@tessera/core/formula/index';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { Database } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { conflict } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { validationFailure } from '../../platform/module-messages.ts';
import { pageWindow, parseSorting } from '../../platform/paging.ts';
import { iso } from '../../platform/sql-values.ts';
import { userDisplayNames } from '../identity/index.ts';
import { findPageSummary, getPageSummaries, getPublishedPageDefinition, getPublishedPageDesign, type PageSummary } from '../pages/index.ts';
import { printError, printInvalid, printText } from './print-templates.messages.ts';
import * as repo from './print-templates.repository.ts';
import { printPool } from './print-pool.ts';

type Db = Kysely<Database>;
export const ENTITY_TYPE = 'PrintTemplate';

// ---------------------------------------------------------------- reading

/** A stored layout as the contract reads it (layouts are validated on every write). */
export const layoutOf = (stored: unknown): TPrintLayout => ZPrintLayout.parse(stored);

async function toListItems(ctx: ServiceContext, rows: repo.TemplateSummaryRow[]): Promise<(TPrintTemplateListItem & { layout: TPrintLayout })[]> {
  const pages = await getPageSummaries(ctx.db, rows.map((r) => r.page_id));
  const names = await userDisplayNames(ctx.db, rows.map((r) => r.last_modifier_id ?? r.creator_id ?? ''), ctx.culture);
  return rows.map((r) => {
    const page = pages.get(r.page_id);
    const modifier = r.last_modifier_id ?? r.creator_id;
    const layout = layoutOf(r.draft);
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      pageId: r.page_id,
      pageCode: page?.code ?? null,
      pageName: page?.name ?? {},
      paper: layout.paper,
      permissionCode: r.permission_code,
      approvedOnly: r.approved_only,
      enabled: r.is_enabled,
      status: r.published_version === null ? 'draft' : 'published',
      publishedVersion: r.published_version,
      publishedTime: iso(r.published_time),
      hasDraftChanges: Boolean(r.has_draft_changes),
      concurrencyStamp: r.concurrency_stamp,
      creationTime: iso(r.creation_time)!,
      lastModifierName: modifier ? (names.get(modifier) ?? null) : null,
      lastModificationTime: iso(r.last_modification_time),
      layout,
    };
  });
}

const SORTING = {
  name: 'name',
  status: 'status',
  enabled: 'is_enabled',
  publishedversion: 'published_version',
  creationtime: 'creation_time',
  lastmodificationtime: 'last_modification_time',
} as const satisfies Record<string, repo.TemplateSortColumn>;

export async function listPrintTemplates(ctx: ServiceContext, query: TPrintTemplateQuery): Promise<TPrintTemplateList> {
  const filter: repo.TemplateFilter = { text: query.Filter?.trim() || undefined, enabled: query.Enabled, status: query.Status, pageId: query.PageId };
  const sort = parseSorting<repo.TemplateSortColumn>(query.Sorting, SORTING, { column: 'creation_time', direction: 'desc' });
  const [totalCount, rows] = await Promise.all([repo.countTemplates(ctx.db, filter), repo.listTemplates(ctx.db, filter, sort, pageWindow(query))]);
  return { items: (await toListItems(ctx, rows)).map(({ layout: _layout, ...item }) => item), totalCount };
}

export async function getPrintTemplate(ctx: ServiceContext, id: string): Promise<TPrintTemplateDetail> {
  const row = await repo.findTemplateSummary(ctx.db, id);
  if (!row) throw templateNotFound(ctx, id);
  return (await toListItems(ctx, [row]))[0]!;
}

export const templateNotFound = (ctx: ServiceContext, id: string) => printError(ctx, 404, 'NotFound', 'template.notFound', {}, { details: { id } });

export async function requireTemplate(ctx: ServiceContext, id: string) {
  const row = await repo.findTemplate(ctx.db, id);
  if (!row) throw templateNotFound(ctx, id);
  return row;
}

async function requireBindablePage(ctx: ServiceContext, pageId: string, member = 'pageId'): Promise<PageSummary> {
  const page = await findPageSummary(ctx.db, pageId);
  if (!page) throw printInvalid(ctx, 'template.pageMissing', [member]);
  return page;
}

/** A page's latest published design, for the designer's field picker (404 when it has none); the print workers start. */
export async function getPrintPageDesign(ctx: ServiceContext, pageId: string): Promise<TPrintPageDesign> {
  const design = await getPublishedPageDesign(ctx.db, pageId);
  // The designer is open: its previews will need the print workers.
  printPool().warm();
  return design;
}

// ---------------------------------------------------------------- checking a layout against its page

/**
 * What in a layout the page does not have: fields not in the main view, tables bound to views the
 * page lacks or naming columns the view lacks, formulas that do not compile. Publishing refuses
 * them (a draft may hold them while it is designed).
 */
export async function layoutProblems(ctx: ServiceContext, db: Db, pageId: string, layout: TPrintLayout) {
  const published = await getPublishedPageDefinition(db, pageId);
  if (!published) return { published: null, problems: [] };
  const views = dataViews(published.definition).map(({ view }) => view);
  const master = views[0];
  const masterCodes = new Set((master?.dataControls ?? []).map((c) => c.code));
  const byCode = new Map(views.map((v) => [v.code, v]));
  const problems: { message: string; members: string[] }[] = [];
  layout.elements.forEach((e, i) => {
    const at = `layout.elements.${i}`;
    const source = 'source' in e ? e.source : null;
    if (source?.kind === 'field' && !masterCodes.has(source.field)) problems.push({ message: printText(ctx, 'template.unknownField', { element: e.id, field: source.field }), members: [at] });
    if (source?.kind === 'formula') {
      const compiled = compileFormula(source.formula);
      if (!compiled.ok) problems.push({ message: printText(ctx, 'template.formulaInvalid', { element: e.id, error: compiled.errors[0]?.message ?? '' }), members: [at] });
    }
    if (e.type === 'table') {
      const view = byCode.get(e.view);
      if (!view || view === master) problems.push({ message: printText(ctx, 'template.unknownView', { element: e.id, view: e.view }), members: [at] });
      else {
        const codes = new Set(view.dataControls.map((c) => c.code));
        e.columns.forEach((c, ci) => {
          if (!codes.has(c.field)) problems.push({ message: printText(ctx, 'template.unknownColumn', { element: e.id, field: c.field, view: e.view }), members: [`${at}.columns.${ci}`] });
        });
      }
    }
  });
  return { published, problems };
}

// ---------------------------------------------------------------- images

/**
 * A layout with its images decoded and written again (sharp): an 8-bit PNG, or a JPEG, without
 * metadata — what the PDF writer reads whatever the upload was. A file that does not decode is a
 * 400 naming the element, before anything is written or drawn.
 */
export async function normalizedLayout(ctx: ServiceContext, layout: TPrintLayout, member = 'layout'): Promise<TPrintLayout> {
  const elements = await Promise.all(
    layout.elements.map(async (e, i) => {
      if (e.type !== 'image') return e;
      const [, kind, data] = /^data:image\/(png|jpeg);base64,(.*)$/.exec(e.content) ?? [];
      try {
        const image = sharp(Buffer.from(data ?? '', 'base64'), { limitInputPixels: 40_000_000 });
        const bytes = kind === 'jpeg' ? await image.jpeg({ quality: 90 }).toBuffer() : await image.png().toBuffer();
        const content = `data:image/${kind};base64,${bytes.toString('base64')}`;
        // Written again it may grow past the limit: then the upload as it was (it decoded).
        return content.length <= PRINT_LIMITS.imageChars ? { ...e, content } : e;
      } catch {
        throw printInvalid(ctx, 'template.imageUnreadable', [`${member}.elements.${i}.content`], { element: e.id });
      }
    }),
  );
  return { ...layout, elements };
}

// ---------------------------------------------------------------- writing

interface NewTemplate {
  name: string;
  description?: string | null;
  pageId: string;
  layout: TPrintLayout;
  permissionCode?: string | null;
  approvedOnly?: boolean;
}

const summaryOf = (d: TPrintTemplateListItem & { layout?: TPrintLayout }) => ({
  name: d.name,
  pageId: d.pageId,
  enabled: d.enabled,
  permissionCode: d.permissionCode,
  approvedOnly: d.approvedOnly,
  publishedVersion: d.publishedVersion,
  ...(d.layout ? { elements: d.layout.elements.length, paper: d.layout.paper.preset } : {}),
});

async function insertTemplate(ctx: ServiceContext, values: NewTemplate, action: 'create' | 'copy' | 'import', extra: Record<string, unknown> = {}) {
  const id = uuidv7();
  await ctx.db.transaction().execute((trx) =>
    repo.insertTemplate(trx, {
      id,
      name: values.name,
      description: values.description?.trim() || null,
      page_id: values.pageId,
      permission_code: values.permissionCode?.trim() || null,
      approved_only: values.approvedOnly ?? false,
      is_enabled: false,
      draft: JSON.stringify(values.layout),
      published_version: null,
      published_time: null,
      concurrency_stamp: uuidv7(),
      creation_time: new Date(),
      creator_id: ctx.user?.id ?? null,
      last_modification_time: null,
      last_modifier_id: null,
      deletion_time: null,
      deleter_id: null,
    }),
  );
  const created = await getPrintTemplate(ctx, id);
  await recordAudit(ctx, 'Created', { entityType: ENTITY_TYPE, entityId: id, details: { action, after: summaryOf(created), ...extra } });
  return created;
}

export async function createPrintTemplate(ctx: ServiceContext, input: TCreatePrintTemplateInput): Promise<TPrintTemplateDetail> {
  const page = await requireBindablePage(ctx, input.pageId);
  return insertTemplate(ctx, { ...input, pageId: page.id, layout: input.layout ? await normalizedLayout(ctx, ZPrintLayout.parse(input.layout)) : emptyPrintLayout() }, 'create');
}

/** Saves the draft; a stale stamp is a 409 naming the current one, never an overwrite. */
export async function updatePrintTemplate(ctx: ServiceContext, id: string, input: TUpdatePrintTemplateInput): Promise<TPrintTemplateDetail> {
  const existing = await requireTemplate(ctx, id);
  const page = await requireBindablePage(ctx, input.pageId);
  const layout = await normalizedLayout(ctx, ZPrintLayout.parse(input.layout));
  const ok = await ctx.db.transaction().execute((trx) =>
    repo.updateTemplateIfStamp(trx, id, input.concurrencyStamp, {
      name: input.name,
      description: input.description?.trim() || null,
      page_id: page.id,
      permission_code: input.permissionCode?.trim() || null,
      approved_only: input.approvedOnly,
      draft: JSON.stringify(layout),
      concurrency_stamp: uuidv7(),
      last_modification_time: new Date(),
      last_modifier_id: ctx.user?.id ?? null,
    }),
  );
  if (!ok) throw conflict({ id, concurrencyStamp: (await requireTemplate(ctx, id)).concurrency_stamp });
  const updated = await getPrintTemplate(ctx, id);
  await recordAudit(ctx, 'Updated', { entityType: ENTITY_TYPE, entityId: id, details: { before: { name: existing.name, pageId: existing.page_id }, after: summaryOf(updated) } });
  return updated;
}

export async function copyPrintTemplate(ctx: ServiceContext, id: string, input: { name?: string }): Promise<TPrintTemplateDetail> {
  const source = await requireTemplate(ctx, id);
  const name = input.name ?? printText(ctx, 'template.copyName', { name: source.name }).slice(0, PRINT_LIMITS.name);
  return insertTemplate(
    ctx,
    { name, description: source.description, pageId: source.page_id, layout: layoutOf(source.draft), permissionCode: source.permission_code, approvedOnly: source.approved_only },
    'copy',
    { sourceId: id },
  );
}

export async function deletePrintTemplate(ctx: ServiceContext, id: string): Promise<void> {
  const existing = await requireTemplate(ctx, id);
  await ctx.db.transaction().execute((trx) => repo.updateTemplate(trx, id, { is_deleted: true, is_enabled: false, deletion_time: new Date(), deleter_id: ctx.user?.id ?? null }));
  await recordAudit(ctx, 'Deleted', { entityType: ENTITY_TYPE, entityId: id, details: { before: { name: existing.name, pageId: existing.page_id, publishedVersion: existing.published_version } } });
}

export async function setPrintTemplateEnabled(ctx: ServiceContext, id: string, enabled: boolean): Promise<TPrintTemplateDetail> {
  const existing = await requireTemplate(ctx, id);
  if (enabled && existing.published_version === null) throw printInvalid(ctx, 'template.enableNeedsPublish', ['id']);
  if (existing.is_enabled !== enabled) {
    await ctx.db.transaction().execute((trx) => repo.updateTemplate(trx, id, { is_enabled: enabled }));
    await recordAudit(ctx, enabled ? 'Enabled' : 'Disabled', { entityType: ENTITY_TYPE, entityId: id, details: { name: existing.name } });
  }
  return getPrintTemplate(ctx, id);
}

/** Publishes the draft as version N+1 after checking it against the page (400 listing every problem). */
export async function publishPrintTemplate(ctx: ServiceContext, id: string, input: { concurrencyStamp?: string }): Promise<TPrintTemplateDetail> {
  const existing = await requireTemplate(ctx, id);
  if (input.concurrencyStamp && input.concurrencyStamp !== existing.concurrency_stamp) throw conflict({ id, concurrencyStamp: existing.concurrency_stamp });
  const page = await requireBindablePage(ctx, existing.page_id);
  const layout = layoutOf(existing.draft);
  const { published, problems } = await layoutProblems(ctx, ctx.db, existing.page_id, layout);
  if (!published) throw printInvalid(ctx, 'template.pageNotPublished', ['pageId'], { page: page.code });
  if (problems.length > 0) throw validationFailure(problems[0]!.message, problems);
  const version = await ctx.db.transaction().execute(async (trx) => {
    const locked = await repo.lockTemplate(trx, id);
    if (!locked) throw templateNotFound(ctx, id);
    if (input.concurrencyStamp && input.concurrencyStamp !== locked.concurrency_stamp) throw conflict({ id, concurrencyStamp: locked.concurrency_stamp });
    const next = (locked.published_version ?? 0) + 1;
    const now = new Date();
    await repo.insertVersion(trx, { template_id: id, version: next, layout: JSON.stringify(layoutOf(locked.draft)), published_by: ctx.user?.id ?? null, published_time: now });
    // The first publish enables the template (it is what designers expect to print with).
    await repo.updateTemplate(trx, id, { published_version: next, published_time: now, ...(locked.published_version === null ? { is_enabled: true } : {}) });
    return next;
  });
  const detail = await getPrintTemplate(ctx, id);
  await recordAudit(ctx, 'Published', { entityType: ENTITY_TYPE, entityId: id, details: { version, after: summaryOf(detail) } });
  return detail;
}

export async function listPrintTemplateVersions(ctx: ServiceContext, id: string): Promise<TPrintTemplateVersionList> {
  await requireTemplate(ctx, id);
  const rows = await repo.listVersions(ctx.db, id);
  const names = await userDisplayNames(ctx.db, rows.map((r) => r.published_by ?? ''), ctx.culture);
  return {
    items: rows.map((r) => ({
      version: r.version,
      publishedTime: iso(r.published_time)!,
      publisherName: r.published_by ? (names.get(r.published_by) ?? null) : null,
      elementCount: Number(r.element_count),
    })),
  };
}

/** The version's layout becomes the draft (publish to print with it again). */
export async function restorePrintTemplateVersion(ctx: ServiceContext, id: string, version: number): Promise<TPrintTemplateDetail> {
  await requireTemplate(ctx, id);
  const row = await repo.findVersion(ctx.db, id, version);
  if (!row) throw printError(ctx, 404, 'NotFound', 'template.versionNotFound', { version }, { details: { id, version } });
  await ctx.db.transaction().execute((trx) =>
    repo.updateTemplate(trx, id, { draft: JSON.stringify(layoutOf(row.layout)), concurrency_stamp: uuidv7(), last_modification_time: new Date(), last_modifier_id: ctx.user?.id ?? null }),
  );
  await recordAudit(ctx, 'Updated', { entityType: ENTITY_TYPE, entityId: id, details: { action: 'restore', version } });
  return getPrintTemplate(ctx, id);
}

// ---------------------------------------------------------------- export / import

export async function exportPrintTemplate(ctx: ServiceContext, id: string): Promise<TPrintTemplateExportDocument & { name: string }> {
  const t = await getPrintTemplate(ctx, id);
  return {
    name: t.name,
    format: PRINT_TEMPLATE_EXPORT_FORMAT,
    formatVersion: 1,
    exportedAt: ctx.now().toISOString(),
    template: {
      name: t.name,
      description: t.description,
      permissionCode: t.permissionCode,
      approvedOnly: t.approvedOnly,
      page: { id: t.pageId, code: t.pageCode },
      layout: t.layout,
    },
  };
}

/** A new draft from an exported file: the page `pageId`, else the file's page by id, else by code. */
export async function importPrintTemplate(ctx: ServiceContext, input: TImportPrintTemplateInput): Promise<TPrintTemplateDetail> {
  const doc = input.document.template;
  let page: PageSummary | null = null;
  if (input.pageId) page = await requireBindablePage(ctx, input.pageId);
  else {
    if (doc.page.id && /^[0-9a-f-]{36}$/i.test(doc.page.id)) page = await findPageSummary(ctx.db, doc.page.id);
    if (!page && doc.page.code) page = await findPageSummary(ctx.db, doc.page.code);
    if (!page) throw printInvalid(ctx, 'import.pageUnresolved', ['pageId'], { code: doc.page.code ?? '' });
  }
  return insertTemplate(
    ctx,
    {
      name: input.name ?? doc.name,
      description: doc.description,
      pageId: page.id,
      layout: await normalizedLayout(ctx, ZPrintLayout.parse(doc.layout), 'document.template.layout'),
      permissionCode: doc.permissionCode,
      approvedOnly: doc.approvedOnly,
    },
    'import',
  );
}

/** Live templates bound to a page, as pages' usage registry wants them. */
export async function printTemplatesUsingPage(db: Db, pageId: string) {
  return (await repo.templatesOfPage(db, pageId)).map((d) => ({ kind: 'printTemplate' as const, id: d.id, title: { 'zh-CN': d.name, 'en-US': d.name } }));
}
