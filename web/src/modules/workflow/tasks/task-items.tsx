import type { DescriptionsProps } from 'antd';
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
