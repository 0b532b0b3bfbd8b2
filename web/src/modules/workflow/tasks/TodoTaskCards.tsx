import { Button, Card, Empty, Pagination, Space, Spin, Tag, Typography } from 'antd';
import type { TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import { useTranslation } from 'react-i18next';
import { formatTime, isOverdue } from './task-format.ts';
import './i18n.ts';

/** The to-do list on a phone: one card per task (record, flow, node, initiator, times); tap 办理 to open it. */
export function TodoTaskCards({
  items,
  loading,
  pagination,
  onOpen,
}: {
  items: readonly TWorkflowTask[];
  loading: boolean;
  pagination: { current: number; pageSize: number; total: number; onChange(page: number, size: number): void };
  onOpen(id: string): void;
}) {
  const { t } = useTranslation('workflowTasks');
  if (!items.length) return loading ? <Spin style={{ display: 'block', margin: 32 }} /> : <Empty description={t('emptyTodo')} />;
  return (
    <Spin spinning={loading}>
      <Space orientation="vertical" style={{ width: '100%' }} data-testid="todo-cards">
        {items.map((r) => (
          <Card
            key={r.id}
            size="small"
            title={r.recordTitle}
            extra={
              <Button type="primary" size="small" onClick={() => onOpen(r.id)} data-testid={`todo-handle-${r.id}`}>
                {t('handle')}
              </Button>
            }
          >
            <Typography.Text type="secondary">
              {r.definitionName} · {r.nodeName} · {r.initiatorName ?? '—'}
            </Typography.Text>
            <div>
              {t('column.arrived')} {formatTime(r.creationTime)}
              {r.dueTime && (
                <span>
                  {' · '}
                  {t('column.due')} {formatTime(r.dueTime)}
                </span>
              )}
              {isOverdue(r) && (
                <Tag color="error" style={{ marginInlineStart: 8 }}>
                  {t('overdue')}
                </Tag>
              )}
            </div>
          </Card>
        ))}
        <Pagination simple size="small" align="center" {...pagination} />
      </Space>
    </Spin>
  );
}
