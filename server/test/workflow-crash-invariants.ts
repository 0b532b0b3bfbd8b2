/**
 * What must hold in the workflow engine's tables whatever happened to the server processes (the
 * crash run, test/workflow-crash-run.ts), read straight from the database. Answers the violations
 * found, one line each (empty: all hold).
 *
 * - A running instance has at least one active approval node; each active approval node has the open
 *   tasks its mode requires and is still undecided — or / all / vote: a pending task for every
 *   assignee who has not acted, none waiting; sequential: the acted ones, then exactly one pending,
 *   then the waiting ones, in order. A transferred task has exactly one successor.
 * - No open task on an instance that ended, nor on a node visit that is not active.
 * - Every pending approval task of a timed node has its pending timers (one timeout job unless the
 *   node's `then` is `none` or it escalates to the task's own assignee; one reminder job while fewer
 *   than `remindTimes` reminders went out), and
 *   no pending timer job belongs to a task that is not pending.
 * - Each record's FlowStatus is its latest instance's (running 1, approved 2, rejected 3, withdrawn 4,
 *   terminated 0; no instance 0).
 * - A client request id is applied at most once per actor, and exactly the requests the client saw
 *   acknowledged (200) were applied; the refused ones wrote no action.
 */
import type { TWorkflowGraph, TWorkflowNodeOf } from '@tessera/core/contracts/workflow';
import { decideApproval, type ApprovalTaskState } from '@tessera/core/workflow/engine';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { bizTable, bizTableName } from '../src/modules/pages/index.ts';

type ApprovalNode = TWorkflowNodeOf<'approval'>;

/** One request the client sent with a client request id, and what it finally heard. */
export interface SentRequest {
  actorId: string;
  clientRequestId: string;
  what: string;
  /** 200: applied (acknowledged); otherwise the refusal's status. */
  status: number;
}

const FLOW_OF: Record<string, number> = { running: 1, approved: 2, rejected: 3, withdrawn: 4, terminated: 0 };
const REMIND = 'workflow.remind';
const TIMEOUT = 'workflow.timeout';

export async function workflowInvariantViolations(db: Kysely<Database>, input: { masterViewId: string; sent: readonly SentRequest[] }): Promise<string[]> {
  const out: string[] = [];
  const [instances, states, tasks, versions, jobs, reminds] = await Promise.all([
    db.selectFrom('workflow_instances').selectAll().orderBy('started_time').orderBy('id').execute(),
    db.selectFrom('workflow_node_states').selectAll().execute(),
    db.selectFrom('workflow_tasks').selectAll().where('kind', '=', 'approve').execute(),
    db.selectFrom('workflow_definition_versions').select(['definition_id', 'version', 'graph']).execute(),
    db.selectFrom('jobs').select(['queue', 'key']).where('state', '=', 'pending').where('queue', 'in', [REMIND, TIMEOUT]).execute(),
    db.selectFrom('workflow_actions').select(['task_id']).where('action', '=', 'remind').execute(),
  ]);
  const graphOf = new Map(versions.map((v) => [`${v.definition_id}/${v.version}`, v.graph as TWorkflowGraph]));
  const statesOf = groupBy(states, (s) => s.instance_id);
  const tasksOfState = groupBy(tasks, (t) => t.node_state_id);
  const stateById = new Map(states.map((s) => [s.id, s]));
  const instanceById = new Map(instances.map((i) => [i.id, i]));
  const successors = groupBy(tasks.filter((t) => t.transferred_from), (t) => t.transferred_from!);
  const nodeOf = (instanceId: string, nodeId: string) => {
    const i = instanceById.get(instanceId)!;
    return graphOf.get(`${i.definition_id}/${i.version}`)?.nodes.find((n) => n.id === nodeId) as ApprovalNode | undefined;
  };

  // Running instances: the open tasks their active nodes require.
  for (const i of instances) {
    const mine = statesOf.get(i.id) ?? [];
    const active = mine.filter((s) => s.status === 'active');
    if (i.status !== 'running') {
      if (active.length) out.push(`instance ${i.id} is ${i.status} with ${active.length} active node visit(s)`);
      if (!i.ended_time) out.push(`instance ${i.id} is ${i.status} without an end time`);
      continue;
    }
    const approvals = active.filter((s) => s.node_type === 'approval');
    if (approvals.length === 0) out.push(`running instance ${i.id} has no active approval node (stuck)`);
    const seen = new Set<string>();
    for (const s of active) {
      if (seen.has(s.node_id)) out.push(`running instance ${i.id} has two active visits of ${s.node_id}`);
      seen.add(s.node_id);
      if (s.node_type !== 'approval' && s.node_type !== 'join') out.push(`running instance ${i.id}: a ${s.node_type} node ${s.node_id} stayed active`);
    }
    for (const s of approvals) {
      const node = nodeOf(i.id, s.node_id);
      if (!node) {
        out.push(`instance ${i.id}: active node ${s.node_id} is not in its graph`);
        continue;
      }
      const live = (tasksOfState.get(s.id) ?? []).filter((t) => t.status !== 'transferred').sort((a, b) => a.seq - b.seq || +a.creation_time - +b.creation_time);
      const where = `instance ${i.id} node ${s.node_id} (${node.config.mode})`;
      const counted: ApprovalTaskState[] = live.map((t) => (['cancelled', 'withdrawn', 'returned'].includes(t.status) ? 'closed' : (t.status as ApprovalTaskState)));
      const decided = decideApproval(node.config.mode, counted, node.config.votePassPercent);
      if (decided.outcome !== 'open') out.push(`${where}: decided ${decided.outcome} but still active`);
      const statuses = live.map((t) => t.status);
      if (node.config.mode === 'sequential') {
        if (!/^(approved,)*pending(,waiting)*$/.test(statuses.join(','))) out.push(`${where}: tasks in order are ${statuses.join(',')} (want approved…, one pending, waiting…)`);
      } else {
        if (!statuses.includes('pending')) out.push(`${where}: no pending task (${statuses.join(',')})`);
        const allowed = node.config.mode === 'vote' ? ['pending', 'approved', 'rejected'] : ['pending', 'approved'];
        const wrong = statuses.filter((x) => !allowed.includes(x));
        if (wrong.length) out.push(`${where}: tasks ${wrong.join(',')} on an active node`);
      }
    }
  }

  for (const t of tasks) {
    const open = t.status === 'pending' || t.status === 'waiting';
    const instance = instanceById.get(t.instance_id);
    if (open && instance?.status !== 'running') out.push(`task ${t.id} is ${t.status} on a ${instance?.status ?? 'missing'} instance`);
    if (open && stateById.get(t.node_state_id)?.status !== 'active') out.push(`task ${t.id} is ${t.status} on a ${stateById.get(t.node_state_id)?.status} node visit`);
    if (t.status === 'transferred' && (successors.get(t.id)?.length ?? 0) !== 1) out.push(`transferred task ${t.id} has ${successors.get(t.id)?.length ?? 0} successors`);
  }

  // Timers: each pending task of a timed node has them; nothing else has one.
  const pendingJobs = new Map<string, number>();
  for (const j of jobs) pendingJobs.set(j.key ?? '', (pendingJobs.get(j.key ?? '') ?? 0) + 1);
  const remindsSent = new Map<string, number>();
  for (const r of reminds) if (r.task_id) remindsSent.set(r.task_id, (remindsSent.get(r.task_id) ?? 0) + 1);
  const pendingTaskIds = new Set<string>();
  for (const t of tasks) {
    if (t.status !== 'pending') continue;
    pendingTaskIds.add(t.id);
    const timeout = nodeOf(t.instance_id, t.node_id)?.config.timeout;
    const timeoutJobs = pendingJobs.get(`${TIMEOUT}:${t.id}`) ?? 0;
    const remindJobs = pendingJobs.get(`${REMIND}:${t.id}`) ?? 0;
    if (!timeout) {
      if (timeoutJobs + remindJobs) out.push(`task ${t.id} of an untimed node has ${timeoutJobs + remindJobs} timer job(s)`);
      continue;
    }
    if (!t.due_time) out.push(`pending task ${t.id} of a timed node has no due time`);
    // No timeout job where it would change nothing: none, or an escalation to the one who holds the task.
    const wantTimeout = timeout.then === 'none' || (timeout.then === 'escalate' && timeout.escalateToUserId === t.assignee_id) ? 0 : 1;
    if (timeoutJobs !== wantTimeout) out.push(`pending task ${t.id} has ${timeoutJobs} timeout job(s), want ${wantTimeout}`);
    const sent = remindsSent.get(t.id) ?? 0;
    const wantRemind = timeout.remindEveryMinutes && sent < (timeout.remindTimes ?? 1) ? 1 : 0;
    if (remindJobs !== wantRemind) out.push(`pending task ${t.id} (${sent} reminder(s) sent of ${timeout.remindTimes ?? 1}) has ${remindJobs} reminder job(s), want ${wantRemind}`);
  }
  for (const j of jobs) {
    const taskId = (j.key ?? '').slice(j.queue.length + 1);
    if (!pendingTaskIds.has(taskId)) out.push(`pending ${j.queue} job for task ${taskId}, which is not pending`);
  }

  // The records' FlowStatus follows their latest instance.
  const { rows: records } = await sql<{ id: string; flow: number }>`select "Id"::text as id, "FlowStatus" as flow from ${bizTable(bizTableName(input.masterViewId))}`.execute(db);
  const latest = new Map<string, (typeof instances)[number]>();
  for (const i of instances) latest.set(i.record_id, i);
  for (const r of records) {
    const want = latest.has(r.id) ? FLOW_OF[latest.get(r.id)!.status] : 0;
    if (Number(r.flow) !== want) out.push(`record ${r.id}: FlowStatus ${r.flow}, its latest instance is ${latest.get(r.id)?.status ?? 'none'} (want ${want})`);
  }
  const running = groupBy(instances.filter((i) => i.status === 'running'), (i) => i.record_id);
  for (const [recordId, list] of running) if (list.length > 1) out.push(`record ${recordId} has ${list.length} running instances`);

  // Client request ids: applied once, and exactly the acknowledged ones.
  const actions = await db.selectFrom('workflow_actions').select(['actor_id', 'client_request_id', 'action']).where('client_request_id', 'is not', null).execute();
  const applied = groupBy(actions, (a) => `${a.actor_id}/${a.client_request_id}`);
  for (const [key, list] of applied) if (list.length > 1) out.push(`request ${key} applied ${list.length} times (${list.map((a) => a.action).join(',')})`);
  const acknowledged = input.sent.filter((s) => s.status === 200);
  for (const s of input.sent) {
    const n = applied.get(`${s.actorId}/${s.clientRequestId}`)?.length ?? 0;
    if (s.status === 200 && n !== 1) out.push(`${s.what} ${s.clientRequestId} was acknowledged but applied ${n} times`);
    if (s.status !== 200 && n !== 0) out.push(`${s.what} ${s.clientRequestId} was refused (${s.status}) but applied ${n} times`);
  }
  if (actions.length !== acknowledged.length) out.push(`${actions.length} actions with a client request id in the database, ${acknowledged.length} acknowledged to the client`);
  return out;
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}
