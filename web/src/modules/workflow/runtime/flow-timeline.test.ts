import type { TWorkflowHistoryEntry, TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import { describe, expect, it } from 'vitest';
import { buildTimeline, durationParts } from './flow-timeline.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 9, minute)).toISOString();
const task = (id: string, over: Partial<TWorkflowTask>): TWorkflowTask =>
  ({ id, nodeId: 'n1', nodeName: '经理审批', kind: 'approve', assigneeId: id, assigneeName: id, status: 'pending', isRead: false, origin: null, creationTime: at(1), completedTime: null, ...over }) as TWorkflowTask;
const entry = (id: string, over: Partial<TWorkflowHistoryEntry>): TWorkflowHistoryEntry =>
  ({ id, nodeId: 'n1', nodeName: '经理审批', action: 'approve', actorId: null, actorName: null, comment: null, targetUserId: null, targetUserName: null, targetNodeId: null, time: at(1), ...over }) as TWorkflowHistoryEntry;

describe('buildTimeline', () => {
  it('groups a visit with the task transferred into it; decisions show on their task with the comment; other steps are events', () => {
    const items = buildTimeline({
      status: 'approved',
      endedTime: at(9),
      tasks: [
        task('a', { status: 'transferred', completedTime: at(3) }),
        task('b', { status: 'approved', creationTime: at(3), completedTime: at(8) }),
        task('e', { kind: 'cc', nodeId: 'c1', nodeName: '抄送财务', creationTime: at(8), isRead: true }),
      ],
      history: [
        entry('h0', { action: 'start', nodeId: 'start', nodeName: '开始', actorId: 'ini', actorName: '王', time: at(1) }),
        entry('h1', { action: 'transfer', actorId: 'a', targetUserId: 'b', targetUserName: 'b', time: at(3), comment: '出差' }),
        entry('h2', { action: 'approve', actorId: 'b', time: at(8), comment: '同意报销' }),
      ],
    });
    expect(items.map((i) => (i.kind === 'event' ? `event:${i.entry.action}` : i.kind === 'visit' ? `visit:${i.nodeId}:${i.tasks.map((x) => x.id).join(',')}` : `end:${i.status}`))).toEqual([
      'event:start',
      'visit:n1:a,b',
      'event:transfer',
      'visit:c1:e',
      'end:approved',
    ]);
    const visit = items[1];
    expect(visit.kind === 'visit' && visit.comments).toEqual({ b: '同意报销' });
  });

  it('words durations by their two largest units', () => {
    expect(durationParts(30_000)).toEqual([]);
    expect(durationParts(90 * 60_000)).toEqual([{ unit: 'h', n: 1 }, { unit: 'm', n: 30 }]);
    expect(durationParts((2 * 1440 + 5) * 60_000)).toEqual([{ unit: 'd', n: 2 }]);
  });
});
