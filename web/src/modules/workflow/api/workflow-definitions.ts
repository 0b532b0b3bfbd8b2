import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TCheckWorkflowInput,
  TCopyWorkflowDefinitionInput,
  TCreateWorkflowDefinitionInput,
  TImportBpmnInput,
  TImportWorkflowDefinitionInput,
  TImportWorkflowDefinitionResult,
  TPublishWorkflowInput,
  TPublishWorkflowResult,
  TUpdateWorkflowDefinitionInput,
  TWorkflowCheckResult,
  TWorkflowDefinitionDetail,
  TWorkflowDefinitionList,
  TWorkflowDefinitionQuery,
  TWorkflowExportDocument,
  TWorkflowVersionDetail,
  TWorkflowVersionList,
} from '@tessera/core/contracts/workflow';
import { api } from '../../../shared/api/client.ts';
import { downloadFile } from '../../../shared/api/download.ts';

const PATH = '/app/workflow-definition';

export const workflowKeys = {
  all: ['workflow-definitions'] as const,
  list: (q: Partial<TWorkflowDefinitionQuery>) => ['workflow-definitions', 'list', q] as const,
  detail: (id: string) => ['workflow-definitions', 'detail', id] as const,
  versions: (id: string) => ['workflow-definitions', 'versions', id] as const,
  version: (id: string, v: number) => ['workflow-definitions', 'version', id, v] as const,
};

export const fetchWorkflowDefinitions = (q: Partial<TWorkflowDefinitionQuery>) =>
  api.get<TWorkflowDefinitionList>(PATH, q as Record<string, string | number | undefined>);
export const fetchWorkflowDefinition = (id: string) => api.get<TWorkflowDefinitionDetail>(`${PATH}/${id}`);

export const useWorkflowDefinitions = (q: Partial<TWorkflowDefinitionQuery>) =>
  useQuery({ queryKey: workflowKeys.list(q), queryFn: () => fetchWorkflowDefinitions(q), placeholderData: keepPreviousData });

export const useWorkflowDefinition = (id: string | null) =>
  useQuery({ queryKey: workflowKeys.detail(id ?? ''), queryFn: () => fetchWorkflowDefinition(id!), enabled: Boolean(id), refetchOnWindowFocus: false, staleTime: Infinity });

export const useWorkflowVersions = (id: string | null) =>
  useQuery({ queryKey: workflowKeys.versions(id ?? ''), queryFn: () => api.get<TWorkflowVersionList>(`${PATH}/${id}/versions`), enabled: Boolean(id) });

export const fetchWorkflowVersion = (id: string, version: number) => api.get<TWorkflowVersionDetail>(`${PATH}/${id}/versions/${version}`);

/** Silent: the designer shows a 409 (stale stamp) as its own message. */
export const saveWorkflowDefinition = (id: string, input: TUpdateWorkflowDefinitionInput) =>
  api.put<TWorkflowDefinitionDetail>(`${PATH}/${id}`, input, { silent: true });
/** The graph against its page (the core validator with the page's controls); nothing written. */
export const checkWorkflow = (input: TCheckWorkflowInput) => api.post<TWorkflowCheckResult>(`${PATH}/check`, input, { silent: true });
export const publishWorkflow = (id: string, input: TPublishWorkflowInput) => api.post<TPublishWorkflowResult>(`${PATH}/${id}/publish`, input, { silent: true });
export const exportWorkflowDefinition = (id: string, source: 'draft' | 'published') => api.get<TWorkflowExportDocument>(`${PATH}/${id}/export`, { source });
export const downloadWorkflowBpmn = (id: string, source: 'draft' | 'published', fileName: string) =>
  downloadFile(`${PATH}/${id}/bpmn`, { query: { source }, fileName });

function useWorkflowMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: workflowKeys.all }) });
}

export const useCreateWorkflowDefinition = () =>
  useWorkflowMutation((input: TCreateWorkflowDefinitionInput) => api.post<TWorkflowDefinitionDetail>(PATH, input, { silent: true }));
export const useCopyWorkflowDefinition = () =>
  useWorkflowMutation((v: { id: string; input: TCopyWorkflowDefinitionInput }) => api.post<TWorkflowDefinitionDetail>(`${PATH}/${v.id}/copy`, v.input, { silent: true }));
/** Silent: a refusal (instances still running) is shown by the caller. */
export const useDeleteWorkflowDefinition = () => useWorkflowMutation((id: string) => api.delete<void>(`${PATH}/${id}`, { silent: true }));
export const useSetWorkflowEnabled = () =>
  useWorkflowMutation((v: { id: string; enabled: boolean }) => api.post<TWorkflowDefinitionDetail>(`${PATH}/${v.id}/${v.enabled ? 'enable' : 'disable'}`, {}, { silent: true }));
export const usePublishWorkflow = () => useWorkflowMutation((v: { id: string; input: TPublishWorkflowInput }) => publishWorkflow(v.id, v.input));
export const useImportWorkflowDefinition = () =>
  useWorkflowMutation((input: TImportWorkflowDefinitionInput) => api.post<TImportWorkflowDefinitionResult>(`${PATH}/import`, input, { silent: true }));
export const useImportWorkflowBpmn = () =>
  useWorkflowMutation((input: TImportBpmnInput) => api.post<TImportWorkflowDefinitionResult>(`${PATH}/import-bpmn`, input, { silent: true }));
