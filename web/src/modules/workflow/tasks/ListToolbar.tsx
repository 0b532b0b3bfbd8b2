import { ReloadOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n.ts';

/** A task-centre list as react-query answers it. */
interface ListAnswer<T> {
  data?: { items: T[]; totalCount: number };
  isFetching: boolean;
  isLoading: boolean;
}

/**
 * Search (record title or flow name), paging: the query part of a task-centre list, the table's
 * pagination, and the props every task-centre table shares (`tableProps`).
 */
export function useTaskListState<F extends object = Record<never, never>>(pageSize = 20, initialFilters = {} as F) {
  const { t } = useTranslation('workflowTasks');
  const [filter, setFilter] = useState('');
  const [filters, setFiltersState] = useState<F>(initialFilters);
  const [paging, setPaging] = useState({ current: 1, pageSize });
  const query = { Filter: filter || undefined, ...filters, SkipCount: (paging.current - 1) * paging.pageSize, MaxResultCount: paging.pageSize };
  const search = (v: string) => {
    setFilter(v.trim());
    setPaging((p) => ({ ...p, current: 1 }));
  };
  /** Changes the list's own filters (back to the first page). */
  const setFilters = (change: Partial<F>) => {
    setFiltersState((f) => ({ ...f, ...change }));
    setPaging((p) => ({ ...p, current: 1 }));
  };
  const pagination = (total: number, showTotal: (n: number) => string) => ({
    ...paging,
    total,
    showSizeChanger: true,
    showTotal,
    onChange: (current: number, size: number) => setPaging({ current: size === paging.pageSize ? current : 1, pageSize: size }),
  });
  const tableProps = <T,>(list: ListAnswer<T>, emptyKey: string) => ({
    size: 'small' as const,
    rowKey: 'id',
    loading: list.isFetching,
    dataSource: list.data?.items ?? [],
    locale: { emptyText: list.isLoading ? t('loading') : t(emptyKey) },
    pagination: pagination(list.data?.totalCount ?? 0, (n) => t('total', { count: n })),
    scroll: { x: 1000 },
  });
  return { query, filters, setFilters, search, pagination, tableProps };
}

/** The search box (with `extra` filters) and, on the right, `actions` and the refresh button above a task-centre list. */
export function ListToolbar({ onSearch, onRefresh, extra, actions, testId }: { onSearch(v: string): void; onRefresh(): void; extra?: ReactNode; actions?: ReactNode; testId?: string }) {
  const { t } = useTranslation('workflowTasks');
  const [text, setText] = useState('');
  return (
    <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
      <Space wrap>
        <Input.Search
          allowClear
          placeholder={t('search')}
          style={{ width: 280, maxWidth: '100%' }}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onSearch={onSearch}
          enterButton={t('searchButton')}
          data-testid={testId}
        />
        {extra}
      </Space>
      <Space>
        {actions}
        <Button icon={<ReloadOutlined />} onClick={onRefresh} aria-label={t('refresh')} />
      </Space>
    </Space>
  );
}
