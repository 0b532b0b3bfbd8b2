import { Timeline, Typography } from 'antd';
import type { TWorkflowHistoryEntry } from '@tessera/core/contracts/workflow-runtime';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import './i18n.ts';

const time = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

/** An instance's history, oldest first: the action, whom it went to, the node, who and when, the comment (or reason). */
export function WorkflowHistory({ history }: { history: readonly TWorkflowHistoryEntry[] }) {
  const { t } = useTranslation('workflowRuntime');
  return (
    <Timeline
      data-testid="workflow-history"
      items={history.map((h) => ({
        key: h.id,
        color: h.action === 'reject' || h.action === 'autoReject' ? 'red' : h.action === 'approve' || h.action === 'autoApprove' ? 'green' : 'blue',
        children: (
          <div>
            <Typography.Text strong>{t(`history.${h.action}`)}</Typography.Text>
            {h.targetUserName ? <Typography.Text> → {h.targetUserName}</Typography.Text> : null}
            {h.nodeName ? <Typography.Text type="secondary"> · {h.nodeName}</Typography.Text> : null}
            <div>
              {h.actorName ?? (h.actorId ? h.actorId : t('instance.system'))} · {time(h.time)}
            </div>
            {h.comment ? <Typography.Paragraph style={{ margin: 0 }}>{h.comment}</Typography.Paragraph> : null}
          </div>
        ),
      }))}
    />
  );
}
