import { sql, type Kysely } from 'kysely';
import { BIZ_SCHEMA } from './biz-schema.ts';

// What the `biz` tables look like right now, read from pg_catalog (the truth, whatever the
// page metadata says): columns with types, the parent foreign key, single-column indexes.

export interface LiveTable {
  name: string;
  /** Column name → normalized type (`text`, `bigint`, `numeric`, `timestamptz`, `boolean`, `jsonb`, `uuid`, …). */
  columns: Map<string, string>;
  /** The foreign key on "ParentViewDataId", if any. */
  parentFk: { name: string; refTable: string } | null;
  /** Columns that have an index of their own. */
  indexedColumns: Set<string>;
}

const TYPE_NAMES: Record<string, string> = {
  'timestamp with time zone': 'timestamptz',
  'character varying': 'text',
};
export const normalizeType = (formatted: string) => TYPE_NAMES[formatted] ?? formatted.replace(/\(.*\)$/, '');

export async function readLiveTables(db: Kysely<any>, tables: string[]): Promise<Map<string, LiveTable>> {
  const out = new Map<string, LiveTable>();
  if (tables.length === 0) return out;
  // Sequential: inside a transaction there is one connection (and PGlite has only one anyway).
  const columns = await sql<{ table: string; column: string; type: string }>`
      select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type"
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = ${BIZ_SCHEMA} and c.relkind = 'r' and c.relname = any(${tables}::text[])
      order by c.relname, a.attnum`.execute(db);
  const fks = await sql<{ table: string; name: string; refTable: string; column: string }>`
      select cl.relname as "table", con.conname as "name", rf.relname as "refTable", a.attname as "column"
      from pg_constraint con
      join pg_class cl on cl.oid = con.conrelid
      join pg_namespace n on n.oid = cl.relnamespace
      join pg_class rf on rf.oid = con.confrelid
      join pg_attribute a on a.attrelid = con.conrelid and a.attnum = con.conkey[1]
      where con.contype = 'f' and n.nspname = ${BIZ_SCHEMA} and cl.relname = any(${tables}::text[])`.execute(db);
  const indexes = await sql<{ table: string; column: string }>`
      select t.relname as "table", a.attname as "column"
      from pg_index i
      join pg_class t on t.oid = i.indrelid
      join pg_namespace n on n.oid = t.relnamespace
      join pg_attribute a on a.attrelid = t.oid and a.attnum = i.indkey[0]
      where n.nspname = ${BIZ_SCHEMA} and t.relname = any(${tables}::text[]) and i.indnatts = 1`.execute(db);
  for (const row of columns.rows) {
    let table = out.get(row.table);
    if (!table) out.set(row.table, (table = { name: row.table, columns: new Map(), parentFk: null, indexedColumns: new Set() }));
    table.columns.set(row.column, normalizeType(row.type));
  }
  for (const row of fks.rows) {
    const table = out.get(row.table);
    if (table && row.column === 'ParentViewDataId') table.parentFk = { name: row.name, refTable: row.refTable };
  }
  for (const row of indexes.rows) out.get(row.table)?.indexedColumns.add(row.column);
  return out;
}

/** Every table in `biz` (for tests and diagnostics). */
export async function listBizTables(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${BIZ_SCHEMA} and c.relkind = 'r' order by 1`.execute(db);
  return rows.map((r) => r.name);
}
