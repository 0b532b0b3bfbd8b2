/*
 * Export and import of workflow definitions: Tessera's JSON file (the whole definition, lossless)
 * and BPMN 2.0 XML (workflow-bpmn.ts; what maps to BPMN, with Tessera's configuration kept in an
 * extension element so a round trip loses nothing). Import always creates a new draft: disabled,
 * never published, bound to a page of this system.
 */
import {
  WORKFLOW_EXPORT_FORMAT,
  ZWorkflowGraph,
  type TImportBpmnInput,
  type TImportWorkflowDefinitionInput,
  type TImportWorkflowDefinitionResult,
  type TWorkflowExportDocument,
  type TWorkflowGraph,
} from '@tessera/core/contracts/workflow';
import { IDENTIFIER_PATTERN } from '@tessera/core/contracts/pages';
import { replaceIllFormedText } from '@tessera/core/contracts/text';
import type { ServiceContext } from '../../platform/context.ts';
import { findPageSummary, type PageSummary } from '../pages/index.ts';
import { bpmnToWorkflow, workflowToBpmn, type BpmnDefinition } from './workflow-bpmn.ts';
import { graphProblems, localizeProblems } from './workflow-publish.service.ts';
import { workflowInvalid } from './workflow.messages.ts';
import * as repo from './workflow.repository.ts';
import { graphOf, insertDefinition, requireBindablePage, requireDefinition } from './workflow.service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ExportSource {
  name: string;
  description: string | null;
  condition: string | null;
  pageId: string;
  graph: TWorkflowGraph;
}

/** The draft, or the latest published version (its page and condition as published). */
async function exportSource(ctx: ServiceContext, id: string, source: 'draft' | 'published'): Promise<ExportSource> {
  const row = await requireDefinition(ctx, id);
  if (source === 'draft') return { name: row.name, description: row.description, condition: row.condition, pageId: row.page_id, graph: graphOf(row.draft) };
  const version = row.published_version === null ? undefined : await repo.findVersion(ctx.db, id, row.published_version);
  if (!version) throw workflowInvalid(ctx, 'definition.noPublishedVersion', ['source']);
  return { name: row.name, description: row.description, condition: version.condition, pageId: version.page_id, graph: graphOf(version.graph) };
}

export async function exportWorkflowDefinition(ctx: ServiceContext, id: string, source: 'draft' | 'published'): Promise<TWorkflowExportDocument> {
  const s = await exportSource(ctx, id, source);
  const page = await findPageSummary(ctx.db, s.pageId);
  return {
    format: WORKFLOW_EXPORT_FORMAT,
    formatVersion: 1,
    exportedAt: new Date().toISOString(),
    definition: { name: s.name, description: s.description, condition: s.condition, page: { id: s.pageId, code: page?.code ?? null }, graph: s.graph },
  };
}

/**
 * The page an imported definition binds to: the one the caller names; else the file's page id when
 * that page exists here; else the page with the file's page code (ids differ between systems).
 */
async function importPage(ctx: ServiceContext, chosen: string | undefined, fromFile: { id?: string | null; code?: string | null }, member: string): Promise<PageSummary> {
  if (chosen) return requireBindablePage(ctx, chosen, 'pageId');
  // Only well-formed ids and codes reach a query: a file is untrusted input.
  const byId = fromFile.id && UUID.test(fromFile.id) ? await findPageSummary(ctx.db, fromFile.id) : null;
  if (byId) return byId;
  const byCode = fromFile.code && IDENTIFIER_PATTERN.test(fromFile.code) ? await findPageSummary(ctx.db, fromFile.code) : null;
  if (byCode) return byCode;
  if (fromFile.code || fromFile.id) {
    throw workflowInvalid(ctx, 'import.pageUnresolved', [member], { code: replaceIllFormedText(fromFile.code ?? fromFile.id ?? '').slice(0, 64) });
  }
  throw workflowInvalid(ctx, 'import.noPage', ['pageId']);
}

async function createImported(ctx: ServiceContext, values: ExportSource, format: 'json' | 'bpmn'): Promise<TImportWorkflowDefinitionResult> {
  const created = await insertDefinition(ctx, values, 'import', { format });
  const { problems } = await graphProblems(ctx.db, created.pageId, created.condition, created.graph);
  return { ...created, problems: localizeProblems(ctx, problems) };
}

/** Imports an export file as a new draft; the answer lists what publishing would refuse (nothing is refused here). */
export async function importWorkflowDefinition(ctx: ServiceContext, input: TImportWorkflowDefinitionInput): Promise<TImportWorkflowDefinitionResult> {
  const d = input.document.definition;
  const page = await importPage(ctx, input.pageId, d.page, 'document.definition.page');
  const graph = ZWorkflowGraph.parse(d.graph);
  return createImported(ctx, { name: input.name ?? d.name, description: d.description ?? null, condition: d.condition ?? null, pageId: page.id, graph }, 'json');
}

export async function exportWorkflowBpmn(ctx: ServiceContext, id: string, source: 'draft' | 'published'): Promise<{ xml: string; name: string }> {
  const s = await exportSource(ctx, id, source);
  const page = await findPageSummary(ctx.db, s.pageId);
  const definition: BpmnDefinition = { id, ...s, pageCode: page?.code ?? null };
  return { xml: await workflowToBpmn(definition), name: s.name };
}

/** Imports BPMN 2.0 XML (Tessera's own, or a Camunda / Flowable modeler's) as a new draft. */
export async function importWorkflowBpmn(ctx: ServiceContext, input: TImportBpmnInput): Promise<TImportWorkflowDefinitionResult> {
  const read = await bpmnToWorkflow(ctx, input.xml);
  const page = await importPage(ctx, input.pageId, { id: read.pageId, code: read.pageCode }, 'xml');
  return createImported(
    ctx,
    { name: input.name ?? read.name, description: read.description, condition: read.condition, pageId: page.id, graph: read.graph },
    'bpmn',
  );
}
