import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TCreateDataSourceInput,
  TDataSource,
  TDataSourceColumns,
  TDataSourceList,
  TDataSourceMethod,
  TDataSourceMethodInput,
  TDataSourceMethodList,
  TDataSourceObjects,
  TDataSourceQuery,
  TDataSourceQueryInput,
  TDataSourceQueryResult,
  TDataSourceTestResult,
  TRunDataSourceMethodInput,
  TTestDataSourceInput,
  TUpdateDataSourceInput,
  TUpdateDataSourceMethodInput,
} from '@tessera/core/contracts/data-sources';
import { api } from '../../../shared/api/client.ts';

// The data sources API (packages/core/src/contracts/data-sources.ts), `/api/app/data-source`.
// Every call but the list and the detail is silent: the screens show their errors where they
// happened (a field, the form's test result, the workbench's alert).
const PATH = '/app/data-source';

export const dataSourceKeys = {
  all: ['data-sources'] as const,
  list: (q: Partial<TDataSourceQuery>) => ['data-sources', 'list', q] as const,
  detail: (id: string) => ['data-sources', 'detail', id] as const,
  objects: (id: string) => ['data-sources', 'objects', id] as const,
  columns: (id: string, schema: string, table: string) => ['data-sources', 'columns', id, schema, table] as const,
  methods: (id: string) => ['data-sources', 'methods', id] as const,
};

export const fetchDataSources = (q: Partial<TDataSourceQuery>) => api.get<TDataSourceList>(PATH, q as Record<string, string | number | boolean | undefined>);
export const fetchDataSource = (id: string) => api.get<TDataSource>(`${PATH}/${id}`);
export const fetchDataSourceObjects = (id: string) => api.get<TDataSourceObjects>(`${PATH}/${id}/objects`, undefined, { silent: true });
export const fetchDataSourceColumns = (id: string, schema: string, table: string) =>
  api.get<TDataSourceColumns>(`${PATH}/${id}/columns`, { schema, table }, { silent: true });

export const dataSourcesOptions = (q: Partial<TDataSourceQuery>) =>
  queryOptions({ queryKey: dataSourceKeys.list(q), queryFn: () => fetchDataSources(q), placeholderData: keepPreviousData });
/** The form's copy: fresh when it opens (its stamp guards the save), not refetched under the user's edits. */
export const dataSourceOptions = (id: string) =>
  queryOptions({ queryKey: dataSourceKeys.detail(id), queryFn: () => fetchDataSource(id), staleTime: 0, refetchOnWindowFocus: false });
// A source that cannot be reached answers 502 after its connect timeout: asking again at once only makes the user wait longer.
export const dataSourceObjectsOptions = (id: string) =>
  queryOptions({ queryKey: dataSourceKeys.objects(id), queryFn: () => fetchDataSourceObjects(id), staleTime: 60_000, retry: false, refetchOnWindowFocus: false });
export const dataSourceColumnsOptions = (id: string, schema: string, table: string) =>
  queryOptions({ queryKey: dataSourceKeys.columns(id, schema, table), queryFn: () => fetchDataSourceColumns(id, schema, table), staleTime: 60_000, retry: false });

export const useDataSources = (q: Partial<TDataSourceQuery>) => useQuery(dataSourcesOptions(q));
export const useDataSource = (id: string | null) => useQuery({ ...dataSourceOptions(id ?? ''), enabled: Boolean(id) });
export const useDataSourceObjects = (id: string | null) => useQuery({ ...dataSourceObjectsOptions(id ?? ''), enabled: Boolean(id) });
export const useDataSourceColumns = (id: string | null, table: { schema: string; table: string } | null) =>
  useQuery({ ...dataSourceColumnsOptions(id ?? '', table?.schema ?? '', table?.table ?? ''), enabled: Boolean(id && table) });

export type SaveDataSourceVariables = { id: null; input: TCreateDataSourceInput } | { id: string; input: TUpdateDataSourceInput };

/** Create (no id) or update (PUT with the stamp; 409 when someone saved in between). */
export function useSaveDataSource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: SaveDataSourceVariables) =>
      v.id === null ? api.post<TDataSource>(PATH, v.input, { silent: true }) : api.put<TDataSource>(`${PATH}/${v.id}`, v.input, { silent: true }),
    // Settings changed: the list, the detail and what the workbench read from the old settings.
    onSuccess: () => client.invalidateQueries({ queryKey: dataSourceKeys.all }),
  });
}

export function useDeleteDataSource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`${PATH}/${id}`, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: dataSourceKeys.all }),
  });
}

/** Tries a saved source's connection (`POST /{id}/test`); writes nothing. */
export const useTestDataSource = () => useMutation({ mutationFn: (id: string) => api.post<TDataSourceTestResult>(`${PATH}/${id}/test`, {}, { silent: true }) });

/** Tries settings being edited (`POST /test`); `sourceId` lends the stored password when none is given. */
export const useTestDataSourceSettings = () =>
  useMutation({ mutationFn: (input: TTestDataSourceInput) => api.post<TDataSourceTestResult>(`${PATH}/test`, input, { silent: true }) });

/** Runs SQL with its named parameters' values; the rows come back capped at the source's row cap. */
export const useRunDataSourceQuery = () =>
  useMutation({
    mutationFn: (v: { id: string; input: TDataSourceQueryInput }) => api.post<TDataSourceQueryResult>(`${PATH}/${v.id}/query`, v.input, { silent: true }),
  });

// ---------------------------------------------------------------- saved queries (methods)

export const fetchDataSourceMethods = (id: string) => api.get<TDataSourceMethodList>(`${PATH}/${id}/method`, undefined, { silent: true });
export const dataSourceMethodsOptions = (id: string) => queryOptions({ queryKey: dataSourceKeys.methods(id), queryFn: () => fetchDataSourceMethods(id) });
/** A source's saved queries (the workbench's 保存的查询). */
export const useDataSourceMethods = (sourceId: string | null) => useQuery({ ...dataSourceMethodsOptions(sourceId ?? ''), enabled: Boolean(sourceId) });

export type SaveDataSourceMethodVariables =
  | { sourceId: string; methodId: null; input: TDataSourceMethodInput }
  | { sourceId: string; methodId: string; input: TUpdateDataSourceMethodInput };

/** Save a query: new (POST), or the open one (PUT with its stamp; 409 when someone saved in between). 400 lists what is wrong (`code` used, `sql` that does not run). */
export function useSaveDataSourceMethod() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: SaveDataSourceMethodVariables) =>
      v.methodId === null
        ? api.post<TDataSourceMethod>(`${PATH}/${v.sourceId}/method`, v.input, { silent: true })
        : api.put<TDataSourceMethod>(`${PATH}/${v.sourceId}/method/${v.methodId}`, v.input, { silent: true }),
    onSuccess: (_, v) => client.invalidateQueries({ queryKey: dataSourceKeys.methods(v.sourceId) }),
  });
}

export function useDeleteDataSourceMethod() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { sourceId: string; methodId: string }) => api.delete<void>(`${PATH}/${v.sourceId}/method/${v.methodId}`, { silent: true }),
    onSuccess: (_, v) => client.invalidateQueries({ queryKey: dataSourceKeys.methods(v.sourceId) }),
  });
}

/** Runs a saved query with the values given (its defaults fill the rest); the answer may come from its cache (`cached`). */
export const useRunDataSourceMethod = () =>
  useMutation({
    mutationFn: (v: { sourceId: string; methodId: string; input: TRunDataSourceMethodInput }) =>
      api.post<TDataSourceQueryResult>(`${PATH}/${v.sourceId}/method/${v.methodId}/run`, v.input, { silent: true }),
  });
