/**
 * The workflow's notifications (issue 14), sent through the notifications module's channels
 * (`sendUserNotification`: in-app now, DingTalk / WeCom later) in the action's transaction, so a
 * message exists exactly when the change it tells of committed:
 *
 * - a task that became pending (new, transferred, escalated, delegated, added signer, returned-to
 *   node, a sequential node's next, reclaimed) → its assignee, type `todo`, linking the task;
 * - a CC task (a CC node, or CC from a task) → its recipient, type `message`;
 * - the instance approved / rejected, or returned to the initiator → the initiator, type `message`;
 * - reminders (timer) and urges (催办) → the assignee, type `todo`.
 *
 * Which tasks are new is not tracked at every place that creates one: the action takes a snapshot of
 * the instance's open tasks under the instance lock before it changes anything
 * (`snapshotForNotify`), and `notifyFlowChanges` compares after it: every task pending now that was
 * not pending (or suspended) before is told once. A `waiting` task (sequential) is told when it turns
 * pending; a task handed back from `suspended` is not told again. A repeated request returns before
 * the snapshot, so it sends nothing. The actor is not told of what they did themselves.
 *
 * Texts are in the culture of the context that acted (timers: the server's, zh-CN): a notification
 * stores one text, not one per recipient's language.
 */
import { WorkflowGraphIndex } from '@tessera/core/workflow/engine';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { userDisplayNames } from '../identity/index.ts';
import { markNotificationsDone, sendUserNotification } from '../notifications/index.ts';
import * as repo from './workflow-engine.repository.ts';
import type { InstanceRow, TaskRow } from './workflow-engine.repository.ts';
import { graphOf } from './workflow-runner.ts';
import { workflowText, type WorkflowTextKey } from './workflow.messages.ts';

/** The instance as the action found it: the tasks already told of (pending or suspended) and its status. */
export interface NotifySnapshot {
  instanceId: string;
  told: ReadonlySet<string>;
  status: InstanceRow['status'];
}

/** What caused the change: who acted (null: the system), how, on which node, with what comment. */
export interface NotifyCause {
  actorId: string | null;
  action: string;
  nodeId?: string | null;
  comment?: string | null;
}

export const taskLink = (taskId: string) => `/flows/assignTask?taskId=${taskId}`;
const STARTED_LINK = '/flows/completedTasks?tab=started';
const CC_LINK = '/flows/completedTasks?tab=cc';

export async function snapshotForNotify(db: Db, instance: Pick<InstanceRow, 'id' | 'status'>): Promise<NotifySnapshot> {
  const tasks = await repo.tasksOfInstances(db, [instance.id]);
  return { instanceId: instance.id, told: new Set(tasks.filter((t) => t.status === 'pending' || t.status === 'suspended').map((t) => t.id)), status: instance.status };
}

/** A new instance: nothing told yet. */
export const newInstanceSnapshot = (instanceId: string): NotifySnapshot => ({ instanceId, told: new Set(), status: 'running' });

/** Sends what the action changed (see the file's comment), in its transaction. */
export async function notifyFlowChanges(ctx: ServiceContext, db: Db, before: NotifySnapshot, cause: NotifyCause): Promise<void> {
  const instance = await repo.findInstance(db, before.instanceId);
  if (!instance) return;
  const tasks = await repo.tasksOfInstances(db, [instance.id]);
  // Tasks told before and closed now (handled, passed on, cancelled): their to-do notifications are done.
  const closed = tasks.filter((t) => before.told.has(t.id) && t.status !== 'pending' && t.status !== 'suspended');
  await markNotificationsDone(db, closed.map((t) => ({ userId: t.assignee_id, link: taskLink(t.id) })));
  const fresh = tasks.filter((t) => t.status === 'pending' && !before.told.has(t.id) && t.assignee_id !== cause.actorId);
  const ended = before.status === 'running' && instance.status !== 'running' && instance.initiator_id !== cause.actorId;
  const endKind = !ended ? null : instance.status === 'approved' ? 'approved' : instance.status === 'rejected' ? 'rejected' : instance.status === 'withdrawn' && cause.action === 'return' ? 'returned' : null;
  if (fresh.length === 0 && endKind === null) return;

  const about = await describe(ctx, db, instance, [instance.initiator_id, ...(cause.actorId ? [cause.actorId] : [])]);
  const actor = cause.actorId ? (about.names.get(cause.actorId) ?? '') : workflowText(ctx, 'notify.system');
  const sender = cause.actorId ? { id: cause.actorId, name: actor } : null;
  const withComment = (text: string) => [text, cause.comment ? workflowText(ctx, 'notify.commentLine', { comment: cause.comment }) : ''].filter(Boolean).join('\n');

  for (const task of fresh) {
    const node = about.nodeName(task.node_id);
    if (task.kind === 'cc') {
      await sendUserNotification(db, {
        event: 'workflow.cc',
        userIds: [task.assignee_id],
        type: 'message',
        title: about.title('notify.ccTitle'),
        content: cause.action === 'cc' ? withComment(workflowText(ctx, 'notify.ccFromUser', { user: actor, flow: about.flow, node })) : workflowText(ctx, 'notify.ccFromNode', { flow: about.flow, node }),
        link: CC_LINK,
        sender,
      });
      continue;
    }
    await sendUserNotification(db, {
      event: 'workflow.task',
      userIds: [task.assignee_id],
      type: 'todo',
      title: about.title('notify.taskTitle'),
      content: workflowText(ctx, taskContentKey(task), { initiator: about.names.get(instance.initiator_id) ?? '', flow: about.flow, node, user: actor }),
      link: taskLink(task.id),
      sender,
    });
  }

  if (endKind) {
    const node = cause.nodeId ? about.nodeName(cause.nodeId) : '';
    const content = endKind === 'approved' ? workflowText(ctx, 'notify.approvedContent', { flow: about.flow }) : withComment(workflowText(ctx, endKind === 'rejected' ? 'notify.rejectedContent' : 'notify.returnedContent', { flow: about.flow, node, user: actor }));
    await sendUserNotification(db, {
      event: `workflow.${endKind}`,
      userIds: [instance.initiator_id],
      type: 'message',
      title: about.title(endKind === 'approved' ? 'notify.approvedTitle' : endKind === 'rejected' ? 'notify.rejectedTitle' : 'notify.returnedTitle'),
      content,
      link: STARTED_LINK,
      sender,
    });
  }
}

/** How the task came to its assignee: a transfer / escalation, a delegation, an added signer, or the node's own order. */
function taskContentKey(task: TaskRow): WorkflowTextKey {
  if (task.origin === 'delegate') return 'notify.taskDelegated';
  if (task.origin === 'addBefore' || task.origin === 'addAfter') return 'notify.taskAddedSigner';
  if (task.transferred_from) return 'notify.taskTransferred';
  return 'notify.taskContent';
}

/** The flow's name, the record's title, node names and the named users' display names, for the texts. */
async function describe(ctx: ServiceContext, db: Db, instance: InstanceRow, userIds: string[]) {
  const [[definition], graph, names] = await Promise.all([repo.definitionNames(db, [instance.definition_id]), graphOf(db, instance), userDisplayNames(db, [...new Set(userIds)], ctx.culture)]);
  const index = new WorkflowGraphIndex(graph);
  const flow = definition?.name ?? '';
  return {
    flow,
    names,
    nodeName: (nodeId: string) => index.nodes.get(nodeId)?.name || nodeId,
    title: (key: WorkflowTextKey) => workflowText(ctx, key, { flow, record: instance.record_title || '' }).replace(/ · $/, ''),
  };
}

/** `workflow.remind`: the timer's reminder to the assignee of a still pending task. */
export async function notifyReminder(ctx: ServiceContext, db: Db, instance: InstanceRow, task: TaskRow, nodeName: string): Promise<void> {
  const [definition] = await repo.definitionNames(db, [instance.definition_id]);
  await sendUserNotification(db, {
    event: 'workflow.remind',
    userIds: [task.assignee_id],
    type: 'todo',
    title: workflowText(ctx, 'engine.remindTitle', { title: instance.record_title }),
    content: workflowText(ctx, 'engine.remindContent', { node: nodeName, definition: definition?.name ?? '' }),
    link: taskLink(task.id),
  });
}

/** Urge (催办): the initiator or a flow administrator reminds an assignee, with an optional comment. */
export async function notifyUrge(ctx: ServiceContext, db: Db, urge: { instance: InstanceRow; task: TaskRow; nodeName: string; definitionName: string; urger: { id: string; name: string }; comment: string | null }): Promise<void> {
  await sendUserNotification(db, {
    event: 'workflow.urge',
    userIds: [urge.task.assignee_id],
    type: 'todo',
    title: workflowText(ctx, 'engine.urgeTitle', { title: urge.instance.record_title }),
    content: [workflowText(ctx, 'engine.urgeContent', { user: urge.urger.name, node: urge.nodeName, definition: urge.definitionName }), urge.comment].filter(Boolean).join('\n'),
    link: taskLink(urge.task.id),
    sender: urge.urger,
  });
}
