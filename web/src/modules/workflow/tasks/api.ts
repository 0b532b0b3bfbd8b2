import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TBatchApproveInput,
  TBatchApproveResult,
  TWorkflowInstanceList,
  TWorkflowInstanceQuery,
  TWorkflowTask,
  TWorkflowTaskList,
  TWorkflowTaskQuery,
  TWorkflowTodoFacets,
} from '@tessera/core/contracts/workflow-runtime';
import { api } from '../../../shared/api/client.ts';
import { useLiveTopics } from '../../../shared/api/live.ts';
import { workflowRuntimeKeys } from '../runtime/api.ts';

/** The task centre's lists: `/api/app/workflow-task/{todo|done|cc}` and the instances the caller started. */
export type TaskListKind = 'todo' | 'done' | 'cc';

type PagedQuery = Pick<TWorkflowTaskQuery, 'SkipCount' | 'MaxResultCount'> & { Filter?: string };
/** The to-do list's filters (query parameters of `GET /todo`). */
export type TodoFilters = Partial<Pick<TWorkflowTaskQuery, 'definitionId' | 'initiatorId' | 'from' | 'to'>> & { overdue?: boolean };

// Under the runtime's key: every task action (useTaskAction, withdraw…) invalidates these lists too.
export const workflowTaskKeys = {
  tasks: (kind: TaskListKind, query: PagedQuery) => [...workflowRuntimeKeys.all, 'tasks', kind, query] as const,
  instances: (query: Partial<TWorkflowInstanceQuery>) => [...workflowRuntimeKeys.all, 'instances', query] as const,
};

export const useWorkflowTasks = (kind: TaskListKind, query: PagedQuery & TodoFilters) =>
  useQuery({
    queryKey: workflowTaskKeys.tasks(kind, query),
    queryFn: () => api.get<TWorkflowTaskList>(`/app/workflow-task/${kind}`, query),
    placeholderData: keepPreviousData,
    // Others create and finish tasks meanwhile: read again whenever the page comes back.
    staleTime: 0,
    refetchOnMount: 'always',
  });

export const useMyWorkflowInstances = (query: PagedQuery & Pick<Partial<TWorkflowInstanceQuery>, 'status'>) =>
  useQuery({
    queryKey: workflowTaskKeys.instances({ ...query, scope: 'mine' }),
    queryFn: () => api.get<TWorkflowInstanceList>('/app/workflow-instance', { ...query, scope: 'mine' }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchOnMount: 'always',
  });

/** One task of the caller (`?taskId=` from a notification), when the list on screen does not hold it. */
export const useWorkflowTask = (id: string | null) =>
  useQuery({
    queryKey: [...workflowRuntimeKeys.all, 'task', id ?? ''] as const,
    queryFn: () => api.get<TWorkflowTask>(`/app/workflow-task/${id}`, undefined, { silent: true }),
    enabled: !!id,
    retry: false,
    staleTime: 0,
  });

/** The flows and initiators of my open tasks, with counts (the to-do filters' choices); read again when my to-do changes. */
export function useTodoFacets() {
  const client = useQueryClient();
  const key = [...workflowRuntimeKeys.all, 'todo-facets'] as const;
  useLiveTopics(['todo'], () => void client.invalidateQueries({ queryKey: key }));
  return useQuery({ queryKey: key, queryFn: () => api.get<TWorkflowTodoFacets>('/app/workflow-task/todo-facets'), staleTime: 30_000 });
}

/** A new or finished task of mine (the server's live signal): the to-do list reads again without a reload. */
export function useLiveTodoList() {
  const client = useQueryClient();
  useLiveTopics(['todo'], () => void client.invalidateQueries({ queryKey: [...workflowRuntimeKeys.all, 'tasks', 'todo'] }));
}

/** Batch approve (批量同意): one comment, a result per task. */
export function useBatchApprove() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TBatchApproveInput) => api.post<TBatchApproveResult>('/app/workflow-task/batch-approve', input),
    onSettled: () => client.invalidateQueries({ queryKey: workflowRuntimeKeys.all }),
  });
}
