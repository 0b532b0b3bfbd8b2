import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, PageDefinitionsTable, PageDefinitionVersionsTable } from '../../db/schema.ts';
import { likePattern } from '../../platform/sql-values.ts';
import { bizTable } from './biz-schema.ts';

type Db = Kysely<Database>;

export type PageSortColumn = 'code' | 'status' | 'creation_time' | 'last_modification_time' | 'published_time' | 'name';

function filtered(db: Db, text: string | undefined, status: string | undefined) {
  let q = db.selectFrom('page_definitions');
  if (text) {
    const pattern = likePattern(text);
    q = q.where((eb) => eb.or([eb('code', 'ilike', pattern), eb(sql`name::text`, 'ilike', pattern), eb('description', 'ilike', pattern)]));
  }
  if (status) q = q.where('status', '=', status as 'draft');
  return q;
}

export async function countPages(db: Db, text: string | undefined, status: string | undefined): Promise<number> {
  const row = await filtered(db, text, status).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The list never carries the drafts (they can be large). */
export function listPages(
  db: Db,
  text: string | undefined,
  status: string | undefined,
  sort: { column: PageSortColumn; direction: 'asc' | 'desc' },
  window: { offset: number; limit: number },
) {
  const order = sort.column === 'name' ? sql`name->>'zh-CN'` : sql.ref(sort.column);
  return filtered(db, text, status)
    .select([
      'id', 'code', 'name', 'description', 'concurrency_stamp', 'status', 'published_version', 'published_time',
      'creation_time', 'creator_id', 'last_modification_time', 'last_modifier_id',
    ])
    .orderBy(order, (ob) => (sort.direction === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsFirst()))
    .orderBy('id', sort.direction)
    .offset(window.offset)
    .limit(window.limit)
    .execute();
}

export function findPage(db: Db, id: string) {
  return db.selectFrom('page_definitions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks the page row for the rest of the transaction (publishing one page at a time). */
export function lockPage(db: Db, id: string) {
  return db.selectFrom('page_definitions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findPageByCode(db: Db, code: string) {
  return db
    .selectFrom('page_definitions')
    .select(['id', 'code'])
    .where((eb) => eb(eb.fn('lower', ['code']), '=', code.toLowerCase()))
    .executeTakeFirst();
}

export function insertPage(db: Db, row: Insertable<PageDefinitionsTable>) {
  return db.insertInto('page_definitions').values(row).execute();
}

/** Updates when the stamp still matches; returns false when someone else saved in between. */
export async function updatePageIfStamp(db: Db, id: string, stamp: string, changes: Updateable<PageDefinitionsTable>): Promise<boolean> {
  const result = await db.updateTable('page_definitions').set(changes).where('id', '=', id).where('concurrency_stamp', '=', stamp).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function updatePage(db: Db, id: string, changes: Updateable<PageDefinitionsTable>) {
  return db.updateTable('page_definitions').set(changes).where('id', '=', id).execute();
}

export function deletePage(db: Db, id: string) {
  return db.deleteFrom('page_definitions').where('id', '=', id).execute();
}

export function listVersions(db: Db, pageId: string) {
  return db
    .selectFrom('page_definition_versions as v')
    .leftJoin('users as u', 'u.id', 'v.published_by')
    .select(['v.version', 'v.published_by', 'v.published_time', 'v.change_summary', 'v.hidden_columns', 'v.rolled_back_from', 'u.user_name'])
    .where('v.page_id', '=', pageId)
    .orderBy('v.version', 'desc')
    .execute();
}

export function findVersion(db: Db, pageId: string, version: number) {
  return db
    .selectFrom('page_definition_versions as v')
    .leftJoin('users as u', 'u.id', 'v.published_by')
    .select(['v.version', 'v.definition', 'v.published_by', 'v.published_time', 'v.change_summary', 'v.hidden_columns', 'v.rolled_back_from', 'u.user_name'])
    .where('v.page_id', '=', pageId)
    .where('v.version', '=', version)
    .executeTakeFirst();
}

/** Every version's definition and hidden list of a page (the tables it may own). */
export function allVersions(db: Db, pageId: string) {
  return db.selectFrom('page_definition_versions').select(['version', 'definition', 'hidden_columns']).where('page_id', '=', pageId).execute();
}

export function insertVersion(db: Db, row: Insertable<PageDefinitionVersionsTable>) {
  return db.insertInto('page_definition_versions').values(row).execute();
}

/** The latest published definition of every page (lookup data sources). */
export function latestPublishedDefinitions(db: Db) {
  return db
    .selectFrom('page_definitions as p')
    .innerJoin('page_definition_versions as v', (j) => j.onRef('v.page_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .select(['p.id', 'p.code', 'v.definition'])
    .execute();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page's id and published version number by id or code (case-insensitive): one indexed lookup. */
export function findPublishedVersionNumber(db: Db, pageIdOrCode: string) {
  const byId = UUID.test(pageIdOrCode);
  return db
    .selectFrom('page_definitions')
    .select(['id', 'published_version'])
    .$if(byId, (q) => q.where('id', '=', pageIdOrCode))
    .$if(!byId, (q) => q.where(sql`lower(code)`, '=', pageIdOrCode.toLowerCase()))
    .executeTakeFirst();
}

/** Ids of the pages whose latest published definition mentions `text` (a view id, say). */
export async function publishedPagesMentioning(db: Db, text: string): Promise<string[]> {
  const rows = await db
    .selectFrom('page_definitions as p')
    .innerJoin('page_definition_versions as v', (j) => j.onRef('v.page_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .select('p.id')
    .where(sql<boolean>`strpos(v.definition::text, ${text}) > 0`)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The published pages whose drop-down controls take their options from a dictionary code
 * (`options: { dictionaryCode }` anywhere in the definition — the page-definition document is the
 * shared contract of packages/core/src/page-definition.ts). Only the published version counts: a
 * draft can still be changed by its designer, a published page is in use. One indexed join and a
 * JSON path test per published page.
 */
export function publishedPagesUsingDictionaryCode(db: Db, code: string): Promise<string[]> {
  return publishedPagesMatching(db, 'lax $.**.options.dictionaryCode ? (@ == $value)', code);
}

/** Published pages (their latest version) with a page button that runs the procedure. */
export function publishedPagesRunningProcedure(db: Db, procedureId: string): Promise<string[]> {
  return publishedPagesMatching(db, 'lax $.pageButtons[*] ? (@.buttonType == "runProcedure" && @.procedureId == $value)', procedureId);
}

/** Names of the published pages whose published definition matches a JSON path (`$value`: the value sought), by code. */
async function publishedPagesMatching(db: Db, path: string, value: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select coalesce(nullif(p.name->>'zh-CN', ''), nullif(p.name->>'en-US', ''), p.code) as name
    from page_definitions p
    join page_definition_versions v on v.page_id = p.id and v.version = p.published_version
    where jsonb_path_exists(v.definition, ${path}::jsonpath, jsonb_build_object('value', ${value}::text))
    order by p.code`.execute(db);
  return rows.map((r) => r.name);
}

/** The number of rows of a business table (publishing and deleting decide by it). */
export async function countBizRows(db: Db, table: string): Promise<number> {
  return Number((await sql<{ n: string }>`select count(*) as n from ${bizTable(table)}`.execute(db)).rows[0]!.n);
}

export async function dropBizTable(db: Db, table: string): Promise<void> {
  await sql`drop table ${bizTable(table)}`.execute(db);
}

/** Pages' id, code, name and published version (for modules that show or check a page they reference). */
export function pageSummaries(db: Db, where: { ids?: readonly string[]; code?: string }) {
  let q = db.selectFrom('page_definitions').select(['id', 'code', 'name', 'published_version']);
  if (where.ids) q = q.where('id', 'in', where.ids.length > 0 ? [...where.ids] : ['00000000-0000-0000-0000-000000000000']);
  if (where.code !== undefined) q = q.where(sql`lower(code)`, '=', where.code.toLowerCase());
  return q.execute();
}

/** Published pages matching a text (code or name), by code: what a module offers to bind to. */
export async function publishedPageSummaries(db: Db, text: string | undefined, window: { offset: number; limit: number }) {
  let q = db.selectFrom('page_definitions').where('published_version', 'is not', null);
  if (text) {
    const pattern = likePattern(text);
    q = q.where((eb) => eb.or([eb('code', 'ilike', pattern), eb(sql`name::text`, 'ilike', pattern)]));
  }
  const [rows, count] = await Promise.all([
    q.select(['id', 'code', 'name', 'published_version']).orderBy(sql`lower(code)`).orderBy('id').offset(window.offset).limit(window.limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, totalCount: Number(count.n) };
}
