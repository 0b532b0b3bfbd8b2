/**
 * Approval timeouts on the durable job queue (platform/jobs.ts). When a task opens on a node with a
 * `timeout`, two keyed jobs are set in the same transaction: `workflow.remind` (key
 * `workflow.remind:<taskId>`, every `remindEveryMinutes`, at most `remindTimes`) and
 * `workflow.timeout` (key `workflow.timeout:<taskId>`, after `afterMinutes`). Closing the task
 * cancels both. The handlers (workflow-engine.service.ts) act only on a task still pending.
 */
import type { TApprovalTimeout } from '@tessera/core/contracts/workflow';
import type { Db } from '../../platform/context.ts';
import { cancelJobs, enqueueJob } from '../../platform/jobs.ts';
import type { TaskRow } from './workflow-engine.repository.ts';
import * as repo from './workflow-engine.repository.ts';

export const REMIND_QUEUE = 'workflow.remind';
export const TIMEOUT_QUEUE = 'workflow.timeout';
const MINUTE = 60_000;

export async function scheduleTaskTimers(trx: Db, task: Pick<TaskRow, 'id' | 'status' | 'assignee_id'>, timeout: TApprovalTimeout | undefined, now: Date): Promise<void> {
  if (!timeout || task.status !== 'pending') return;
  const due = new Date(now.getTime() + timeout.afterMinutes * MINUTE);
  await repo.updateTask(trx, task.id, { due_time: due });
  if (timeoutActs(timeout, task.assignee_id)) await enqueueJob(trx, { queue: TIMEOUT_QUEUE, key: `${TIMEOUT_QUEUE}:${task.id}`, runAt: due, payload: { taskId: task.id } });
  if (timeout.remindEveryMinutes) {
    await enqueueJob(trx, { queue: REMIND_QUEUE, key: `${REMIND_QUEUE}:${task.id}`, runAt: new Date(now.getTime() + timeout.remindEveryMinutes * MINUTE), payload: { taskId: task.id, count: 1 } });
  }
}

/**
 * Whether a timeout would do something to a task of this assignee: not when the node says none, nor
 * when it escalates to the one who already holds the task (transferred or escalated to them) — then
 * no timeout job is set, rather than one that runs and leaves the task as it is.
 */
export const timeoutActs = (timeout: TApprovalTimeout, assigneeId: string | null) => timeout.then !== 'none' && !(timeout.then === 'escalate' && timeout.escalateToUserId === assigneeId);

export async function cancelTaskTimers(trx: Db, taskId: string): Promise<void> {
  await cancelJobs(trx, REMIND_QUEUE, `${REMIND_QUEUE}:${taskId}`);
  await cancelJobs(trx, TIMEOUT_QUEUE, `${TIMEOUT_QUEUE}:${taskId}`);
}

/** The next reminder after reminder `count` (none after `remindTimes`, default 1). */
export async function scheduleNextReminder(trx: Db, taskId: string, timeout: TApprovalTimeout, count: number, now: Date): Promise<void> {
  if (!timeout.remindEveryMinutes || count >= (timeout.remindTimes ?? 1)) return;
  await enqueueJob(trx, { queue: REMIND_QUEUE, key: `${REMIND_QUEUE}:${taskId}`, runAt: new Date(now.getTime() + timeout.remindEveryMinutes * MINUTE), payload: { taskId, count: count + 1 } });
}
