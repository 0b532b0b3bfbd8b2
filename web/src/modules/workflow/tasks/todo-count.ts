import type { TWorkflowTaskList } from '@tessera/core/contracts/workflow-runtime';
import { api } from '../../../shared/api/client.ts';

/** The signed-in user's number of open to-do tasks (the console's 待办任务 card): one row asked, the total read. */
export const fetchTodoTaskCount = async () => (await api.get<TWorkflowTaskList>('/app/workflow-task/todo', { MaxResultCount: 1 })).totalCount;
