import type { SqlDialect } from '@tessera/core/helpers/sql-parameters';

// Names a generated statement refers to. A plain lowercase identifier is written as it is; any
// other name (capitals, spaces, a leading digit, a reserved word) is quoted the dialect's way:
// "Name" with "" inside for PostgreSQL, `Name` with `` inside for MySQL / MariaDB, [Name] with ]]
// inside for SQL Server. PostgreSQL
// folds unquoted names to lowercase, so a mixed-case table would otherwise not be found.

const PLAIN = /^[a-z_][a-z0-9_]*$/;

/** Words both dialects reserve (a table called `order` or `user` needs quoting). */
const RESERVED = new Set(
  (
    'all and any as asc between both by case cast check collate column constraint create cross current_date current_time current_timestamp current_user ' +
    'default delete desc distinct drop else end except exists false fetch for foreign from full grant group having in index inner insert intersect into ' +
    'is join key leading left like limit natural not null offset on or order outer primary references right select set some table then to trailing true ' +
    'union unique update user using values when where window with'
  ).split(' '),
);

export function quoteIdentifier(name: string, dialect: SqlDialect): string {
  if (PLAIN.test(name) && !RESERVED.has(name)) return name;
  if (dialect === 'mssql') return `[${name.replaceAll(']', ']]')}]`;
  const quote = dialect === 'mysql' ? '`' : '"';
  return `${quote}${name.replaceAll(quote, quote + quote)}${quote}`;
}

/** `schema.table`, each part quoted where it must be. */
export const qualifiedName = (schema: string, table: string, dialect: SqlDialect) => `${quoteIdentifier(schema, dialect)}.${quoteIdentifier(table, dialect)}`;

/** What clicking a table in the workbench's tree puts into an empty editor. */
export const selectAllStatement = (schema: string, table: string, dialect: SqlDialect) => `select * from ${qualifiedName(schema, table, dialect)}`;
