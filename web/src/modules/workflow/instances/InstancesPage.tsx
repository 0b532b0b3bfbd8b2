import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Table, Tag, Typography } from 'antd';
import type { TWorkflowInstance } from '@tessera/core/contracts/workflow-runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePagedTable } from '../../../shared/ui/use-paged-table.ts';
import { INSTANCE_STATUS_COLORS } from '../tasks/DoneTasksTab.tsx';
import { formatTime } from '../tasks/task-format.ts';
import { useAllWorkflowInstances, type InstanceListQuery } from './api.ts';
import { CurrentNodes } from './CurrentNodes.tsx';
import { InstanceDrawer } from './InstanceDrawer.tsx';
import { InstanceFilters } from './InstanceFilters.tsx';
import './i18n.ts';

/**
 * 流程管理 (`/flows/instance`, P.FlowInstances): every instance the caller's data scopes show, with
 * filters; a row opens the instance with its graph, history and the interventions (terminate,
 * reassign, jump, add / replace approvers, resend reminders), each with a reason.
 */
export default function InstancesPage() {
  const { t } = useTranslation(['workflowInstances', 'workflowRuntime']);
  const [filters, setFilters] = useState<InstanceListQuery>({});
  const paging = usePagedTable(20);
  const { Sorting: _unsorted, ...window } = paging.query;
  const list = useAllWorkflowInstances({ ...filters, ...window });
  const [opened, setOpened] = useState<string | null>(null);

  return (
    <Card
      size="small"
      title={t('title')}
      extra={<Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} aria-label={t('refresh')} data-testid="instances-refresh" />}
    >
      <InstanceFilters onChange={(q) => (setFilters(q), paging.firstPage())} />
      <Table<TWorkflowInstance>
        rowKey="id"
        size="middle"
        data-testid="instances-table"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: list.isLoading ? ' ' : t('empty') }}
        scroll={{ x: 1000 }}
        {...paging.tableProps<TWorkflowInstance>(list.data?.totalCount ?? 0, (count) => t('total', { count }))}
        onRow={(r) => ({ onClick: () => setOpened(r.id), style: { cursor: 'pointer' } })}
        columns={[
          { title: t('column.flow'), key: 'flow', width: 140, ellipsis: true, render: (_, r) => r.definitionName },
          { title: t('column.record'), key: 'record', width: 170, ellipsis: true, render: (_, r) => <Typography.Text>{r.recordTitle}</Typography.Text> },
          { title: t('column.initiator'), key: 'initiator', width: 100, render: (_, r) => r.initiatorName ?? r.initiatorId },
          {
            title: t('column.status'),
            key: 'status',
            width: 90,
            render: (_, r) => (
              <Tag color={INSTANCE_STATUS_COLORS[r.status]} data-testid={`instance-status-${r.id}`}>
                {t(`workflowRuntime:instanceStatus.${r.status}`)}
              </Tag>
            ),
          },
          { title: t('column.current'), key: 'current', width: 180, render: (_, r) => <CurrentNodes instance={r} /> },
          { title: t('column.started'), key: 'started', width: 135, render: (_, r) => formatTime(r.startedTime) },
          { title: t('column.ended'), key: 'ended', width: 135, render: (_, r) => formatTime(r.endedTime) },
          {
            title: t('column.actions'),
            key: 'actions',
            width: 70,
            fixed: 'right',
            render: (_, r) => (
              <Button type="link" size="small" onClick={(e) => (e.stopPropagation(), setOpened(r.id))} data-testid={`instance-open-${r.id}`}>
                {t('detail')}
              </Button>
            ),
          },
        ]}
      />
      <InstanceDrawer instanceId={opened} onClose={() => setOpened(null)} />
    </Card>
  );
}
