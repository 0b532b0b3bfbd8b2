/**
 * Field permissions of approval nodes on the record (issue 13; rules in
 * packages/core/src/workflow/field-permissions.ts): what the caller's pending approval tasks on a
 * record's running instance let them change. Registered into business-data at start-up
 * (`registerApproverGrants`, index.ts), which enforces it when the record is saved and read, and
 * answered to the record page by `for-record`.
 *
 * Read without locking the instance: the save holds the record's row lock, and the engine takes the
 * instance's lock before the record's, so locking it here could deadlock. A save racing an approval
 * of the same node is judged by the tasks as committed when the save read them.
 */
import type { TWorkflowNodeOf } from '@tessera/core/contracts/workflow';
import { mergeFieldPermissions } from '@tessera/core/workflow/field-permissions';
import type { Db } from '../../platform/context.ts';
import type { ApproverGrant } from '../business-data/index.ts';
import * as repo from './workflow-engine.repository.ts';
import type { InstanceRow, TaskRow } from './workflow-engine.repository.ts';
import { graphOf } from './workflow-runner.ts';

/** The user's pending approval tasks on the instance (running) and what their nodes grant; null: none. */
export async function grantOfTasks(db: Db, instance: InstanceRow, tasks: readonly TaskRow[], userId: string): Promise<ApproverGrant | null> {
  if (instance.status !== 'running') return null;
  const mine = tasks.filter((t) => t.instance_id === instance.id && t.assignee_id === userId && t.kind === 'approve' && t.status === 'pending');
  if (mine.length === 0) return null;
  const graph = await graphOf(db, instance);
  const configs = mine.map((t) => {
    const node = graph.nodes.find((n) => n.id === t.node_id);
    return node?.type === 'approval' ? (node as TWorkflowNodeOf<'approval'>).config.fieldPermissions : {};
  });
  return { taskIds: mine.map((t) => t.id), fieldPermissions: mergeFieldPermissions(configs) };
}

/** business-data's `ApproverGrantSource`: the user's grant on one record. */
export async function approverGrant(db: Db, query: { userId: string; pageId: string; recordId: string }): Promise<ApproverGrant | null> {
  const instance = await repo.latestInstanceOfRecord(db, query.pageId, query.recordId);
  if (!instance || instance.status !== 'running') return null;
  return grantOfTasks(db, instance, await repo.tasksOfInstances(db, [instance.id]), query.userId);
}
