import type { TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import dayjs from 'dayjs';

export const formatTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

/** A pending task past its due time (the to-do list's overdue tag). */
export const isOverdue = (task: Pick<TWorkflowTask, 'dueTime' | 'status'>, now: Date = new Date()) => task.status === 'pending' && !!task.dueTime && Date.parse(task.dueTime) < now.getTime();
