import { useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationKeys } from '../modules/notifications/api/notifications.ts';
import { useLiveTopics } from '../shared/api/live.ts';
import { consoleSources } from './console-sources.ts';

/** The open to-do count's query key: the console card, the sider's 待办任务 item and the header's to-do tab share it. */
export const todoCountKey = ['console', 'todo-tasks'] as const;

/** The signed-in user's open to-do tasks (undefined without the workflow module). */
export function useTodoCount() {
  const source = consoleSources.todoTasks;
  return useQuery({ queryKey: todoCountKey, queryFn: () => source!(), enabled: Boolean(source), staleTime: 60_000 });
}

/**
 * The shell's badges follow the server's live signals (shared/api/live.ts): a `todo` signal reads
 * the to-do count again, `notifications` the unread counts, and a reconnection both.
 */
export function useLiveCounts() {
  const client = useQueryClient();
  useLiveTopics(['todo', 'notifications'], (topic) => {
    if (topic !== 'notifications') void client.invalidateQueries({ queryKey: todoCountKey });
    if (topic !== 'todo') void client.invalidateQueries({ queryKey: notificationKeys.all });
  });
}
