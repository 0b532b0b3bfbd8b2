import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import { OWN_VIEWS_SCHEMA } from '@tessera/core/contracts/data-sources';
import type { DataSourceMethodsTable, DataSourcesTable, Database } from '../../db/schema.ts';
import { likePattern } from '../../platform/sql-values.ts';

// The SQL of `data_sources` and `data_source_methods`.

type Db = Kysely<Database>;

export type SourceSortColumn = 'name' | 'kind' | 'host' | 'creation_time' | 'last_modification_time';

export interface SourceFilter {
  text?: string;
  kind?: DataSourcesTable['kind'];
}

function filtered(db: Db, filter: SourceFilter) {
  let q = db.selectFrom('data_sources');
  if (filter.text) {
    const pattern = likePattern(filter.text);
    q = q.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('description', 'ilike', pattern), eb('host', 'ilike', pattern), eb('database_name', 'ilike', pattern)]));
  }
  if (filter.kind) q = q.where('kind', '=', filter.kind);
  return q;
}

export async function countSources(db: Db, filter: SourceFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listSources(db: Db, filter: SourceFilter, sort: { column: SourceSortColumn; direction: 'asc' | 'desc' }, window: { offset: number; limit: number }) {
  return filtered(db, filter)
    .selectAll()
    .orderBy(sort.column, (ob) => (sort.direction === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsFirst()))
    .orderBy('id', sort.direction)
    .offset(window.offset)
    .limit(window.limit)
    .execute();
}

export function findSource(db: Db, id: string) {
  return db.selectFrom('data_sources').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertSource(db: Db, row: Insertable<DataSourcesTable>) {
  return db.insertInto('data_sources').values(row).execute();
}

/** Updates when the stamp still matches; false when someone else saved in between. */
export async function updateSourceIfStamp(db: Db, id: string, stamp: string, changes: Updateable<DataSourcesTable>): Promise<boolean> {
  const result = await db.updateTable('data_sources').set(changes).where('id', '=', id).where('concurrency_stamp', '=', stamp).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function deleteSource(db: Db, id: string) {
  return db.deleteFrom('data_sources').where('id', '=', id).execute();
}

// ---------------------------------------------------------------- saved queries

/** Every source (the designer's catalogue), by name. */
export function allSources(db: Db) {
  return db.selectFrom('data_sources').select(['id', 'name', 'kind']).orderBy('name').orderBy('id').execute();
}

/** The external database sources (not HTTP, not the product's own), by name: where the data factory may register routines. */
export function sqlSources(db: Db) {
  return db.selectFrom('data_sources').select(['id', 'name', 'kind', 'read_only']).where('kind', 'not in', ['http', 'own']).orderBy('name').orderBy('id').execute();
}

/** The views of published pages an own source reads, with what they show (their comment's second line on). */
export async function ownViews(db: Db): Promise<{ name: string; comment: string | null }[]> {
  const rows = await sql<{ name: string; comment: string | null }>`
    select c.relname as name, obj_description(c.oid, 'pg_class') as comment
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = ${OWN_VIEWS_SCHEMA} and c.relkind = 'v' order by c.relname`.execute(db);
  return rows.rows;
}

/** A view's columns in order, with their types and comments (the controls' titles). */
export async function ownViewColumns(db: Db, view: string): Promise<{ name: string; type: string; comment: string | null }[]> {
  const rows = await sql<{ name: string; type: string; comment: string | null }>`
    select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, col_description(c.oid, a.attnum) as comment
      from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid
     where n.nspname = ${OWN_VIEWS_SCHEMA} and c.relname = ${view} and c.relkind = 'v' and a.attnum > 0 and not a.attisdropped
     order by a.attnum`.execute(db);
  return rows.rows;
}

/** The names of these sources. */
export function sourceNames(db: Db, ids: string[]) {
  return ids.length ? db.selectFrom('data_sources').select(['id', 'name']).where('id', 'in', ids).execute() : Promise.resolve([]);
}

/** Every saved query (the designer's catalogue), by name. */
export function allMethods(db: Db) {
  return db.selectFrom('data_source_methods').selectAll().orderBy('name').orderBy('id').execute();
}

export function listMethods(db: Db, sourceId: string) {
  return db.selectFrom('data_source_methods').selectAll().where('source_id', '=', sourceId).orderBy('name').orderBy('id').execute();
}

export function findMethod(db: Db, sourceId: string, id: string) {
  return db.selectFrom('data_source_methods').selectAll().where('source_id', '=', sourceId).where('id', '=', id).executeTakeFirst();
}

export function findMethodByCode(db: Db, sourceId: string, code: string) {
  return db.selectFrom('data_source_methods').selectAll().where('source_id', '=', sourceId).where(sql<string>`lower(code)`, '=', code.toLowerCase()).executeTakeFirst();
}

export function insertMethod(db: Db, row: Insertable<DataSourceMethodsTable>) {
  return db.insertInto('data_source_methods').values(row).execute();
}

/** Updates when the stamp still matches; false when someone else saved in between. */
export async function updateMethodIfStamp(db: Db, id: string, stamp: string, changes: Updateable<DataSourceMethodsTable>): Promise<boolean> {
  const result = await db.updateTable('data_source_methods').set(changes).where('id', '=', id).where('concurrency_stamp', '=', stamp).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function deleteMethod(db: Db, id: string) {
  return db.deleteFrom('data_source_methods').where('id', '=', id).execute();
}
