/*
 * Workflow definitions (`/design/workflow`): list, read, create, save the draft, copy, delete,
 * enable / disable. Publishing and versions are in workflow-publish.service.ts; export and import
 * (JSON and BPMN) in workflow-transfer.service.ts.
 *
 * A definition is bound to a page (`page_id`) and, optionally, a condition formula that chooses
 * among several enabled definitions of the same page. The draft graph may break any rule while it
 * is designed; publishing checks it (core validate-graph.ts) and makes version N+1, which running
 * instances keep.
 */
import type { Kysely } from 'kysely';
import { newWorkflowGraph } from '@tessera/core/workflow/defaults';
import {
  ZWorkflowGraph,
  type TCopyWorkflowDefinitionInput,
  type TCreateWorkflowDefinitionInput,
  type TUpdateWorkflowDefinitionInput,
  type TWorkflowDefinitionDetail,
  type TWorkflowDefinitionList,
  type TWorkflowDefinitionListItem,
  type TWorkflowDefinitionQuery,
  type TWorkflowGraph,
  WORKFLOW_LIMITS,
} from '@tessera/core/contracts/workflow';
import type { Database } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { conflict } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { pageWindow, parseSorting } from '../../platform/paging.ts';
import { iso } from '../../platform/sql-values.ts';
import { userDisplayNames } from '../identity/index.ts';
import { findPageSummary, getPageSummaries, type PageSummary } from '../pages/index.ts';
import { workflowError, workflowInvalid, workflowText } from './workflow.messages.ts';
import * as repo from './workflow.repository.ts';
import * as engineRepo from './workflow-engine.repository.ts';

type Db = Kysely<Database>;
export const ENTITY_TYPE = 'WorkflowDefinition';

// ---------------------------------------------------------------- reading

async function toListItems(ctx: ServiceContext, rows: repo.DefinitionSummaryRow[]): Promise<TWorkflowDefinitionListItem[]> {
  const pages = await getPageSummaries(ctx.db, rows.map((r) => r.page_id));
  const names = await userDisplayNames(ctx.db, rows.map((r) => r.last_modifier_id ?? r.creator_id ?? ''), ctx.culture);
  return rows.map((r) => {
    const page = pages.get(r.page_id);
    const modifier = r.last_modifier_id ?? r.creator_id;
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      pageId: r.page_id,
      pageCode: page?.code ?? null,
      pageName: page?.name ?? {},
      condition: r.condition,
      enabled: r.is_enabled,
      status: r.published_version === null ? 'draft' : 'published',
      publishedVersion: r.published_version,
      publishedTime: iso(r.published_time),
      hasDraftChanges: Boolean(r.has_draft_changes),
      concurrencyStamp: r.concurrency_stamp,
      creatorId: r.creator_id,
      creationTime: iso(r.creation_time)!,
      lastModifierId: r.last_modifier_id,
      lastModifierName: modifier ? (names.get(modifier) ?? null) : null,
      lastModificationTime: iso(r.last_modification_time),
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
} as const satisfies Record<string, repo.DefinitionSortColumn>;

export async function listWorkflowDefinitions(ctx: ServiceContext, query: TWorkflowDefinitionQuery): Promise<TWorkflowDefinitionList> {
  const filter: repo.DefinitionFilter = { text: query.Filter?.trim() || undefined, enabled: query.Enabled, status: query.Status, pageId: query.PageId };
  const sort = parseSorting<repo.DefinitionSortColumn>(query.Sorting, SORTING, { column: 'creation_time', direction: 'desc' });
  const totalCount = await repo.countDefinitions(ctx.db, filter);
  const rows = await repo.listDefinitions(ctx.db, filter, sort, pageWindow(query));
  return { items: await toListItems(ctx, rows), totalCount };
}

/** The stored draft as the contract reads it (drafts are validated on every write). */
export const graphOf = (draft: unknown): TWorkflowGraph => ZWorkflowGraph.parse(draft);

export async function getWorkflowDefinition(ctx: ServiceContext, id: string): Promise<TWorkflowDefinitionDetail> {
  const row = await repo.findDefinitionSummary(ctx.db, id);
  if (!row) throw definitionNotFound(ctx, id);
  const [item] = await toListItems(ctx, [row]);
  return { ...item!, graph: graphOf(row.draft) };
}

export const definitionNotFound = (ctx: ServiceContext, id: string) => workflowError(ctx, 404, 'NotFound', 'definition.notFound', {}, { details: { id } });

/** The definition row, or a 404. */
export async function requireDefinition(ctx: ServiceContext, id: string) {
  const row = await repo.findDefinition(ctx.db, id);
  if (!row) throw definitionNotFound(ctx, id);
  return row;
}

/** The page a definition binds to: it must exist (publishing also needs a published version). */
export async function requireBindablePage(ctx: ServiceContext, pageId: string, member = 'pageId'): Promise<PageSummary> {
  const page = await findPageSummary(ctx.db, pageId);
  if (!page) throw workflowInvalid(ctx, 'definition.pageMissing', [member]);
  return page;
}

// ---------------------------------------------------------------- writing

export interface NewDefinition {
  name: string;
  description?: string | null;
  pageId: string;
  condition?: string | null;
  graph: TWorkflowGraph;
}

/** Inserts a new, disabled, never-published definition in one transaction and records `action` in the audit log. */
export async function insertDefinition(ctx: ServiceContext, values: NewDefinition, action: 'create' | 'copy' | 'import', extra: Record<string, unknown> = {}) {
  const id = uuidv7();
  await ctx.db.transaction().execute((trx) =>
    repo.insertDefinition(trx, {
      id,
      name: values.name,
      description: values.description?.trim() || null,
      page_id: values.pageId,
      condition: values.condition?.trim() || null,
      is_enabled: false,
      draft: JSON.stringify(values.graph),
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
  const created = await getWorkflowDefinition(ctx, id);
  await recordAudit(ctx, 'Created', { entityType: ENTITY_TYPE, entityId: id, details: { action, after: summaryOf(created), ...extra } });
  return created;
}

/** What the audit log keeps of a definition (the graph is too large to copy into every entry). */
const summaryOf = (d: TWorkflowDefinitionListItem & { graph?: TWorkflowGraph }) => ({
  name: d.name,
  pageId: d.pageId,
  condition: d.condition,
  enabled: d.enabled,
  publishedVersion: d.publishedVersion,
  ...(d.graph ? { nodes: d.graph.nodes.length, edges: d.graph.edges.length } : {}),
});
export { summaryOf as auditSummaryOf };

export async function createWorkflowDefinition(ctx: ServiceContext, input: TCreateWorkflowDefinitionInput): Promise<TWorkflowDefinitionDetail> {
  const page = await requireBindablePage(ctx, input.pageId);
  return insertDefinition(ctx, { ...input, pageId: page.id, graph: input.graph ? ZWorkflowGraph.parse(input.graph) : newWorkflowGraph() }, 'create');
}

/** Saves the draft (name, page, condition, graph); a stale stamp is a 409 naming the current one, never an overwrite. */
export async function updateWorkflowDefinition(ctx: ServiceContext, id: string, input: TUpdateWorkflowDefinitionInput): Promise<TWorkflowDefinitionDetail> {
  const existing = await requireDefinition(ctx, id);
  const page = await requireBindablePage(ctx, input.pageId);
  const graph = ZWorkflowGraph.parse(input.graph);
  const ok = await ctx.db.transaction().execute((trx) =>
    repo.updateDefinitionIfStamp(trx, id, input.concurrencyStamp, {
      name: input.name,
      description: input.description?.trim() || null,
      page_id: page.id,
      condition: input.condition?.trim() || null,
      draft: JSON.stringify(graph),
      concurrency_stamp: uuidv7(),
      last_modification_time: new Date(),
      last_modifier_id: ctx.user?.id ?? null,
    }),
  );
  if (!ok) throw conflict({ id, concurrencyStamp: (await requireDefinition(ctx, id)).concurrency_stamp });
  const updated = await getWorkflowDefinition(ctx, id);
  await recordAudit(ctx, 'Updated', {
    entityType: ENTITY_TYPE,
    entityId: id,
    details: { before: { name: existing.name, pageId: existing.page_id, condition: existing.condition }, after: summaryOf(updated) },
  });
  return updated;
}

/** A copy: a new, disabled, never-published definition with the source's draft. */
export async function copyWorkflowDefinition(ctx: ServiceContext, id: string, input: TCopyWorkflowDefinitionInput): Promise<TWorkflowDefinitionDetail> {
  const source = await requireDefinition(ctx, id);
  const name = input.name ?? workflowText(ctx, 'definition.copyName', { name: source.name }).slice(0, WORKFLOW_LIMITS.name);
  return insertDefinition(
    ctx,
    { name, description: source.description, pageId: source.page_id, condition: source.condition, graph: graphOf(source.draft) },
    'copy',
    { sourceId: id },
  );
}

/**
 * Instances still running on a definition's versions. The engine (issue 13, next slice) counts
 * them here; until it exists there are none. Delete refuses while any run.
 */
function runningInstanceCount(db: Db, definitionId: string): Promise<number> {
  return engineRepo.runningInstanceCount(db, definitionId);
}

/** Soft delete: the row and its versions stay for the audit trail (and, later, finished instances). */
export async function deleteWorkflowDefinition(ctx: ServiceContext, id: string): Promise<void> {
  const existing = await requireDefinition(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    const running = await runningInstanceCount(trx, id);
    if (running > 0) throw workflowError(ctx, 409, 'Workflow.InstancesRunning', 'definition.instancesRunning', { count: running }, { details: { running } });
    await repo.updateDefinition(trx, id, { is_deleted: true, is_enabled: false, deletion_time: new Date(), deleter_id: ctx.user?.id ?? null });
  });
  await recordAudit(ctx, 'Deleted', { entityType: ENTITY_TYPE, entityId: id, details: { before: { name: existing.name, pageId: existing.page_id, publishedVersion: existing.published_version } } });
}

/** Enabling needs a published version (instances run versions, never drafts). The draft's stamp does not change. */
export async function setWorkflowDefinitionEnabled(ctx: ServiceContext, id: string, enabled: boolean): Promise<TWorkflowDefinitionDetail> {
  const existing = await requireDefinition(ctx, id);
  if (enabled && existing.published_version === null) throw workflowInvalid(ctx, 'definition.enableNeedsPublish', ['id']);
  if (existing.is_enabled !== enabled) {
    await ctx.db.transaction().execute((trx) => repo.updateDefinition(trx, id, { is_enabled: enabled }));
    await recordAudit(ctx, enabled ? 'Enabled' : 'Disabled', { entityType: ENTITY_TYPE, entityId: id, details: { name: existing.name } });
  }
  return getWorkflowDefinition(ctx, id);
}

/** Live definitions bound to a page, as pages' usage registry wants them (a page they use cannot be deleted). */
export async function workflowsUsingPage(db: Db, pageId: string) {
  return (await repo.definitionsOfPage(db, pageId)).map((d) => ({ kind: 'workflow' as const, id: d.id, title: { 'zh-CN': d.name, 'en-US': d.name } }));
}
