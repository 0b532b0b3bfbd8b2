import { PlusOutlined } from '@ant-design/icons';
import type { TApiKey } from '@tessera/core/contracts/api-keys';
import { Alert, Button, Card, Grid, Spin, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../../shared/api/client.ts';
import { useMyApiKeys, useRevokeMyKey } from '../api/api-keys.ts';
import { CreateApiKeyModal } from '../components/CreateApiKeyModal.tsx';
import { useRevokeAction } from '../components/revoke-action.tsx';
import { KeyCards, useKeyColumns } from '../components/key-columns.tsx';
import '../i18n.ts';

/** /account/apiKeys: the signed-in person's API keys — create (shown once), see their use, revoke. */
export default function MyApiKeysPage() {
  const { t } = useTranslation('apiKeys');
  const keys = useMyApiKeys();
  const revoke = useRevokeMyKey();
  const revokeButton = useRevokeAction<TApiKey>(revoke.mutateAsync, () => t('mine.revokeContent'));
  const [creating, setCreating] = useState(false);
  const phone = Grid.useBreakpoint().md === false;

  const columns: ColumnsType<TApiKey> = [
    ...useKeyColumns<TApiKey>().map((c) => ({ ...c, sorter: false })),
    { title: t('common:actions'), key: 'actions', width: 80, render: (_, k) => revokeButton(k) },
  ];

  return (
    <Card
      size="small"
      title={t('mine.title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('mine.create')}
        </Button>
      }
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title={t('mine.intro')}
        description={
          <Typography.Link href={`${API_BASE}/docs`} target="_blank" rel="noreferrer">
            {t('mine.docs')}
          </Typography.Link>
        }
      />
      {phone ? (
        <Spin spinning={keys.isFetching}>
          <KeyCards keys={keys.data?.items ?? []} empty={t('mine.empty')} action={revokeButton} />
        </Spin>
      ) : (
        <Table<TApiKey>
          size="middle"
          rowKey="id"
          loading={keys.isFetching}
          columns={columns}
          dataSource={keys.data?.items ?? []}
          locale={{ emptyText: t('mine.empty') }}
          pagination={false}
          scroll={{ x: 1170 }}
          data-testid="my-api-keys"
        />
      )}
      <CreateApiKeyModal open={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}
