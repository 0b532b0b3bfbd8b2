/**
 * Instances and tasks as the API answers them (contracts/workflow-runtime.ts): names of users,
 * definitions and nodes, current nodes with their pending assignees, what a task's assignee may do,
 * and the progress view of an instance. Batched: one query per kind of row for a whole list.
 */
import type { TWorkflowGraph, TWorkflowNodeOf } from '@tessera/core/contracts/workflow';
import type {
  TWorkflowHistoryAction,
  TWorkflowInstance,
  TWorkflowInstanceDetail,
  TWorkflowNodeProgress,
  TWorkflowTask,
  TWorkflowTaskAction,
} from '@tessera/core/contracts/workflow-runtime';
import { pendingTaskActions, WorkflowGraphIndex } from '@tessera/core/workflow/engine';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { iso } from '../../platform/sql-values.ts';
import { userDisplayNames } from '../identity/index.ts';
import * as repo from './workflow-engine.repository.ts';
import type { InstanceRow, TaskRow } from './workflow-engine.repository.ts';
import { graphOf } from './workflow-runner.ts';
import { reclaimableTaskIds, removableTasks } from './workflow-task-moves.ts';

class Graphs {
  private readonly cache = new Map<string, WorkflowGraphIndex>();
  constructor(private readonly db: Db) {}
  async of(i: Pick<InstanceRow, 'definition_id' | 'version'>): Promise<WorkflowGraphIndex> {
    const key = `${i.definition_id}/${i.version}`;
    let hit = this.cache.get(key);
    if (!hit) this.cache.set(key, (hit = new WorkflowGraphIndex(await graphOf(this.db, i))));
    return hit;
  }
}

export class WorkflowViews {
  private readonly graphs: Graphs;
  constructor(private readonly ctx: ServiceContext, private readonly db: Db = ctx.db) {
    this.graphs = new Graphs(db);
  }

  async instances(rows: readonly InstanceRow[]): Promise<TWorkflowInstance[]> {
    if (rows.length === 0) return [];
    const running = rows.filter((r) => r.status === 'running').map((r) => r.id);
    const [definitions, tasks] = await Promise.all([repo.definitionNames(this.db, rows.map((r) => r.definition_id)), repo.tasksOfInstances(this.db, running)]);
    const pending = tasks.filter((t) => t.kind === 'approve' && t.status === 'pending');
    const names = await userDisplayNames(this.db, [...rows.map((r) => r.initiator_id), ...pending.map((t) => t.assignee_id)], this.ctx.culture);
    const out: TWorkflowInstance[] = [];
    for (const r of rows) {
      const index = await this.graphs.of(r);
      const byNode = new Map<string, { id: string; name: string | null }[]>();
      for (const t of pending.filter((t) => t.instance_id === r.id)) byNode.set(t.node_id, [...(byNode.get(t.node_id) ?? []), { id: t.assignee_id, name: names.get(t.assignee_id) ?? null }]);
      out.push({
        id: r.id,
        definitionId: r.definition_id,
        definitionName: definitions.find((d) => d.id === r.definition_id)?.name ?? '',
        version: r.version,
        pageId: r.page_id,
        recordId: r.record_id,
        recordTitle: r.record_title,
        initiatorId: r.initiator_id,
        initiatorName: names.get(r.initiator_id) ?? null,
        status: r.status,
        startedTime: iso(r.started_time)!,
        endedTime: iso(r.ended_time),
        currentNodes: [...byNode].map(([nodeId, pendingAssignees]) => ({ nodeId, nodeName: index.nodes.get(nodeId)?.name ?? nodeId, pendingAssignees })),
      });
    }
    return out;
  }

  async tasks(rows: readonly TaskRow[], instanceRows?: readonly InstanceRow[]): Promise<TWorkflowTask[]> {
    if (rows.length === 0) return [];
    const instanceIds = [...new Set(rows.map((t) => t.instance_id))];
    // One query for a page of tasks, not one per instance.
    const instances = instanceRows ?? (await repo.instancesByIds(this.db, instanceIds));
    const running = new Set(instances.filter((i) => i.status === 'running').map((i) => i.id));
    const pendingOwn = rows.filter((t) => t.status === 'pending' && t.kind === 'approve' && t.origin === null && running.has(t.instance_id));
    const [definitions, states, reclaimable, visitTasks] = await Promise.all([
      repo.definitionNames(this.db, instances.map((i) => i.definition_id)),
      repo.nodeStatesOf(this.db, instanceIds),
      reclaimableTaskIds(this.db, rows.filter((t) => running.has(t.instance_id))),
      repo.tasksOfNodeStates(this.db, [...new Set(pendingOwn.map((t) => t.node_state_id))]),
    ]);
    const removable = new Map<string, TaskRow[]>();
    for (const t of pendingOwn) removable.set(t.id, await removableTasks(this.db, t, visitTasks.filter((x) => x.node_state_id === t.node_state_id)));
    const names = await userDisplayNames(this.db, [...rows.map((t) => t.assignee_id), ...instances.map((i) => i.initiator_id), ...[...removable.values()].flat().map((t) => t.assignee_id)], this.ctx.culture);
    const out: TWorkflowTask[] = [];
    for (const t of rows) {
      const i = instances.find((x) => x.id === t.instance_id)!;
      const index = await this.graphs.of(i);
      const node = index.nodes.get(t.node_id);
      const approval = node?.type === 'approval' ? (node as TWorkflowNodeOf<'approval'>) : null;
      const isOpen = t.status === 'pending' && i.status === 'running';
      let allowed: TWorkflowTaskAction[] = [];
      const visited = new Set(states.filter((s) => s.instance_id === i.id && s.status === 'completed').map((s) => s.node_id));
      const returnTargets = approval && approval.config.returnTo === 'any' ? index.earlierApprovals(t.node_id).filter((n) => visited.has(n.id)).map((n) => ({ nodeId: n.id, nodeName: n.name })) : [];
      const removableSigners = (removable.get(t.id) ?? []).map((x) => ({ id: x.assignee_id, name: names.get(x.assignee_id) ?? null }));
      if (isOpen && t.kind === 'approve' && approval) {
        allowed = pendingTaskActions(approval.config.actions, t.origin).filter((a) => a !== 'removeSigner' || removableSigners.length > 0);
      }
      if (reclaimable.has(t.id)) allowed.push('reclaim');
      // A CC stays readable after the flow ended.
      if (t.kind === 'cc' && t.status === 'pending') allowed.push('ccRead');
      out.push({
        id: t.id,
        instanceId: i.id,
        definitionName: definitions.find((d) => d.id === i.definition_id)?.name ?? '',
        pageId: i.page_id,
        recordId: i.record_id,
        recordTitle: i.record_title,
        initiatorId: i.initiator_id,
        initiatorName: names.get(i.initiator_id) ?? null,
        nodeId: t.node_id,
        nodeName: node?.name ?? t.node_id,
        kind: t.kind,
        assigneeId: t.assignee_id,
        assigneeName: names.get(t.assignee_id) ?? null,
        status: t.status,
        isRead: t.is_read,
        instanceStatus: i.status,
        creationTime: iso(t.creation_time)!,
        completedTime: iso(t.completed_time),
        dueTime: iso(t.due_time),
        allowedActions: allowed,
        commentRequiredOnReject: approval?.config.commentRequiredOnReject ?? false,
        returnTargets,
        origin: t.origin,
        removableSigners,
      });
    }
    return out;
  }

  async detail(row: InstanceRow): Promise<TWorkflowInstanceDetail> {
    const [instance] = await this.instances([row]);
    const index = await this.graphs.of(row);
    const [states, tasks, actions] = await Promise.all([repo.nodeStatesOf(this.db, [row.id]), repo.tasksOfInstances(this.db, [row.id]), repo.actionsOf(this.db, row.id)]);
    // Add signers / remove signers / CC name several users (`result.userIds`); transfer and the like one.
    const targetsOf = (a: (typeof actions)[number]): string[] => {
      const listed = (a.result as { userIds?: unknown } | null)?.userIds;
      return Array.isArray(listed) ? listed.map(String) : a.target_user_id ? [a.target_user_id] : [];
    };
    const names = await userDisplayNames(this.db, actions.flatMap((a) => [a.actor_id ?? '', ...targetsOf(a)]).filter(Boolean), this.ctx.culture);
    const progress = (nodeId: string): TWorkflowNodeProgress => {
      const visits = states.filter((s) => s.node_id === nodeId);
      if (visits.some((s) => s.status === 'active')) return 'active';
      if (visits.some((s) => s.status === 'completed')) return 'done';
      if (visits.length > 0 || row.status !== 'running') return 'skipped';
      return 'pending';
    };
    const graph: TWorkflowGraph = index.graph;
    return {
      ...instance,
      graph,
      nodes: graph.nodes.map((n) => ({ nodeId: n.id, type: n.type, state: progress(n.id) })),
      history: actions.map((a) => ({
        id: a.id,
        nodeId: a.node_id,
        nodeName: a.node_id ? (index.nodes.get(a.node_id)?.name ?? a.node_id) : null,
        action: a.action as TWorkflowHistoryAction,
        actorId: a.actor_id,
        actorName: a.actor_id ? (names.get(a.actor_id) ?? null) : null,
        comment: a.comment,
        targetUserId: a.target_user_id,
        targetUserName: targetsOf(a).map((id) => names.get(id) ?? id).join('、') || null,
        targetNodeId: a.target_node_id,
        time: iso(a.creation_time)!,
      })),
      tasks: await this.tasks(tasks, [row]),
    };
  }
}
