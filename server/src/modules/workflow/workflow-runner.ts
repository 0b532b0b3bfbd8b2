/**
 * The engine's moves inside one action's transaction, with the instance row locked: walking on from
 * a completed node (core `walkFrom`), opening approval and CC nodes (assignees, empty-assignee
 * policy, auto-approval, sequential order, timers), completing a node per its mode (core
 * `decideApproval`), returning to an earlier node, and ending the instance with the record's
 * FlowStatus. Every move writes its node states, tasks and outbox events in the same transaction.
 */
import type { TWorkflowGraph, TWorkflowNodeOf } from '@tessera/core/contracts/workflow';
import { FLOW_STATUS, type TFlowStatus } from '@tessera/core/contracts/workflow-runtime';
import { decideApproval, walkFrom, WorkflowGraphIndex, type ApprovalTaskState } from '@tessera/core/workflow/engine';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { applyWorkflowAssignments, readWorkflowRecord, setRecordFlowStatus, type WorkflowRecord } from '../business-data/index.ts';
import { resolveAssignees } from './workflow-assignees.ts';
import * as repo from './workflow-engine.repository.ts';
import type { InstanceRow, NodeStateRow, TaskRow } from './workflow-engine.repository.ts';
import { workflowError } from './workflow.messages.ts';
import * as defs from './workflow.repository.ts';
import { cancelTaskTimers, scheduleTaskTimers } from './workflow-timers.ts';

type ApprovalNode = TWorkflowNodeOf<'approval'>;

export interface Run {
  ctx: ServiceContext;
  trx: Db;
  instance: InstanceRow;
  index: WorkflowGraphIndex;
  record: WorkflowRecord;
  now: Date;
  /** The task whose completion moves the flow now: node visits entered remember it (reclaim). */
  cause?: string | null;
}

/** The system acting inside the caller's transaction (automatic assignments go through the save pipeline as it). */
export const asSystem = (ctx: ServiceContext): ServiceContext => ({ ...ctx, user: null, isSystem: true });

/** Runs `work` in the context's transaction, or in a new one (a job's handler already holds one). */
export function inTransaction<T>(ctx: ServiceContext, work: (trx: Db) => Promise<T>): Promise<T> {
  return ctx.db.isTransaction ? work(ctx.db) : ctx.db.transaction().execute(work);
}

export async function graphOf(trx: Db, instance: Pick<InstanceRow, 'definition_id' | 'version'>): Promise<TWorkflowGraph> {
  const version = await defs.findVersion(trx, instance.definition_id, instance.version);
  if (!version) throw new Error(`Workflow version ${instance.definition_id}/${instance.version} is missing`);
  return version.graph as TWorkflowGraph;
}

export async function loadRun(ctx: ServiceContext, trx: Db, instance: InstanceRow): Promise<Run> {
  const index = new WorkflowGraphIndex(await graphOf(trx, instance));
  const record = await readWorkflowRecord(asSystem(ctx), trx, instance.page_id, instance.record_id, 'none');
  return { ctx, trx, instance, index, record, now: ctx.now() };
}

/**
 * A visit of a node begins: its row (remembering the task whose completion led here, for reclaim)
 * and the outbox's `node.entered`, in the action's transaction.
 */
export async function enterNode(run: Run, nodeId: string, type: NodeStateRow['node_type'], status: 'active' | 'completed', options: { arrivedFrom?: string[]; cause?: string | null } = {}): Promise<string> {
  const stateId = await repo.insertNodeState(run.trx, {
    instance_id: run.instance.id,
    node_id: nodeId,
    node_type: type,
    status,
    entered_time: run.now,
    completed_time: status === 'completed' ? run.now : null,
    caused_by_task_id: options.cause === undefined ? (run.cause ?? null) : options.cause,
    ...(options.arrivedFrom ? { arrived_from: JSON.stringify(options.arrivedFrom) } : {}),
  });
  await repo.insertOutbox(run.trx, { instance_id: run.instance.id, event: 'node.entered', payload: { nodeId, nodeStateId: stateId, type } });
  return stateId;
}

/** Walks on from a completed node until the flow stops at approval nodes, waits at a join, or ends. */
export async function advanceFrom(run: Run, fromNodeId: string): Promise<void> {
  const work = [fromNodeId];
  while (work.length && run.instance.status === 'running') {
    const from = work.shift()!;
    const states = await repo.nodeStatesOf(run.trx, [run.instance.id]);
    const waitingJoins = states.filter((s) => s.node_type === 'join' && s.status === 'active');
    const joinArrivals = Object.fromEntries(waitingJoins.map((s) => [s.node_id, s.arrived_from as string[]]));
    const walk = walkFrom({ graph: run.index.graph, from, record: { master: run.record.master, views: run.record.views, now: run.now }, joinArrivals });
    for (const a of walk.assignments) {
      await applyWorkflowAssignments(asSystem(run.ctx), run.trx, run.instance.page_id, run.instance.record_id, a.values);
      Object.assign(run.record.master, a.values);
      await repo.insertAction(run.trx, { instance_id: run.instance.id, task_id: null, node_id: a.nodeId, actor_id: null, action: 'automatic', comment: null, target_user_id: null, target_node_id: null, client_request_id: null, result: JSON.stringify(a.values), creation_time: run.now });
    }
    // Joins: a completed one closes its waiting visit; a still waiting one keeps its arrivals.
    for (const step of walk.passed) {
      if (step.type === 'join') {
        const waiting = waitingJoins.find((s) => s.node_id === step.nodeId);
        if (waiting) await repo.setNodeState(run.trx, waiting.id, 'completed', run.now, []);
        else await enterNode(run, step.nodeId, 'join', 'completed');
        continue;
      }
      const stateId = await enterNode(run, step.nodeId, step.type, 'completed');
      if (step.type === 'cc') await openCc(run, step.nodeId, stateId);
    }
    // Joins every branch into which was skipped: a waiting visit ends as skipped.
    for (const joinId of walk.skippedJoins) {
      const waiting = waitingJoins.find((s) => s.node_id === joinId);
      if (waiting) await repo.setNodeState(run.trx, waiting.id, 'skipped', run.now, []);
    }
    for (const [joinId, arrived] of Object.entries(walk.joinArrivals)) {
      const waiting = waitingJoins.find((s) => s.node_id === joinId);
      if (waiting) await repo.setNodeState(run.trx, waiting.id, 'active', null, arrived);
      else await enterNode(run, joinId, 'join', 'active', { arrivedFrom: arrived });
      // A waiting join the cause's branch arrived at: reclaiming that task would have to take the arrival back.
      if (waiting && run.cause) await repo.setNodeStateCause(run.trx, waiting.id, run.cause);
    }
    for (const step of walk.approvals) {
      const done = await openApproval(run, run.index.node(step.nodeId) as ApprovalNode);
      if (done) work.push(step.nodeId);
    }
    if (walk.ended) await finishInstance(run, 'approved');
  }
}

export async function openCc(run: Run, nodeId: string, stateId: string) {
  const node = run.index.node(nodeId) as TWorkflowNodeOf<'cc'>;
  const recipients = await resolveAssignees(run.trx, node.config.recipients, scopeOf(run, nodeId));
  await repo.insertTasks(run.trx, recipients.map((assignee_id) => ({ instance_id: run.instance.id, node_state_id: stateId, node_id: nodeId, kind: 'cc' as const, assignee_id, status: 'pending' as const, comment: null, transferred_from: null, creation_time: run.now, completed_time: null, due_time: null })));
}

const scopeOf = (run: Run, nodeId: string) => ({
  nodeId,
  initiatorId: run.instance.initiator_id,
  initiatorUnitId: run.instance.initiator_unit_id,
  master: run.record.master,
  chosen: run.instance.chosen_assignees as Record<string, string[]>,
});

/**
 * Opens an approval node: its tasks, in assignee order (sequential: the first pending, the others
 * waiting). Answers true when the node completed at once (nobody to ask under `autoApprove`, or
 * auto-approval decided it); the caller walks on from it.
 */
export async function openApproval(run: Run, node: ApprovalNode): Promise<boolean> {
  const config = node.config;
  let assignees = await resolveAssignees(run.trx, config.assignees, scopeOf(run, node.id));
  const stateId = await enterNode(run, node.id, 'approval', 'active');
  if (assignees.length === 0) {
    if (config.emptyAssignee.policy === 'refuse') throw workflowError(run.ctx, 400, 'Workflow.EmptyAssignee', 'engine.emptyAssignee', { node: node.name || node.id }, { members: ['pageId'] });
    if (config.emptyAssignee.policy === 'toAdmin' && config.emptyAssignee.adminUserId) assignees = [config.emptyAssignee.adminUserId];
    else {
      await repo.insertAction(run.trx, { instance_id: run.instance.id, task_id: null, node_id: node.id, actor_id: null, action: 'autoApprove', comment: null, target_user_id: null, target_node_id: null, client_request_id: null, result: null, creation_time: run.now });
      await repo.setNodeState(run.trx, stateId, 'completed', run.now);
      return true;
    }
  }
  // Auto-approval: the initiator, or someone who approved earlier in this instance (each optional).
  const approvedBefore = config.autoApprove.ifApprovedBefore ? await repo.approversOf(run.trx, run.instance.id) : new Set<string>();
  const isAuto = (userId: string) => (config.autoApprove.ifInitiator && userId === run.instance.initiator_id) || approvedBefore.has(userId);
  const sequential = config.mode === 'sequential';
  let opened = false;
  const rows = assignees.map((assignee_id, seq) => {
    const auto = isAuto(assignee_id);
    const status: TaskRow['status'] = auto ? 'approved' : sequential && opened ? 'waiting' : 'pending';
    if (status === 'pending') opened = true;
    return { instance_id: run.instance.id, node_state_id: stateId, node_id: node.id, kind: 'approve' as const, assignee_id, status, seq, comment: null, transferred_from: null, creation_time: run.now, completed_time: auto ? run.now : null, due_time: null };
  });
  const tasks = await repo.insertTasks(run.trx, rows);
  for (const t of tasks) {
    if (t.status === 'approved') await repo.insertAction(run.trx, { instance_id: run.instance.id, task_id: t.id, node_id: node.id, actor_id: null, action: 'autoApprove', comment: null, target_user_id: t.assignee_id, target_node_id: null, client_request_id: null, result: null, creation_time: run.now });
    if (t.status === 'pending') await scheduleTaskTimers(run.trx, t, config.timeout, run.now);
  }
  const decision = decideApproval(config.mode, tasks.map((t) => t.status as ApprovalTaskState), config.votePassPercent);
  if (decision.outcome === 'approved') {
    await closeNode(run, stateId, 'completed');
    return true;
  }
  return false;
}

/**
 * Task states as the mode counts them: the node's own assignees only (a transferred task lives on in
 * its successor; delegates and added signers are not counted); a suspended task still waits for its
 * assignee, so it counts as pending.
 */
export const approvalStates = (tasks: readonly TaskRow[]): ApprovalTaskState[] =>
  ownTasks(tasks).map((t) =>
    t.status === 'cancelled' || t.status === 'withdrawn' || t.status === 'returned' ? 'closed' : t.status === 'suspended' ? 'pending' : (t.status as ApprovalTaskState),
  );

/** The node's own assignees' tasks in order (not transferred away, not a delegate or added signer). */
const ownTasks = (tasks: readonly TaskRow[]) => tasks.filter((t) => t.status !== 'transferred' && t.origin === null);
const isOpen = (t: TaskRow) => (repo.OPEN_TASK_STATUSES as readonly string[]).includes(t.status);

/** Ends a node visit: open tasks cancelled (their timers too), the visit completed or cancelled. */
export async function closeNode(run: Run, nodeStateId: string, status: NodeStateRow['status']) {
  const closed = await repo.closeOpenTasks(run.trx, { instanceId: run.instance.id, nodeStateId }, 'cancelled', run.now);
  for (const t of closed) await cancelTaskTimers(run.trx, t.id);
  await repo.setNodeState(run.trx, nodeStateId, status, run.now);
}

/**
 * After a task of an approval node closed: a suspended task whose delegate / before-signers are all
 * done opens again; an added signer's rejection rejects; while added signers are open the node waits;
 * else the mode decides: complete, reject, or open the next sequential task.
 */
export async function decideNode(run: Run, nodeStateId: string, node: ApprovalNode): Promise<void> {
  let tasks = await repo.tasksOfNodeState(run.trx, nodeStateId);
  if (tasks.some((t) => t.origin !== null && t.origin !== 'delegate' && t.status === 'rejected')) return finishInstance(run, 'rejected');
  const resumed = tasks.filter((p) => p.status === 'suspended' && !tasks.some((c) => c.parent_task_id === p.id && isOpen(c)));
  for (const p of resumed) {
    await repo.updateTask(run.trx, p.id, { status: 'pending' });
    await scheduleTaskTimers(run.trx, { ...p, status: 'pending' }, node.config.timeout, run.now);
  }
  if (resumed.length) tasks = await repo.tasksOfNodeState(run.trx, nodeStateId);
  if (tasks.some((t) => t.origin !== null && isOpen(t))) return;
  const decision = decideApproval(node.config.mode, approvalStates(tasks), node.config.votePassPercent);
  if (decision.outcome === 'approved') {
    await closeNode(run, nodeStateId, 'completed');
    await advanceFrom(run, node.id);
  } else if (decision.outcome === 'rejected') {
    await finishInstance(run, 'rejected');
  } else if (decision.openNext !== null) {
    const next = ownTasks(tasks)[decision.openNext];
    await repo.updateTask(run.trx, next.id, { status: 'pending' });
    await scheduleTaskTimers(run.trx, { ...next, status: 'pending' }, node.config.timeout, run.now);
  }
}

const FLOW_STATUS_OF: Record<Exclude<InstanceRow['status'], 'running'>, TFlowStatus> = {
  approved: FLOW_STATUS.approved,
  rejected: FLOW_STATUS.rejected,
  withdrawn: FLOW_STATUS.withdrawn,
  // Terminated by an administrator: the record is a draft again (editable, may be submitted anew).
  terminated: FLOW_STATUS.draft,
};

/** Ends the instance: open tasks closed (`taskStatus`), active visits cancelled, the record's FlowStatus set. */
export async function finishInstance(run: Run, status: Exclude<InstanceRow['status'], 'running'>, taskStatus: TaskRow['status'] = status === 'withdrawn' ? 'withdrawn' : 'cancelled') {
  const closed = await repo.closeOpenTasks(run.trx, { instanceId: run.instance.id, kind: 'approve' }, taskStatus, run.now);
  for (const t of closed) await cancelTaskTimers(run.trx, t.id);
  await repo.cancelActiveNodeStates(run.trx, run.instance.id, run.now);
  await repo.endInstance(run.trx, run.instance.id, status, run.now);
  run.instance = { ...run.instance, status, ended_time: run.now };
  await setRecordFlowStatus(asSystem(run.ctx), run.trx, run.instance.page_id, run.instance.record_id, FLOW_STATUS_OF[status]);
  await repo.insertOutbox(run.trx, { instance_id: run.instance.id, event: 'instance.ended', payload: { status } });
}

/** Return to an earlier approval node: every open task and visit closes, the node opens afresh. */
export async function returnToNode(run: Run, nodeId: string): Promise<void> {
  // Only what the target leads to is redone: a branch of a parallel block it does not lead to keeps
  // running (its open tasks stay) and arrives at the join when it completes.
  const region = reachableFrom(run.index, nodeId);
  const states = await repo.nodeStatesOf(run.trx, [run.instance.id]);
  for (const state of states) {
    if (state.status !== 'active' || !region.has(state.node_id)) continue;
    const closed = await repo.closeOpenTasks(run.trx, { instanceId: run.instance.id, nodeStateId: state.id, kind: 'approve' }, 'cancelled', run.now);
    for (const t of closed) await cancelTaskTimers(run.trx, t.id);
    await repo.setNodeState(run.trx, state.id, 'cancelled', run.now);
  }
  // Back into one branch of a parallel block: a join ahead counts as arrived the edges of the other
  // branches, which completed and are not walked again (else it waits for them for ever).
  const completed = new Map(states.map((s) => [s.node_id, s.status === 'completed']));
  for (const [joinId, arrived] of Object.entries(joinArrivalsOutside(run.index, region, (id) => completed.get(id) === true))) {
    await enterNode(run, joinId, 'join', 'active', { arrivedFrom: arrived });
  }
  const done = await openApproval(run, run.index.node(nodeId) as ApprovalNode);
  if (done) await advanceFrom(run, nodeId);
}

/** The node and every node after it. */
export function reachableFrom(index: WorkflowGraphIndex, fromNodeId: string): Set<string> {
  const reachable = new Set([fromNodeId]);
  const frontier = [fromNodeId];
  while (frontier.length) {
    for (const e of index.outgoing.get(frontier.pop()!) ?? []) {
      if (reachable.has(e.target)) continue;
      reachable.add(e.target);
      frontier.push(e.target);
    }
  }
  return reachable;
}

/** Joins in `reachable` → their incoming edges from completed nodes outside it (the walk will not pass them again). */
function joinArrivalsOutside(index: WorkflowGraphIndex, reachable: ReadonlySet<string>, isCompleted: (nodeId: string) => boolean): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const id of reachable) {
    if (index.nodes.get(id)?.type !== 'join') continue;
    const arrived = (index.incoming.get(id) ?? []).filter((e) => !reachable.has(e.source) && isCompleted(e.source)).map((e) => e.id);
    if (arrived.length) out[id] = arrived;
  }
  return out;
}
