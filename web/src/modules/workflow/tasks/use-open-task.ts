import type { TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import { useWorkflowTask } from './api.ts';

/**
 * The task `?taskId=` names: from the list on screen, else read by id (a notification's link to a
 * task on a later page). `missing`: not the caller's, or gone.
 */
export function useOpenTask(id: string | null, items: readonly TWorkflowTask[] | undefined) {
  const listed = id ? items?.find((x) => x.id === id) : undefined;
  const single = useWorkflowTask(id && items && !listed ? id : null);
  const task = listed ?? (single.data?.id === id ? single.data : undefined) ?? null;
  return { task, missing: !!id && single.isError };
}
