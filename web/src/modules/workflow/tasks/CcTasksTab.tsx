import { App, Button, Space, Table, Tag, Typography } from 'antd';
import type { TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { newRequestId, useTaskAction } from '../runtime/api.ts';
import { useWorkflowTasks } from './api.ts';
import { INSTANCE_STATUS_COLORS } from './DoneTasksTab.tsx';
import { ListToolbar, useTaskListState } from './ListToolbar.tsx';
import { formatTime } from './task-format.ts';
import { RecordFlowDrawer } from './RecordFlowDrawer.tsx';
import { sharedColumns, taskItems } from './task-items.tsx';
import './i18n.ts';

/** 抄送我的: the copies sent to me, newest first, read or unread; opening an unread one marks it read. */
export function CcTasksTab() {
  const { t } = useTranslation('workflowTasks');
  const shared = sharedColumns<TWorkflowTask>(t);
  const { message } = App.useApp();
  const { query, search, tableProps } = useTaskListState();
  const list = useWorkflowTasks('cc', query);
  const act = useTaskAction();
  const [opened, setOpened] = useState<TWorkflowTask | null>(null);

  const markRead = async (task: TWorkflowTask, quiet = false) => {
    try {
      await act.mutateAsync({ taskId: task.id, action: 'ccRead', input: { clientRequestId: newRequestId() } });
      if (!quiet) message.success(t('markedRead'));
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    }
  };
  const open = (task: TWorkflowTask) => {
    setOpened(task);
    if (task.allowedActions.includes('ccRead')) void markRead(task, true);
  };

  return (
    <>
      <ListToolbar onSearch={search} onRefresh={() => void list.refetch()} testId="cc-search" />
      <Table<TWorkflowTask>
        {...tableProps(list, 'emptyCc')}
        data-testid="cc-table"
        columns={[
          {
            title: t('column.record'),
            key: 'record',
            width: 220,
            ellipsis: true,
            render: (_, r) => (
              <Typography.Link onClick={() => open(r)} strong={!r.isRead}>
                {r.recordTitle}
              </Typography.Link>
            ),
          },
          shared.flow,
          shared.initiator,
          shared.node(),
          { title: t('column.received'), key: 'received', width: 150, render: (_, r) => formatTime(r.creationTime) },
          {
            title: t('column.read'),
            key: 'read',
            width: 90,
            render: (_, r) => (
              <Tag color={r.isRead ? 'default' : 'blue'} data-testid={`cc-read-${r.id}`}>
                {r.isRead ? t('read') : t('unread')}
              </Tag>
            ),
          },
          {
            title: t('column.flowStatus'),
            key: 'instanceStatus',
            width: 100,
            render: (_, r) => <Tag color={INSTANCE_STATUS_COLORS[r.instanceStatus]}>{t(`instanceStatus.${r.instanceStatus}`)}</Tag>,
          },
          {
            title: t('column.actions'),
            key: 'actions',
            width: 150,
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => open(r)}>
                  {t('view')}
                </Button>
                {r.allowedActions.includes('ccRead') && (
                  <Button type="link" size="small" onClick={() => void markRead(r)} data-testid={`cc-mark-read-${r.id}`}>
                    {t('markRead')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <RecordFlowDrawer
        testId="cc-drawer"
        title={opened ? t('drawer.viewTitle', { title: opened.recordTitle }) : ''}
        record={opened ? { pageId: opened.pageId, recordId: opened.recordId } : null}
        items={opened ? taskItems(opened, t) : []}
        onClose={() => setOpened(null)}
        onChanged={() => setOpened(null)}
      />
    </>
  );
}
