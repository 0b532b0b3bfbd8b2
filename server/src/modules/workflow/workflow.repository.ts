import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, WorkflowDefinitionsTable, WorkflowDefinitionVersionsTable } from '../../db/schema.ts';
import { likePattern } from '../../platform/sql-values.ts';

// The SQL of `workflow_definitions` and `workflow_definition_versions`. Deleted definitions are
// kept (soft delete, `is_deleted`) for the audit trail and, later, the instances that ran them;
// every read here leaves them out.

type Db = Kysely<Database>;

export type DefinitionSortColumn = 'name' | 'status' | 'is_enabled' | 'published_version' | 'creation_time' | 'last_modification_time';

export interface DefinitionFilter {
  text?: string;
  enabled?: boolean;
  status?: 'draft' | 'published';
  pageId?: string;
}

function filtered(db: Db, filter: DefinitionFilter) {
  let q = db.selectFrom('workflow_definitions as d').where('d.is_deleted', '=', false);
  if (filter.text) {
    const pattern = likePattern(filter.text);
    q = q.where((eb) => eb.or([eb('d.name', 'ilike', pattern), eb('d.description', 'ilike', pattern)]));
  }
  if (filter.enabled !== undefined) q = q.where('d.is_enabled', '=', filter.enabled);
  if (filter.status === 'draft') q = q.where('d.published_version', 'is', null);
  if (filter.status === 'published') q = q.where('d.published_version', 'is not', null);
  if (filter.pageId) q = q.where('d.page_id', '=', filter.pageId);
  return q;
}

export async function countDefinitions(db: Db, filter: DefinitionFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Definitions with whether the draft differs from the latest
 * version (graph, page or condition): `hasDraftChanges`. The draft itself only with `withDraft`.
 */
function withSummary(q: ReturnType<typeof filtered>) {
  return q
    .leftJoin('workflow_definition_versions as v', (j) => j.onRef('v.definition_id', '=', 'd.id').onRef('v.version', '=', 'd.published_version'))
    .select([
      'd.id', 'd.name', 'd.description', 'd.page_id', 'd.condition', 'd.is_enabled', 'd.published_version', 'd.published_time',
      'd.concurrency_stamp', 'd.creator_id', 'd.creation_time', 'd.last_modifier_id', 'd.last_modification_time',
    ])
    .select(
      sql<boolean>`(v.version is null or v.graph <> d.draft or v.page_id <> d.page_id or v.condition is distinct from d.condition)`.as('has_draft_changes'),
    );
}

export type DefinitionSummaryRow = Awaited<ReturnType<typeof listDefinitions>>[number];

export function listDefinitions(
  db: Db,
  filter: DefinitionFilter,
  sort: { column: DefinitionSortColumn; direction: 'asc' | 'desc' },
  window: { offset: number; limit: number },
) {
  const order = sort.column === 'status' ? sql`(d.published_version is not null)` : sql.ref(`d.${sort.column}`);
  return withSummary(filtered(db, filter))
    .orderBy(order, (ob) => (sort.direction === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsFirst()))
    .orderBy('d.id', sort.direction)
    .offset(window.offset)
    .limit(window.limit)
    .execute();
}

export function findDefinitionSummary(db: Db, id: string) {
  return withSummary(filtered(db, {}).where('d.id', '=', id)).select('d.draft').executeTakeFirst();
}

export function findDefinition(db: Db, id: string) {
  return db.selectFrom('workflow_definitions').selectAll().where('id', '=', id).where('is_deleted', '=', false).executeTakeFirst();
}

/** Locks the definition row for the rest of the transaction (publishing one version at a time). */
export function lockDefinition(db: Db, id: string) {
  return db.selectFrom('workflow_definitions').selectAll().where('id', '=', id).where('is_deleted', '=', false).forUpdate().executeTakeFirst();
}

export function insertDefinition(db: Db, row: Insertable<WorkflowDefinitionsTable>) {
  return db.insertInto('workflow_definitions').values(row).execute();
}

/** Updates when the stamp still matches (and the row is not deleted); false when someone else saved in between. */
export async function updateDefinitionIfStamp(db: Db, id: string, stamp: string, changes: Updateable<WorkflowDefinitionsTable>): Promise<boolean> {
  const result = await db
    .updateTable('workflow_definitions')
    .set(changes)
    .where('id', '=', id)
    .where('is_deleted', '=', false)
    .where('concurrency_stamp', '=', stamp)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateDefinition(db: Db, id: string, changes: Updateable<WorkflowDefinitionsTable>): Promise<boolean> {
  const result = await db.updateTable('workflow_definitions').set(changes).where('id', '=', id).where('is_deleted', '=', false).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function insertVersion(db: Db, row: Insertable<WorkflowDefinitionVersionsTable>) {
  return db.insertInto('workflow_definition_versions').values(row).execute();
}

export function maxVersion(db: Db, definitionId: string) {
  return db
    .selectFrom('workflow_definition_versions')
    .select((eb) => eb.fn.max('version').as('version'))
    .where('definition_id', '=', definitionId)
    .executeTakeFirst();
}

/** Versions newest first, without their graphs (`node_count` from the graph). */
export function listVersions(db: Db, definitionId: string) {
  return db
    .selectFrom('workflow_definition_versions')
    .select(['version', 'published_time', 'published_by', sql<number>`jsonb_array_length(graph->'nodes')`.as('node_count')])
    .where('definition_id', '=', definitionId)
    .orderBy('version', 'desc')
    .execute();
}

export function findVersion(db: Db, definitionId: string, version: number) {
  return db
    .selectFrom('workflow_definition_versions')
    .selectAll()
    .where('definition_id', '=', definitionId)
    .where('version', '=', version)
    .executeTakeFirst();
}

/** Live definitions bound to a page (pages refuse to delete it while there are any). */
export function definitionsOfPage(db: Db, pageId: string) {
  return db
    .selectFrom('workflow_definitions')
    .select(['id', 'name'])
    .where('page_id', '=', pageId)
    .where('is_deleted', '=', false)
    .orderBy('name')
    .execute();
}
