/**
 * Reads of running workflows: the record page's answer (`for-record`), one instance (initiator,
 * current or past assignees, holders of P.FlowInstances), instance lists (mine / all) and the
 * caller's task lists (to-do, done, CC).
 */
import { P } from '@tessera/core/contracts/permissions';
import type {
  TForRecordQuery,
  TWorkflowForRecord,
  TWorkflowInstanceDetail,
  TWorkflowInstanceList,
  TWorkflowInstanceQuery,
  TWorkflowTask,
  TWorkflowTaskList,
  TWorkflowTaskQuery,
  TWorkflowFlowChoices,
  TWorkflowTodoFacets,
} from '@tessera/core/contracts/workflow-runtime';
import { FLOW_STATUSES_STARTABLE, type TFlowStatus } from '@tessera/core/contracts/workflow-runtime';
import { actorHolds, type ServiceContext } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';
import type { TSelectionItem } from '@tessera/core/contracts/identity';
import type { TWorkflowGraph } from '@tessera/core/contracts/workflow';
import type { ZWorkflowUserQuery } from '@tessera/core/contracts/workflow-runtime';
import type { z } from 'zod';
import { readWorkflowRecord, visibleRecordIds } from '../business-data/index.ts';
import { userDirectory, userDisplayNames } from '../identity/index.ts';
import * as repo from './workflow-engine.repository.ts';
import { applicableDefinitions, currentNodesUntouched } from './workflow-engine.service.ts';
import { grantOfTasks } from './workflow-field-permissions.ts';
import { reclaimableTaskIds } from './workflow-task-moves.ts';
import { WorkflowViews } from './workflow-views.ts';
import { workflowError } from './workflow.messages.ts';

/** The nodes whose people the submitter picks. */
const chosenAtSubmitNodes = (graph: TWorkflowGraph) =>
  graph.nodes.flatMap((n) => {
    const rules = n.type === 'approval' ? n.config.assignees : n.type === 'cc' ? n.config.recipients : [];
    return rules.some((r) => r.kind === 'chosenAtSubmit') ? [{ nodeId: n.id, nodeName: n.name || n.id, required: n.type === 'approval' }] : [];
  });

const me = (ctx: ServiceContext) => {
  if (!ctx.user) throw forbidden();
  return ctx.user;
};

export async function getWorkflowForRecord(ctx: ServiceContext, query: TForRecordQuery): Promise<TWorkflowForRecord> {
  const user = me(ctx);
  const record = await readWorkflowRecord(ctx, ctx.db, query.pageId, query.recordId, 'read');
  const latest = await repo.latestInstanceOfRecord(ctx.db, record.pageId, query.recordId.toLowerCase());
  const views = new WorkflowViews(ctx);
  const running = latest?.status === 'running';
  const startable =
    !running && record.mayEdit && FLOW_STATUSES_STARTABLE.includes(record.flowStatus as TFlowStatus)
      ? (await applicableDefinitions(ctx.db, record.pageId, record, ctx.now())).map((d) => ({ id: d.id, name: d.name, chosenNodes: chosenAtSubmitNodes(d.graph) }))
      : [];
  let myPendingTask = null;
  let fieldPermissions = null;
  let myReclaimableTask = null;
  let canWithdraw = false;
  let canUrge = false;
  if (latest && running) {
    const tasks = await repo.tasksOfInstances(ctx.db, [latest.id]);
    const mine = tasks.find((t) => t.assignee_id === user.id && t.status === 'pending' && t.kind === 'approve');
    if (mine) [myPendingTask] = await views.tasks([mine], [latest]);
    fieldPermissions = (await grantOfTasks(ctx.db, latest, tasks, user.id))?.fieldPermissions ?? null;
    const approvedByMe = tasks.filter((t) => t.assignee_id === user.id && t.status === 'approved' && t.kind === 'approve');
    const reclaimable = await reclaimableTaskIds(ctx.db, approvedByMe);
    const reclaim = approvedByMe.filter((t) => reclaimable.has(t.id)).at(-1);
    if (reclaim) [myReclaimableTask] = await views.tasks([reclaim], [latest]);
    if (latest.initiator_id === user.id) canWithdraw = await currentNodesUntouched(ctx.db, latest.id, tasks);
    canUrge = (latest.initiator_id === user.id || actorHolds(ctx, P.FlowInstances)) && tasks.some((t) => t.kind === 'approve' && t.status === 'pending');
  }
  return {
    flowStatus: (record.flowStatus in { 0: 1, 1: 1, 2: 1, 3: 1, 4: 1 } ? record.flowStatus : 0) as TFlowStatus,
    instance: latest ? (await views.instances([latest]))[0] : null,
    startableDefinitions: startable,
    myPendingTask,
    fieldPermissions,
    myReclaimableTask,
    canWithdraw,
    canUrge,
  };
}

export async function getWorkflowInstance(ctx: ServiceContext, id: string): Promise<TWorkflowInstanceDetail> {
  const user = me(ctx);
  const row = await repo.findInstance(ctx.db, id);
  if (!row) throw workflowError(ctx, 404, 'NotFound', 'engine.instanceNotFound');
  const may = row.initiator_id === user.id || actorHolds(ctx, P.FlowInstances) || (await repo.isParticipant(ctx.db, id, user.id));
  if (!may) throw workflowError(ctx, 403, 'Forbidden', 'engine.mayNotRead');
  return new WorkflowViews(ctx).detail(row);
}

export async function listWorkflowInstances(ctx: ServiceContext, query: TWorkflowInstanceQuery): Promise<TWorkflowInstanceList> {
  const user = me(ctx);
  if (query.scope === 'all' && !actorHolds(ctx, P.FlowInstances)) throw forbidden({ permission: P.FlowInstances });
  const filter: repo.InstanceFilter = { ...instanceFilters(query), initiatorId: query.scope === 'mine' ? user.id : query.initiatorId?.toLowerCase(), status: query.status, pageId: query.pageId, filter: query.Filter };
  // Mine is the caller's own: another initiator asked for there finds nothing.
  if (query.scope === 'mine' && query.initiatorId && query.initiatorId.toLowerCase() !== user.id) return { items: [], totalCount: 0 };
  // All instances: only those on records the caller's data scope shows (their own stay visible under `mine`).
  if (query.scope === 'all' && !user.isAdmin) filter.visible = await visiblePages(ctx, query.pageId ? [query.pageId] : await repo.pagesWithInstances(ctx.db));
  const [rows, totalCount] = await Promise.all([repo.listInstances(ctx.db, filter, { offset: query.SkipCount, limit: query.MaxResultCount }), repo.countInstances(ctx.db, filter)]);
  return { items: await new WorkflowViews(ctx).instances(rows), totalCount };
}

/** Flow management's filters (contracts: ZWorkflowInstanceQuery). */
const instanceFilters = (query: TWorkflowInstanceQuery): Partial<repo.InstanceFilter> => ({
  definitionId: query.definitionId?.toLowerCase(),
  startedFrom: query.startedFrom ? new Date(query.startedFrom) : undefined,
  startedTo: query.startedTo ? new Date(query.startedTo) : undefined,
  currentNodeName: query.currentNodeName,
  currentNodeId: query.currentNodeId,
  assigneeId: query.assigneeId?.toLowerCase(),
});

async function visiblePages(ctx: ServiceContext, pageIds: readonly string[]): Promise<NonNullable<repo.InstanceFilter['visible']>> {
  const out: NonNullable<repo.InstanceFilter['visible']> = { allPages: [], somePages: [] };
  for (const pageId of pageIds) {
    const ids = await visibleRecordIds(ctx, pageId);
    if (ids === 'all') out.allPages.push(pageId);
    else if (ids !== 'none') out.somePages.push({ pageId, recordIds: ids });
  }
  return out;
}

export async function listMyWorkflowTasks(ctx: ServiceContext, which: 'todo' | 'done' | 'cc', query: TWorkflowTaskQuery): Promise<TWorkflowTaskList> {
  const user = me(ctx);
  const filter: repo.TaskListFilter = {
    assigneeId: user.id,
    kind: which === 'cc' ? 'cc' : 'approve',
    state: which === 'todo' ? 'open' : which === 'done' ? 'done' : 'any',
    pageId: query.pageId,
    filter: query.Filter,
    definitionId: query.definitionId,
    initiatorId: query.initiatorId,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
    overdueAt: query.overdue && which === 'todo' ? ctx.now() : undefined,
  };
  const [rows, totalCount] = await Promise.all([repo.listTasks(ctx.db, filter, { offset: query.SkipCount, limit: query.MaxResultCount }), repo.countTasks(ctx.db, filter)]);
  return { items: await new WorkflowViews(ctx).tasks(rows), totalCount };
}

/** Flow management's flow filter: the definitions that have instances. */
export async function workflowFlowChoices(db: ServiceContext['db']): Promise<TWorkflowFlowChoices> {
  return { items: await repo.definitionsWithInstances(db) };
}

/** The caller's open to-do tasks: the list's own count (an index-only count on the tasks' list index). */
export async function myTodoCount(ctx: ServiceContext): Promise<{ count: number }> {
  const user = me(ctx);
  return { count: await repo.countTasks(ctx.db, { assigneeId: user.id, kind: 'approve', state: 'open' }) };
}

/** The flows and initiators of the caller's open to-do tasks (display names in the caller's culture). */
export async function myTodoFacets(ctx: ServiceContext): Promise<TWorkflowTodoFacets> {
  const user = me(ctx);
  const facets = await repo.openTaskFacets(ctx.db, user.id);
  const names = await userDisplayNames(ctx.db, facets.initiators.map((i) => i.id), ctx.culture);
  const initiators = facets.initiators.map((i) => ({ ...i, name: names.get(i.id) ?? null })).sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '', ctx.culture));
  return { flows: facets.flows, initiators };
}

/** One task of the caller (the task centre opens `?taskId=` from a notification's link); another's task answers 404. */
export async function getMyWorkflowTask(ctx: ServiceContext, id: string): Promise<TWorkflowTask> {
  const user = me(ctx);
  const row = await repo.findTask(ctx.db, id);
  if (!row || row.assignee_id !== user.id) throw workflowError(ctx, 404, 'NotFound', 'engine.taskNotFound');
  const [task] = await new WorkflowViews(ctx).tasks([row]);
  return task!;
}

/** Display names of active users for a flow's pickers: the holder of a pending task, or a user who may submit the record. */
export async function workflowUsers(ctx: ServiceContext, query: z.output<typeof ZWorkflowUserQuery>): Promise<TSelectionItem[]> {
  const user = me(ctx);
  if (query.taskId) {
    const task = await repo.findTask(ctx.db, query.taskId);
    if (!task || task.assignee_id !== user.id || task.status !== 'pending' || task.kind !== 'approve') throw workflowError(ctx, 403, 'Forbidden', 'engine.notAssignee');
  } else {
    await readWorkflowRecord(ctx, ctx.db, query.pageId!, query.recordId!, 'edit');
  }
  const items = await userDirectory(ctx.db, { filter: query.filter, ids: query.ids, skipCount: 0, maxResultCount: query.maxResultCount }, ctx.culture);
  return items.map((item) => ({ ...item, description: null }));
}
