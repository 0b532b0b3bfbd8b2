import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { dataSourceColumnsOptions, dataSourceKeys, useDataSourceObjects } from '../api/data-sources.ts';
import { errorText } from '../api/server-error.ts';
import { tableKey, type ColumnsState } from './object-tree-data.ts';

/** A source's schemas and tables, and the columns of the tables opened so far (shared by the tree and autocomplete). */
export function useSourceObjects(sourceId: string) {
  const client = useQueryClient();
  const objects = useDataSourceObjects(sourceId);
  const [columns, setColumns] = useState<Record<string, ColumnsState>>({});

  const loadColumns = async (schema: string, table: string) => {
    let state: ColumnsState;
    try {
      state = { columns: (await client.fetchQuery(dataSourceColumnsOptions(sourceId, schema, table))).columns };
    } catch (err) {
      state = { error: errorText(err) };
    }
    setColumns((c) => ({ ...c, [tableKey(schema, table)]: state }));
  };

  /** Reads the objects again and forgets the columns (the source's tables may have changed). */
  const refresh = async () => {
    setColumns({});
    client.removeQueries({ queryKey: ['data-sources', 'columns', sourceId] });
    await client.invalidateQueries({ queryKey: dataSourceKeys.objects(sourceId) });
  };

  return { objects, columns, loadColumns, refresh };
}
