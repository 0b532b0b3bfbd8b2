/**
 * SQL of the engine's tables: `workflow_instances`, `workflow_node_states`, `workflow_tasks`,
 * `workflow_actions`, `workflow_outbox` (migration 0901). Writes take the action's transaction.
 */
import { sql, type Insertable, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type {
  Database,
  WorkflowActionsTable,
  WorkflowInstancesTable,
  WorkflowNodeStatesTable,
  WorkflowOutboxTable,
  WorkflowTasksTable,
} from '../../db/schema.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;
export type InstanceRow = Selectable<WorkflowInstancesTable>;
export type NodeStateRow = Selectable<WorkflowNodeStatesTable>;
export type TaskRow = Selectable<WorkflowTasksTable>;
export type ActionRow = Selectable<WorkflowActionsTable>;

/** Tasks still to act on: pending, a sequential node's later ones (waiting), delegated / waiting for before-signers (suspended). */
export const OPEN_TASK_STATUSES = ['pending', 'waiting', 'suspended'] as const;

/** Actions a person took on a task (withdraw and reclaim are allowed only while there are none on the next nodes). */
export const HUMAN_TASK_ACTIONS = ['approve', 'reject', 'return', 'transfer', 'delegate', 'addSignerBefore', 'addSignerAfter', 'removeSigner', 'cc'] as const;

// ---------------------------------------------------------------- instances

export function insertInstance(db: Db, row: Insertable<WorkflowInstancesTable>) {
  return db.insertInto('workflow_instances').values(row).execute();
}

/** The instance row, locked until the transaction ends (every action serialises on it). */
export function lockInstance(db: Db, id: string) {
  return db.selectFrom('workflow_instances').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findInstance(db: Db, id: string) {
  return db.selectFrom('workflow_instances').selectAll().where('id', '=', id).executeTakeFirst();
}

export function instancesByIds(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([] as InstanceRow[]);
  return db.selectFrom('workflow_instances').selectAll().where('id', 'in', [...ids]).execute();
}

export function endInstance(db: Db, id: string, status: InstanceRow['status'], at: Date) {
  return db.updateTable('workflow_instances').set({ status, ended_time: at }).where('id', '=', id).execute();
}

export function latestInstanceOfRecord(db: Db, pageId: string, recordId: string) {
  return db
    .selectFrom('workflow_instances')
    .selectAll()
    .where('page_id', '=', pageId)
    .where('record_id', '=', recordId)
    .orderBy('started_time', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function runningInstanceCount(db: Db, definitionId: string): Promise<number> {
  const row = await db
    .selectFrom('workflow_instances')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('definition_id', '=', definitionId)
    .where('status', '=', 'running')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface InstanceFilter {
  initiatorId?: string;
  status?: InstanceRow['status'];
  pageId?: string;
  filter?: string;
  definitionId?: string;
  /** Inclusive range on the started time. */
  startedFrom?: Date;
  startedTo?: Date;
  /** An active approval node of the instance: its name (in the pinned graph) contains the text. */
  currentNodeName?: string;
  currentNodeId?: string;
  /** A user holding a pending approve task on the instance. */
  assigneeId?: string;
  /** Data scopes: pages seen whole, and pages seen in part (the visible records' ids as a subquery); instances of other pages are left out. */
  visible?: { allPages: string[]; somePages: { pageId: string; recordIds: RawBuilder<unknown> }[] };
}

function instances(db: Db, f: InstanceFilter) {
  let q = db.selectFrom('workflow_instances as i').innerJoin('workflow_definitions as d', 'd.id', 'i.definition_id');
  if (f.initiatorId) q = q.where('i.initiator_id', '=', f.initiatorId);
  if (f.status) q = q.where('i.status', '=', f.status);
  if (f.pageId) q = q.where('i.page_id', '=', f.pageId);
  if (f.filter?.trim()) {
    const p = likePattern(f.filter.trim());
    q = q.where((eb) => eb.or([eb('i.record_title', 'ilike', p), eb('d.name', 'ilike', p)]));
  }
  if (f.definitionId) q = q.where('i.definition_id', '=', f.definitionId);
  if (f.startedFrom) q = q.where('i.started_time', '>=', f.startedFrom);
  if (f.startedTo) q = q.where('i.started_time', '<=', f.startedTo);
  if (f.currentNodeId) {
    const nodeId = f.currentNodeId;
    q = q.where(({ exists, selectFrom }) =>
      exists(selectFrom('workflow_node_states as s').select('s.id').whereRef('s.instance_id', '=', 'i.id').where('s.status', '=', 'active').where('s.node_type', '=', 'approval').where('s.node_id', '=', nodeId)),
    );
  }
  const nodeName = f.currentNodeName?.trim();
  if (nodeName) {
    // The node's name lives in the pinned version's graph (jsonb): match the active visits' nodes there.
    q = q.where(
      sql<boolean>`exists (select 1 from workflow_node_states s
        join workflow_definition_versions v on v.definition_id = i.definition_id and v.version = i.version
        cross join lateral jsonb_array_elements(v.graph -> 'nodes') n
        where s.instance_id = i.id and s.status = 'active' and s.node_type = 'approval'
          and n ->> 'id' = s.node_id and (n ->> 'name') ilike ${likePattern(nodeName)})`,
    );
  }
  if (f.assigneeId) {
    const assigneeId = f.assigneeId;
    q = q.where(({ exists, selectFrom }) =>
      exists(selectFrom('workflow_tasks as t').select('t.id').whereRef('t.instance_id', '=', 'i.id').where('t.assignee_id', '=', assigneeId).where('t.kind', '=', 'approve').where('t.status', '=', 'pending')),
    );
  }
  const visible = f.visible;
  if (visible) {
    q = q.where((eb) =>
      eb.or([
        ...(visible.allPages.length ? [eb('i.page_id', 'in', visible.allPages)] : []),
        ...visible.somePages.map((p) => eb.and([eb('i.page_id', '=', p.pageId), sql<boolean>`${sql.ref('i.record_id')} in (${p.recordIds})`])),
        // Nothing visible: no row.
        sql<boolean>`false`,
      ]),
    );
  }
  return q;
}

/** The definitions that have instances, by name (flow management's flow filter). */
export function definitionsWithInstances(db: Db) {
  return db
    .selectFrom('workflow_definitions as d')
    .select(['d.id', 'd.name'])
    .where((eb) => eb.exists(eb.selectFrom('workflow_instances as i').select('i.id').whereRef('i.definition_id', '=', 'd.id')))
    .orderBy('d.name')
    .orderBy('d.id')
    .limit(1000)
    .execute();
}

/** The pages that have workflow instances (data scopes are decided per page). */
export async function pagesWithInstances(db: Db): Promise<string[]> {
  return (await db.selectFrom('workflow_instances').select('page_id').distinct().execute()).map((r) => r.page_id);
}

export function listInstances(db: Db, f: InstanceFilter, window: { offset: number; limit: number }) {
  return instances(db, f).selectAll('i').orderBy('i.started_time', 'desc').orderBy('i.id', 'desc').offset(window.offset).limit(window.limit).execute();
}

export async function countInstances(db: Db, f: InstanceFilter): Promise<number> {
  const row = await instances(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function definitionNames(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([] as { id: string; name: string }[]);
  return db.selectFrom('workflow_definitions').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
}

// ---------------------------------------------------------------- node states

export async function insertNodeState(db: Db, row: Omit<Insertable<WorkflowNodeStatesTable>, 'id'>): Promise<string> {
  const id = uuidv7();
  await db.insertInto('workflow_node_states').values({ ...row, id }).execute();
  return id;
}

export function nodeStatesOf(db: Db, instanceIds: readonly string[]) {
  if (instanceIds.length === 0) return Promise.resolve([] as NodeStateRow[]);
  return db.selectFrom('workflow_node_states').selectAll().where('instance_id', 'in', [...instanceIds]).orderBy('entered_time').orderBy('id').execute();
}

export function setNodeState(db: Db, id: string, status: NodeStateRow['status'], at: Date | null, arrivedFrom?: string[]) {
  return db
    .updateTable('workflow_node_states')
    .set({ status, completed_time: at, ...(arrivedFrom ? { arrived_from: JSON.stringify(arrivedFrom) } : {}) })
    .where('id', '=', id)
    .execute();
}

export function setNodeStateCause(db: Db, id: string, taskId: string) {
  return db.updateTable('workflow_node_states').set({ caused_by_task_id: taskId }).where('id', '=', id).execute();
}

/** Node visits entered (or joins arrived at) when the given tasks completed. */
export function nodeStatesCausedBy(db: Db, taskIds: readonly string[]) {
  if (taskIds.length === 0) return Promise.resolve([] as NodeStateRow[]);
  return db.selectFrom('workflow_node_states').selectAll().where('caused_by_task_id', 'in', [...taskIds]).execute();
}

/** The visits' tasks (all kinds). */
export function tasksOfNodeStates(db: Db, nodeStateIds: readonly string[]) {
  if (nodeStateIds.length === 0) return Promise.resolve([] as TaskRow[]);
  return db.selectFrom('workflow_tasks').selectAll().where('node_state_id', 'in', [...nodeStateIds]).orderBy('seq').orderBy('creation_time').orderBy('id').execute();
}

export function cancelActiveNodeStates(db: Db, instanceId: string, at: Date) {
  return db.updateTable('workflow_node_states').set({ status: 'cancelled', completed_time: at }).where('instance_id', '=', instanceId).where('status', '=', 'active').execute();
}

// ---------------------------------------------------------------- tasks

export async function insertTasks(db: Db, rows: Omit<Insertable<WorkflowTasksTable>, 'id'>[]): Promise<TaskRow[]> {
  if (rows.length === 0) return [];
  return db.insertInto('workflow_tasks').values(rows.map((r) => ({ ...r, id: uuidv7() }))).returningAll().execute();
}

export function findTask(db: Db, id: string) {
  return db.selectFrom('workflow_tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function tasksOfNodeState(db: Db, nodeStateId: string) {
  return db.selectFrom('workflow_tasks').selectAll().where('node_state_id', '=', nodeStateId).orderBy('seq').orderBy('creation_time').orderBy('id').execute();
}

export function tasksOfInstances(db: Db, instanceIds: readonly string[]) {
  if (instanceIds.length === 0) return Promise.resolve([] as TaskRow[]);
  return db.selectFrom('workflow_tasks').selectAll().where('instance_id', 'in', [...instanceIds]).orderBy('creation_time').orderBy('id').execute();
}

export function updateTask(db: Db, id: string, changes: Partial<Pick<TaskRow, 'status' | 'comment' | 'completed_time' | 'is_read' | 'due_time'>>) {
  return db.updateTable('workflow_tasks').set(changes).where('id', '=', id).execute();
}

/** Tasks waiting for `fromTaskId` (a delegate, signers added before) wait for `toTaskId` instead (a reassigned task). */
export function reparentTasks(db: Db, fromTaskId: string, toTaskId: string) {
  // The schema types parent_task_id as written once (no action changes it); a reassignment is the one exception.
  return sql`update workflow_tasks set parent_task_id = ${toTaskId} where parent_task_id = ${fromTaskId}`.execute(db);
}

/** Closes the open (pending / waiting / suspended) tasks of an instance, or of one node visit; answers the closed ones. */
export function closeOpenTasks(db: Db, where: { instanceId: string; nodeStateId?: string; kind?: TaskRow['kind'] }, status: TaskRow['status'], at: Date) {
  let q = db
    .updateTable('workflow_tasks')
    .set({ status, completed_time: at })
    .where('instance_id', '=', where.instanceId)
    .where('status', 'in', [...OPEN_TASK_STATUSES]);
  if (where.nodeStateId) q = q.where('node_state_id', '=', where.nodeStateId);
  if (where.kind) q = q.where('kind', '=', where.kind);
  return q.returningAll().execute();
}

export interface TaskListFilter {
  assigneeId: string;
  kind: TaskRow['kind'];
  /** `open`: pending (to-do); `done`: completed by the assignee (approved / rejected / returned / transferred). */
  state: 'open' | 'done' | 'any';
  pageId?: string;
  filter?: string;
  /** The instance's definition (the flow) and initiator. */
  definitionId?: string;
  initiatorId?: string;
  /** The task's arrival (creation), inclusive. */
  from?: Date;
  to?: Date;
  /** Open tasks past their due time at `now`. */
  overdueAt?: Date;
}

// Reads the tasks' own list index (migration 0903) alone unless a filter needs the instance or the
// definition: every task has both (foreign keys), so joining them only to filter changes no answer,
// and the exact count of 50,000 open tasks stays an index-only count instead of 50,000 joins.
function taskList(db: Db, f: TaskListFilter) {
  let q = db.selectFrom('workflow_tasks as t').where('t.assignee_id', '=', f.assigneeId).where('t.kind', '=', f.kind);
  if (f.state === 'open') q = q.where('t.status', '=', 'pending');
  // Completed tasks have a completion time; saying so lets the done list use its partial index.
  if (f.state === 'done') q = q.where('t.status', 'in', ['approved', 'rejected', 'returned', 'transferred']).where('t.completed_time', 'is not', null);
  if (f.from) q = q.where('t.creation_time', '>=', f.from);
  if (f.to) q = q.where('t.creation_time', '<=', f.to);
  if (f.overdueAt) q = q.where('t.due_time', '<', f.overdueAt);
  const text = f.filter?.trim();
  if (f.pageId || text || f.definitionId || f.initiatorId) {
    q = q.where((eb) => {
      let i = eb.selectFrom('workflow_instances as i').innerJoin('workflow_definitions as d', 'd.id', 'i.definition_id').select('i.id').whereRef('i.id', '=', 't.instance_id');
      if (f.pageId) i = i.where('i.page_id', '=', f.pageId);
      if (f.definitionId) i = i.where('i.definition_id', '=', f.definitionId);
      if (f.initiatorId) i = i.where('i.initiator_id', '=', f.initiatorId);
      if (text) {
        const p = likePattern(text);
        i = i.where((w) => w.or([w('i.record_title', 'ilike', p), w('d.name', 'ilike', p)]));
      }
      return eb.exists(i);
    });
  }
  return q;
}

export function listTasks(db: Db, f: TaskListFilter, window: { offset: number; limit: number }) {
  const order = f.state === 'done' ? 't.completed_time' : 't.creation_time';
  return taskList(db, f).selectAll('t').orderBy(order, 'desc').orderBy('t.id', 'desc').offset(window.offset).limit(window.limit).execute();
}

export async function countTasks(db: Db, f: TaskListFilter): Promise<number> {
  const row = await taskList(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The flows and initiators of a user's open to-do tasks, with how many each (the to-do list's filter choices). */
export async function openTaskFacets(db: Db, assigneeId: string) {
  const open = () =>
    db
      .selectFrom('workflow_tasks as t')
      .innerJoin('workflow_instances as i', 'i.id', 't.instance_id')
      .where('t.assignee_id', '=', assigneeId)
      .where('t.kind', '=', 'approve')
      .where('t.status', '=', 'pending');
  const [flows, initiators] = await Promise.all([
    open()
      .innerJoin('workflow_definitions as d', 'd.id', 'i.definition_id')
      .select((eb) => ['d.id', 'd.name', eb.fn.countAll<string>().as('n')])
      .groupBy(['d.id', 'd.name'])
      .orderBy('d.name')
      .execute(),
    open()
      .select((eb) => ['i.initiator_id as id', eb.fn.countAll<string>().as('n')])
      .groupBy('i.initiator_id')
      .execute(),
  ]);
  return { flows: flows.map((f) => ({ id: f.id, name: f.name, count: Number(f.n) })), initiators: initiators.map((i) => ({ id: i.id, count: Number(i.n) })) };
}

/** Users who approved a task of the instance (auto-approval `ifApprovedBefore`). */
export async function approversOf(db: Db, instanceId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('workflow_tasks').select('assignee_id').where('instance_id', '=', instanceId).where('kind', '=', 'approve').where('status', '=', 'approved').execute();
  return new Set(rows.map((r) => r.assignee_id));
}

/** Whether a user holds or held any task of the instance (who may read it). */
export async function isParticipant(db: Db, instanceId: string, userId: string): Promise<boolean> {
  return !!(await db.selectFrom('workflow_tasks').select('id').where('instance_id', '=', instanceId).where('assignee_id', '=', userId).limit(1).executeTakeFirst());
}

// ---------------------------------------------------------------- actions and outbox

export function insertAction(db: Db, row: Omit<Insertable<WorkflowActionsTable>, 'id'>) {
  return db.insertInto('workflow_actions').values({ ...row, id: uuidv7() }).execute();
}

export function findRequest(db: Db, actorId: string, clientRequestId: string) {
  return db.selectFrom('workflow_actions').selectAll().where('actor_id', '=', actorId).where('client_request_id', '=', clientRequestId).executeTakeFirst();
}

export function actionsOf(db: Db, instanceId: string) {
  return db.selectFrom('workflow_actions').selectAll().where('instance_id', '=', instanceId).orderBy('creation_time').orderBy('id').execute();
}

/** Actions a person took on the given tasks (withdraw is allowed only while there are none). */
export async function humanActionsOnTasks(db: Db, taskIds: readonly string[]): Promise<number> {
  if (taskIds.length === 0) return 0;
  const row = await db
    .selectFrom('workflow_actions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('task_id', 'in', [...taskIds])
    .where('action', 'in', [...HUMAN_TASK_ACTIONS])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Which of the given tasks a person acted on. */
export async function tasksActedOn(db: Db, taskIds: readonly string[]): Promise<Set<string>> {
  if (taskIds.length === 0) return new Set();
  const rows = await db.selectFrom('workflow_actions').select('task_id').distinct().where('task_id', 'in', [...taskIds]).where('action', 'in', [...HUMAN_TASK_ACTIONS]).execute();
  return new Set(rows.map((r) => r.task_id!));
}

/** When a task was last urged (催办). */
export async function lastUrged(db: Db, taskIds: readonly string[]): Promise<Map<string, Date>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('workflow_actions')
    .select(['task_id', (eb) => eb.fn.max('creation_time').as('at')])
    .where('task_id', 'in', [...taskIds])
    .where('action', '=', 'urge')
    .groupBy('task_id')
    .execute();
  return new Map(rows.map((r) => [r.task_id!, new Date(r.at as unknown as string)]));
}

export function insertOutbox(db: Db, row: Pick<Insertable<WorkflowOutboxTable>, 'instance_id' | 'event'> & { payload: Record<string, unknown> }) {
  return db.insertInto('workflow_outbox').values({ id: uuidv7(), instance_id: row.instance_id, event: row.event, payload: JSON.stringify(row.payload) }).execute();
}

export function outboxOf(db: Db, instanceId: string) {
  return db.selectFrom('workflow_outbox').selectAll().where('instance_id', '=', instanceId).orderBy('creation_time').orderBy('id').execute();
}

export const jsonText = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;
