import type { TWorkflowHistoryEntry, TWorkflowInstanceDetail, TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';

/**
 * The instance's timeline, built from its detail (history + tasks), oldest first:
 * - a `visit` per node visit — the tasks that node opened together (same node, same arrival), with
 *   the tasks that joined it later (transferred to, delegated, added signers), each task showing
 *   who, arrival, completion, duration and comment. Approvals and rejections are shown there, not
 *   twice as events;
 * - an `event` for every other history entry (submitted, CC, urge / reminder, return, transfer,
 *   delegate, added / removed signers, take back, withdraw, terminate, automatic steps);
 * - the end of the instance.
 * Pure (no React) so it is tested without a browser.
 */
export type TimelineItem =
  | { kind: 'visit'; key: string; time: string; nodeId: string; nodeName: string; taskKind: 'approve' | 'cc'; tasks: TWorkflowTask[]; comments: Record<string, string> }
  | { kind: 'event'; key: string; time: string; entry: TWorkflowHistoryEntry; targets: string[] }
  | { kind: 'end'; key: string; time: string; status: TWorkflowInstanceDetail['status'] };

/** History actions a visit's task rows already show (the decision and its comment). */
const SHOWN_BY_TASKS = new Set(['approve', 'reject', 'ccRead']);

export function buildTimeline(detail: Pick<TWorkflowInstanceDetail, 'history' | 'tasks' | 'status' | 'endedTime'>): TimelineItem[] {
  const items: TimelineItem[] = [];
  // Tasks that came by a transfer / escalation / flow management's reassign: their creation is a history entry naming them.
  const movedIn = new Set(
    detail.history
      .filter((h) => h.action === 'transfer' || h.action === 'escalate' || h.action === 'reassign')
      .flatMap((h) => detail.tasks.filter((x) => x.nodeId === h.nodeId && x.assigneeId === h.targetUserId && x.creationTime === h.time).map((x) => x.id)),
  );
  const visits = new Map<string, Extract<TimelineItem, { kind: 'visit' }>>();
  const latestVisit = new Map<string, Extract<TimelineItem, { kind: 'visit' }>>();
  for (const task of [...detail.tasks].sort((a, b) => a.creationTime.localeCompare(b.creationTime))) {
    const joiner = task.origin !== null || movedIn.has(task.id);
    const current = latestVisit.get(`${task.kind}|${task.nodeId}`);
    if (joiner && current) {
      current.tasks.push(task);
      continue;
    }
    const key = `${task.kind}|${task.nodeId}|${task.creationTime}`;
    let visit = visits.get(key);
    if (!visit) {
      visit = { kind: 'visit', key, time: task.creationTime, nodeId: task.nodeId, nodeName: task.nodeName, taskKind: task.kind, tasks: [], comments: {} };
      visits.set(key, visit);
      items.push(visit);
      latestVisit.set(`${task.kind}|${task.nodeId}`, visit);
    }
    visit.tasks.push(task);
  }
  // A decision's comment belongs to the task it closed: same node, the assignee acting, the task's completion time.
  for (const entry of detail.history) {
    if (!entry.comment || !SHOWN_BY_TASKS.has(entry.action)) continue;
    const task = detail.tasks.find((x) => x.nodeId === entry.nodeId && x.assigneeId === entry.actorId && x.completedTime === entry.time);
    const visit = task && [...visits.values()].find((v) => v.tasks.includes(task));
    if (visit && task) visit.comments[task.id] = entry.comment;
  }
  for (const entry of detail.history) {
    if (SHOWN_BY_TASKS.has(entry.action)) continue;
    // A task auto-approved when it opened shows in its visit; a node passed with nobody to ask stays an event.
    if (entry.action === 'autoApprove' && entry.targetUserId !== null) continue;
    items.push({ kind: 'event', key: entry.id, time: entry.time, entry, targets: targetsOf(entry, detail.tasks) });
  }
  if (detail.status !== 'running' && detail.endedTime) items.push({ kind: 'end', key: 'end', time: detail.endedTime, status: detail.status });
  // Stable: equal times keep the order above (an event before the visit it opened reads oddly, so events first).
  const rank = (i: TimelineItem) => (i.kind === 'event' ? 0 : i.kind === 'visit' ? 1 : 2);
  return items.map((item, i) => ({ item, i })).sort((a, b) => a.item.time.localeCompare(b.item.time) || rank(a.item) - rank(b.item) || a.i - b.i).map((x) => x.item);
}

/** The people an entry names: the target, or for CC / added signers every task it opened at that moment. */
function targetsOf(entry: TWorkflowHistoryEntry, tasks: readonly TWorkflowTask[]): string[] {
  if (entry.action === 'cc' || entry.action === 'addSignerBefore' || entry.action === 'addSignerAfter') {
    const opened = tasks.filter((x) => x.nodeId === entry.nodeId && x.creationTime === entry.time && (entry.action === 'cc' ? x.kind === 'cc' : x.origin !== null));
    if (opened.length) return opened.map((x) => x.assigneeName ?? x.assigneeId);
  }
  return entry.targetUserName ? [entry.targetUserName] : entry.targetUserId ? [entry.targetUserId] : [];
}

/** Milliseconds between two ISO times (to now while open). */
export const durationMs = (from: string, to: string | null, now = Date.now()) => Math.max(0, (to ? Date.parse(to) : now) - Date.parse(from));

/** A duration as its two largest units: `{ unit, n }` pairs the caller words (days / hours / minutes). */
export function durationParts(ms: number): { unit: 'd' | 'h' | 'm'; n: number }[] {
  const minutes = Math.floor(ms / 60_000);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const parts = [
    { unit: 'd' as const, n: d },
    { unit: 'h' as const, n: h },
    { unit: 'm' as const, n: m },
  ];
  const first = parts.findIndex((p) => p.n > 0);
  if (first === -1) return [];
  return parts.slice(first, first + 2).filter((p) => p.n > 0);
}
