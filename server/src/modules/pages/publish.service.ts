import type { ServiceContext } from '../../platform/context.ts';
import type { Kysely } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import { z } from 'zod';
import { flattenViews, uncodedActions, ZPageDefinition, type TPageDefinition } from '@tessera/core/page-definition';
import {
  dataViews,
  ZHiddenColumn,
  type TDesignCheckResult,
  type TDesignProblem,
  type TPublishInput,
  type TPublishPlan,
  type TPublishResult,
} from '@tessera/core/contracts/pages';
import type { Database, LocalizedText } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { createPageViews, dropPageViews } from './page-views.ts';
import { ensurePagePermissions } from '../authorization/index.ts';
import { ZProcedureButton } from '@tessera/core/contracts/business-data';
import { compileFormula } from '@tessera/core/formula/index';
import { procedureForButton } from '../data-factory/index.ts';
import { findSourceMethod } from '../data-sources/index.ts';
import { checkDesign, lookupSourceIds, querySourceOf, sourceQueryRefs, sourceViewOf, type QuerySource, type SourceView } from './design-check.ts';
import { requestTranslator, type Translate } from './pages.messages.ts';
import * as repo from './pages.repository.ts';
import { designChanges } from './design-diff.ts';
import { getPageVersionDefinition, requirePage, toDetail, toVersionItem } from './pages.service.ts';
import { applySteps, planSchema, publishHistory, type PublishHistory, type SchemaPlan } from './schema-diff.ts';

type Db = Kysely<Database>;

/** Loads the published views the design's lookups read from (and this page's own views). */
async function sourceResolver(db: Db, pageId: string, definition: TPageDefinition) {
  const wanted = new Set(lookupSourceIds(definition));
  const sources = new Map<string, SourceView>();
  if (wanted.size === 0) return () => null;
  for (const { view } of flattenViews(definition)) if (wanted.has(view.id)) sources.set(view.id, sourceViewOf(view));
  for (const row of await repo.latestPublishedDefinitions(db)) {
    if (row.id === pageId) continue;
    const parsed = ZPageDefinition.safeParse(row.definition);
    if (!parsed.success) continue;
    for (const { view } of dataViews(parsed.data)) if (wanted.has(view.id) && !sources.has(view.id)) sources.set(view.id, sourceViewOf(view));
  }
  return (viewId: string) => sources.get(viewId) ?? null;
}

/** Loads the saved queries of data sources the design's controls read. */
async function queryResolver(db: Db, definition: TPageDefinition) {
  const found = new Map<string, QuerySource | null>();
  const keyOf = (ref: { sourceId: string; methodCode: string }) => `${ref.sourceId}/${ref.methodCode.toLowerCase()}`;
  for (const ref of sourceQueryRefs(definition)) {
    if (found.has(keyOf(ref))) continue;
    const hit = await findSourceMethod(db, ref.sourceId, ref.methodCode);
    found.set(keyOf(ref), hit && querySourceOf(hit.method.columns, hit.method.parameters));
  }
  return (ref: { sourceId: string; methodCode: string }) => found.get(keyOf(ref)) ?? null;
}

/**
 * The "run procedure" page buttons (issue 16): a procedure that exists and that the designer may
 * run herself (a button is a grant to run it), parameters it has, formulas that compile.
 */
async function procedureButtonProblems(ctx: ServiceContext, db: Db, definition: TPageDefinition, t: Translate): Promise<TDesignProblem[]> {
  const problems: TDesignProblem[] = [];
  for (const button of definition.pageButtons ?? []) {
    if (String(button.buttonType ?? '') !== 'runProcedure') continue;
    const add = (message: string) => problems.push({ kind: 'procedureButton', message, controlId: button.id, viewId: null });
    const label = button.title || button.code || button.id;
    const config = ZProcedureButton.safeParse(button);
    const procedure = config.success ? await procedureForButton({ ...ctx, db }, config.data.procedureId) : null;
    if (!config.success || !procedure) {
      add(t('check.procedureMissing', { button: label }));
      continue;
    }
    if (!procedure.mayRun) add(t('check.procedureForbidden', { procedure: procedure.name, button: label }));
    for (const p of config.data.procedureParameters) {
      if (!procedure.inParameters.includes(p.name)) add(t('check.procedureParameter', { button: label, procedure: procedure.name, name: p.name }));
      const compiled = compileFormula(p.formula);
      if (!compiled.ok) add(t('check.procedureFormula', { button: label, name: p.name, message: compiled.errors[0]!.message }));
    }
  }
  return problems;
}

export async function checkDefinition(ctx: ServiceContext, db: Db, pageId: string, definition: TPageDefinition, t: Translate): Promise<TDesignCheckResult> {
  const problems = [...checkDesign(definition, t, await sourceResolver(db, pageId, definition), await queryResolver(db, definition)), ...(await procedureButtonProblems(ctx, db, definition, t))];
  return { ok: problems.length === 0, problems };
}

export async function checkPage(ctx: ServiceContext, id: string): Promise<TDesignCheckResult> {
  const page = await requirePage(ctx.db, id);
  return checkDefinition(ctx, ctx.db, id, ZPageDefinition.parse(page.draft), requestTranslator(ctx));
}

/** Every published version of the page folded into what the schema diff needs. */
async function loadHistory(db: Db, pageId: string): Promise<PublishHistory> {
  const rows = await repo.allVersions(db, pageId);
  return publishHistory(
    rows.map((r) => ({ version: r.version, definition: ZPageDefinition.parse(r.definition), hidden: z.array(ZHiddenColumn).parse(r.hidden_columns) })),
  );
}

function toPlan(pageId: string, nextVersion: number, check: TDesignCheckResult, schema: SchemaPlan | null): TPublishPlan {
  const blockers = schema?.blockers ?? [];
  const onlyConfirmations = blockers.length > 0 && blockers.every((b) => b.kind === 'removeWithData');
  return {
    pageId,
    nextVersion,
    problems: check.problems,
    changes: schema?.changes ?? [],
    blockers,
    needsConfirmation: check.ok && onlyConfirmations,
    canPublish: check.ok && blockers.length === 0,
  };
}

/** The dry run: what publishing the draft now would change, and what stands in the way. */
export async function publishPlan(ctx: ServiceContext, id: string, confirmHideColumns = false): Promise<TPublishPlan> {
  const t = requestTranslator(ctx);
  const page = await requirePage(ctx.db, id);
  const design = ZPageDefinition.parse(page.draft);
  const nextVersion = (page.published_version ?? 0) + 1;
  const check = await checkDefinition(ctx, ctx.db, id, design, t);
  if (!check.ok) return toPlan(id, nextVersion, check, null);
  const schema = await planSchema(ctx.db, design, await loadHistory(ctx.db, id), nextVersion, { confirmHideColumns, t });
  return toPlan(id, nextVersion, check, schema);
}

const localized = (title: string | null | undefined, fallback: string): LocalizedText => {
  const text = title?.trim() || fallback;
  return { 'zh-CN': text, 'en-US': text };
};

/**
 * The page's designer permission codes: access, each coded button, view/edit per field, and the
 * default codes of the everyday actions no coded button carries out.
 */
function permissionInput(code: string, name: LocalizedText, definition: TPageDefinition) {
  type Entry = { code: string; displayName: LocalizedText };
  const buttons = new Map<string, Entry>();
  const fields = new Map<string, Entry>();
  const add = (into: Map<string, Entry>, item: { code?: string | null; title: string }) => {
    if (item.code && !into.has(item.code.toLowerCase())) into.set(item.code.toLowerCase(), { code: item.code, displayName: localized(item.title, item.code) });
  };
  for (const b of definition.pageButtons) add(buttons, b);
  for (const { view } of flattenViews(definition)) {
    for (const b of view.viewButtons) add(buttons, b);
    for (const c of view.dataControls) add(fields, c);
  }
  return { pageCode: code, displayName: name, buttons: [...buttons.values()], fields: [...fields.values()], actions: uncodedActions(definition) };
}

/**
 * Publishes `definition` (the draft, or an earlier version for a rollback) as the next version:
 * design checks, schema diff against the live tables, DDL, version row, permission codes — one
 * transaction, all or nothing.
 */
async function publish(
  ctx: ServiceContext,
  id: string,
  input: TPublishInput,
  rollbackTo: number | null,
): Promise<TPublishResult> {
  const t = requestTranslator(ctx);
  await requirePage(ctx.db, id);
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const page = (await repo.lockPage(trx, id))!;
    let design = ZPageDefinition.parse(page.draft);
    if (rollbackTo !== null) {
      const target = await repo.findVersion(trx, id, rollbackTo);
      if (!target) return { error: new AppError(404, 'NotFound', null, { message: t('page.versionMissing', { version: rollbackTo }) }) };
      design = ZPageDefinition.parse(target.definition);
    }
    const nextVersion = (page.published_version ?? 0) + 1;
    const check = await checkDefinition(ctx, trx, id, design, t);
    if (!check.ok) {
      const message = t('page.designProblems', { count: check.problems.length });
      return {
        error: new AppError(400, 'Pages.DesignProblems', null, {
          message,
          details: check,
          validationErrors: check.problems.map((p) => ({ message: p.message, members: [p.controlId ?? p.viewId ?? 'definition'] })),
        }),
      };
    }
    const schema = await planSchema(trx, design, await loadHistory(trx, id), nextVersion, { confirmHideColumns: input.confirmHideColumns === true, t });
    if (schema.blockers.length > 0) {
      const plan = toPlan(id, nextVersion, check, schema);
      return {
        error: new AppError(409, 'Pages.DataLoss', null, {
          message: t('page.dataLoss', { reasons: schema.blockers.map((b) => b.message).join('; ') }),
          details: plan,
        }),
      };
    }
    // The page's read-only views (page-views.ts) would hold its tables' columns in place.
    await dropPageViews(trx, id);
    await applySteps(trx, schema.steps);
    await createPageViews(trx, page, design);
    const now = new Date();
    await repo.insertVersion(trx, {
      page_id: id,
      version: nextVersion,
      definition: JSON.stringify(design),
      published_by: ctx.user?.id ?? null,
      published_time: now,
      change_summary: JSON.stringify(schema.changes),
      hidden_columns: JSON.stringify(schema.hidden),
      rolled_back_from: rollbackTo,
    });
    await repo.updatePage(trx, id, {
      status: 'published',
      published_version: nextVersion,
      published_time: now,
      // A rollback replaces the draft: an open designer must reload (its stamp is stale).
      ...(rollbackTo !== null ? { draft: JSON.stringify(design), concurrency_stamp: uuidv7(), last_modification_time: now, last_modifier_id: ctx.user?.id ?? null } : {}),
    });
    const permissions = await ensurePagePermissions(trx, permissionInput(page.code, page.name, design));
    return { version: nextVersion, changes: schema.changes, hidden: schema.hidden, permissions };
  });
  if ('error' in outcome) throw outcome.error;
  ctx.caches.auth.invalidateAccess();
  await recordAudit(ctx, rollbackTo === null ? 'Published' : 'RolledBack', {
    entityType: 'PageDefinition',
    entityId: id,
    details: { version: outcome.version, rollbackTo, changes: outcome.changes, hidden: outcome.hidden, permissionsCreated: outcome.permissions.created },
  });
  const page = await requirePage(ctx.db, id);
  const version = (await repo.findVersion(ctx.db, id, outcome.version))!;
  const previous = outcome.version > 1 ? await getPageVersionDefinition(ctx.db, id, outcome.version - 1) : null;
  return { page: toDetail(page), version: { ...toVersionItem(version), designChanges: designChanges(previous, ZPageDefinition.parse(version.definition)) } };
}

export const publishPage = (ctx: ServiceContext, id: string, input: TPublishInput) => publish(ctx, id, input, null);

/** Rollback: the draft becomes version `version` again, published as a new version. */
export const rollbackPage = (ctx: ServiceContext, id: string, version: number, input: TPublishInput) =>
  publish(ctx, id, input, version);
