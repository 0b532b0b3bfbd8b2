import { useQuery } from '@tanstack/react-query';
import type { TCurrentUser } from '@tessera/core/contracts/auth';
import { Button, Card, Descriptions, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { api, API_BASE } from '../../shared/api/client.ts';
import { LOCALE_LABELS, currentLocale } from '../../shared/i18n/i18n.ts';
import { deviceOf } from '../hooks/useDevice.ts';

/** spec §2 /11 (test page): what the browser and the server say right now — user, access, language, server time, latency. */
export default function DiagnosticsPage() {
  const { t } = useTranslation('shell');
  const check = useQuery({
    queryKey: ['diagnostics'],
    queryFn: async () => {
      const started = performance.now();
      const date = await api.get<{ date: string; timeZone: string }>('/app/sys-function/system-date');
      const latency = Math.round(performance.now() - started);
      const user = await api.get<TCurrentUser>('/app/sys-function/current-user');
      return { date, latency, user };
    },
    staleTime: 0,
  });
  const data = check.data;
  return (
    <Card variant="borderless" title={t('diagnostics.title')} extra={<Button onClick={() => void check.refetch()} loading={check.isFetching}>{t('diagnostics.check')}</Button>}>
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('diagnostics.user')}>{data ? `${data.user.name} (${data.user.userName})` : '…'}</Descriptions.Item>
        <Descriptions.Item label={t('diagnostics.access')}>{data ? data.user.access.length : '…'}</Descriptions.Item>
        <Descriptions.Item label={t('diagnostics.locale')}>{LOCALE_LABELS[currentLocale()]}</Descriptions.Item>
        <Descriptions.Item label={t('diagnostics.device')}>
          <Tag>{t(`diagnostics.devices.${deviceOf(window.innerWidth)}`)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('diagnostics.serverDate')}>{data ? `${dayjs(data.date.date).format('YYYY-MM-DD HH:mm:ss')} (${data.date.timeZone})` : '…'}</Descriptions.Item>
        <Descriptions.Item label={t('diagnostics.latency')}>{data ? t('diagnostics.latencyValue', { ms: data.latency }) : '…'}</Descriptions.Item>
        <Descriptions.Item label={t('diagnostics.api')}>{API_BASE}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
