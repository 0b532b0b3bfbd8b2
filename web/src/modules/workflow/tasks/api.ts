import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TWorkflowInstanceList, TWorkflowInstanceQuery, TWorkflowTask, TWorkflowTaskList, TWorkflowTaskQuery } from '@tessera/core/contracts/workflow-runtime';
import { api } from '../../../shared/api/client.ts';
import { workflowRuntimeKeys } from '../runtime/api.ts';

/** The task centre's lists: `/api/app/workflow-task/{todo|done|cc}` and the instances the caller started. */
export type TaskListKind = 'todo' | 'done' | 'cc';

type PagedQuery = Pick<TWorkflowTaskQuery, 'SkipCount' | 'MaxResultCount'> & { Filter?: string };

// Under the runtime's key: every task action (useTaskAction, withdraw…) invalidates these lists too.
export const workflowTaskKeys = {
  tasks: (kind: TaskListKind, query: PagedQuery) => [...workflowRuntimeKeys.all, 'tasks', kind, query] as const,
  instances: (query: Partial<TWorkflowInstanceQuery>) => [...workflowRuntimeKeys.all, 'instances', query] as const,
};

export const useWorkflowTasks = (kind: TaskListKind, query: PagedQuery) =>
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
