import { SearchOutlined } from '@ant-design/icons';
import { type TAdminApiKey, type TApiKeyStatus } from '@tessera/core/contracts/api-keys';
import { P } from '@tessera/core/contracts/permissions';
import { Card, Input, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccessChecker } from '../../../shared/components/Auth.tsx';
import { usePagedTable } from '../../../shared/ui/use-paged-table.ts';
import { useAllApiKeys, useRevokeAnyKey } from '../api/api-keys.ts';
import { useRevokeAction } from '../components/revoke-action.tsx';
import { useKeyColumns } from '../components/key-columns.tsx';
import '../i18n.ts';

const STATUSES: TApiKeyStatus[] = ['active', 'expired', 'revoked'];

/** /system/apiKeys: every user's API keys (search, status, paging, sorting); revoke any. */
export default function AdminApiKeysPage() {
  const { t } = useTranslation('apiKeys');
  const can = useAccessChecker();
  const table = usePagedTable();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<string | undefined>();
  const [status, setStatus] = useState<TApiKeyStatus | undefined>('active');
  const keys = useAllApiKeys({ Filter: filter, Status: status, ...table.query });
  const revoke = useRevokeAnyKey();
  const revokeButton = useRevokeAction<TAdminApiKey>(revoke.mutateAsync, (k) => t('admin.revokeContent', { user: k.userName }));
  const keyColumns = useKeyColumns<TAdminApiKey>();

  const columns: ColumnsType<TAdminApiKey> = [
    keyColumns[0]!,
    {
      title: t('columns.owner'),
      dataIndex: 'userName',
      key: 'userName',
      sorter: true,
      width: 180,
      render: (v: string, k) =>
        k.ownerName !== v ? (
          <span>
            {k.ownerName} <Typography.Text type="secondary">({v})</Typography.Text>
          </span>
        ) : (
          v
        ),
    },
    ...keyColumns.slice(1),
    {
      title: t('common:actions'),
      key: 'actions',
      width: 80,
      render: (_, k) => can(P.ApiKeysRevoke) && revokeButton(k),
    },
  ];

  return (
    <Card size="small" title={t('admin.title')}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          prefix={<SearchOutlined />}
          style={{ width: 300 }}
          placeholder={t('admin.search')}
          aria-label={t('admin.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            if (!e.target.value) {
              setFilter(undefined);
              table.firstPage();
            }
          }}
          onSearch={(v) => {
            setFilter(v.trim() || undefined);
            table.firstPage();
          }}
          enterButton={t('common:search')}
        />
        <Select<TApiKeyStatus | 'all'>
          style={{ width: 140 }}
          aria-label={t('admin.status')}
          value={status ?? 'all'}
          onChange={(v) => {
            setStatus(v === 'all' ? undefined : v);
            table.firstPage();
          }}
          options={[{ value: 'all', label: t('admin.allStatuses') }, ...STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))]}
        />
      </Space>
      <Table<TAdminApiKey>
        size="middle"
        rowKey="id"
        loading={keys.isFetching}
        columns={columns}
        dataSource={keys.data?.items ?? []}
        locale={{ emptyText: t('admin.empty') }}
        scroll={{ x: 1350 }}
        data-testid="all-api-keys"
        {...table.tableProps<TAdminApiKey>(keys.data?.totalCount ?? 0, (total) => t('admin.total', { total }))}
      />
    </Card>
  );
}
