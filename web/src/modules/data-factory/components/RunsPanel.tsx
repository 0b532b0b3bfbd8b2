import { Table, Tag, Typography } from 'antd';
import type { TProcedureRun } from '@tessera/core/contracts/data-factory';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProcedureRuns } from '../api/data-factory.ts';
import '../i18n.ts';

/** The run log of a procedure, newest first, paged on the server. */
export function RunsPanel({ procedureId }: { procedureId: string }) {
  const { t } = useTranslation('dataFactory');
  const [paging, setPaging] = useState({ current: 1, pageSize: 10 });
  const runs = useProcedureRuns(procedureId, { SkipCount: (paging.current - 1) * paging.pageSize, MaxResultCount: paging.pageSize });
  return (
    <Table<TProcedureRun>
      size="small"
      rowKey="id"
      loading={runs.isFetching}
      dataSource={runs.data?.items ?? []}
      scroll={{ x: 900 }}
      data-testid="factory-runs"
      pagination={{ ...paging, total: runs.data?.totalCount ?? 0, showTotal: (n) => t('runs.total', { count: n }) }}
      onChange={(p) => setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? 10 })}
      columns={[
        { title: t('runs.time'), key: 'time', width: 170, render: (_, r) => new Date(r.startTime).toLocaleString() },
        { title: t('runs.trigger'), key: 'trigger', width: 80, render: (_, r) => <Tag color={r.trigger === 'schedule' ? 'blue' : r.trigger === 'button' ? 'purple' : undefined}>{t(`runs.triggers.${r.trigger}`)}</Tag> },
        { title: t('runs.user'), key: 'user', dataIndex: 'userName', width: 120 },
        { title: t('runs.version'), key: 'version', dataIndex: 'version', width: 70, align: 'right' },
        { title: t('runs.parameters'), key: 'parameters', ellipsis: true, render: (_, r) => <Typography.Text code>{JSON.stringify(r.parameters)}</Typography.Text> },
        { title: t('runs.duration'), key: 'duration', width: 90, align: 'right', render: (_, r) => `${r.durationMs} ms` },
        { title: t('runs.rows'), key: 'rows', dataIndex: 'rowCount', width: 70, align: 'right' },
        {
          title: t('runs.error'),
          key: 'error',
          width: 260,
          ellipsis: true,
          render: (_, r) => (r.error ? <Typography.Text type="danger" title={r.error}>{r.error}</Typography.Text> : <Tag color="success">{t('runs.ok')}</Tag>),
        },
      ]}
    />
  );
}
