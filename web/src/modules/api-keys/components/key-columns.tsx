import type { TApiKey, TApiKeyStatus } from '@tessera/core/contracts/api-keys';
import { Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';

const STATUS_COLORS: Record<TApiKeyStatus, string> = { active: 'green', expired: 'orange', revoked: 'default' };
const time = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm');

/** The columns both key lists show: name, prefix, permissions, expiry, last use, creation, status. */
export function useKeyColumns<T extends TApiKey>(): ColumnsType<T> {
  const { t } = useTranslation('apiKeys');
  return [
    { title: t('columns.name'), dataIndex: 'name', key: 'name', sorter: true, ellipsis: true, width: 200 },
    { title: t('columns.prefix'), dataIndex: 'prefix', key: 'prefix', width: 150, render: (v: string) => <Typography.Text code>{v}…</Typography.Text> },
    {
      title: t('columns.codes'),
      key: 'codes',
      width: 150,
      render: (_, k) =>
        k.codes ? (
          <Tooltip title={k.codes.join('\n')} styles={{ root: { whiteSpace: 'pre-line' } }}>
            <span>{t('someCodes', { count: k.codes.length })}</span>
          </Tooltip>
        ) : (
          t('allCodes')
        ),
    },
    { title: t('columns.expiresAt'), dataIndex: 'expiresAt', key: 'expiresAt', sorter: true, width: 150, render: (v: string | null) => (v ? time(v) : t('never')) },
    {
      title: t('columns.lastUsed'),
      dataIndex: 'lastUsedAt',
      key: 'lastUsedAt',
      sorter: true,
      width: 190,
      render: (v: string | null, k) =>
        v ? (
          <span>
            {time(v)} <Typography.Text type="secondary">{k.lastUsedIp}</Typography.Text>
          </span>
        ) : (
          <Typography.Text type="secondary">{t('neverUsed')}</Typography.Text>
        ),
    },
    { title: t('columns.createdAt'), dataIndex: 'createdAt', key: 'createdAt', sorter: true, width: 150, render: time },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      key: 'status',
      width: 90,
      render: (v: TApiKeyStatus) => <Tag color={STATUS_COLORS[v]}>{t(`status.${v}`)}</Tag>,
    },
  ];
}
