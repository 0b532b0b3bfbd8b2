/*
 * The SQL the product writes around a source's own SQL, per dialect: quoted names, text casts,
 * LIKE patterns, paging, the row cap and the catalogue queries. PostgreSQL and MySQL / MariaDB
 * are run against the machine's servers in the tests; SQL Server has no server here, so its SQL is
 * tested as text (source-sql.test.ts).
 */
import type { TSqlSourceKind as TDataSourceKind } from '@tessera/core/contracts/data-sources';

/** A column or table name quoted for the dialect (the quote doubled inside). */
export function quoteName(kind: TDataSourceKind, name: string): string {
  if (kind === 'postgres') return `"${name.replace(/"/g, '""')}"`;
  if (kind === 'mssql') return `[${name.replace(/]/g, ']]')}]`;
  return `\`${name.replace(/`/g, '``')}\``;
}

/** A (quoted) column of the wrapped query `q` as text, for comparing with text and searching. */
export function asText(kind: TDataSourceKind, quoted: string): string {
  if (kind === 'postgres') return `q.${quoted}::text`;
  if (kind === 'mssql') return `cast(q.${quoted} as nvarchar(4000))`;
  return `cast(q.${quoted} as char)`;
}

/** A LIKE pattern taking `text` literally: the wildcards (and SQL Server's `[`) escaped with a backslash. */
export function likeLiteral(kind: TDataSourceKind, text: string): string {
  return text.replace(kind === 'mssql' ? /[\\%_[]/g : /[\\%_]/g, (c) => `\\${c}`);
}

/** `<text> LIKE <pattern>`, case-insensitive where the dialect allows it; the backslash escapes. */
export function likeSql(kind: TDataSourceKind, text: string, pattern: string): string {
  if (kind === 'postgres') return `${text} ilike ${pattern}`;
  // SQL Server's LIKE has no escape character unless told (its strings know no backslash escapes).
  if (kind === 'mssql') return `${text} like ${pattern} escape '\\'`;
  return `${text} like ${pattern}`;
}

/** ORDER BY with a page: LIMIT / OFFSET, or SQL Server's OFFSET … FETCH (which needs an order). */
export function pageSql(kind: TDataSourceKind, orderBy: string | null, limit: number, offset: number): string {
  if (kind === 'mssql') return `\norder by ${orderBy ?? '(select null)'}\noffset ${offset} rows fetch next ${limit} rows only`;
  return `${orderBy ? `\norder by ${orderBy}` : ''}\nlimit ${limit} offset ${offset}`;
}

/**
 * A reading statement capped at `limit` rows in the database: wrapped in a select with a limit, or
 * on SQL Server (where a derived table may not hold an ORDER BY) by `set rowcount` for the batch
 * (at least 1: `set rowcount 0` means no cap, so a "no rows" read takes one and drops it).
 */
export function cappedSql(kind: TDataSourceKind, sql: string, limit: number): string {
  if (kind === 'mssql') return `set rowcount ${Math.max(1, limit)};\n${sql}`;
  return `select * from (${sql}\n) as tessera_query limit ${limit}`;
}

/** The server's version text. */
export const versionSql = (kind: TDataSourceKind) => (kind === 'mssql' ? 'select @@version' : 'select version()');

/** The dialect's placeholder for the n-th (1-based) value of a statement the product writes itself. */
export const placeholder = (kind: TDataSourceKind, n: number) => (kind === 'postgres' ? `$${n}` : kind === 'mssql' ? `@p${n}` : '?');

/** Schemas of the system, not listed when browsing. */
export const SYSTEM_SCHEMAS: Record<TDataSourceKind, string[]> = {
  postgres: ['pg_catalog', 'information_schema', 'pg_toast'],
  mysql: ['mysql', 'information_schema', 'performance_schema', 'sys'],
  mssql: ['sys', 'INFORMATION_SCHEMA'],
};

/** Tables and views outside the system schemas (schema, name, type), at most `max`. */
export function objectsSql(kind: TDataSourceKind, max: number): string {
  const hidden = SYSTEM_SCHEMAS[kind].map((_, i) => placeholder(kind, i + 1)).join(', ');
  const where = `from information_schema.tables where table_schema not in (${hidden}) order by table_schema, table_name`;
  return kind === 'mssql' ? `select top (${max}) table_schema, table_name, table_type ${where}` : `select table_schema, table_name, table_type ${where} limit ${max}`;
}

/** A table's columns: name, type, nullable, part of the primary key (schema and table are the two values). */
export function columnsSql(kind: TDataSourceKind): string {
  if (kind === 'mysql') {
    return `select column_name, column_type, is_nullable = 'YES', column_key = 'PRI' from information_schema.columns where table_schema = ? and table_name = ? order by ordinal_position`;
  }
  const [schema, table] = [placeholder(kind, 1), placeholder(kind, 2)];
  const key = `exists (select 1 from information_schema.table_constraints t
                   join information_schema.key_column_usage k on k.constraint_name = t.constraint_name and k.table_schema = t.table_schema and k.table_name = t.table_name
                   where t.constraint_type = 'PRIMARY KEY' and t.table_schema = c.table_schema and t.table_name = c.table_name and k.column_name = c.column_name)`;
  return kind === 'postgres'
    ? `select c.column_name, c.data_type, c.is_nullable = 'YES', ${key}
         from information_schema.columns c where c.table_schema = ${schema} and c.table_name = ${table} order by c.ordinal_position`
    : `select c.column_name, c.data_type, case when c.is_nullable = 'YES' then 1 else 0 end, case when ${key} then 1 else 0 end
         from information_schema.columns c where c.table_schema = ${schema} and c.table_name = ${table} order by c.ordinal_position`;
}
