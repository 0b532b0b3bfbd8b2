/*
 * Printing: a template's published layout and records of its page → one PDF. Records are read
 * through business-data's page query (the caller's page right, data scopes and field view
 * permissions: a field the caller may not see prints empty); the PDF is made in the worker pool.
 */
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { FLOW_STATUS } from '@tessera/core/contracts/workflow-runtime';
import { dataViews } from '@tessera/core/contracts/pages';
import type { TPageDefinition } from '@tessera/core/page-definition';
import type { TPageDataResult } from '@tessera/core/contracts/business-data';
import type { TPrintCount, TPrintLayout, TPrintableList, TPreviewPrintInput, TRenderPrintInput } from '@tessera/core/contracts/print-templates';
import { ZPrintLayout } from '@tessera/core/contracts/print-templates';
import { recordAudit } from '../../platform/audit.ts';
import { actorHolds, type ServiceContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { safeFileName } from '../../platform/excel.ts';
import { iso } from '../../platform/sql-values.ts';
import { queryPageData } from '../business-data/index.ts';
import { userDisplayNames } from '../identity/index.ts';
import { getPublishedPageDefinition } from '../pages/index.ts';
import { compileTemplate, fontsOf, FormulaCache, perRecordStatics, recordInputs, type PrintContext, type PrintRecord } from './print-compile.ts';
import { printPool, type PrintJob } from './print-pool.ts';
import { printError, printInvalid, printText } from './print-templates.messages.ts';
import * as repo from './print-templates.repository.ts';
import { ENTITY_TYPE, layoutOf, normalizedLayout, requireTemplate } from './print-templates.service.ts';

/** A document-number control (its value names a downloaded file). */
const DOCUMENT_NUMBER_TYPE = 2001;

export interface PrintedPdf {
  pdf: Uint8Array;
  fileName: string;
  pages?: number;
}

/** Views of a page by id: code, and whether it is the master (first data view). */
function viewCodes(definition: TPageDefinition) {
  const views = dataViews(definition).map(({ view }) => view);
  return { master: views[0] ?? null, codeOf: new Map(views.map((v) => [v.id, v.code])) };
}

/** A record as printing reads it; `views` of its page (viewCodes, worked out once per print). */
function toPrintRecord(data: TPageDataResult, { master, codeOf }: ReturnType<typeof viewCodes>): PrintRecord {
  const record: PrintRecord = { values: {}, texts: {}, views: {} };
  for (const view of data.viewDataList) {
    if (master && view.viewId === master.id) {
      record.values = view.dataList[0] ?? {};
      record.texts = view.businessDataList[0] ?? {};
    } else {
      const code = codeOf.get(view.viewId);
      if (code) record.views[code] = { values: view.dataList, texts: view.businessDataList };
    }
  }
  return record;
}

/** Sample values for a preview without a record: numbers and dates where the layout formats them so, else the control's title. */
function sampleRecord(layout: TPrintLayout, definition: TPageDefinition, now: Date): PrintRecord {
  const { master } = viewCodes(definition);
  const sample = (title: string, kind: string) => (kind === 'number' || kind === 'chineseAmount' ? 1234.5 : kind === 'date' ? now.toISOString() : title);
  const kinds = new Map<string, string>();
  const record: PrintRecord = { values: {}, texts: {}, views: {} };
  for (const e of layout.elements) {
    if (e.type === 'text' && e.source.kind === 'field') kinds.set(e.source.field, e.format.kind);
  }
  for (const c of master?.dataControls ?? []) {
    record.values[c.code] = sample(c.title, kinds.get(c.code) ?? 'none');
    record.texts[c.code] = record.values[c.code];
  }
  const views = dataViews(definition).map(({ view }) => view);
  for (const e of layout.elements) {
    if (e.type !== 'table') continue;
    const view = views.find((v) => v.code === e.view);
    const rows = [1, 2, 3].map((n) => Object.fromEntries(e.columns.map((c) => [c.field, ['number', 'chineseAmount'].includes(c.format.kind) ? 100 * n + 0.5 : c.format.kind === 'date' ? now.toISOString() : `${view?.dataControls.find((d) => d.code === c.field)?.title ?? c.title} ${n}`])));
    record.views[e.view] = { values: rows, texts: rows };
  }
  return record;
}

/** The print jobs of a layout for some records (one job for all, unless every-page texts come from each record). */
function jobsFor(layout: TPrintLayout, records: PrintRecord[], shared: PrintContext, formulas = new FormulaCache()): PrintJob[] {
  const fonts = fontsOf(layout);
  if (!perRecordStatics(layout)) {
    return [{ template: compileTemplate(layout, shared), inputs: records.map((r) => recordInputs(layout, r, shared, formulas)), fonts }];
  }
  return records.map((r) => ({ template: compileTemplate(layout, shared, r, formulas), inputs: [recordInputs(layout, r, shared, formulas)], fonts }));
}

async function makePdf(ctx: ServiceContext, jobs: PrintJob[]): Promise<Uint8Array> {
  try {
    return await printPool().render(jobs);
  } catch (error) {
    ctx.log.error({ err: error }, 'print failed');
    throw printError(ctx, 500, 'Print.Failed', 'print.failed', { reason: error instanceof Error ? error.message : String(error) });
  }
}

const sharedOf = (ctx: ServiceContext, offsetMinutes: number | undefined): PrintContext => ({
  now: ctx.now(),
  offsetMinutes: offsetMinutes ?? 480,
  userName: ctx.user ? personDisplayName({ name: ctx.user.name, surname: ctx.user.surname, userName: ctx.user.userName }, ctx.culture) : '',
});

/** `POST /preview`: an unsaved layout with a real record of the page, or sample values. */
export async function previewPrint(ctx: ServiceContext, input: TPreviewPrintInput): Promise<PrintedPdf> {
  const layout = await normalizedLayout(ctx, ZPrintLayout.parse(input.layout));
  const published = await getPublishedPageDefinition(ctx.db, input.pageId);
  if (!published || published.page.id !== input.pageId) throw notFound({ pageId: input.pageId });
  const shared = sharedOf(ctx, input.offsetMinutes);
  const record = input.recordId
    ? toPrintRecord(await queryPageData(ctx, { pageId: input.pageId, id: input.recordId, offsetMinutes: shared.offsetMinutes }), viewCodes(published.definition))
    : sampleRecord(layout, published.definition, shared.now);
  return { pdf: await makePdf(ctx, jobsFor(layout, [record], shared)), fileName: 'preview.pdf' };
}

/** A published version never changes: its checked layout and compiled formulas are kept (the 50 last used). */
const compiledVersions = new Map<string, { layout: TPrintLayout; formulas: FormulaCache }>();
const COMPILED_VERSIONS = 50;

async function compiledVersion(ctx: ServiceContext, id: string, version: number) {
  const key = `${id}:${version}`;
  let compiled = compiledVersions.get(key);
  if (compiled) {
    compiledVersions.delete(key); // most recently used last
  } else {
    const stored = await repo.findVersion(ctx.db, id, version);
    if (!stored) return null;
    compiled = { layout: layoutOf(stored.layout), formulas: new FormulaCache() };
    if (compiledVersions.size >= COMPILED_VERSIONS) compiledVersions.delete(compiledVersions.keys().next().value!);
  }
  compiledVersions.set(key, compiled);
  return compiled;
}

/** `POST /{id}/render`: the records, in the order given, with the template's published layout. */
export async function renderPrint(ctx: ServiceContext, id: string, input: TRenderPrintInput): Promise<PrintedPdf> {
  const template = await requireTemplate(ctx, id);
  if (template.published_version === null || !template.is_enabled) throw printError(ctx, 409, 'Print.NotPrintable', 'print.notPrintable');
  if (template.permission_code && !actorHolds(ctx, template.permission_code)) throw printError(ctx, 403, 'Forbidden', 'print.noPermission');
  const compiled = await compiledVersion(ctx, id, template.published_version);
  if (!compiled) throw printError(ctx, 409, 'Print.NotPrintable', 'print.notPrintable');
  const { layout, formulas } = compiled;
  const published = await getPublishedPageDefinition(ctx.db, template.page_id);
  if (!published) throw printError(ctx, 409, 'Print.NotPrintable', 'print.notPrintable');
  const shared = sharedOf(ctx, input.offsetMinutes);
  const ids = [...new Set(input.recordIds)];
  const views = viewCodes(published.definition);
  const records: PrintRecord[] = [];
  const unapproved: string[] = [];
  for (const recordId of ids) {
    const record = toPrintRecord(await queryPageData(ctx, { pageId: template.page_id, id: recordId, offsetMinutes: shared.offsetMinutes }), views);
    if (template.approved_only && Number(record.values.FlowStatus) !== FLOW_STATUS.approved) unapproved.push(recordId);
    records.push(record);
  }
  if (unapproved.length > 0) throw printInvalid(ctx, 'print.notApproved', ['recordIds'], { records: unapproved.slice(0, 5).join(', ') });
  const pdf = await makePdf(ctx, jobsFor(layout, records, shared, formulas));
  await repo.countPrints(ctx.db, template.page_id, ids, ctx.user?.id ?? null, id, ctx.now());
  await recordAudit(ctx, 'Printed', { entityType: ENTITY_TYPE, entityId: id, details: { pageId: template.page_id, version: template.published_version, records: ids.length, recordIds: ids.slice(0, 50) } });
  const docNoControl = views.master?.dataControls.find((c) => c.controlType === DOCUMENT_NUMBER_TYPE);
  const docNo = docNoControl ? String(records[0]?.values[docNoControl.code] ?? '') : '';
  const base = safeFileName(docNo || template.name) || printText(ctx, 'print.fileName');
  return { pdf, fileName: `${base}${ids.length > 1 ? `-${ids.length}` : ''}.pdf` };
}

/** The enabled, published templates of a page the caller may print with. */
export async function listPrintables(ctx: ServiceContext, pageId: string): Promise<TPrintableList> {
  const rows = await repo.printablesOfPage(ctx.db, pageId);
  // A record page with something to print: the workers start now, not on the first click.
  if (rows.length > 0) printPool().warm();
  return {
    items: rows
      .filter((r) => !r.permission_code || actorHolds(ctx, r.permission_code))
      .map((r) => ({ id: r.id, name: r.name, paper: layoutOf(r.layout).paper, approvedOnly: r.approved_only })),
  };
}

/** A record's print count; reading it needs reading the record (its page right and data scope). */
export async function getPrintCount(ctx: ServiceContext, pageId: string, recordId: string): Promise<TPrintCount> {
  await queryPageData(ctx, { pageId, id: recordId });
  const row = await repo.printCountOf(ctx.db, pageId, recordId);
  if (!row) return { count: 0, lastTime: null, lastUserName: null, lastTemplateName: null };
  const names = row.last_user_id ? await userDisplayNames(ctx.db, [row.last_user_id], ctx.culture) : new Map<string, string>();
  const template = row.last_template_id ? await repo.findTemplate(ctx.db, row.last_template_id) : null;
  return { count: row.count, lastTime: iso(row.last_time), lastUserName: row.last_user_id ? (names.get(row.last_user_id) ?? null) : null, lastTemplateName: template?.name ?? null };
}
