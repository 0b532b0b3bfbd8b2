import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, PrintTemplatesTable } from '../../db/schema.ts';
import { likePattern } from '../../platform/sql-values.ts';

// The SQL of `print_templates`, `print_template_versions` and `print_counts`. Deleted templates
// are kept (soft delete) for the audit trail; every read here leaves them out.

type Db = Kysely<Database>;

export type TemplateSortColumn = 'name' | 'status' | 'is_enabled' | 'published_version' | 'creation_time' | 'last_modification_time';

export interface TemplateFilter {
  text?: string;
  enabled?: boolean;
  status?: 'draft' | 'published';
  pageId?: string;
}

function filtered(db: Db, filter: TemplateFilter) {
  let q = db.selectFrom('print_templates as d').where('d.is_deleted', '=', false);
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

export async function countTemplates(db: Db, filter: TemplateFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Templates with their draft and whether it differs from the latest version (`has_draft_changes`). */
function withSummary(q: ReturnType<typeof filtered>) {
  return q
    .leftJoin('print_template_versions as v', (j) => j.onRef('v.template_id', '=', 'd.id').onRef('v.version', '=', 'd.published_version'))
    .select([
      'd.id', 'd.name', 'd.description', 'd.page_id', 'd.permission_code', 'd.approved_only', 'd.is_enabled', 'd.published_version',
      'd.published_time', 'd.concurrency_stamp', 'd.creator_id', 'd.creation_time', 'd.last_modifier_id', 'd.last_modification_time', 'd.draft',
    ])
    .select(sql<boolean>`(v.version is null or v.layout <> d.draft)`.as('has_draft_changes'));
}

export type TemplateSummaryRow = Awaited<ReturnType<typeof listTemplates>>[number];

export function listTemplates(db: Db, filter: TemplateFilter, sort: { column: TemplateSortColumn; direction: 'asc' | 'desc' }, window: { offset: number; limit: number }) {
  const order = sort.column === 'status' ? sql`(d.published_version is not null)` : sql.ref(`d.${sort.column}`);
  return withSummary(filtered(db, filter))
    .orderBy(order, (ob) => (sort.direction === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsFirst()))
    .orderBy('d.id', sort.direction)
    .offset(window.offset)
    .limit(window.limit)
    .execute();
}

export function findTemplateSummary(db: Db, id: string) {
  return withSummary(filtered(db, {}).where('d.id', '=', id)).executeTakeFirst();
}

export function findTemplate(db: Db, id: string) {
  return db.selectFrom('print_templates').selectAll().where('id', '=', id).where('is_deleted', '=', false).executeTakeFirst();
}

/** Locks the template row for the rest of the transaction (one publish at a time). */
export function lockTemplate(db: Db, id: string) {
  return db.selectFrom('print_templates').selectAll().where('id', '=', id).where('is_deleted', '=', false).forUpdate().executeTakeFirst();
}

export function insertTemplate(db: Db, row: Insertable<PrintTemplatesTable>) {
  return db.insertInto('print_templates').values(row).execute();
}

/** Updates when the stamp still matches; false when someone else saved in between. */
export async function updateTemplateIfStamp(db: Db, id: string, stamp: string, changes: Updateable<PrintTemplatesTable>): Promise<boolean> {
  const result = await db
    .updateTable('print_templates')
    .set(changes)
    .where('id', '=', id)
    .where('is_deleted', '=', false)
    .where('concurrency_stamp', '=', stamp)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateTemplate(db: Db, id: string, changes: Updateable<PrintTemplatesTable>): Promise<boolean> {
  const result = await db.updateTable('print_templates').set(changes).where('id', '=', id).where('is_deleted', '=', false).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function insertVersion(db: Db, row: { template_id: string; version: number; layout: string; published_by: string | null; published_time: Date }) {
  return db.insertInto('print_template_versions').values(row).execute();
}

export function listVersions(db: Db, templateId: string) {
  return db
    .selectFrom('print_template_versions')
    .select(['version', 'published_time', 'published_by', sql<number>`jsonb_array_length(layout->'elements')`.as('element_count')])
    .where('template_id', '=', templateId)
    .orderBy('version', 'desc')
    .execute();
}

export function findVersion(db: Db, templateId: string, version: number) {
  return db.selectFrom('print_template_versions').selectAll().where('template_id', '=', templateId).where('version', '=', version).executeTakeFirst();
}

/** Enabled, published templates of a page with their published layout, by name. */
export function printablesOfPage(db: Db, pageId: string) {
  return db
    .selectFrom('print_templates as d')
    .innerJoin('print_template_versions as v', (j) => j.onRef('v.template_id', '=', 'd.id').onRef('v.version', '=', 'd.published_version'))
    .select(['d.id', 'd.name', 'd.permission_code', 'd.approved_only', 'v.layout'])
    .where('d.page_id', '=', pageId)
    .where('d.is_deleted', '=', false)
    .where('d.is_enabled', '=', true)
    .orderBy('d.name')
    .execute();
}

/** Live templates bound to a page (pages refuse to delete it while there are any). */
export function templatesOfPage(db: Db, pageId: string) {
  return db.selectFrom('print_templates').select(['id', 'name']).where('page_id', '=', pageId).where('is_deleted', '=', false).orderBy('name').execute();
}

/** Counts one more print of each record (last by `userId` with `templateId`). */
export async function countPrints(db: Db, pageId: string, recordIds: string[], userId: string | null, templateId: string, at: Date) {
  if (recordIds.length === 0) return;
  await db
    .insertInto('print_counts')
    .values(recordIds.map((record_id) => ({ page_id: pageId, record_id, count: 1, last_time: at, last_user_id: userId, last_template_id: templateId })))
    .onConflict((oc) =>
      oc.columns(['page_id', 'record_id']).doUpdateSet((eb) => ({
        count: sql`${eb.ref('print_counts.count')} + 1`,
        last_time: eb.ref('excluded.last_time'),
        last_user_id: eb.ref('excluded.last_user_id'),
        last_template_id: eb.ref('excluded.last_template_id'),
      })),
    )
    .execute();
}

export function printCountOf(db: Db, pageId: string, recordId: string) {
  return db.selectFrom('print_counts').selectAll().where('page_id', '=', pageId).where('record_id', '=', recordId).executeTakeFirst();
}
