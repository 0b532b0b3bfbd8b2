/**
 * Counts the dashboard console shows that other modules own. The workflow module (spec §2 /flows)
 * adds its to-do task count here when it lands, e.g.
 *
 *   todoTasks: () => import('../modules/workflow/api/todo-count.ts').then((m) => m.fetchTodoTaskCount()),
 *
 * Until then the console says plainly that to-do tasks are not available (it never shows a 0 that
 * no API answered).
 */
export interface ConsoleSources {
  /** Resolves to the signed-in user's number of open to-do tasks. */
  todoTasks?: () => Promise<number>;
}

export const consoleSources: ConsoleSources = {};
