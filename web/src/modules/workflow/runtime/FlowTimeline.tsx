import { Space, Tag, Timeline, Typography } from 'antd';
import type { TWorkflowInstanceDetail, TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { buildTimeline, durationMs, durationParts, type TimelineItem } from './flow-timeline.ts';
import './i18n.ts';

const time = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

const TASK_COLOURS: Partial<Record<TWorkflowTask['status'], string>> = {
  pending: 'processing',
  waiting: 'default',
  suspended: 'warning',
  approved: 'success',
  rejected: 'error',
  returned: 'warning',
  transferred: 'default',
};

/**
 * The flow's timeline (issue 14): every node visit with its tasks — who, arrival, completion,
 * duration, status, comment — and the steps between (submitted, CC, urge / reminder, returned,
 * transferred, delegated, signers added, taken back, ended). One component for the approval page
 * and the progress drawer.
 */
export function FlowTimeline({ detail }: { detail: TWorkflowInstanceDetail }) {
  const { t } = useTranslation('workflowRuntime');
  const items = useMemo(() => buildTimeline(detail), [detail]);
  const duration = (ms: number) => {
    const parts = durationParts(ms);
    return parts.length ? parts.map((p) => t(`timeline.unit.${p.unit}`, { count: p.n })).join(' ') : t('timeline.underMinute');
  };
  const who = (name: string | null, id: string | null) => name ?? id ?? t('instance.system');

  const render = (item: TimelineItem) => {
    if (item.kind === 'end') {
      return {
        key: item.key,
        color: item.status === 'approved' ? 'green' : item.status === 'rejected' ? 'red' : 'gray',
        children: (
          <div data-testid="timeline-end">
            <Typography.Text strong>{t('timeline.ended', { status: t(`instanceStatus.${item.status}`) })}</Typography.Text>
            <div>
              <Typography.Text type="secondary">{time(item.time)}</Typography.Text>
            </div>
          </div>
        ),
      };
    }
    if (item.kind === 'event') {
      const h = item.entry;
      return {
        key: item.key,
        color: h.action === 'return' || h.action === 'autoReject' ? 'red' : h.action === 'start' ? 'green' : 'blue',
        children: (
          <div data-testid={`timeline-event-${h.action}`}>
            <Typography.Text strong>{t(`history.${h.action}`)}</Typography.Text>
            {item.targets.length > 0 && <Typography.Text> → {item.targets.join('、')}</Typography.Text>}
            {h.action === 'return' && h.targetNodeId && <Typography.Text type="secondary"> · {t('timeline.returnedTo', { node: nodeName(detail, h.targetNodeId) })}</Typography.Text>}
            {h.nodeName && h.action !== 'start' ? <Typography.Text type="secondary"> · {h.nodeName}</Typography.Text> : null}
            <div>
              <Typography.Text>{who(h.actorName, h.actorId)}</Typography.Text>
              <Typography.Text type="secondary"> · {time(h.time)}</Typography.Text>
            </div>
            {h.comment ? <Typography.Paragraph style={{ margin: 0 }}>“{h.comment}”</Typography.Paragraph> : null}
          </div>
        ),
      };
    }
    const open = item.tasks.some((x) => x.status === 'pending' || x.status === 'waiting' || x.status === 'suspended');
    const rejected = item.tasks.some((x) => x.status === 'rejected');
    return {
      key: item.key,
      color: rejected ? 'red' : open ? 'blue' : 'green',
      children: (
        <div data-testid="timeline-visit">
          <Space size={4} wrap>
            <Typography.Text strong>{item.nodeName}</Typography.Text>
            {item.taskKind === 'cc' && <Tag>{t('cc')}</Tag>}
            <Typography.Text type="secondary">{t('timeline.arrived', { time: time(item.time) })}</Typography.Text>
          </Space>
          {item.tasks.map((task) => (
            <div key={task.id} className="wf-timeline-task" data-testid="timeline-task" style={{ marginTop: 4, paddingInlineStart: 8, borderInlineStart: '2px solid var(--ant-color-border-secondary, #f0f0f0)' }}>
              <Space size={6} wrap>
                <Typography.Text>{task.assigneeName ?? task.assigneeId}</Typography.Text>
                {task.origin && <Tag>{t(`timeline.origin.${task.origin}`)}</Tag>}
                <Tag color={TASK_COLOURS[task.status]}>{task.kind === 'cc' ? t(task.isRead ? 'timeline.ccRead' : 'timeline.ccUnread') : t(`timeline.status.${task.status}`)}</Tag>
                {task.completedTime && task.kind === 'approve' && <Typography.Text type="secondary">{time(task.completedTime)}</Typography.Text>}
                {task.kind === 'approve' && task.status !== 'waiting' && task.status !== 'cancelled' && (
                  <Typography.Text type="secondary">{t(task.completedTime ? 'timeline.took' : 'timeline.waitingFor', { duration: duration(durationMs(task.creationTime, task.completedTime)) })}</Typography.Text>
                )}
              </Space>
              {item.comments[task.id] ? <Typography.Paragraph style={{ margin: 0 }} data-testid="timeline-comment">“{item.comments[task.id]}”</Typography.Paragraph> : null}
            </div>
          ))}
        </div>
      ),
    };
  };
  return <Timeline data-testid="flow-timeline" items={items.map(render)} />;
}

const nodeName = (detail: TWorkflowInstanceDetail, nodeId: string) => detail.graph.nodes.find((n) => n.id === nodeId)?.name || nodeId;
