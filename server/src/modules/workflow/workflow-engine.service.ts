/**
 * The engine's actions (issue 13): start a flow on a record, act on a task (approve, reject, return,
 * transfer, CC read), withdraw, terminate, and the timers' reminders and timeouts. Each is ONE
 * transaction that locks the instance row (`for update`) and re-checks the task's state under the
 * lock, then writes the action, the outbox events, the next tasks and the record's FlowStatus.
 * A `clientRequestId` already applied for the same actor answers the current state and changes
 * nothing (a double click or a retry).
 *
 * Rules chosen here (docs: the module's README):
 * - Reject ends the instance as rejected (FlowStatus 3). A return to the initiator ends it as
 *   withdrawn (FlowStatus 4: editable, submitted again as a new instance); a return to an earlier
 *   approval node reopens that node, closing every open task.
 * - Withdraw: the initiator, while nobody acted on the current nodes' tasks (FlowStatus 4).
 * - Terminate (P.FlowInstances): the record becomes a draft again (FlowStatus 0).
 */
import { P } from '@tessera/core/contracts/permissions';
import type { TWorkflowNodeOf, TWorkflowGraph } from '@tessera/core/contracts/workflow';
import {
  FLOW_STATUS_LABELS,
  FLOW_STATUSES_STARTABLE,
  type TFlowStatus,
  type TStartWorkflowInput,
  type TWorkflowInstanceActionInput,
  type TWorkflowInstanceDetail,
  type TWorkflowTerminateInput,
  type TWorkflowTaskAction,
  type TWorkflowTaskActionInput,
  type TWorkflowTaskActionResult,
} from '@tessera/core/contracts/workflow-runtime';
import { evaluateCondition, pendingTaskActions, WorkflowGraphIndex } from '@tessera/core/workflow/engine';
import { recordAudit } from '../../platform/audit.ts';
import { actorHolds, type Db, type ServiceContext } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { isUniqueViolation } from '../../platform/sql-values.ts';
import { activeUserIds, userDisplayNames } from '../identity/index.ts';
import { readWorkflowRecord, saveRecordInTrx, setRecordFlowStatus } from '../business-data/index.ts';
import * as repo from './workflow-engine.repository.ts';
import type { InstanceRow, TaskRow } from './workflow-engine.repository.ts';
import { advanceFrom, asSystem, decideNode, enterNode, finishInstance, graphOf, inTransaction, loadRun, returnToNode, type Run } from './workflow-runner.ts';
import { addSigners, ccFromTask, delegateTask, reclaimTask, removeSigners, type TaskMove } from './workflow-task-moves.ts';
import { cancelTaskTimers, scheduleNextReminder, scheduleTaskTimers } from './workflow-timers.ts';
import { WorkflowViews } from './workflow-views.ts';
import { newInstanceSnapshot, notifyFlowChanges, notifyReminder, notifyUrge, snapshotForNotify } from './workflow-notify.ts';
import { workflowError } from './workflow.messages.ts';
import * as defs from './workflow.repository.ts';

const ENTITY_TYPE = 'WorkflowInstance';
type ApprovalNode = TWorkflowNodeOf<'approval'>;

const me = (ctx: ServiceContext) => {
  if (!ctx.user) throw forbidden();
  return ctx.user;
};

const instanceNotFound = (ctx: ServiceContext) => workflowError(ctx, 404, 'NotFound', 'engine.instanceNotFound');
const taskNotFound = (ctx: ServiceContext) => workflowError(ctx, 404, 'NotFound', 'engine.taskNotFound');
const notRunning = (ctx: ServiceContext, status: string) => workflowError(ctx, 409, 'Workflow.InstanceNotRunning', 'engine.instanceNotRunning', { status }, { details: { status } });

// ---------------------------------------------------------------- start

/** The definitions that may start on the record: enabled, published, not deleted, their version's condition true. */
/**
 * The withdraw rule: nobody has acted yet on the tasks of the instance's current approval nodes.
 * `tasks`: the instance's tasks when the caller has them already.
 */
export async function currentNodesUntouched(db: Db, instanceId: string, tasks?: readonly TaskRow[]): Promise<boolean> {
  const [states, all] = await Promise.all([repo.nodeStatesOf(db, [instanceId]), tasks ?? repo.tasksOfInstances(db, [instanceId])]);
  const current = new Set(states.filter((s) => s.status === 'active' && s.node_type === 'approval').map((s) => s.id));
  return (await repo.humanActionsOnTasks(db, all.filter((t) => current.has(t.node_state_id)).map((t) => t.id))) === 0;
}

export async function applicableDefinitions(db: Db, pageId: string, record: { master: Record<string, unknown>; views: Record<string, Record<string, unknown>[]> }, now: Date) {
  const candidates = (await defs.definitionsOfPage(db, pageId)).map((d) => d.id);
  const out: { id: string; name: string; version: number; graph: TWorkflowGraph }[] = [];
  for (const id of candidates) {
    const d = await defs.findDefinition(db, id);
    if (!d || !d.is_enabled || d.is_deleted || d.published_version === null) continue;
    const version = await defs.findVersion(db, id, d.published_version);
    if (!version || version.page_id !== pageId) continue;
    if (version.condition?.trim() && !evaluateCondition(version.condition, { master: record.master, views: record.views, now }).value) continue;
    out.push({ id, name: d.name, version: version.version, graph: version.graph as TWorkflowGraph });
  }
  return out;
}

export async function startWorkflow(ctx: ServiceContext, input: TStartWorkflowInput): Promise<TWorkflowInstanceDetail> {
  const user = me(ctx);
  const now = ctx.now();
  let instanceId: string;
  try {
    instanceId = await inTransaction(ctx, async (trx) => {
      // The record's row lock first: a repeated request waits for the first one, then finds it.
      const record = await readWorkflowRecord(ctx, trx, input.pageId, input.recordId, 'edit', true);
      const repeated = await repo.findRequest(trx, user.id, input.clientRequestId);
      if (repeated) return repeated.instance_id;
      const running = await repo.latestInstanceOfRecord(trx, input.pageId, input.recordId);
      if (running?.status === 'running' || record.flowStatus === 1) throw workflowError(ctx, 409, 'Workflow.AlreadyRunning', 'engine.alreadyRunning');
      if (!FLOW_STATUSES_STARTABLE.includes(record.flowStatus as TFlowStatus)) {
        throw workflowError(ctx, 409, 'Workflow.NotStartable', 'engine.notStartable', { status: FLOW_STATUS_LABELS[record.flowStatus as TFlowStatus]?.[ctx.culture] ?? String(record.flowStatus) });
      }
      const applicable = await applicableDefinitions(trx, input.pageId, record, now);
      let chosen = applicable[0];
      if (input.definitionId) {
        chosen = applicable.find((d) => d.id === input.definitionId)!;
        if (!chosen) throw workflowError(ctx, 400, 'Workflow.DefinitionNotApplicable', 'engine.definitionNotApplicable', {}, { members: ['definitionId'] });
      } else if (applicable.length === 0) throw workflowError(ctx, 400, 'Workflow.NoDefinition', 'engine.noDefinition', {}, { members: ['pageId'] });
      else if (applicable.length > 1) throw workflowError(ctx, 400, 'Workflow.ChooseDefinition', 'engine.chooseDefinition', {}, { members: ['definitionId'], details: { definitions: applicable.map((d) => ({ id: d.id, name: d.name })) } });
      // Every node whose approvers the initiator picks needs them now (spec: chosen at submit).
      const chosenAssignees: Record<string, string[]> = {};
      for (const node of chosen.graph.nodes) {
        const rules = node.type === 'approval' ? node.config.assignees : node.type === 'cc' ? node.config.recipients : [];
        if (!rules.some((r) => r.kind === 'chosenAtSubmit')) continue;
        const picked = [...new Set((input.chosenAssignees?.[node.id] ?? []).map((id) => id.toLowerCase()))];
        const active = picked.length ? await activeUserIds(trx, picked) : [];
        if (active.length === 0 && node.type === 'approval') throw workflowError(ctx, 400, 'Workflow.ChosenAssigneesMissing', 'engine.chosenMissing', { node: node.name || node.id }, { members: [`chosenAssignees.${node.id}`] });
        chosenAssignees[node.id] = active;
      }
      const instance: InstanceRow = {
        id: uuidv7(),
        definition_id: chosen.id,
        version: chosen.version,
        page_id: record.pageId,
        record_id: input.recordId.toLowerCase(),
        record_title: record.title,
        initiator_id: user.id,
        initiator_unit_id: user.organizationUnitId,
        status: 'running',
        chosen_assignees: chosenAssignees,
        started_time: now,
        ended_time: null,
      };
      await repo.insertInstance(trx, { ...instance, chosen_assignees: JSON.stringify(chosenAssignees) });
      const index = new WorkflowGraphIndex(chosen.graph);
      const start = index.start();
      await repo.insertAction(trx, { instance_id: instance.id, task_id: null, node_id: start.id, actor_id: user.id, action: 'start', comment: null, target_user_id: null, target_node_id: null, client_request_id: input.clientRequestId, result: null, creation_time: now });
      await repo.insertOutbox(trx, { instance_id: instance.id, event: 'instance.started', payload: { definitionId: chosen.id, version: chosen.version, pageId: record.pageId, recordId: instance.record_id } });
      await setRecordFlowStatus(asSystem(ctx), trx, record.pageId, instance.record_id, 1);
      const run: Run = { ctx, trx, instance, index, record, now };
      await enterNode(run, start.id, 'start', 'completed');
      await advanceFrom(run, start.id);
      await notifyFlowChanges(ctx, trx, newInstanceSnapshot(instance.id), { actorId: user.id, action: 'start' });
      return instance.id;
    });
  } catch (err) {
    // A concurrent start on the same record (one running instance per record) or the same request.
    if (isUniqueViolation(err)) {
      const repeated = await repo.findRequest(ctx.db, user.id, input.clientRequestId);
      if (repeated) return getWorkflowInstanceAs(ctx, repeated.instance_id);
      throw workflowError(ctx, 409, 'Workflow.AlreadyRunning', 'engine.alreadyRunning');
    }
    throw err;
  }
  await recordAudit(ctx, 'WorkflowStarted', { entityType: ENTITY_TYPE, entityId: instanceId, details: { pageId: input.pageId, recordId: input.recordId } });
  return getWorkflowInstanceAs(ctx, instanceId);
}

export async function getWorkflowInstanceAs(ctx: ServiceContext, id: string): Promise<TWorkflowInstanceDetail> {
  const row = await repo.findInstance(ctx.db, id);
  if (!row) throw instanceNotFound(ctx);
  return new WorkflowViews(ctx).detail(row);
}

// ---------------------------------------------------------------- task actions

export type TaskActionName = Exclude<TWorkflowTaskAction, never>;

interface Actor {
  /** null: the system (timeouts). */
  id: string | null;
  history: string;
}

/**
 * One action on a task in one transaction. The caller's `clientRequestId` makes it idempotent; the
 * task must be the actor's (403) and pending on a running instance (409).
 */
export async function actOnWorkflowTask(ctx: ServiceContext, taskId: string, action: TaskActionName, input: TWorkflowTaskActionInput): Promise<TWorkflowTaskActionResult> {
  const user = me(ctx);
  if (input.record && action !== 'approve') throw workflowError(ctx, 400, 'ValidationError', 'engine.recordOnlyOnApprove', {}, { members: ['record'] });
  let applied = true;
  try {
    applied = (await inTransaction(ctx, (trx) => applyTaskAction(ctx, trx, taskId, action, input, { id: user.id, history: action }))) !== REPEATED;
  } catch (err) {
    if (!(isUniqueViolation(err) && (await repo.findRequest(ctx.db, user.id, input.clientRequestId)))) throw err;
    applied = false;
  }
  return taskActionResult(ctx, taskId, applied ? `Workflow${action[0].toUpperCase()}${action.slice(1)}` : null, input.comment);
}

/** The task and its instance after an action; the audit entry only when this request applied it (not for a repeat). */
async function taskActionResult(ctx: ServiceContext, taskId: string, auditAction: string | null, comment: string | undefined): Promise<TWorkflowTaskActionResult> {
  const task = await repo.findTask(ctx.db, taskId);
  if (!task) throw taskNotFound(ctx);
  const instance = (await repo.findInstance(ctx.db, task.instance_id))!;
  const views = new WorkflowViews(ctx);
  const [taskDto] = await views.tasks([task], [instance]);
  const [instanceDto] = await views.instances([instance]);
  if (auditAction) await recordAudit(ctx, auditAction, { entityType: ENTITY_TYPE, entityId: instance.id, details: { taskId, comment: comment ?? null } });
  return { task: taskDto, instance: instanceDto };
}

/** A repeated request (same actor, same clientRequestId): nothing was applied. */
const REPEATED = 'repeated' as const;

async function applyTaskAction(ctx: ServiceContext, trx: Db, taskId: string, action: TaskActionName, input: TWorkflowTaskActionInput, actor: Actor): Promise<void | typeof REPEATED> {
  const found = await repo.findTask(trx, taskId);
  if (!found) throw taskNotFound(ctx);
  const instance = await repo.lockInstance(trx, found.instance_id);
  if (!instance) throw taskNotFound(ctx);
  // Under the lock: a repeated request (double click, retry) finds the first one's action and changes nothing.
  if (actor.id !== null && (await repo.findRequest(trx, actor.id, input.clientRequestId))) return REPEATED;
  // Re-read under the instance's lock: another action may have closed the task meanwhile.
  const task = (await repo.findTask(trx, taskId))!;
  // The assignee acts; a flow administrator (P.FlowInstances) may act on anyone's task except take back
  // an approval (that is the approver's own) or read someone's CC.
  const onBehalf = actor.id !== null && task.assignee_id !== actor.id;
  if (onBehalf && (action === 'reclaim' || action === 'ccRead' || !actorHolds(ctx, P.FlowInstances))) throw workflowError(ctx, 403, 'Forbidden', 'engine.notAssignee');
  if (action === 'ccRead') return readCc(ctx, trx, task, actor, input);
  if (task.kind !== 'approve') throw workflowError(ctx, 400, 'Workflow.ActionNotAllowed', 'engine.actionNotAllowed', { action }, { members: ['id'] });
  if (action === 'reclaim' && instance.status !== 'running') throw workflowError(ctx, 409, 'Workflow.ReclaimTooLate', 'engine.reclaimTooLate');
  if (action !== 'reclaim' && task.status !== 'pending') throw workflowError(ctx, 409, 'Workflow.TaskNotPending', 'engine.taskNotPending', { status: task.status }, { details: { status: task.status } });
  if (instance.status !== 'running') throw notRunning(ctx, instance.status);
  // The approver's edits first (issue 14), so the flow decides on the record as saved; any refusal
  // (a field their node does not make editable, a stale stamp) rolls the approval back with it.
  if (input.record) await saveApproverEdits(ctx, trx, instance, input.record, onBehalf);
  const run: Run = { ...(await loadRun(ctx, trx, instance)), cause: task.id };
  const node = run.index.node(task.node_id) as ApprovalNode;
  if (action !== 'reclaim' && !pendingTaskActions(node.config.actions, task.origin).includes(action)) {
    throw workflowError(ctx, 400, 'Workflow.ActionNotAllowed', 'engine.actionNotAllowed', { action }, { members: ['id'] });
  }
  const comment = input.comment?.trim() || null;
  const history = (extra: { action?: string; target_user_id?: string | null; target_node_id?: string | null; result?: unknown } = {}) =>
    repo.insertAction(trx, {
      instance_id: instance.id,
      task_id: task.id,
      node_id: task.node_id,
      actor_id: actor.id,
      action: extra.action ?? actor.history,
      comment,
      target_user_id: extra.target_user_id ?? null,
      target_node_id: extra.target_node_id ?? null,
      client_request_id: actor.id ? input.clientRequestId : null,
      result: extra.result === undefined ? null : JSON.stringify(extra.result),
      creation_time: run.now,
    });
  const completed = (status: TaskRow['status']) =>
    repo.insertOutbox(trx, { instance_id: instance.id, event: 'task.completed', payload: { taskId: task.id, nodeId: task.node_id, status, actorId: actor.id } });
  const move: TaskMove = { run, task, node, input, comment, history, completed };
  const before = await snapshotForNotify(trx, instance);
  await performTaskAction(ctx, action, move, actor);
  await notifyFlowChanges(ctx, trx, before, { actorId: actor.id, action, nodeId: task.node_id, comment });
}

/**
 * The record of the task's instance only (another page or record: 400), saved as its approver's save
 * (business-data checks their pending task's node field permissions and the ConcurrencyStamp).
 */
async function saveApproverEdits(ctx: ServiceContext, trx: Db, instance: InstanceRow, record: NonNullable<TWorkflowTaskActionInput['record']>, onBehalf: boolean): Promise<void> {
  // The node's field permissions are the assignee's; a flow administrator acting for them edits nothing.
  if (onBehalf) throw workflowError(ctx, 400, 'ValidationError', 'engine.recordNotOnBehalf', {}, { members: ['record'] });
  await saveRecordInTrx(ctx, trx, record, { pageId: instance.page_id, recordId: instance.record_id }, 'record.');
}

async function performTaskAction(ctx: ServiceContext, action: Exclude<TaskActionName, 'ccRead'>, move: TaskMove, actor: Actor): Promise<void> {
  const { run, task, node, input, comment, history, completed } = move;
  const { trx, instance } = run;
  switch (action) {
    case 'delegate':
      return delegateTask(move);
    case 'addSigner':
      return addSigners(move);
    case 'removeSigner':
      return removeSigners(move);
    case 'cc':
      return ccFromTask(move);
    case 'reclaim':
      return reclaimTask(move);
    case 'approve':
    case 'reject': {
      if (action === 'reject' && node.config.commentRequiredOnReject && !comment && actor.id !== null) throw workflowError(ctx, 400, 'Workflow.CommentRequired', 'engine.commentRequired', {}, { members: ['comment'] });
      const status = action === 'approve' ? 'approved' : 'rejected';
      await repo.updateTask(trx, task.id, { status, comment, completed_time: run.now });
      await cancelTaskTimers(trx, task.id);
      await history();
      await completed(status);
      await decideNode(run, task.node_state_id, node);
      return;
    }
    case 'transfer': {
      const target = (input.userIds ?? []).map((id) => id.toLowerCase());
      const active = target.length === 1 && target[0] !== task.assignee_id ? await activeUserIds(trx, target) : [];
      if (active.length !== 1) throw workflowError(ctx, 400, 'ValidationError', 'engine.transferOneUser', {}, { members: ['userIds'] });
      await moveTask(run, task, node, active[0]);
      await history({ target_user_id: active[0] });
      await completed('transferred');
      return;
    }
    case 'return': {
      const visited = new Set((await repo.nodeStatesOf(trx, [instance.id])).filter((s) => s.status === 'completed').map((s) => s.node_id));
      const earlier = run.index.earlierApprovals(task.node_id).filter((n) => visited.has(n.id));
      let targetNodeId: string | null;
      if (node.config.returnTo === 'initiator') targetNodeId = null;
      else if (node.config.returnTo === 'previous') targetNodeId = earlier[0]?.id ?? null;
      else {
        targetNodeId = input.targetNodeId ?? null;
        if (targetNodeId !== null && targetNodeId !== run.index.start().id && !earlier.some((n) => n.id === targetNodeId)) {
          throw workflowError(ctx, 400, 'ValidationError', 'engine.returnTargetInvalid', { node: targetNodeId }, { members: ['targetNodeId'] });
        }
        if (targetNodeId === run.index.start().id) targetNodeId = null;
      }
      await repo.updateTask(trx, task.id, { status: 'returned', comment, completed_time: run.now });
      await cancelTaskTimers(trx, task.id);
      await history({ target_node_id: targetNodeId ?? run.index.start().id });
      await completed('returned');
      if (targetNodeId === null) await finishInstance(run, 'withdrawn', 'cancelled');
      else await returnToNode(run, targetNodeId);
      return;
    }
  }
}

/** Transfer / escalate: the task closes as transferred and a pending one opens for `userId` (same place in the node's order). */
async function moveTask(run: Run, task: TaskRow, node: ApprovalNode, userId: string) {
  await repo.updateTask(run.trx, task.id, { status: 'transferred', completed_time: run.now });
  await cancelTaskTimers(run.trx, task.id);
  const [moved] = await repo.insertTasks(run.trx, [{ instance_id: task.instance_id, node_state_id: task.node_state_id, node_id: task.node_id, kind: 'approve', assignee_id: userId, status: 'pending', seq: task.seq, comment: null, transferred_from: task.id, creation_time: run.now, completed_time: null, due_time: null }]);
  await scheduleTaskTimers(run.trx, moved, node.config.timeout, run.now);
}

async function readCc(ctx: ServiceContext, trx: Db, task: TaskRow, actor: Actor, input: TWorkflowTaskActionInput) {
  if (task.kind !== 'cc') throw workflowError(ctx, 400, 'Workflow.ActionNotAllowed', 'engine.notCc', {}, { members: ['id'] });
  if (task.status !== 'pending') return;
  const now = ctx.now();
  await repo.updateTask(trx, task.id, { status: 'approved', is_read: true, completed_time: now });
  await repo.insertAction(trx, { instance_id: task.instance_id, task_id: task.id, node_id: task.node_id, actor_id: actor.id, action: 'ccRead', comment: null, target_user_id: null, target_node_id: null, client_request_id: input.clientRequestId, result: null, creation_time: now });
}

// ---------------------------------------------------------------- withdraw, terminate

export async function withdrawWorkflowInstance(ctx: ServiceContext, id: string, input: TWorkflowInstanceActionInput): Promise<TWorkflowInstanceDetail> {
  return endByHand(ctx, id, input, 'withdraw');
}

/** Flow management's terminate: `reason` (the older `comment` in its place) goes to the history and the audit log. */
export async function terminateWorkflowInstance(ctx: ServiceContext, id: string, input: TWorkflowTerminateInput): Promise<TWorkflowInstanceDetail> {
  const reason = input.reason?.trim() || input.comment?.trim() || undefined;
  return endByHand(ctx, id, { clientRequestId: input.clientRequestId, comment: reason }, 'terminate');
}

async function endByHand(ctx: ServiceContext, id: string, input: TWorkflowInstanceActionInput, action: 'withdraw' | 'terminate') {
  const user = me(ctx);
  let applied = true;
  try {
    await inTransaction(ctx, async (trx) => {
      const instance = await repo.lockInstance(trx, id);
      if (!instance) throw instanceNotFound(ctx);
      if (await repo.findRequest(trx, user.id, input.clientRequestId)) {
        applied = false;
        return;
      }
      if (action === 'withdraw' && instance.initiator_id !== user.id) throw workflowError(ctx, 403, 'Forbidden', 'engine.notInitiator');
      if (action === 'terminate' && !actorHolds(ctx, P.FlowInstances)) throw forbidden({ permission: P.FlowInstances });
      if (instance.status !== 'running') throw notRunning(ctx, instance.status);
      if (action === 'withdraw') {
        if (!(await currentNodesUntouched(trx, id))) throw workflowError(ctx, 409, 'Workflow.WithdrawTooLate', 'engine.withdrawTooLate');
      }
      const run = await loadRun(ctx, trx, instance);
      const before = await snapshotForNotify(trx, instance);
      await repo.insertAction(trx, { instance_id: id, task_id: null, node_id: null, actor_id: user.id, action, comment: input.comment?.trim() || null, target_user_id: null, target_node_id: null, client_request_id: input.clientRequestId, result: null, creation_time: run.now });
      await finishInstance(run, action === 'withdraw' ? 'withdrawn' : 'terminated');
      // The cancelled tasks' to-do notifications are done.
      await notifyFlowChanges(ctx, trx, before, { actorId: user.id, action, comment: input.comment?.trim() || null });
    });
  } catch (err) {
    if (!(isUniqueViolation(err) && (await repo.findRequest(ctx.db, user.id, input.clientRequestId)))) throw err;
    applied = false;
  }
  if (applied) {
    const details = action === 'withdraw' ? { comment: input.comment ?? null } : { reason: input.comment ?? null, before: { status: 'running' }, after: { status: 'terminated' } };
    await recordAudit(ctx, action === 'withdraw' ? 'WorkflowWithdrawn' : 'WorkflowTerminated', { entityType: ENTITY_TYPE, entityId: id, details });
  }
  return getWorkflowInstanceAs(ctx, id);
}

// ---------------------------------------------------------------- timers (job handlers; ctx.db is the job's transaction)

async function pendingTaskWithNode(ctx: ServiceContext, taskId: string) {
  const task = await repo.findTask(ctx.db, String(taskId));
  if (!task || task.status !== 'pending' || task.kind !== 'approve') return null;
  const instance = await repo.lockInstance(ctx.db, task.instance_id);
  const current = await repo.findTask(ctx.db, task.id);
  if (!instance || instance.status !== 'running' || current?.status !== 'pending') return null;
  const run = await loadRun(ctx, ctx.db, instance);
  return { task: current, instance, run, node: run.index.node(current.node_id) as ApprovalNode };
}

/** `workflow.remind`: a notification for the assignee of a still pending task, and the next reminder. */
export async function remindWorkflowTask(ctx: ServiceContext, taskId: string, count: number): Promise<void> {
  const found = await pendingTaskWithNode(ctx, taskId);
  if (!found) return;
  const { task, instance, run, node } = found;
  await notifyReminder(ctx, ctx.db, instance, task, node.name || node.id);
  await repo.insertAction(ctx.db, { instance_id: instance.id, task_id: task.id, node_id: task.node_id, actor_id: null, action: 'remind', comment: null, target_user_id: task.assignee_id, target_node_id: null, client_request_id: null, result: null, creation_time: run.now });
  if (node.config.timeout) await scheduleNextReminder(ctx.db, task.id, node.config.timeout, count, run.now);
}

/** `workflow.timeout`: the node's `then` as a system action on a still pending task. */
export async function timeoutWorkflowTask(ctx: ServiceContext, taskId: string): Promise<void> {
  const found = await pendingTaskWithNode(ctx, taskId);
  if (!found?.node.config.timeout) return;
  const { task, node, run } = found;
  const then = node.config.timeout!.then;
  const system = { clientRequestId: `timeout:${task.id}` };
  if (then === 'autoApprove') await applyTaskAction(asSystem(ctx), ctx.db, task.id, 'approve', system, { id: null, history: 'autoApprove' });
  else if (then === 'autoReject') await applyTaskAction(asSystem(ctx), ctx.db, task.id, 'reject', system, { id: null, history: 'autoReject' });
  else if (then === 'escalate' && node.config.timeout!.escalateToUserId) {
    const [to] = await activeUserIds(ctx.db, [node.config.timeout!.escalateToUserId]);
    if (!to || to === task.assignee_id) return;
    const before = await snapshotForNotify(ctx.db, found.instance);
    await moveTask(run, task, node, to);
    await repo.insertAction(ctx.db, { instance_id: task.instance_id, task_id: task.id, node_id: task.node_id, actor_id: null, action: 'escalate', comment: null, target_user_id: to, target_node_id: null, client_request_id: null, result: null, creation_time: run.now });
    await repo.insertOutbox(ctx.db, { instance_id: task.instance_id, event: 'task.completed', payload: { taskId: task.id, nodeId: task.node_id, status: 'transferred', actorId: null } });
    await notifyFlowChanges(ctx, ctx.db, before, { actorId: null, action: 'escalate', nodeId: task.node_id });
  }
}

// ---------------------------------------------------------------- urge (催办)

const URGE_EVERY_MINUTES = 10;

/** Reminds the instance's pending assignees (or the one of `taskId`): the initiator or P.FlowInstances, once per task per 10 minutes. */
async function urge(ctx: ServiceContext, instanceId: string, taskId: string | null, input: TWorkflowInstanceActionInput): Promise<boolean> {
  const user = me(ctx);
  let applied = true;
  try {
    await inTransaction(ctx, async (trx) => {
      const instance = await repo.lockInstance(trx, instanceId);
      if (!instance) throw instanceNotFound(ctx);
      if (await repo.findRequest(trx, user.id, input.clientRequestId)) {
        applied = false;
        return;
      }
      if (instance.initiator_id !== user.id && !actorHolds(ctx, P.FlowInstances)) throw workflowError(ctx, 403, 'Forbidden', 'engine.notUrger');
      if (instance.status !== 'running') throw notRunning(ctx, instance.status);
      const pending = (await repo.tasksOfInstances(trx, [instanceId])).filter((t) => t.kind === 'approve' && t.status === 'pending' && (taskId === null || t.id === taskId));
      if (pending.length === 0) {
        if (taskId !== null) throw workflowError(ctx, 409, 'Workflow.TaskNotPending', 'engine.nothingToUrge');
        throw workflowError(ctx, 409, 'Workflow.NothingToUrge', 'engine.nothingToUrge');
      }
      const now = ctx.now();
      const last = await repo.lastUrged(trx, pending.map((t) => t.id));
      const due = pending.filter((t) => !last.has(t.id) || now.getTime() - last.get(t.id)!.getTime() >= URGE_EVERY_MINUTES * 60_000);
      if (due.length === 0) throw workflowError(ctx, 409, 'Workflow.UrgedRecently', 'engine.urgedRecently', { minutes: URGE_EVERY_MINUTES });
      await sendUrgeNotifications(ctx, trx, instance, due, { action: 'urge', comment: input.comment?.trim() || null, clientRequestId: input.clientRequestId, now });
    });
  } catch (err) {
    if (!(isUniqueViolation(err) && (await repo.findRequest(ctx.db, user.id, input.clientRequestId)))) throw err;
    applied = false;
  }
  return applied;
}

/**
 * The urge notification (type `todo`, linking the task) for each task's assignee, and a history
 * entry per task (`action`: `urge`, or flow management's `resendReminder`); the request id goes on
 * the first entry. Inside the caller's transaction, the instance locked.
 */
export async function sendUrgeNotifications(ctx: ServiceContext, trx: Db, instance: InstanceRow, tasks: readonly TaskRow[], entry: { action: 'urge' | 'resendReminder'; comment: string | null; clientRequestId: string; now: Date }): Promise<void> {
  const user = me(ctx);
  const index = new WorkflowGraphIndex(await graphOf(trx, instance));
  const [definition] = await repo.definitionNames(trx, [instance.definition_id]);
  const urger = (await userDisplayNames(trx, [user.id], ctx.culture)).get(user.id) ?? user.userName;
  for (const [i, t] of tasks.entries()) {
    await notifyUrge(ctx, trx, { instance, task: t, nodeName: index.nodes.get(t.node_id)?.name || t.node_id, definitionName: definition?.name ?? '', urger: { id: user.id, name: urger }, comment: entry.comment });
    await repo.insertAction(trx, { instance_id: instance.id, task_id: t.id, node_id: t.node_id, actor_id: user.id, action: entry.action, comment: entry.comment, target_user_id: t.assignee_id, target_node_id: null, client_request_id: i === 0 ? entry.clientRequestId : null, result: null, creation_time: entry.now });
  }
}

export async function urgeWorkflowInstance(ctx: ServiceContext, id: string, input: TWorkflowInstanceActionInput): Promise<TWorkflowInstanceDetail> {
  if (await urge(ctx, id, null, input)) await recordAudit(ctx, 'WorkflowUrge', { entityType: ENTITY_TYPE, entityId: id, details: { comment: input.comment ?? null } });
  return getWorkflowInstanceAs(ctx, id);
}

export async function urgeWorkflowTask(ctx: ServiceContext, taskId: string, input: TWorkflowInstanceActionInput): Promise<TWorkflowTaskActionResult> {
  const task = await repo.findTask(ctx.db, taskId);
  if (!task) throw taskNotFound(ctx);
  const applied = await urge(ctx, task.instance_id, task.id, input);
  return taskActionResult(ctx, taskId, applied ? 'WorkflowUrge' : null, input.comment);
}
