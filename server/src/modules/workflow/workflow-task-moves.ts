/**
 * The task actions that change who acts on a node rather than decide it (issue 13), each inside the
 * action's transaction with the instance row locked (workflow-engine.service.ts calls them):
 *
 * - delegate (委派): the task is `suspended` and a delegate's task opens; when the delegate acts
 *   (approve, with an opinion) the task comes back `pending` to its assignee, who decides.
 * - add signer (加签) before: the task is `suspended` until every added signer approved;
 *   after: the assignee approves now and the node waits for the added signers too. An added
 *   signer's rejection rejects the instance. Added signers are not counted by the node's mode.
 * - remove signer (减签): other open assignees of the same node visit are cancelled; the node is
 *   decided again (a vote may pass now).
 * - CC (抄送): CC tasks for the chosen users on this node visit; the flow does not wait for them.
 * - reclaim (拿回): the assignee of an approved task takes it back while nobody acted on the node
 *   visits its approval entered (`caused_by_task_id`): those visits are cancelled and the node opens
 *   again with the task pending (the others' approvals of that visit kept). Field assignments of
 *   automatic nodes passed and CC tasks sent meanwhile stay; a join the approval arrived at blocks it.
 *
 * Delegates' and added signers' tasks carry no timers (the node's timeout is its own assignees').
 */
import type { TWorkflowNodeOf } from '@tessera/core/contracts/workflow';
import type { TWorkflowTaskActionInput } from '@tessera/core/contracts/workflow-runtime';
import type { Db } from '../../platform/context.ts';
import { activeUserIds } from '../identity/index.ts';
import * as repo from './workflow-engine.repository.ts';
import type { TaskRow } from './workflow-engine.repository.ts';
import { decideNode, type Run } from './workflow-runner.ts';
import { cancelTaskTimers, scheduleTaskTimers } from './workflow-timers.ts';
import { workflowError, type WorkflowTextKey } from './workflow.messages.ts';

type ApprovalNode = TWorkflowNodeOf<'approval'>;
const MAX_ADDED = 20;
const MAX_CC = 50;

/** One action in progress: the run, the actor's task, its node, and how to write its history entry. */
export interface TaskMove {
  run: Run;
  task: TaskRow;
  node: ApprovalNode;
  input: TWorkflowTaskActionInput;
  comment: string | null;
  history: (extra?: { action?: string; target_user_id?: string | null; target_node_id?: string | null; result?: unknown }) => Promise<unknown>;
  completed: (status: TaskRow['status']) => Promise<unknown>;
}

const invalid = (m: TaskMove, key: WorkflowTextKey) => workflowError(m.run.ctx, 400, 'ValidationError', key, {}, { members: ['userIds'] });
const lower = (ids: readonly string[] | undefined) => [...new Set((ids ?? []).map((id) => id.toLowerCase()))];
const isOpen = (t: TaskRow) => (repo.OPEN_TASK_STATUSES as readonly string[]).includes(t.status);

/** Active users among `ids` who hold no open task on the node visit and are not the actor. */
async function newcomers(m: TaskMove, ids: string[]): Promise<string[]> {
  const onNode = new Set((await repo.tasksOfNodeState(m.run.trx, m.task.node_state_id)).filter((t) => isOpen(t) && t.kind === 'approve').map((t) => t.assignee_id));
  const wanted = ids.filter((id) => id !== m.task.assignee_id && !onNode.has(id));
  if (wanted.length !== ids.length) return [];
  const active = await activeUserIds(m.run.trx, wanted);
  return active.length === wanted.length ? wanted : [];
}

function openAdded(m: TaskMove, userIds: string[], origin: 'delegate' | 'addBefore' | 'addAfter') {
  const { run, task } = m;
  return repo.insertTasks(
    run.trx,
    userIds.map((assignee_id) => ({
      instance_id: task.instance_id,
      node_state_id: task.node_state_id,
      node_id: task.node_id,
      kind: 'approve' as const,
      assignee_id,
      status: 'pending' as const,
      seq: task.seq,
      comment: null,
      transferred_from: null,
      origin,
      parent_task_id: task.id,
      creation_time: run.now,
      completed_time: null,
      due_time: null,
    })),
  );
}

async function suspend(m: TaskMove) {
  await repo.updateTask(m.run.trx, m.task.id, { status: 'suspended', due_time: null });
  await cancelTaskTimers(m.run.trx, m.task.id);
}

export async function delegateTask(m: TaskMove): Promise<void> {
  const ids = lower(m.input.userIds);
  const to = ids.length === 1 ? await newcomers(m, ids) : [];
  if (to.length !== 1) throw invalid(m, 'engine.delegateOneUser');
  await suspend(m);
  await openAdded(m, to, 'delegate');
  await m.history({ target_user_id: to[0] });
}

export async function addSigners(m: TaskMove): Promise<void> {
  const position = m.input.position;
  if (position !== 'before' && position !== 'after') throw workflowError(m.run.ctx, 400, 'ValidationError', 'engine.signersInvalid', {}, { members: ['position'] });
  const ids = lower(m.input.userIds);
  const added = ids.length >= 1 && ids.length <= MAX_ADDED ? await newcomers(m, ids) : [];
  if (added.length === 0) throw invalid(m, 'engine.signersInvalid');
  if (position === 'before') await suspend(m);
  else {
    // After: the assignee's own approval is given now; the node waits for the added signers.
    await repo.updateTask(m.run.trx, m.task.id, { status: 'approved', comment: m.comment, completed_time: m.run.now });
    await cancelTaskTimers(m.run.trx, m.task.id);
    await m.completed('approved');
  }
  await openAdded(m, added, position === 'before' ? 'addBefore' : 'addAfter');
  await m.history({ action: position === 'before' ? 'addSignerBefore' : 'addSignerAfter', target_user_id: added[0], result: { userIds: added } });
}

export async function removeSigners(m: TaskMove): Promise<void> {
  const ids = lower(m.input.userIds);
  const removable = await removableTasks(m.run.trx, m.task);
  const targets = removable.filter((t) => ids.includes(t.assignee_id));
  if (ids.length === 0 || targets.length !== ids.length) throw invalid(m, 'engine.removeSignersInvalid');
  for (const t of targets) {
    await repo.updateTask(m.run.trx, t.id, { status: 'cancelled', completed_time: m.run.now });
    await cancelTaskTimers(m.run.trx, t.id);
  }
  await m.history({ target_user_id: ids[0], result: { userIds: ids } });
  await decideNode(m.run, m.task.node_state_id, m.node);
}

/** Other open tasks of the task's node visit its assignee may remove (not delegates, not a suspended task). */
export async function removableTasks(db: Db, task: Pick<TaskRow, 'id' | 'node_state_id'>, visitTasks?: readonly TaskRow[]): Promise<TaskRow[]> {
  const tasks = visitTasks ?? (await repo.tasksOfNodeState(db, task.node_state_id));
  return tasks.filter((t) => t.id !== task.id && t.kind === 'approve' && t.origin !== 'delegate' && (t.status === 'pending' || t.status === 'waiting'));
}

export async function ccFromTask(m: TaskMove): Promise<void> {
  const ids = lower(m.input.userIds);
  const active = ids.length >= 1 && ids.length <= MAX_CC ? await activeUserIds(m.run.trx, ids) : [];
  if (active.length === 0 || active.length !== ids.length) throw invalid(m, 'engine.ccUsersInvalid');
  const { run, task } = m;
  await repo.insertTasks(
    run.trx,
    active.map((assignee_id) => ({ instance_id: task.instance_id, node_state_id: task.node_state_id, node_id: task.node_id, kind: 'cc' as const, assignee_id, status: 'pending' as const, comment: null, transferred_from: null, creation_time: run.now, completed_time: null, due_time: null })),
  );
  await m.history({ target_user_id: active[0], result: { userIds: active } });
}

// ---------------------------------------------------------------- reclaim

/**
 * Which of the given approved tasks their assignee may take back: the instance runs, the task's
 * approval entered at least one approval node that is still active, nobody acted on any visit it
 * entered, and it did not arrive at a join that still waits. Answers the reclaimable tasks' ids.
 */
export async function reclaimableTaskIds(db: Db, tasks: readonly TaskRow[]): Promise<Set<string>> {
  const candidates = tasks.filter((t) => t.kind === 'approve' && t.status === 'approved' && t.origin === null);
  const out = new Set<string>();
  if (candidates.length === 0) return out;
  const caused = await repo.nodeStatesCausedBy(db, candidates.map((t) => t.id));
  if (caused.length === 0) return out;
  const theirTasks = await repo.tasksOfNodeStates(db, caused.map((s) => s.id));
  const acted = await repo.tasksActedOn(db, theirTasks.map((t) => t.id));
  for (const t of candidates) {
    const states = caused.filter((s) => s.caused_by_task_id === t.id);
    const activeApproval = states.some((s) => s.node_type === 'approval' && s.status === 'active');
    const waitingJoin = states.some((s) => s.node_type === 'join' && s.status === 'active');
    const touched = theirTasks.some((x) => acted.has(x.id) && states.some((s) => s.id === x.node_state_id));
    const cancelledApproval = states.some((s) => s.node_type === 'approval' && s.status === 'cancelled');
    if (activeApproval && !waitingJoin && !touched && !cancelledApproval) out.add(t.id);
  }
  return out;
}

export async function reclaimTask(m: TaskMove): Promise<void> {
  const { run, task, node } = m;
  if (task.status !== 'approved' || task.origin !== null) throw workflowError(run.ctx, 409, 'Workflow.ReclaimNotAllowed', 'engine.reclaimNotAllowed');
  if (!(await reclaimableTaskIds(run.trx, [task])).has(task.id)) throw workflowError(run.ctx, 409, 'Workflow.ReclaimTooLate', 'engine.reclaimTooLate');
  for (const state of await repo.nodeStatesCausedBy(run.trx, [task.id])) {
    if (state.status !== 'active') continue;
    const closed = await repo.closeOpenTasks(run.trx, { instanceId: run.instance.id, nodeStateId: state.id, kind: 'approve' }, 'cancelled', run.now);
    for (const t of closed) await cancelTaskTimers(run.trx, t.id);
    await repo.setNodeState(run.trx, state.id, 'cancelled', run.now);
  }
  // The node opens again: the reclaimer's task pending, the others' approvals of that visit kept.
  const previous = (await repo.tasksOfNodeState(run.trx, task.node_state_id)).filter((t) => t.kind === 'approve' && t.origin === null && t.status === 'approved');
  const stateId = await repo.insertNodeState(run.trx, { instance_id: run.instance.id, node_id: node.id, node_type: 'approval', status: 'active', entered_time: run.now, completed_time: null });
  await repo.insertOutbox(run.trx, { instance_id: run.instance.id, event: 'node.entered', payload: { nodeId: node.id, nodeStateId: stateId } });
  const rows = previous.map((t) => {
    const mine = t.id === task.id;
    return {
      instance_id: t.instance_id,
      node_state_id: stateId,
      node_id: t.node_id,
      kind: 'approve' as const,
      assignee_id: t.assignee_id,
      status: mine ? ('pending' as const) : ('approved' as const),
      seq: t.seq,
      comment: mine ? null : t.comment,
      transferred_from: null,
      creation_time: mine ? run.now : t.creation_time,
      completed_time: mine ? null : t.completed_time,
      due_time: null,
    };
  });
  for (const t of await repo.insertTasks(run.trx, rows)) if (t.status === 'pending') await scheduleTaskTimers(run.trx, t, node.config.timeout, run.now);
  await m.history();
}
