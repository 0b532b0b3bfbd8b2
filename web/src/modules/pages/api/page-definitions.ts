import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TControlDesigner,
  TCopyPageDefinitionInput,
  TCreatePageDefinitionInput,
  TDesignCheckResult,
  TImportPageDefinitionInput,
  TImportPageDefinitionResult,
  TPageDefinitionDetail,
  TPageDefinitionList,
  TPageDefinitionQuery,
  TPageExportDocument,
  TPageVersionDetail,
  TPageVersionList,
  TPublishInput,
  TPublishPlan,
  TPublishResult,
  TRenamePageDefinitionInput,
  TSavePageDraftInput,
} from '@tessera/core/contracts/pages';
import { api } from '../../../shared/api/client.ts';

const PATH = '/app/page-definition';

export const pageKeys = {
  all: ['page-definitions'] as const,
  list: (q: Partial<TPageDefinitionQuery>) => ['page-definitions', 'list', q] as const,
  detail: (id: string) => ['page-definitions', 'detail', id] as const,
  versions: (id: string) => ['page-definitions', 'versions', id] as const,
  version: (id: string, v: number) => ['page-definitions', 'version', id, v] as const,
  plan: (id: string) => ['page-definitions', 'plan', id] as const,
  palette: ['control-designer'] as const,
};

export const fetchPageDefinitions = (q: Partial<TPageDefinitionQuery>) => api.get<TPageDefinitionList>(PATH, q as Record<string, string | number | undefined>);
export const fetchPageDefinition = (id: string) => api.get<TPageDefinitionDetail>(`${PATH}/${id}`);

export const usePageDefinitions = (q: Partial<TPageDefinitionQuery>) =>
  useQuery({ queryKey: pageKeys.list(q), queryFn: () => fetchPageDefinitions(q), placeholderData: keepPreviousData });

export const usePageDefinition = (id: string | null) =>
  useQuery({ queryKey: pageKeys.detail(id ?? ''), queryFn: () => fetchPageDefinition(id!), enabled: Boolean(id), refetchOnWindowFocus: false, staleTime: Infinity });

/** The palette: control types with their editable properties, view types, button actions (`GET /api/app/control-designer`). */
export const useControlDesigner = () =>
  useQuery({ queryKey: pageKeys.palette, queryFn: () => api.get<TControlDesigner>('/app/control-designer'), staleTime: Infinity });

export const usePageVersions = (id: string | null) =>
  useQuery({ queryKey: pageKeys.versions(id ?? ''), queryFn: () => api.get<TPageVersionList>(`${PATH}/${id}/versions`), enabled: Boolean(id) });

export const fetchPageVersion = (id: string, version: number) => api.get<TPageVersionDetail>(`${PATH}/${id}/versions/${version}`);

export const usePublishPlan = (id: string | null, enabled: boolean) =>
  useQuery({ queryKey: pageKeys.plan(id ?? ''), queryFn: () => api.get<TPublishPlan>(`${PATH}/${id}/publish-plan`), enabled: Boolean(id) && enabled, staleTime: 0, gcTime: 0 });

export const savePageDraft = (id: string, input: TSavePageDraftInput) => api.put<TPageDefinitionDetail>(`${PATH}/${id}`, input, { silent: true });
export const checkPageDefinition = (id: string) => api.post<TDesignCheckResult>(`${PATH}/${id}/check`, {});
export const exportPageDefinition = (id: string, source: 'draft' | 'published' = 'draft') => api.get<TPageExportDocument>(`${PATH}/${id}/export`, { source });

function usePageMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: pageKeys.all }) });
}

export const useCreatePageDefinition = () => usePageMutation((input: TCreatePageDefinitionInput) => api.post<TPageDefinitionDetail>(PATH, input, { silent: true }));
export const useCopyPageDefinition = () =>
  usePageMutation((v: { id: string; input: TCopyPageDefinitionInput }) => api.post<TPageDefinitionDetail>(`${PATH}/${v.id}/copy`, v.input, { silent: true }));
export const useRenamePageDefinition = () =>
  usePageMutation((v: { id: string; input: TRenamePageDefinitionInput }) => api.put<TPageDefinitionDetail>(`${PATH}/${v.id}/rename`, v.input, { silent: true }));
/** Silent: a 409 `Pages.InUse` is shown by the caller with the menus that use the page. */
export const useDeletePageDefinition = () => usePageMutation((id: string) => api.delete<void>(`${PATH}/${id}`, { silent: true }));
export const useImportPageDefinition = () => usePageMutation((input: TImportPageDefinitionInput) => api.post<TImportPageDefinitionResult>(`${PATH}/import`, input, { silent: true }));
export const usePublishPage = () =>
  usePageMutation((v: { id: string; input: TPublishInput }) => api.post<TPublishResult>(`${PATH}/${v.id}/publish`, v.input, { silent: true }));
export const useRollbackPage = () =>
  usePageMutation((v: { id: string; version: number; input: TPublishInput }) => api.post<TPublishResult>(`${PATH}/${v.id}/rollback/${v.version}`, v.input, { silent: true }));
