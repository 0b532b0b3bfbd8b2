import type { QueryClient } from '@tanstack/react-query';
import type { TWorkflowTask, TWorkflowTaskList } from '@tessera/core/contracts/workflow-runtime';
import { api } from '../../../shared/api/client.ts';
import { workflowRuntimeKeys } from '../runtime/api.ts';

const LOOK_AHEAD = 10;

/**
 * My next pending to-do after `skip` (the task on screen, tasks just handled): the to-do list's
 * first page read afresh (`GET /api/app/workflow-task/todo`), in its own order. Null: none left.
 */
export async function fetchNextTodo(client: QueryClient, skip: readonly string[]): Promise<TWorkflowTask | null> {
  const list = await client.fetchQuery({
    queryKey: [...workflowRuntimeKeys.all, 'next-todo'] as const,
    queryFn: () => api.get<TWorkflowTaskList>('/app/workflow-task/todo', { SkipCount: 0, MaxResultCount: LOOK_AHEAD }, { silent: true }),
    staleTime: 0,
  });
  return list.items.find((x) => x.status === 'pending' && !skip.includes(x.id)) ?? null;
}
