import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TStartWorkflowInput,
  TWorkflowForRecord,
  TWorkflowInstanceActionInput,
  TWorkflowInstanceDetail,
  TWorkflowTaskAction,
  TWorkflowTaskActionInput,
  TWorkflowTaskActionResult,
} from '@tessera/core/contracts/workflow-runtime';
import { newGuid } from '@tessera/core/helpers/guid';
import { useLiveTopics } from '../../../shared/api/live.ts';
import { api } from '../../../shared/api/client.ts';

const INSTANCES = '/app/workflow-instance';
const TASKS = '/app/workflow-task';

export const workflowRuntimeKeys = {
  all: ['workflow-runtime'] as const,
  forRecord: (pageId: string, recordId: string) => ['workflow-runtime', 'for-record', pageId, recordId] as const,
  instance: (id: string) => ['workflow-runtime', 'instance', id] as const,
};

export const workflowForRecordQuery = (pageId: string, recordId: string) =>
  queryOptions({
    queryKey: workflowRuntimeKeys.forRecord(pageId, recordId),
    queryFn: () => api.get<TWorkflowForRecord>(`${INSTANCES}/for-record`, { pageId, recordId }, { silent: true }),
    // Others act on the flow meanwhile (the approver, the initiator): always read it again when a record opens.
    staleTime: 0,
    refetchOnMount: 'always',
  });

/** The record's workflow state; read again when the user's tasks or notifications change (someone acted on the flow). */
export function useWorkflowForRecord(pageId: string, recordId: string) {
  const client = useQueryClient();
  const query = workflowForRecordQuery(pageId, recordId);
  useLiveTopics(['todo', 'notifications'], () => void client.invalidateQueries({ queryKey: query.queryKey }));
  return useQuery(query);
}

export const useWorkflowInstance = (id: string | null) =>
  useQuery({ queryKey: workflowRuntimeKeys.instance(id ?? ''), queryFn: () => api.get<TWorkflowInstanceDetail>(`${INSTANCES}/${id}`), enabled: !!id, staleTime: 0, refetchOnMount: 'always' });

/**
 * One id per user intent: a double click or a retry of the same intent is applied once by the
 * server. (Not crypto.randomUUID: browsers offer it only in secure contexts; offices use plain http.)
 */
export const newRequestId = newGuid;

function useWorkflowMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => client.invalidateQueries({ queryKey: workflowRuntimeKeys.all }) });
}

export const useStartWorkflow = () => useWorkflowMutation((input: TStartWorkflowInput) => api.post<TWorkflowInstanceDetail>(INSTANCES, input, { silent: true }));

export type TaskAction = TWorkflowTaskAction;
/** The route of each action (`/api/app/workflow-task/{id}/{path}`). */
const ACTION_PATHS: Record<TaskAction, string> = {
  approve: 'approve',
  reject: 'reject',
  return: 'return',
  transfer: 'transfer',
  delegate: 'delegate',
  addSigner: 'add-signer',
  removeSigner: 'remove-signer',
  cc: 'cc',
  reclaim: 'reclaim',
  ccRead: 'cc-read',
};
export const useTaskAction = () =>
  useWorkflowMutation((v: { taskId: string; action: TaskAction; input: TWorkflowTaskActionInput }) =>
    api.post<TWorkflowTaskActionResult>(`${TASKS}/${v.taskId}/${ACTION_PATHS[v.action]}`, v.input, { silent: true }),
  );

/** 催办: every pending assignee of the instance. */
export const useUrgeWorkflow = () =>
  useWorkflowMutation((v: { instanceId: string; input: TWorkflowInstanceActionInput }) => api.post<TWorkflowInstanceDetail>(`${INSTANCES}/${v.instanceId}/urge`, v.input, { silent: true }));

export const useWithdrawWorkflow = () =>
  useWorkflowMutation((v: { instanceId: string; input: TWorkflowInstanceActionInput }) => api.post<TWorkflowInstanceDetail>(`${INSTANCES}/${v.instanceId}/withdraw`, v.input, { silent: true }));
