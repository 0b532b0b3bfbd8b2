import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { TableFieldType, TPageDefinition } from '@tessera/core/page-definition';
import { ZPageDefinition } from '@tessera/core/page-definition';
import { tableFieldTypeOf } from '@tessera/core/controls/registry';
import {
  dataViews,
  IDENTIFIER_PATTERN,
  isReservedColumnName,
  SYSTEM_COLUMN_NAMES,
  VIEW_TYPES,
} from '@tessera/core/contracts/pages';
import type { Database } from '../../db/schema.ts';

/*
 * The business-table contract: how a published page definition becomes PostgreSQL tables.
 * Publishing (publish.service.ts) creates and alters these tables; the business runtime reads and
 * writes them through the helpers here.
 *
 * - Schema `biz`. One table per data view (viewType ≠ 3; containers only lay out other views),
 *   named `v_<view id without dashes, lowercase>` (`bizTableName`). View ids are UUIDs, so a
 *   table keeps its name when the view's code changes.
 * - One column per data control, named exactly by the control code (a quoted, case-sensitive
 *   identifier). Codes match `^[A-Za-z][A-Za-z0-9_]{0,39}$`, are unique per view
 *   case-insensitively and are never a system column name (`isReservedColumnName`).
 * - Column type by table field type (`columnSqlType`): 1 text, 2 bigint, 3 numeric,
 *   4 timestamptz, 5 boolean, 6 jsonb. Multi-value lists (1008/1009, field type 1) are text
 *   holding JSON. Columns of field type 6 (lookups, ids) are indexed.
 * - System columns (`SYSTEM_COLUMNS`): "Id" uuid primary key, "ParentViewDataId" uuid (child
 *   views: references the parent view's table "Id" on delete cascade, indexed), "DataStatus",
 *   "CreatorId", "CreationTime", "LastModifierId", "LastModificationTime", "IsDeleted",
 *   "DeletionTime", "ConcurrencyStamp", "OwnerOrganizationUnitId", "FlowStatus".
 * - A child view is a view with `parentViewControlId` (the id of its parent data view); its rows
 *   point at the parent record through "ParentViewDataId". `associateForeignKeyCode` names the
 *   key the designer shows ("ParentViewDataId", or a control of the child view that the runtime
 *   fills with the parent record's id).
 * - A control or view removed from the design whose column/table still holds data is kept as a
 *   hidden column/table (listed in the version's `hidden_columns`); the runtime ignores columns
 *   that are not in the published definition.
 * - Runtime pages always use the latest published version (`getPublishedPage`); drafts never
 *   reach users.
 */

export const BIZ_SCHEMA = 'biz';

export { isReservedColumnName, IDENTIFIER_PATTERN };

export interface SystemColumn {
  name: (typeof SYSTEM_COLUMN_NAMES)[number];
  /** The SQL type and constraints as created (without the parent reference). */
  sqlType: string;
  notNull: boolean;
  defaultSql: string | null;
}

export const SYSTEM_COLUMNS: readonly SystemColumn[] = Object.freeze([
  { name: 'Id', sqlType: 'uuid', notNull: true, defaultSql: null },
  { name: 'ParentViewDataId', sqlType: 'uuid', notNull: false, defaultSql: null },
  { name: 'DataStatus', sqlType: 'integer', notNull: true, defaultSql: '0' },
  { name: 'CreatorId', sqlType: 'uuid', notNull: false, defaultSql: null },
  { name: 'CreationTime', sqlType: 'timestamptz', notNull: true, defaultSql: 'now()' },
  { name: 'LastModifierId', sqlType: 'uuid', notNull: false, defaultSql: null },
  { name: 'LastModificationTime', sqlType: 'timestamptz', notNull: false, defaultSql: null },
  { name: 'IsDeleted', sqlType: 'boolean', notNull: true, defaultSql: 'false' },
  { name: 'DeletionTime', sqlType: 'timestamptz', notNull: false, defaultSql: null },
  { name: 'ConcurrencyStamp', sqlType: 'text', notNull: true, defaultSql: null },
  { name: 'OwnerOrganizationUnitId', sqlType: 'uuid', notNull: false, defaultSql: null },
  { name: 'FlowStatus', sqlType: 'integer', notNull: true, defaultSql: '0' },
] satisfies SystemColumn[]);

const SYSTEM_NAMES = new Set<string>(SYSTEM_COLUMN_NAMES);
/** True for the exact (case-sensitive) name of a system column. */
export const isSystemColumn = (name: string) => SYSTEM_NAMES.has(name);

/** The SQL column types, one per table field type (spec §3). */
export const COLUMN_SQL_TYPES: Readonly<Record<TableFieldType, BizColumnType>> = Object.freeze({
  1: 'text',
  2: 'bigint',
  3: 'numeric',
  4: 'timestamptz',
  5: 'boolean',
  6: 'jsonb',
});
export type BizColumnType = 'text' | 'bigint' | 'numeric' | 'timestamptz' | 'boolean' | 'jsonb';

/** The column type of a table field type; unknown field types are text. */
export function columnSqlType(tableFieldType: number | null | undefined): BizColumnType {
  return COLUMN_SQL_TYPES[Number(tableFieldType) as TableFieldType] ?? 'text';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `v_<view id without dashes, lowercase>`; throws for anything but a UUID. */
export function bizTableName(viewId: string): string {
  if (!UUID.test(viewId)) throw new Error(`A view id must be a UUID: ${JSON.stringify(viewId)}`);
  return `v_${viewId.replace(/-/g, '').toLowerCase()}`;
}

/** The view id of a `v_<32 hex>` table name (null for anything else). */
export function viewIdOfTable(table: string): string | null {
  const m = /^v_([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/.exec(table);
  return m ? m.slice(1).join('-') : null;
}

const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

/**
 * A quoted identifier for DDL and queries on business tables. Only validated codes, system column
 * names and generated table/index names pass; anything else throws before SQL is built.
 */
export function ident(name: string): RawBuilder<unknown> {
  if (!SAFE_NAME.test(name)) throw new Error(`Not a safe identifier: ${JSON.stringify(name)}`);
  return sql.id(name) as unknown as RawBuilder<unknown>;
}

/** `biz."v_…"` for a table name produced by `bizTableName`. */
export function bizTable(table: string): RawBuilder<unknown> {
  if (!viewIdOfTable(table)) throw new Error(`Not a business table: ${JSON.stringify(table)}`);
  return sql.id(BIZ_SCHEMA, table) as unknown as RawBuilder<unknown>;
}

/** `biz."v_…"` for a view id. */
export const bizTableOf = (viewId: string) => bizTable(bizTableName(viewId));

/** Columns of a published data view: control id → column, with its SQL type. */
export interface BizColumn {
  controlId: string;
  code: string;
  controlType: number;
  tableFieldType: TableFieldType;
  sqlType: BizColumnType;
}

export interface BizView {
  viewId: string;
  code: string;
  table: string;
  /** The parent data view (child views), else null. */
  parentViewId: string | null;
  columns: BizColumn[];
}

/** The data views of a definition with their tables and columns (containers have no table). */
export function bizViews(definition: TPageDefinition): BizView[] {
  return dataViews(definition).map(({ view }) => ({
    viewId: view.id,
    code: view.code,
    table: bizTableName(view.id),
    parentViewId: view.parentViewControlId ?? null,
    columns: view.dataControls.map((c) => {
      const tableFieldType = tableFieldTypeOf(Number(c.controlType));
      return { controlId: c.id, code: c.code, controlType: Number(c.controlType), tableFieldType, sqlType: columnSqlType(tableFieldType) };
    }),
  }));
}

export const isContainerView = (viewType: number | null | undefined) => Number(viewType) === VIEW_TYPES.container;

/** True for a code that can be a column name (pattern and not reserved). */
export const isValidColumnCode = (code: string) => IDENTIFIER_PATTERN.test(code) && !isReservedColumnName(code);

export interface PublishedPage {
  page: { id: string; code: string; name: Record<string, string>; description: string | null };
  version: { version: number; publishedTime: Date; publishedBy: string | null; hiddenColumns: unknown[] };
  definition: TPageDefinition;
}

/**
 * The latest published version of a page, by id (UUID) or code (case-insensitive); null when the
 * page does not exist or was never published. What the business runtime renders and writes.
 */
export async function getPublishedPage(db: Kysely<Database>, pageIdOrCode: string): Promise<PublishedPage | null> {
  const byId = UUID.test(pageIdOrCode);
  const row = await db
    .selectFrom('page_definitions as p')
    .innerJoin('page_definition_versions as v', (j) => j.onRef('v.page_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .select(['p.id', 'p.code', 'p.name', 'p.description', 'v.version', 'v.definition', 'v.published_time', 'v.published_by', 'v.hidden_columns'])
    .$if(byId, (q) => q.where('p.id', '=', pageIdOrCode))
    .$if(!byId, (q) => q.where(sql`lower(p.code)`, '=', pageIdOrCode.toLowerCase()))
    .executeTakeFirst();
  if (!row) return null;
  return {
    page: { id: row.id, code: row.code, name: row.name, description: row.description },
    version: { version: row.version, publishedTime: row.published_time, publishedBy: row.published_by, hiddenColumns: row.hidden_columns },
    definition: ZPageDefinition.parse(row.definition),
  };
}

let lastCreation = 0;
/**
 * The next "CreationTime" of a business row written by this process: strictly increasing (the
 * database clock ticks in milliseconds on PGlite), so rows of one save keep their order, saves in
 * the same millisecond do not tie, and "newest first" and child order are creation order.
 */
export function nextCreationTime(now = new Date()): Date {
  lastCreation = Math.max(now.getTime(), lastCreation + 1);
  return new Date(lastCreation);
}
