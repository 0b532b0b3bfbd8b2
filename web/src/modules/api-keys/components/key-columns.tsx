import type { TApiKey, TApiKeyStatus } from '@tessera/core/contracts/api-keys';
import { Card, Descriptions, Flex, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';

const STATUS_COLORS: Record<TApiKeyStatus, string> = { active: 'green', expired: 'orange', revoked: 'default' };
const time = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm');

/** How a key's fields read, in the table and on a phone's cards. */
function useKeyCells() {
  const { t } = useTranslation('apiKeys');
  return {
    t,
    prefix: (k: TApiKey) => <Typography.Text code>{k.prefix}…</Typography.Text>,
    codes: (k: TApiKey) =>
      k.codes ? (
        <Tooltip title={k.codes.join('\n')} styles={{ root: { whiteSpace: 'pre-line' } }}>
          <span>{t('someCodes', { count: k.codes.length })}</span>
        </Tooltip>
      ) : (
        t('allCodes')
      ),
    expiresAt: (k: TApiKey) => (k.expiresAt ? time(k.expiresAt) : t('never')),
    lastUsed: (k: TApiKey) =>
      k.lastUsedAt ? (
        <span>
          {time(k.lastUsedAt)} <Typography.Text type="secondary">{k.lastUsedIp}</Typography.Text>
        </span>
      ) : (
        <Typography.Text type="secondary">{t('neverUsed')}</Typography.Text>
      ),
    status: (k: TApiKey) => <Tag color={STATUS_COLORS[k.status]}>{t(`status.${k.status}`)}</Tag>,
  };
}

/** The columns both key lists show: name, prefix, permissions, expiry, last use, creation, status. */
export function useKeyColumns<T extends TApiKey>(): ColumnsType<T> {
  const cell = useKeyCells();
  const { t } = cell;
  return [
    { title: t('columns.name'), dataIndex: 'name', key: 'name', sorter: true, ellipsis: true, width: 200 },
    { title: t('columns.prefix'), key: 'prefix', width: 150, render: (_, k) => cell.prefix(k) },
    { title: t('columns.codes'), key: 'codes', width: 150, render: (_, k) => cell.codes(k) },
    { title: t('columns.expiresAt'), key: 'expiresAt', sorter: true, width: 150, render: (_, k) => cell.expiresAt(k) },
    { title: t('columns.lastUsed'), key: 'lastUsedAt', sorter: true, width: 190, render: (_, k) => cell.lastUsed(k) },
    { title: t('columns.createdAt'), key: 'createdAt', sorter: true, width: 150, render: (_, k) => time(k.createdAt) },
    { title: t('columns.status'), key: 'status', width: 90, render: (_, k) => cell.status(k) },
  ];
}

/** A phone's list of keys: one card each, its action in the corner. */
export function KeyCards({ keys, empty, action }: { keys: TApiKey[]; empty: string; action: (key: TApiKey) => ReactNode }) {
  const cell = useKeyCells();
  const { t } = cell;
  if (keys.length === 0) return <Typography.Text type="secondary">{empty}</Typography.Text>;
  return (
    <Flex vertical gap={8} data-testid="api-key-cards">
      {keys.map((k) => (
        <Card key={k.id} size="small" title={k.name} extra={<Flex align="center">{cell.status(k)}{action(k)}</Flex>}>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'prefix', label: t('columns.prefix'), children: cell.prefix(k) },
              { key: 'codes', label: t('columns.codes'), children: cell.codes(k) },
              { key: 'expiresAt', label: t('columns.expiresAt'), children: cell.expiresAt(k) },
              { key: 'lastUsed', label: t('columns.lastUsed'), children: cell.lastUsed(k) },
            ]}
          />
        </Card>
      ))}
    </Flex>
  );
}
