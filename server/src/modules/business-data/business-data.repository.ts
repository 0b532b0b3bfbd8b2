import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { unitsAndBelowSql } from '../identity/index.ts';
import { bizTable, ident } from '../pages/index.ts';
import { SYSTEM_SELECT } from './record-values.ts';
import type { RuntimePage, RuntimeView } from './runtime-page.ts';

type Db = Kysely<Database>;
type Row = Record<string, unknown>;

/*
 * The business-data module's SQL: rows of the `biz` tables of published pages (owned by pages,
 * written here through its `bizTable`), the record history and the view preferences. Table names come from view ids (`bizTable`), column
 * names from the published definition's control codes (`ident`); every value is a bound parameter.
 */

// The select list of a view's rows, built once per runtime view (runtime pages are cached per
// published version, so this is once per view and version).
const selectLists = new WeakMap<RuntimeView, RawBuilder<unknown>>();
const columnsOf = (view: RuntimeView): RawBuilder<unknown> => {
  let list = selectLists.get(view);
  if (!list) {
    list = sql.join([...SYSTEM_SELECT, ...view.controls.map((c) => c.code)].map((name) => sql`t.${ident(name)}`));
    selectLists.set(view, list);
  }
  return list;
};

const whereAll = (conditions: (RawBuilder<unknown> | null)[]) => {
  const list = conditions.filter((c): c is RawBuilder<unknown> => c !== null);
  return list.length ? sql`where ${sql.join(list, sql` and `)}` : sql``;
};

export const notDeleted = sql`t."IsDeleted" = false`;
/** A condition no row meets. */
export const noRows = sql`false`;

/** Child rows under one parent row. */
export const underParent = (parentId: string) => sql`t."ParentViewDataId" = ${parentId}::uuid`;

/**
 * Rows of a direct child of the master whose master record is not deleted and inside `scope`
 * (a condition on alias `m`).
 */
export const underVisibleMaster = (master: RuntimeView, scope: RawBuilder<unknown> | null) =>
  sql`t."ParentViewDataId" in (select m."Id" from ${bizTable(master.table)} as m where m."IsDeleted" = false ${scope ? sql`and ${scope}` : sql``})`;

/** The text column `code` holds one of `values`. */
export const columnIn = (code: string, values: readonly string[]) => (values.length ? sql`t.${ident(code)} in (${sql.join(values.map((v) => sql`${v}`))})` : noRows);

const column = (alias: string | null, name: string) => (alias ? sql.ref(`${alias}.${name}`) : sql.ref(name));
const uuidList = (ids: readonly string[]) => sql.join(ids.map((id) => sql`${id}::uuid`));

/** Data scope "own": rows the user created. */
export const createdBy = (alias: string | null, userId: string) => sql`${column(alias, 'CreatorId')} = ${userId}::uuid`;

/** Data scope "ownUnit": rows owned by one of the units (none: no rows). */
export const ownedByUnits = (alias: string | null, unitIds: readonly string[]) =>
  unitIds.length ? sql`${column(alias, 'OwnerOrganizationUnitId')} in (${uuidList(unitIds)})` : noRows;

/** Data scope "unitAndBelow": rows owned by one of the units or a unit below them (identity's subquery). */
export const ownedByUnitsAndBelow = (alias: string | null, unitIds: readonly string[]) =>
  unitIds.length ? sql`${column(alias, 'OwnerOrganizationUnitId')} in (${unitsAndBelowSql(unitIds)})` : noRows;

/** Any of the conditions (none: no rows). */
export const anyOf = (parts: readonly RawBuilder<unknown>[]) => (parts.length ? sql`(${sql.join(parts, sql` or `)})` : noRows);

export interface SortKey {
  /** A control code or system column, already checked against the view. */
  column: string;
  direction: 'asc' | 'desc';
}

/** The order of a list: the keys (nulls last), creation time when none, the id to break ties. */
export function orderBy(keys: readonly SortKey[]): RawBuilder<unknown> {
  const parts = keys.map((k) => sql`t.${ident(k.column)} ${sql.raw(k.direction === 'desc' ? 'desc' : 'asc')} nulls last`);
  if (parts.length === 0) parts.push(sql`t."CreationTime" desc`);
  parts.push(sql`t."Id" desc`);
  return sql.join(parts);
}

export async function selectRows(
  db: Db,
  view: RuntimeView,
  conditions: (RawBuilder<unknown> | null)[],
  orderBy: RawBuilder<unknown>,
  window: { limit: number; offset: number } | null,
): Promise<Row[]> {
  const page = window ? sql`limit ${window.limit} offset ${window.offset}` : sql``;
  const { rows } = await sql<Row>`select ${columnsOf(view)} from ${bizTable(view.table)} as t ${whereAll(conditions)} order by ${orderBy} ${page}`.execute(db);
  return rows;
}

/** Counts matching rows up to `cap + 1` (reads at most that many rows). */
export async function countCapped(db: Db, view: RuntimeView, conditions: (RawBuilder<unknown> | null)[], cap: number): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`select count(*) as n from (select 1 from ${bizTable(view.table)} as t ${whereAll(conditions)} limit ${cap + 1}) as s`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Totals of number columns over every matching row (one statement): sum, average, or count of non-blank values. */
export async function summarizeRows(db: Db, view: RuntimeView, conditions: (RawBuilder<unknown> | null)[], columns: readonly { code: string; kind: 'sum' | 'avg' | 'count' }[]): Promise<Record<string, number | null>> {
  if (columns.length === 0) return {};
  const parts = columns.map(({ code, kind }, i) => sql`${sql.raw(kind)}(t.${ident(code)}) as ${ident(`s${i}`)}`);
  const { rows } = await sql<Record<string, string | number | null>>`select ${sql.join(parts)} from ${bizTable(view.table)} as t ${whereAll(conditions)}`.execute(db);
  const row = rows[0] ?? {};
  return Object.fromEntries(columns.map(({ code }, i) => {
    const v = row[`s${i}`];
    return [code, v === null || v === undefined ? null : Number(v)];
  }));
}

/** The planner's row estimate for the filtered table (no scan). */
export async function estimateCount(db: Db, view: RuntimeView, conditions: (RawBuilder<unknown> | null)[]): Promise<number> {
  const { rows } = await sql<Record<string, unknown>>`explain (format json) select 1 from ${bizTable(view.table)} as t ${whereAll(conditions)}`.execute(db);
  const first = rows[0] ? Object.values(rows[0])[0] : null;
  const plan = typeof first === 'string' ? JSON.parse(first) : first;
  const estimate = Array.isArray(plan) ? Number(plan[0]?.Plan?.['Plan Rows']) : Number.NaN;
  return Number.isFinite(estimate) ? Math.round(estimate) : 0;
}

/** Refreshes the planner's statistics of a view's table (after a bulk import, so list totals estimate right). */
export async function analyzeTable(db: Db, view: RuntimeView): Promise<void> {
  await sql`analyze ${bizTable(view.table)}`.execute(db);
}

/** Rows by id (with extra conditions such as the data scope); `forUpdate` locks them. */
export async function rowsByIds(db: Db, view: RuntimeView, ids: string[], conditions: (RawBuilder<unknown> | null)[], forUpdate = false): Promise<Row[]> {
  if (ids.length === 0) return [];
  const idList = sql.join(ids.map((id) => sql`${id}::uuid`));
  const { rows } = await sql<Row>`select ${columnsOf(view)} from ${bizTable(view.table)} as t ${whereAll([sql`t."Id" in (${idList})`, ...conditions])} ${forUpdate ? sql`for update` : sql``}`.execute(db);
  return rows;
}

/**
 * Locks a row by id and tells whether it is visible (not deleted and inside `visible`): one query
 * tells a new id (no row) from one outside the caller's scope (a 404).
 */
export async function lockRow(trx: Db, view: RuntimeView, id: string, visible: RawBuilder<unknown> | null): Promise<{ row: Row; visible: boolean } | null> {
  const check = visible ? sql`(t."IsDeleted" = false and ${visible})` : sql`(t."IsDeleted" = false)`;
  const { rows } = await sql<Row>`select ${columnsOf(view)}, ${check} as "__visible" from ${bizTable(view.table)} as t where t."Id" = ${id}::uuid for update`.execute(trx);
  const row = rows[0];
  if (!row) return null;
  const { __visible, ...rest } = row;
  return { row: rest, visible: __visible === true };
}

/** Child rows of the given parent rows, in entry order (one query per view: no N+1). */
export async function rowsByParents(db: Db, view: RuntimeView, parentIds: string[]): Promise<Row[]> {
  if (parentIds.length === 0) return [];
  const idList = sql.join(parentIds.map((id) => sql`${id}::uuid`));
  const { rows } = await sql<Row>`select ${columnsOf(view)} from ${bizTable(view.table)} as t where t."ParentViewDataId" in (${idList}) and t."IsDeleted" = false order by t."CreationTime", t."Id"`.execute(db);
  return rows;
}

/** A master record's row and every child row (one query per view, whatever the row count). */
export async function pageRows(db: Db, page: RuntimePage, masterRow: Row): Promise<Map<string, Row[]>> {
  const rows = new Map<string, Row[]>([[page.master.id, [masterRow]]]);
  for (const view of page.order) {
    if (!view.parent) continue;
    const parentIds = (rows.get(view.parent.id) ?? []).map((r) => String(r.Id));
    rows.set(view.id, await rowsByParents(db, view, parentIds));
  }
  return rows;
}

/** Which of the ids exist in the table at all (any record, any scope). */
export async function existingIds(db: Db, view: RuntimeView, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await sql<{ Id: string }>`select "Id" from ${bizTable(view.table)} where "Id" in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(db);
  return new Set(rows.map((r) => r.Id));
}

/** `insert into … values …` of rows given as column values in `columns` order. */
const insertInto = (view: RuntimeView, columns: string[], rows: unknown[][]) =>
  sql`insert into ${bizTable(view.table)} as t (${sql.join(columns.map((c) => ident(c)))}) values ${sql.join(rows.map((r) => sql`(${sql.join(r.map((v) => sql`${v}`))})`))}`;

/** Inserts rows in one statement; returns them as stored. */
export async function insertRows(trx: Db, view: RuntimeView, columns: string[], rows: unknown[][]): Promise<Row[]> {
  if (rows.length === 0) return [];
  return (await sql<Row>`${insertInto(view, columns, rows)} returning ${columnsOf(view)}`.execute(trx)).rows;
}

/** Inserts rows without reading them back (an import's chunks). */
export async function appendRows(trx: Db, view: RuntimeView, columns: string[], rows: unknown[][]): Promise<void> {
  if (rows.length > 0) await insertInto(view, columns, rows).execute(trx);
}

/** Updates one row; returns it as stored. */
export async function updateRow(trx: Db, view: RuntimeView, id: string, values: Record<string, unknown>): Promise<Row | undefined> {
  const sets = sql.join(Object.entries(values).map(([k, v]) => sql`${ident(k)} = ${v}`));
  const result = await sql<Row>`update ${bizTable(view.table)} as t set ${sets} where t."Id" = ${id}::uuid returning ${columnsOf(view)}`.execute(trx);
  return result.rows[0];
}

export async function deleteRows(trx: Db, view: RuntimeView, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`delete from ${bizTable(view.table)} where "Id" in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(trx);
}

/** Master records are soft-deleted (their history stays readable). */
export async function softDeleteRows(trx: Db, view: RuntimeView, ids: string[], userId: string | null, stamp: string): Promise<void> {
  if (ids.length === 0) return;
  await sql`update ${bizTable(view.table)} set "IsDeleted" = true, "DeletionTime" = now(), "LastModifierId" = ${userId}::uuid, "LastModificationTime" = now(), "ConcurrencyStamp" = ${stamp}
    where "Id" in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(trx);
}

/** A row of `business_data_history`: who did what to a record, with each field's before → after. */
export interface HistoryEntry {
  id: string;
  page_id: string;
  master_record_id: string;
  action: 'Created' | 'Updated' | 'Deleted';
  user_id: string | null;
  user_name: string | null;
  /** The field changes, or their JSON already (an import keeps 100,000 of them until it writes). */
  changes: unknown[] | string;
}

export function insertHistory(trx: Db, rows: HistoryEntry[]) {
  if (rows.length === 0) return Promise.resolve();
  return trx
    .insertInto('business_data_history')
    .values(rows.map((r) => ({ ...r, time: new Date(), changes: typeof r.changes === 'string' ? r.changes : JSON.stringify(r.changes) })))
    .execute();
}

export function listHistory(db: Db, pageId: string, masterRecordId: string) {
  return db.selectFrom('business_data_history').selectAll().where('page_id', '=', pageId).where('master_record_id', '=', masterRecordId).orderBy('time', 'desc').orderBy('id', 'desc').execute();
}

export function getPreferences(db: Db, userId: string, pageId: string, viewId: string) {
  return db.selectFrom('business_data_preferences').select('value').where('user_id', '=', userId).where('page_id', '=', pageId).where('view_id', '=', viewId).executeTakeFirst();
}

export async function putPreferences(db: Db, userId: string, pageId: string, viewId: string, value: unknown) {
  await db
    .insertInto('business_data_preferences')
    .values({ user_id: userId, page_id: pageId, view_id: viewId, value: JSON.stringify(value), last_modification_time: new Date() })
    .onConflict((oc) => oc.columns(['user_id', 'page_id', 'view_id']).doUpdateSet({ value: JSON.stringify(value), last_modification_time: new Date() }))
    .execute();
}
