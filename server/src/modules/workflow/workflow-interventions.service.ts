/**
 * Flow management's interventions (issue 14, `/flows/instance`, P.FlowInstances): reassign a task,
 * jump to a node, add or replace a node's assignees, resend reminders. Like the engine's actions
 * each is ONE transaction on the locked instance (409 `Workflow.InstanceNotRunning` once it ended),
 * idempotent per (actor, `clientRequestId`) through the history entry that carries the id, and
 * names a reason: the history entry's comment and the audit entry's `details.reason` (with what the
 * intervention changed, before / after). Terminate stays in workflow-engine.service.ts.
 */
import { P } from '@tessera/core/contracts/permissions';
import type { TWorkflowNodeOf } from '@tessera/core/contracts/workflow';
import type {
  TWorkflowAssigneesInput,
  TWorkflowInstanceDetail,
  TWorkflowInterventionInput,
  TWorkflowJumpInput,
  TWorkflowReassignInput,
} from '@tessera/core/contracts/workflow-runtime';
import { recordAudit } from '../../platform/audit.ts';
import { actorHolds, type Db, type ServiceContext } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';
import { enqueueJob } from '../../platform/jobs.ts';
import { isUniqueViolation } from '../../platform/sql-values.ts';
import { activeUserIds } from '../identity/index.ts';
import * as repo from './workflow-engine.repository.ts';
import type { TaskRow } from './workflow-engine.repository.ts';
import { getWorkflowInstanceAs, sendUrgeNotifications } from './workflow-engine.service.ts';
import { advanceFrom, decideNode, enterNode, finishInstance, inTransaction, loadRun, openApproval, openCc, reachableFrom, type Run } from './workflow-runner.ts';
import { cancelTaskTimers, REMIND_QUEUE, scheduleTaskTimers, TIMEOUT_QUEUE } from './workflow-timers.ts';
import { workflowError, type WorkflowTextKey } from './workflow.messages.ts';
import { notifyFlowChanges, snapshotForNotify } from './workflow-notify.ts';

type ApprovalNode = TWorkflowNodeOf<'approval'>;
type Details = Record<string, unknown>;
const ENTITY_TYPE = 'WorkflowInstance';
const isOpen = (t: TaskRow) => (repo.OPEN_TASK_STATUSES as readonly string[]).includes(t.status);
const invalid = (ctx: ServiceContext, key: WorkflowTextKey, member: string, params: Record<string, string | number> = {}) =>
  workflowError(ctx, 400, 'ValidationError', key, params, { members: [member] });

/** One intervention in progress: the run on the locked instance, and the history entry it writes. */
interface Intervention {
  run: Run;
  reason: string;
  history: (entry: { action: string; task_id?: string | null; node_id?: string | null; target_user_id?: string | null; target_node_id?: string | null; result?: unknown }) => Promise<unknown>;
}

/**
 * The frame every intervention shares: the lock, the repeat check, the rights, the running check,
 * then `work` (answers the audit entry's before / after); the audit entry only when this request
 * applied it.
 */
async function intervene(ctx: ServiceContext, instanceId: string, input: TWorkflowInterventionInput, auditAction: string, work: (m: Intervention) => Promise<Details>): Promise<TWorkflowInstanceDetail> {
  const user = ctx.user;
  if (!user || !actorHolds(ctx, P.FlowInstances)) throw forbidden({ permission: P.FlowInstances });
  const reason = input.reason.trim();
  let audit: Details | null = null;
  try {
    await inTransaction(ctx, async (trx) => {
      const instance = await repo.lockInstance(trx, instanceId);
      if (!instance) throw workflowError(ctx, 404, 'NotFound', 'engine.instanceNotFound');
      if (await repo.findRequest(trx, user.id, input.clientRequestId)) return;
      if (instance.status !== 'running') {
        throw workflowError(ctx, 409, 'Workflow.InstanceNotRunning', 'engine.instanceNotRunning', { status: instance.status }, { details: { status: instance.status } });
      }
      const run = await loadRun(ctx, trx, instance);
      let requestIdUsed = false;
      const history: Intervention['history'] = (entry) => {
        const clientRequestId = requestIdUsed ? null : input.clientRequestId;
        requestIdUsed = true;
        return repo.insertAction(trx, {
          instance_id: instance.id,
          task_id: entry.task_id ?? null,
          node_id: entry.node_id ?? null,
          actor_id: user.id,
          action: entry.action,
          comment: reason,
          target_user_id: entry.target_user_id ?? null,
          target_node_id: entry.target_node_id ?? null,
          client_request_id: clientRequestId,
          result: entry.result === undefined ? null : JSON.stringify(entry.result),
          creation_time: run.now,
        });
      };
      const before = await snapshotForNotify(trx, instance);
      audit = await work({ run, reason, history });
      // New assignees (reassigned, jumped to, added) hear of their task; the initiator of the end a jump reached.
      await notifyFlowChanges(ctx, trx, before, { actorId: user.id, action: auditAction, comment: reason });
    });
  } catch (err) {
    // A concurrent repeat of the same request won the race for the request id: it was applied once.
    if (!(isUniqueViolation(err) && (await repo.findRequest(ctx.db, user.id, input.clientRequestId)))) throw err;
    audit = null;
  }
  if (audit) await recordAudit(ctx, auditAction, { entityType: ENTITY_TYPE, entityId: instanceId, details: { reason, ...(audit as Details) } });
  return getWorkflowInstanceAs(ctx, instanceId);
}

/** Open approve tasks of the instance as the audit entry lists them. */
const openAssignments = (tasks: readonly TaskRow[]) => tasks.filter((t) => t.kind === 'approve' && isOpen(t)).map((t) => ({ taskId: t.id, nodeId: t.node_id, assigneeId: t.assignee_id, status: t.status }));

// ---------------------------------------------------------------- reassign (转办 by an administrator)

export function reassignWorkflowTask(ctx: ServiceContext, instanceId: string, input: TWorkflowReassignInput): Promise<TWorkflowInstanceDetail> {
  return intervene(ctx, instanceId, input, 'WorkflowReassigned', async ({ run, history }) => {
    const task = await repo.findTask(run.trx, input.taskId.toLowerCase());
    if (!task || task.instance_id !== run.instance.id || task.kind !== 'approve' || !isOpen(task)) throw invalid(ctx, 'admin.taskNotOpen', 'taskId');
    const userId = input.userId.toLowerCase();
    const onVisit = (await repo.tasksOfNodeState(run.trx, task.node_state_id)).filter((t) => t.kind === 'approve' && isOpen(t)).map((t) => t.assignee_id);
    const [active] = onVisit.includes(userId) ? [] : await activeUserIds(run.trx, [userId]);
    if (!active) throw invalid(ctx, 'admin.reassignUserInvalid', 'userId');
    const moved = await moveOpenTask(run, task, active);
    await history({ action: 'reassign', task_id: task.id, node_id: task.node_id, target_user_id: active, result: { fromUserId: task.assignee_id, taskId: moved.id } });
    await repo.insertOutbox(run.trx, { instance_id: run.instance.id, event: 'task.completed', payload: { taskId: task.id, nodeId: task.node_id, status: 'transferred', actorId: ctx.user!.id } });
    return { before: { taskId: task.id, nodeId: task.node_id, assigneeId: task.assignee_id, status: task.status }, after: { taskId: moved.id, nodeId: moved.node_id, assigneeId: active, status: moved.status } };
  });
}

/**
 * The task closes as `transferred`; the new holder's task takes its place: same visit, order,
 * status, origin and due time (its timers at the same due time). Tasks a suspended task waits for
 * (its delegate, its signers added before) now wait for the new one.
 */
async function moveOpenTask(run: Run, task: TaskRow, userId: string): Promise<TaskRow> {
  await repo.updateTask(run.trx, task.id, { status: 'transferred', completed_time: run.now });
  await cancelTaskTimers(run.trx, task.id);
  const [moved] = await repo.insertTasks(run.trx, [
    {
      instance_id: task.instance_id,
      node_state_id: task.node_state_id,
      node_id: task.node_id,
      kind: 'approve',
      assignee_id: userId,
      status: task.status,
      seq: task.seq,
      comment: null,
      transferred_from: task.id,
      origin: task.origin,
      parent_task_id: task.parent_task_id,
      creation_time: run.now,
      completed_time: null,
      due_time: task.due_time,
    },
  ]);
  await repo.reparentTasks(run.trx, task.id, moved.id);
  const timeout = (run.index.node(task.node_id) as ApprovalNode).config.timeout;
  if (moved.status === 'pending' && timeout && task.origin === null) {
    if (!task.due_time) await scheduleTaskTimers(run.trx, moved, timeout, run.now);
    else {
      if (timeout.then !== 'none') await enqueueJob(run.trx, { queue: TIMEOUT_QUEUE, key: `${TIMEOUT_QUEUE}:${moved.id}`, runAt: task.due_time, payload: { taskId: moved.id } });
      if (timeout.remindEveryMinutes) {
        await enqueueJob(run.trx, { queue: REMIND_QUEUE, key: `${REMIND_QUEUE}:${moved.id}`, runAt: new Date(run.now.getTime() + timeout.remindEveryMinutes * 60_000), payload: { taskId: moved.id, count: 1 } });
      }
    }
  }
  return moved;
}

// ---------------------------------------------------------------- jump (跳转)

const JUMP_TARGET_TYPES = new Set(['approval', 'cc', 'end']);

export function jumpWorkflowInstance(ctx: ServiceContext, instanceId: string, input: TWorkflowJumpInput): Promise<TWorkflowInstanceDetail> {
  return intervene(ctx, instanceId, input, 'WorkflowJumped', async ({ run, history }) => {
    const target = run.index.nodes.get(input.targetNodeId);
    if (!target || !JUMP_TARGET_TYPES.has(target.type)) throw invalid(ctx, 'admin.jumpTargetInvalid', 'targetNodeId', { node: input.targetNodeId });
    const [states, tasks] = await Promise.all([repo.nodeStatesOf(run.trx, [run.instance.id]), repo.tasksOfInstances(run.trx, [run.instance.id])]);
    const before = { activeNodeIds: states.filter((s) => s.status === 'active').map((s) => s.node_id), openTasks: openAssignments(tasks) };
    await history({ action: 'jump', node_id: target.id, target_node_id: target.id, result: { fromNodeIds: before.activeNodeIds } });
    // Everything open closes: approve tasks cancelled (CC copies stay to be read), active visits cancelled.
    const closed = await repo.closeOpenTasks(run.trx, { instanceId: run.instance.id, kind: 'approve' }, 'cancelled', run.now);
    for (const t of closed) await cancelTaskTimers(run.trx, t.id);
    await repo.cancelActiveNodeStates(run.trx, run.instance.id, run.now);
    if (target.type === 'end') {
      // As when the flow reaches its end: the end node's visit, then the instance approved (FlowStatus 2).
      await enterNode(run, target.id, 'end', 'completed');
      await finishInstance(run, 'approved');
    } else {
      // Into one branch of a parallel block: its join counts the other branches (closed now) as arrived.
      const region = reachableFrom(run.index, target.id);
      for (const id of region) {
        if (run.index.nodes.get(id)?.type !== 'join') continue;
        const arrived = (run.index.incoming.get(id) ?? []).filter((e) => !region.has(e.source)).map((e) => e.id);
        if (arrived.length) await enterNode(run, id, 'join', 'active', { arrivedFrom: arrived });
      }
      if (target.type === 'cc') {
        await openCc(run, target.id, await enterNode(run, target.id, 'cc', 'completed'));
        await advanceFrom(run, target.id);
      } else if (await openApproval(run, target as ApprovalNode)) await advanceFrom(run, target.id);
    }
    const after = await repo.tasksOfInstances(run.trx, [run.instance.id]);
    return { before, after: { targetNodeId: target.id, status: run.instance.status, openTasks: openAssignments(after) } };
  });
}

// ---------------------------------------------------------------- add / replace assignees (加/替换审批人)

export function setWorkflowNodeAssignees(ctx: ServiceContext, instanceId: string, input: TWorkflowAssigneesInput): Promise<TWorkflowInstanceDetail> {
  const action = input.mode === 'add' ? 'addAssignees' : 'replaceAssignees';
  return intervene(ctx, instanceId, input, input.mode === 'add' ? 'WorkflowAssigneesAdded' : 'WorkflowAssigneesReplaced', async ({ run, history }) => {
    const visit = (await repo.nodeStatesOf(run.trx, [run.instance.id])).findLast((s) => s.node_id === input.nodeId && s.status === 'active' && s.node_type === 'approval');
    if (!visit) throw invalid(ctx, 'admin.nodeNotActive', 'nodeId', { node: input.nodeId });
    const node = run.index.node(visit.node_id) as ApprovalNode;
    const ids = [...new Set(input.userIds.map((id) => id.toLowerCase()))];
    const active = await activeUserIds(run.trx, ids);
    if (active.length !== ids.length) throw invalid(ctx, 'admin.assigneesInvalid', 'userIds');
    const visitTasks = await repo.tasksOfNodeState(run.trx, visit.id);
    const open = visitTasks.filter((t) => t.kind === 'approve' && isOpen(t));
    const before = open.map((t) => ({ taskId: t.id, assigneeId: t.assignee_id, status: t.status }));
    const removed = input.mode === 'replace' ? open.filter((t) => !ids.includes(t.assignee_id)) : [];
    for (const t of removed) {
      await repo.updateTask(run.trx, t.id, { status: 'cancelled', completed_time: run.now });
      await cancelTaskTimers(run.trx, t.id);
    }
    // Kept: the open tasks not removed, and the node's own assignees who approved on this visit already.
    const approved = visitTasks.filter((t) => t.kind === 'approve' && t.origin === null && t.status === 'approved');
    const holding = new Set([...open.filter((t) => !removed.includes(t)), ...approved].map((t) => t.assignee_id));
    const added = ids.filter((id) => !holding.has(id));
    if (input.mode === 'add' && added.length === 0) throw invalid(ctx, 'admin.assigneesNothingNew', 'userIds');
    // Sequential: the added ones wait at the end of the order (the decision below opens the next one if none is open).
    const sequential = node.config.mode === 'sequential';
    const lastSeq = Math.max(-1, ...visitTasks.map((t) => t.seq));
    const inserted = await repo.insertTasks(
      run.trx,
      added.map((assignee_id, i) => ({
        instance_id: run.instance.id,
        node_state_id: visit.id,
        node_id: visit.node_id,
        kind: 'approve' as const,
        assignee_id,
        status: sequential ? ('waiting' as const) : ('pending' as const),
        seq: lastSeq + 1 + i,
        comment: null,
        transferred_from: null,
        creation_time: run.now,
        completed_time: null,
        due_time: null,
      })),
    );
    for (const t of inserted) await scheduleTaskTimers(run.trx, t, node.config.timeout, run.now);
    await history({ action, node_id: visit.node_id, target_user_id: ids[0], result: { userIds: ids, added, removed: removed.map((t) => t.assignee_id) } });
    await decideNode(run, visit.id, node);
    const after = (await repo.tasksOfNodeState(run.trx, visit.id)).filter((t) => t.kind === 'approve' && isOpen(t)).map((t) => ({ taskId: t.id, assigneeId: t.assignee_id, status: t.status }));
    return { nodeId: visit.node_id, mode: input.mode, before, after, instanceStatus: run.instance.status };
  });
}

// ---------------------------------------------------------------- resend reminders (重发提醒)

export function resendWorkflowReminders(ctx: ServiceContext, instanceId: string, input: TWorkflowInterventionInput): Promise<TWorkflowInstanceDetail> {
  return intervene(ctx, instanceId, input, 'WorkflowRemindersResent', async ({ run, reason }) => {
    const pending = (await repo.tasksOfInstances(run.trx, [run.instance.id])).filter((t) => t.kind === 'approve' && t.status === 'pending');
    if (pending.length === 0) throw workflowError(ctx, 409, 'Workflow.NothingToUrge', 'engine.nothingToUrge');
    // The urge's notification without its 10-minute limit; the history entries carry the request id.
    await sendUrgeNotifications(ctx, run.trx as Db, run.instance, pending, { action: 'resendReminder', comment: reason, clientRequestId: input.clientRequestId, now: run.now });
    return { before: null, after: { remindedUserIds: pending.map((t) => t.assignee_id), taskIds: pending.map((t) => t.id) } };
  });
}
