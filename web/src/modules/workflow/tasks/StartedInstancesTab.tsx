import { Button, Select, Table, Tag, Typography } from 'antd';
import { WORKFLOW_INSTANCE_STATUSES, type TWorkflowInstance, type TWorkflowInstanceStatus } from '@tessera/core/contracts/workflow-runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMyWorkflowInstances } from './api.ts';
import { INSTANCE_STATUS_COLORS } from './DoneTasksTab.tsx';
import { ListToolbar, useTaskListState } from './ListToolbar.tsx';
import { formatTime } from './task-format.ts';
import { RecordFlowDrawer } from './RecordFlowDrawer.tsx';
import { sharedColumns } from './task-items.tsx';
import './i18n.ts';

/**
 * 我发起的: the flows I started, newest first, with where each stands and whom it waits for. Opening
 * one shows the record's approval bar: withdraw while nobody acted, urge, and the progress drawer.
 */
export function StartedInstancesTab() {
  const { t } = useTranslation('workflowTasks');
  const shared = sharedColumns<TWorkflowInstance>(t);
  const { query, search, tableProps } = useTaskListState();
  const [status, setStatus] = useState<TWorkflowInstanceStatus | undefined>();
  const list = useMyWorkflowInstances({ ...query, status });
  const [opened, setOpened] = useState<TWorkflowInstance | null>(null);
  const waiting = (r: TWorkflowInstance) =>
    r.currentNodes.length === 0
      ? '—'
      : r.currentNodes.map((n) => (
          <div key={n.nodeId}>{t('waitingFor', { node: n.nodeName, names: n.pendingAssignees.map((a) => a.name ?? a.id).join('、') || '—' })}</div>
        ));

  return (
    <>
      <ListToolbar
        onSearch={search}
        onRefresh={() => void list.refetch()}
        testId="started-search"
        extra={
          <Select<TWorkflowInstanceStatus>
            allowClear
            placeholder={t('allStatuses')}
            style={{ width: 140 }}
            value={status}
            onChange={(v) => (setStatus(v), search(query.Filter ?? ''))}
            options={WORKFLOW_INSTANCE_STATUSES.map((s) => ({ value: s, label: t(`instanceStatus.${s}`) }))}
            aria-label={t('column.flowStatus')}
          />
        }
      />
      <Table<TWorkflowInstance>
        {...tableProps(list, 'emptyStarted')}
        data-testid="started-table"
        columns={[
          {
            title: t('column.record'),
            key: 'record',
            width: 220,
            ellipsis: true,
            render: (_, r) => <Typography.Link onClick={() => setOpened(r)}>{r.recordTitle}</Typography.Link>,
          },
          shared.flow,
          {
            title: t('column.flowStatus'),
            key: 'status',
            width: 100,
            render: (_, r) => (
              <Tag color={INSTANCE_STATUS_COLORS[r.status]} data-testid={`started-status-${r.id}`}>
                {t(`instanceStatus.${r.status}`)}
              </Tag>
            ),
          },
          { title: t('column.waiting'), key: 'waiting', width: 220, render: (_, r) => waiting(r) },
          { title: t('column.started'), key: 'started', width: 150, render: (_, r) => formatTime(r.startedTime) },
          {
            title: t('column.actions'),
            key: 'actions',
            width: 90,
            fixed: 'right',
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => setOpened(r)} data-testid={`started-open-${r.id}`}>
                {t('view')}
              </Button>
            ),
          },
        ]}
      />
      <RecordFlowDrawer
        testId="started-drawer"
        title={opened ? t('drawer.viewTitle', { title: opened.recordTitle }) : ''}
        record={opened ? { pageId: opened.pageId, recordId: opened.recordId } : null}
        items={
          opened
            ? [
                { key: 'record', label: t('drawer.record'), children: opened.recordTitle },
                { key: 'flow', label: t('drawer.flow'), children: opened.definitionName },
                { key: 'status', label: t('drawer.status'), children: t(`instanceStatus.${opened.status}`) },
                { key: 'started', label: t('column.started'), children: formatTime(opened.startedTime) },
                { key: 'waiting', label: t('column.waiting'), children: waiting(opened) },
              ]
            : []
        }
        onClose={() => setOpened(null)}
        onChanged={() => setOpened(null)}
      />
    </>
  );
}
