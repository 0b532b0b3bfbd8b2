import type { TWorkflowTodoCount } from '@tessera/core/contracts/workflow-runtime';
import { api } from '../../../shared/api/client.ts';

/** The signed-in user's number of open to-do tasks (the console's 待办任务 card, the sider's and the header's badges). */
export const fetchTodoTaskCount = async () => (await api.get<TWorkflowTodoCount>('/app/workflow-task/todo-count', undefined, { silent: true, quietUnauthorized: true })).count;
