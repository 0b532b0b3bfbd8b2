import { App, Button, Space, Table, Tag, Typography } from 'antd';
import type { TWorkflowInstanceStatus, TWorkflowTask, TWorkflowTaskStatus } from '@tessera/core/contracts/workflow-runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { newRequestId, useTaskAction } from '../runtime/api.ts';
import { useWorkflowTasks } from './api.ts';
import { ListToolbar, useTaskListState } from './ListToolbar.tsx';
import { formatTime } from './task-format.ts';
import { RecordFlowDrawer } from './RecordFlowDrawer.tsx';
import { sharedColumns, taskItems } from './task-items.tsx';
import './i18n.ts';

export const TASK_STATUS_COLORS: Partial<Record<TWorkflowTaskStatus, string>> = { approved: 'success', rejected: 'error', returned: 'warning', transferred: 'processing', pending: 'processing' };
export const INSTANCE_STATUS_COLORS: Record<TWorkflowInstanceStatus, string> = { running: 'processing', approved: 'success', rejected: 'error', withdrawn: 'warning', terminated: 'default' };

/** 已办: the tasks I completed, newest first, with my action and where the flow stands now; 拿回 while allowed. */
export function DoneTasksTab() {
  const { t } = useTranslation('workflowTasks');
  const shared = sharedColumns<TWorkflowTask>(t);
  const { message, modal } = App.useApp();
  const { query, search, tableProps } = useTaskListState();
  const list = useWorkflowTasks('done', query);
  const act = useTaskAction();
  const [opened, setOpened] = useState<TWorkflowTask | null>(null);

  const reclaim = (task: TWorkflowTask) =>
    modal.confirm({
      title: t('reclaim'),
      content: t('reclaimConfirm'),
      onOk: async () => {
        try {
          await act.mutateAsync({ taskId: task.id, action: 'reclaim', input: { clientRequestId: newRequestId() } });
          message.success(t('reclaimed'));
        } catch (err) {
          message.error(err instanceof ApiError ? err.message : String(err));
        }
      },
    });

  return (
    <>
      <ListToolbar onSearch={search} onRefresh={() => void list.refetch()} testId="done-search" />
      <Table<TWorkflowTask>
        {...tableProps(list, 'emptyDone')}
        data-testid="done-table"
        columns={[
          {
            title: t('column.record'),
            key: 'record',
            width: 220,
            ellipsis: true,
            render: (_, r) => <Typography.Link onClick={() => setOpened(r)}>{r.recordTitle}</Typography.Link>,
          },
          shared.flow,
          shared.initiator,
          shared.node('column.myNode'),
          { title: t('column.myResult'), key: 'status', width: 100, render: (_, r) => <Tag color={TASK_STATUS_COLORS[r.status]}>{t(`taskStatus.${r.status}`)}</Tag> },
          { title: t('column.completed'), key: 'completed', width: 150, render: (_, r) => formatTime(r.completedTime) },
          {
            title: t('column.flowStatus'),
            key: 'instanceStatus',
            width: 100,
            render: (_, r) => (
              <Tag color={INSTANCE_STATUS_COLORS[r.instanceStatus]} data-testid={`done-instance-status-${r.id}`}>
                {t(`instanceStatus.${r.instanceStatus}`)}
              </Tag>
            ),
          },
          {
            title: t('column.actions'),
            key: 'actions',
            width: 140,
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setOpened(r)}>
                  {t('view')}
                </Button>
                {r.allowedActions.includes('reclaim') && (
                  <Button type="link" size="small" onClick={() => reclaim(r)} data-testid={`done-reclaim-${r.id}`}>
                    {t('reclaim')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <RecordFlowDrawer
        testId="done-drawer"
        title={opened ? t('drawer.viewTitle', { title: opened.recordTitle }) : ''}
        record={opened ? { pageId: opened.pageId, recordId: opened.recordId } : null}
        items={opened ? taskItems(opened, t) : []}
        onClose={() => setOpened(null)}
        onChanged={() => setOpened(null)}
      />
    </>
  );
}
