import type { SQLNamespace } from '@codemirror/lang-sql';
import type { TDataSourceColumns, TDataSourceObjects } from '@tessera/core/contracts/data-sources';

// The workbench's view of a source's objects: schemas → tables and views → columns (loaded when a
// table is opened), filtered by a table name, and the same as autocomplete's namespace.

export type TableColumns = TDataSourceColumns['columns'];
/** A table's columns once asked for: the list, or why it could not be read. */
export type ColumnsState = { columns: TableColumns } | { error: string };

const SEP = '\u0000';
export const schemaKey = (schema: string) => `s${SEP}${schema}`;
export const tableKey = (schema: string, table: string) => `t${SEP}${schema}${SEP}${table}`;
export const columnKey = (schema: string, table: string, column: string) => `c${SEP}${schema}${SEP}${table}${SEP}${column}`;

export type TreeKey = { type: 'schema'; schema: string } | { type: 'table'; schema: string; table: string } | { type: 'column' };

export function parseTreeKey(key: string): TreeKey {
  const [type, schema = '', table = ''] = key.split(SEP);
  if (type === 's') return { type: 'schema', schema };
  if (type === 't') return { type: 'table', schema, table };
  return { type: 'column' };
}

/** Schemas with the tables whose name holds the filter (case-insensitive); a schema whose own name matches keeps all its tables. */
export function filterObjects(objects: TDataSourceObjects, filter: string): TDataSourceObjects['schemas'] {
  const needle = filter.trim().toLowerCase();
  if (!needle) return objects.schemas;
  return objects.schemas.flatMap((s) => {
    if (s.name.toLowerCase().includes(needle)) return [s];
    const tables = s.tables.filter((t) => t.name.toLowerCase().includes(needle));
    return tables.length ? [{ ...s, tables }] : [];
  });
}

/** Autocomplete's namespace: schema → table → the columns read so far. */
export function completionSchema(objects: TDataSourceObjects | undefined, columns: Readonly<Record<string, ColumnsState>>): SQLNamespace {
  const namespace: Record<string, Record<string, string[]>> = {};
  for (const s of objects?.schemas ?? []) {
    const tables: Record<string, string[]> = {};
    for (const t of s.tables) {
      const state = columns[tableKey(s.name, t.name)];
      tables[t.name] = state && 'columns' in state ? state.columns.map((c) => c.name) : [];
    }
    namespace[s.name] = tables;
  }
  return namespace;
}
