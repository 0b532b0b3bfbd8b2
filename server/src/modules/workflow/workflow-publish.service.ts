/*
 * Checking and publishing workflow definitions, and their versions. A publish checks the draft
 * graph with the core validator against the bound page's latest published version (formulas may
 * only name its controls; field permissions, form-field assignees and automatic assignments too)
 * and writes version N+1 in one transaction; a graph with problems is a 400 listing them all.
 */
import type { Kysely } from 'kysely';
import { localizeCoreMessage } from '@tessera/core/messages/core-messages';
import {
  ZWorkflowGraph,
  type TCheckWorkflowInput,
  type TPublishWorkflowInput,
  type TPublishWorkflowResult,
  type TWorkflowCheckResult,
  type TWorkflowGraph,
  type TWorkflowProblem,
  type TWorkflowVersionDetail,
  type TWorkflowVersionList,
} from '@tessera/core/contracts/workflow';
import { workflowCheckOptionsForPage } from '@tessera/core/workflow/page-fields';
import { validateWorkflowGraph, type WorkflowGraphProblem } from '@tessera/core/workflow/validate-graph';
import type { Database } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { AppError, conflict, notFound } from '../../platform/errors.ts';
import { iso } from '../../platform/sql-values.ts';
import { userDisplayNames } from '../identity/index.ts';
import { getPublishedPageDefinition } from '../pages/index.ts';
import { problemText, workflowInvalid, workflowText } from './workflow.messages.ts';
import * as repo from './workflow.repository.ts';
import { auditSummaryOf, ENTITY_TYPE, getWorkflowDefinition, graphOf, requireBindablePage, requireDefinition } from './workflow.service.ts';

type Db = Kysely<Database>;

/** Problems in the caller's language (formula messages from the core translated too). */
export function localizeProblems(ctx: ServiceContext, problems: WorkflowGraphProblem[]): TWorkflowProblem[] {
  return problems.map((p) => {
    const params = { ...p.params };
    if (typeof params.formulaError === 'string') params.formulaError = localizeCoreMessage(params.formulaError, ctx.culture);
    return { ...p, params, message: problemText(ctx, p.code, params) };
  });
}

/**
 * The graph's problems: against the page's latest published version when it has one, else the
 * graph rules alone (`pagePublished` false: publishing would be refused for that reason first).
 */
export async function graphProblems(db: Db, pageId: string, condition: string | null | undefined, graph: TWorkflowGraph) {
  const page = await getPublishedPageDefinition(db, pageId);
  const options = page ? workflowCheckOptionsForPage(page.definition, condition) : { definitionCondition: condition };
  return { page, problems: validateWorkflowGraph(graph, options) };
}

/** `POST /check`: the designer's check of an unsaved graph with the page's rules; nothing is written. */
export async function checkWorkflowGraph(ctx: ServiceContext, input: TCheckWorkflowInput): Promise<TWorkflowCheckResult> {
  await requireBindablePage(ctx, input.pageId);
  const { page, problems } = await graphProblems(ctx.db, input.pageId, input.condition, ZWorkflowGraph.parse(input.graph));
  return { ok: problems.length === 0 && page !== null, problems: localizeProblems(ctx, problems), pagePublished: page !== null };
}

/** Each problem as a validation error naming the node or edge by its index in the graph. */
function graphProblemsError(ctx: ServiceContext, graph: TWorkflowGraph, problems: TWorkflowProblem[]): AppError {
  const nodeIndex = new Map(graph.nodes.map((n, i) => [n.id, i]));
  const edgeIndex = new Map(graph.edges.map((e, i) => [e.id, i]));
  const memberOf = (p: TWorkflowProblem) =>
    p.edgeId !== null && edgeIndex.has(p.edgeId) ? `graph.edges.${edgeIndex.get(p.edgeId)}` : p.nodeId !== null && nodeIndex.has(p.nodeId) ? `graph.nodes.${nodeIndex.get(p.nodeId)}` : 'graph';
  const message = workflowText(ctx, 'definition.graphProblems', { count: problems.length, first: problems[0]!.message ?? problems[0]!.code });
  return new AppError(400, 'Workflow.GraphProblems', null, {
    message,
    validationErrors: problems.map((p) => ({ message: p.message ?? p.code, members: [memberOf(p)] })),
    details: { ok: false, problems } satisfies TWorkflowCheckResult,
  });
}

/** Publishes the draft as version N+1 (one at a time per definition: the row is locked). */
export async function publishWorkflowDefinition(ctx: ServiceContext, id: string, input: TPublishWorkflowInput): Promise<TPublishWorkflowResult> {
  const existing = await requireDefinition(ctx, id);
  if (input.concurrencyStamp && input.concurrencyStamp !== existing.concurrency_stamp) throw conflict({ id, concurrencyStamp: existing.concurrency_stamp });
  await requireBindablePage(ctx, existing.page_id, 'pageId');
  const graph = graphOf(existing.draft);
  const { page, problems } = await graphProblems(ctx.db, existing.page_id, existing.condition, graph);
  if (!page) throw workflowInvalid(ctx, 'definition.pageNotPublished', ['pageId'], { page: existing.page_id });
  if (problems.length > 0) throw graphProblemsError(ctx, graph, localizeProblems(ctx, problems));

  const version = await ctx.db.transaction().execute(async (trx) => {
    const locked = await repo.lockDefinition(trx, id);
    // Saved (or deleted) between the check and the lock: what was checked is not what would be published.
    if (!locked || locked.concurrency_stamp !== existing.concurrency_stamp) throw conflict({ id, concurrencyStamp: locked?.concurrency_stamp ?? null });
    const next = Number((await repo.maxVersion(trx, id))?.version ?? 0) + 1;
    const now = new Date();
    await repo.insertVersion(trx, {
      definition_id: id,
      version: next,
      page_id: locked.page_id,
      condition: locked.condition,
      graph: JSON.stringify(graph),
      published_time: now,
      published_by: ctx.user?.id ?? null,
    });
    await repo.updateDefinition(trx, id, { published_version: next, published_time: now });
    return next;
  });
  const definition = await getWorkflowDefinition(ctx, id);
  await recordAudit(ctx, 'Published', { entityType: ENTITY_TYPE, entityId: id, details: { version, pageVersion: page.version.version, after: auditSummaryOf(definition) } });
  return { version, definition };
}

export async function listWorkflowVersions(ctx: ServiceContext, id: string): Promise<TWorkflowVersionList> {
  await requireDefinition(ctx, id);
  const rows = await repo.listVersions(ctx.db, id);
  const names = await userDisplayNames(ctx.db, rows.map((r) => r.published_by ?? ''), ctx.culture);
  return {
    items: rows.map((r) => ({
      version: r.version,
      publishedTime: iso(r.published_time)!,
      publisherId: r.published_by,
      publisherName: r.published_by ? (names.get(r.published_by) ?? null) : null,
      nodeCount: Number(r.node_count ?? 0),
    })),
  };
}

export async function getWorkflowVersion(ctx: ServiceContext, id: string, version: number): Promise<TWorkflowVersionDetail> {
  await requireDefinition(ctx, id);
  const row = await repo.findVersion(ctx.db, id, version);
  if (!row) throw notFound({ id, version });
  const graph = graphOf(row.graph);
  const names = await userDisplayNames(ctx.db, row.published_by ? [row.published_by] : [], ctx.culture);
  return {
    version: row.version,
    publishedTime: iso(row.published_time)!,
    publisherId: row.published_by,
    publisherName: row.published_by ? (names.get(row.published_by) ?? null) : null,
    nodeCount: graph.nodes.length,
    definitionId: id,
    pageId: row.page_id,
    condition: row.condition,
    graph,
  };
}
