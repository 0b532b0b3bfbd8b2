/**
 * Batch approve (批量审批) from the to-do list: the caller's own pending tasks with one comment.
 * Each task is approved in its own transaction through the same path as a single approval (the
 * node's actions decide whether approve is allowed), so one task that moved on meanwhile or whose
 * node refuses does not undo the others; the answer says what happened to each.
 */
import type { TBatchApproveInput, TBatchApproveResult } from '@tessera/core/contracts/workflow-runtime';
import type { ServiceContext } from '../../platform/context.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import * as repo from './workflow-engine.repository.ts';
import { actOnWorkflowTask } from './workflow-engine.service.ts';
import { workflowError } from './workflow.messages.ts';

export async function batchApproveTasks(ctx: ServiceContext, input: TBatchApproveInput): Promise<TBatchApproveResult> {
  const user = ctx.user;
  if (!user) throw forbidden();
  const ids = [...new Set(input.taskIds.map((id) => id.toLowerCase()))];
  const results: TBatchApproveResult['results'] = [];
  for (const taskId of ids) {
    try {
      const row = await repo.findTask(ctx.db, taskId);
      // Only the caller's own tasks: a flow administrator acts on another's task one at a time.
      if (!row || row.assignee_id !== user.id || row.kind !== 'approve') throw workflowError(ctx, 404, 'NotFound', 'engine.taskNotFound');
      // Per task, stable across a retried batch: a task approved by the first attempt is a repeat, not a 409.
      await actOnWorkflowTask(ctx, taskId, 'approve', { comment: input.comment, clientRequestId: `${input.clientRequestId}:${taskId.slice(-12)}` });
      results.push({ taskId, ok: true, code: null, message: null });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({ taskId, ok: false, code: err.code, message: err.message });
    }
  }
  return { results };
}
