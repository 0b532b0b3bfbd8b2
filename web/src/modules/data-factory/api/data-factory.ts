import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TFactorySourceList,
  TSourceRoutineList,
  TProcedure,
  TProcedureDiff,
  TProcedureInput,
  TProcedureList,
  TProcedureQuery,
  TProcedureRunList,
  TProcedureRunResult,
  TProcedureSchedule,
  TProcedureScheduleList,
  TScheduleInput,
  TProcedureVersionList,
  TRunProcedureInput,
  TUpdateProcedureInput,
  TUpdateScheduleInput,
} from '@tessera/core/contracts/data-factory';
import { api } from '../../../shared/api/client.ts';

// The data factory API (packages/core/src/contracts/data-factory.ts), `/api/app/data-factory`.
// Saves, runs and rollbacks are silent: the screens show their errors where they happened.
const PATH = '/app/data-factory';

export const dataFactoryKeys = {
  all: ['data-factory'] as const,
  list: (q: Partial<TProcedureQuery>) => ['data-factory', 'list', q] as const,
  detail: (id: string) => ['data-factory', 'detail', id] as const,
  versions: (id: string) => ['data-factory', 'versions', id] as const,
  diff: (id: string, from: number, to: number) => ['data-factory', 'diff', id, from, to] as const,
  runs: (id: string, page: { SkipCount: number; MaxResultCount: number }) => ['data-factory', 'runs', id, page] as const,
  schedules: (id: string) => ['data-factory', 'schedules', id] as const,
  sources: ['data-factory', 'sources'] as const,
  routines: (sourceId: string) => ['data-factory', 'routines', sourceId] as const,
};

/** The database sources a procedure may call a routine of. */
export const useFactorySources = (enabled: boolean) => useQuery({ queryKey: dataFactoryKeys.sources, queryFn: () => api.get<TFactorySourceList>(`${PATH}/sources`), enabled });

/** A source's procedures and functions (asked of the source: its errors are shown beside the picker). */
export const useSourceRoutines = (sourceId: string | null) =>
  useQuery({ queryKey: dataFactoryKeys.routines(sourceId ?? ''), queryFn: () => api.get<TSourceRoutineList>(`${PATH}/sources/${sourceId}/routines`, undefined, { silent: true }), enabled: Boolean(sourceId), retry: false });

export const useProcedures = (q: Partial<TProcedureQuery>) =>
  useQuery(queryOptions({ queryKey: dataFactoryKeys.list(q), queryFn: () => api.get<TProcedureList>(PATH, q as Record<string, string | number | undefined>), placeholderData: keepPreviousData }));

/** The editor's copy: fresh when it opens (its stamp guards the save). */
export const useProcedure = (id: string | null) =>
  useQuery({ queryKey: dataFactoryKeys.detail(id ?? ''), queryFn: () => api.get<TProcedure>(`${PATH}/${id}`), enabled: Boolean(id), staleTime: 0, refetchOnWindowFocus: false });

export const useProcedureVersions = (id: string | null) =>
  useQuery({ queryKey: dataFactoryKeys.versions(id ?? ''), queryFn: () => api.get<TProcedureVersionList>(`${PATH}/${id}/versions`), enabled: Boolean(id) });

export const useProcedureDiff = (id: string, pair: { from: number; to: number } | null) =>
  useQuery({
    queryKey: dataFactoryKeys.diff(id, pair?.from ?? 0, pair?.to ?? 0),
    queryFn: () => api.get<TProcedureDiff>(`${PATH}/${id}/versions/diff`, { from: pair!.from, to: pair!.to }),
    enabled: Boolean(pair),
  });

export const useProcedureRuns = (id: string | null, page: { SkipCount: number; MaxResultCount: number }) =>
  useQuery({ queryKey: dataFactoryKeys.runs(id ?? '', page), queryFn: () => api.get<TProcedureRunList>(`${PATH}/${id}/runs`, page), enabled: Boolean(id), placeholderData: keepPreviousData });

export type SaveProcedureVariables = { id: null; input: TProcedureInput } | { id: string; input: TUpdateProcedureInput };

/** Create (no id) or save as the next version (PUT with the stamp; 409 when someone saved in between). */
export function useSaveProcedure() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: SaveProcedureVariables) =>
      v.id === null ? api.post<TProcedure>(PATH, v.input, { silent: true }) : api.put<TProcedure>(`${PATH}/${v.id}`, v.input, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: dataFactoryKeys.all }),
  });
}

export function useDeleteProcedure() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`${PATH}/${id}`, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: dataFactoryKeys.all }),
  });
}

export function useRollbackProcedure() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; version: number; concurrencyStamp: string }) =>
      api.post<TProcedure>(`${PATH}/${v.id}/versions/${v.version}/rollback`, { concurrencyStamp: v.concurrencyStamp }, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: dataFactoryKeys.all }),
  });
}

/** Runs a procedure with typed values; the run log is read again afterwards (failed runs are logged too). */
export function useRunProcedure() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; input: TRunProcedureInput }) => api.post<TProcedureRunResult>(`${PATH}/${v.id}/run`, v.input, { silent: true }),
    onSettled: (_data, _err, v) => client.invalidateQueries({ queryKey: ['data-factory', 'runs', v.id] }),
  });
}

/** A procedure's schedules; read again when shown and every half minute while shown (a run changes their last and next run). */
export const useProcedureSchedules = (id: string) =>
  useQuery({ queryKey: dataFactoryKeys.schedules(id), queryFn: () => api.get<TProcedureScheduleList>(`${PATH}/${id}/schedules`), staleTime: 0, refetchInterval: 30_000 });

export type SaveScheduleVariables = { procedureId: string } & ({ id: null; input: TScheduleInput } | { id: string; input: TUpdateScheduleInput });

/** Create (no id) or change a schedule (PUT with the stamp; 409 when someone saved in between). */
export function useSaveSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: SaveScheduleVariables) =>
      v.id === null
        ? api.post<TProcedureSchedule>(`${PATH}/${v.procedureId}/schedules`, v.input, { silent: true })
        : api.put<TProcedureSchedule>(`${PATH}/${v.procedureId}/schedules/${v.id}`, v.input, { silent: true }),
    onSuccess: (_data, v) => client.invalidateQueries({ queryKey: dataFactoryKeys.schedules(v.procedureId) }),
  });
}

export function useDeleteSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { procedureId: string; id: string }) => api.delete<void>(`${PATH}/${v.procedureId}/schedules/${v.id}`, { silent: true }),
    onSuccess: (_data, v) => client.invalidateQueries({ queryKey: dataFactoryKeys.schedules(v.procedureId) }),
  });
}
