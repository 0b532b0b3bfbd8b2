/**
 * Counts the dashboard console shows that other modules own. Without a source the console says
 * plainly that the count is not available (it never shows a 0 that no API answered).
 */
export interface ConsoleSources {
  /** Resolves to the signed-in user's number of open to-do tasks. */
  todoTasks?: () => Promise<number>;
}

export const consoleSources: ConsoleSources = {
  // The workflow's task centre (issue 14).
  todoTasks: () => import('../modules/workflow/tasks/todo-count.ts').then((m) => m.fetchTodoTaskCount()),
};
