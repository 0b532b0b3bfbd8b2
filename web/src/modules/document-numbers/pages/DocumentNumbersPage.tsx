import { DeleteOutlined, EditOutlined, HistoryOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Card, Input, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TDocumentNumberRule } from '@tessera/core/contracts/document-numbers';
import { P } from '@tessera/core/contracts/permissions';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePagedTable } from '../../../shared/ui/use-paged-table.ts';
import { useAccessChecker } from '../../../shared/components/Auth.tsx';
import { HelpLink } from '../../../shared/components/HelpLink.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useDeleteRule, useDocumentNumberRules } from '../api/document-numbers.ts';
import { ReservationsDrawer } from '../components/ReservationsDrawer.tsx';
import { RuleEditorDrawer, type RuleEditorTarget } from '../components/RuleEditorDrawer.tsx';
import { formatSummary } from '../components/SegmentsEditor.tsx';
import '../i18n.ts';

/** /dataSet/documentNumber: document-number rules (search, page), the rule editor with preview, fetched numbers. */
export default function DocumentNumbersPage() {
  const { t } = useTranslation('documentNumbers');
  const can = useAccessChecker();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<string | undefined>();
  const table = usePagedTable();
  const [editing, setEditing] = useState<RuleEditorTarget | null>(null);
  const [reservationsOf, setReservationsOf] = useState<TDocumentNumberRule | null>(null);
  const list = useDocumentNumberRules({ Filter: filter, ...table.query });
  const remove = useDeleteRule();

  const apply = (text: string | undefined) => {
    setFilter(text);
    table.firstPage();
  };

  const confirmDelete = (r: TDocumentNumberRule) =>
    feedback.modal?.confirm({
      title: t('common:confirmDelete'),
      content: t('list.deleteDetail', { code: r.code }),
      okText: t('common:ok'),
      cancelText: t('common:cancel'),
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(r.id).then(() => feedback.message?.success(t('list.deleted'))),
    });

  const columns: ColumnsType<TDocumentNumberRule> = [
    {
      title: t('list.code'),
      dataIndex: 'code',
      key: 'code',
      sorter: true,
      width: 160,
      render: (code: string, r) => (
        <Typography.Link onClick={() => setEditing({ kind: 'edit', id: r.id })} data-testid={`rule-${code}`}>
          {code}
        </Typography.Link>
      ),
    },
    { title: t('list.name'), dataIndex: 'name', key: 'name', sorter: true },
    { title: t('list.format'), key: 'format', render: (_, r) => formatSummary(r.segments) },
    { title: t('list.resetPeriod'), key: 'resetPeriod', width: 100, render: (_, r) => t(`period.${r.resetPeriod}`) },
    {
      title: t('list.nextNumber'),
      key: 'nextNumber',
      render: (_, r) => (
        <Typography.Text code data-testid={`next-${r.code}`}>
          {r.nextNumber}
        </Typography.Text>
      ),
    },
    { title: t('list.modified'), key: 'lastModificationTime', sorter: true, width: 170, render: (_, r) => dayjs(r.lastModificationTime ?? r.creationTime).format('YYYY-MM-DD HH:mm:ss') },
    {
      title: t('common:actions'),
      key: 'actions',
      width: 120,
      render: (_, r) => (
        <Space size={0}>
          <Tooltip title={t('common:edit')}>
            <Button type="text" size="small" icon={<EditOutlined />} aria-label={`${t('common:edit')} ${r.code}`} onClick={() => setEditing({ kind: 'edit', id: r.id })} />
          </Tooltip>
          <Tooltip title={t('list.reservations')}>
            <Button type="text" size="small" icon={<HistoryOutlined />} aria-label={`${t('list.reservations')} ${r.code}`} onClick={() => setReservationsOf(r)} />
          </Tooltip>
          {can(P.DocumentNumbersDelete) && (
            <Tooltip title={t('common:delete')}>
              <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`${t('common:delete')} ${r.code}`} onClick={() => confirmDelete(r)} />
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card size="small" title={t('title')} extra={<HelpLink docKey="documentNumbers" />}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          prefix={<SearchOutlined />}
          style={{ width: 300 }}
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            if (!e.target.value) apply(undefined);
          }}
          onSearch={(v) => apply(v.trim() || undefined)}
          enterButton={t('common:search')}
        />
        {can(P.DocumentNumbersCreate) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'create' })}>
            {t('list.create')}
          </Button>
        )}
      </Space>
      <Table<TDocumentNumberRule>
        size="middle"
        rowKey="id"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: t('list.empty') }}
        data-testid="document-number-rules"
        {...table.tableProps<TDocumentNumberRule>(list.data?.totalCount ?? 0, (total) => t('list.total', { total }))}
      />
      <RuleEditorDrawer target={editing} onClose={() => setEditing(null)} />
      <ReservationsDrawer rule={reservationsOf} onClose={() => setReservationsOf(null)} />
    </Card>
  );
}
