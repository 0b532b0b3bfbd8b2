import { Alert, Button, Card, Checkbox, Grid, Table, Tag, Typography } from 'antd';
import type { TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLiveTodoList, useWorkflowTasks, type TodoFilters } from './api.ts';
import { ListToolbar, useTaskListState } from './ListToolbar.tsx';
import { formatTime, isOverdue } from './task-format.ts';
import { RecordFlowDrawer } from './RecordFlowDrawer.tsx';
import { sharedColumns, taskItems } from './task-items.tsx';
import { TodoTaskCards } from './TodoTaskCards.tsx';
import { BatchApproveButton, TodoFilterBar } from './TodoFilters.tsx';
import { useOpenTask } from './use-open-task.ts';
import './i18n.ts';

/**
 * `/flows/assignTask` (issue 14): the caller's pending approval tasks, newest first — record,
 * flow, initiator, node, arrival and due time (overdue marked); search, filters (flow, initiator,
 * arrival range, overdue) and paging; batch approve of the selected rows whose node allows it. 办理
 * opens the task in a drawer with the record's approval bar; `?taskId=` (the links of to-do
 * notifications) opens that task. New tasks appear without a reload (the server's live signal).
 */
export default function TodoTasksPage() {
  const { t } = useTranslation('workflowTasks');
  const shared = sharedColumns<TWorkflowTask>(t);
  const { query, filters, setFilters, search, pagination, tableProps } = useTaskListState<TodoFilters>();
  const list = useWorkflowTasks('todo', query);
  useLiveTodoList();
  const [selected, setSelected] = useState<string[]>([]);
  // Only rows still on screen stay selected (a handled task leaves the list).
  const onScreen = new Set((list.data?.items ?? []).map((r) => r.id));
  const selectedIds = selected.filter((id) => onScreen.has(id));
  const approvable = (list.data?.items ?? []).filter((r) => r.allowedActions.includes('approve')).map((r) => r.id);
  const phone = Grid.useBreakpoint().md === false;
  const [params, setParams] = useSearchParams();
  const openId = params.get('taskId');
  const open = (id: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id) next.set('taskId', id);
        else next.delete('taskId');
        return next;
      },
      { replace: true },
    );
  const opened = useOpenTask(openId, list.data?.items);
  // Handled in the drawer: its action bar says so (onChanged below closes it, or it opens the next
  // to-do). A task that stopped being pending meanwhile (the list re-read on a live signal) is not
  // a reason to close: that raced "open the next one after acting".
  const task = opened.task;

  return (
    <Card size="small" title={t('todoTitle')}>
      {opened.missing && <Alert type="warning" showIcon closable onClose={() => open(null)} message={t('drawer.notFound')} style={{ marginBottom: 12 }} data-testid="task-missing" />}
      <ListToolbar
        onSearch={search}
        onRefresh={() => void list.refetch()}
        testId="todo-search"
        extra={<TodoFilterBar value={filters} onChange={setFilters} phone={phone} />}
        actions={!phone && <BatchApproveButton taskIds={selectedIds} onDone={() => setSelected([])} />}
      />
      {phone ? (
        <TodoTaskCards items={list.data?.items ?? []} loading={list.isFetching} pagination={pagination(list.data?.totalCount ?? 0, (n) => t('total', { count: n }))} onOpen={open} />
      ) : (
        <Table<TWorkflowTask>
          {...tableProps(list, 'emptyTodo')}
          data-testid="todo-table"
          rowSelection={{
            selectedRowKeys: selectedIds,
            // Our own select-all: the library's names itself in English ("Select all").
            columnTitle: (
              <Checkbox
                aria-label={t('batch.selectAll')}
                checked={approvable.length > 0 && approvable.every((id) => selectedIds.includes(id))}
                indeterminate={selectedIds.length > 0 && !approvable.every((id) => selectedIds.includes(id))}
                disabled={approvable.length === 0}
                onChange={(e) => setSelected(e.target.checked ? approvable : [])}
              />
            ),
            onChange: (keys) => setSelected(keys as string[]),
            getCheckboxProps: (r) => ({ disabled: !r.allowedActions.includes('approve'), title: r.allowedActions.includes('approve') ? undefined : t('batch.notAllowed') }),
          }}
          onRow={(r) => ({ onDoubleClick: () => open(r.id) })}
          columns={[
            {
              title: t('column.record'),
              key: 'record',
              width: 220,
              ellipsis: true,
              render: (_, r) => (
                <Typography.Link onClick={() => open(r.id)} data-testid={`todo-open-${r.id}`}>
                  {r.recordTitle}
                </Typography.Link>
              ),
            },
            shared.flow,
            shared.initiator,
            shared.node(),
            { title: t('column.arrived'), key: 'arrived', width: 150, render: (_, r) => formatTime(r.creationTime) },
            {
              title: t('column.due'),
              key: 'due',
              width: 200,
              render: (_, r) => (
                <span>
                  {formatTime(r.dueTime)}
                  {isOverdue(r) && (
                    <Tag color="error" style={{ marginInlineStart: 8 }} data-testid="task-overdue">
                      {t('overdue')}
                    </Tag>
                  )}
                </span>
              ),
            },
            {
              title: t('column.actions'),
              key: 'actions',
              width: 90,
              fixed: 'right',
              render: (_, r) => (
                <Button type="link" size="small" onClick={() => open(r.id)} data-testid={`todo-handle-${r.id}`}>
                  {t('handle')}
                </Button>
              ),
            },
          ]}
        />
      )}
      <RecordFlowDrawer
        testId="task-drawer"
        title={task ? t('drawer.title', { title: task.recordTitle }) : ''}
        record={task ? { pageId: task.pageId, recordId: task.recordId } : null}
        items={task ? taskItems(task, t) : []}
        onClose={() => open(null)}
        taskId={task?.id ?? null}
        onOpenTask={open}
        onChanged={() => {
          // The action's mutation refreshed the lists; the handled task leaves the to-do list.
          open(null);
          void list.refetch();
        }}
      />
    </Card>
  );
}
