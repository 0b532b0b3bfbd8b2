import type { DescriptionsProps, TableColumnType } from 'antd';
import type { TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import { formatTime } from './task-format.ts';

/** What the drawer of a task shows above the approval bar. */
export const taskItems = (task: TWorkflowTask, t: (key: string) => string): NonNullable<DescriptionsProps['items']> => [
  { key: 'record', label: t('drawer.record'), children: <span data-testid="task-record-title">{task.recordTitle}</span> },
  { key: 'flow', label: t('drawer.flow'), children: task.definitionName },
  { key: 'node', label: t('drawer.node'), children: task.nodeName },
  { key: 'initiator', label: t('drawer.initiator'), children: task.initiatorName ?? '—' },
  { key: 'arrived', label: t('drawer.arrived'), children: formatTime(task.creationTime) },
  { key: 'due', label: t('drawer.due'), children: formatTime(task.dueTime) },
  { key: 'status', label: t('drawer.status'), children: t(`instanceStatus.${task.instanceStatus}`) },
];

/** Columns every task-centre table shows: the flow, its initiator, the node (`nodeTitleKey`: its heading). */
export const sharedColumns = <T extends { definitionName: string; initiatorName: string | null }>(t: (key: string) => string) => ({
  flow: { title: t('column.flow'), key: 'flow', dataIndex: 'definitionName', width: 160, ellipsis: true } as TableColumnType<T>,
  initiator: { title: t('column.initiator'), key: 'initiator', width: 110, render: (_: unknown, r: T) => r.initiatorName ?? '—' } as TableColumnType<T>,
  node: (nodeTitleKey = 'column.node') => ({ title: t(nodeTitleKey), key: 'node', dataIndex: 'nodeName', width: 140, ellipsis: true }) as TableColumnType<T>,
});
