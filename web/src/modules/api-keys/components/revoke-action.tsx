import { StopOutlined } from '@ant-design/icons';
import type { TApiKey } from '@tessera/core/contracts/api-keys';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import '../i18n.ts';

/**
 * The revoke button of a live key: it asks first (a revocation cannot be undone, `content` says
 * for whom), then revokes and says so. Revoked and expired keys get no button.
 */
export function useRevokeAction<K extends TApiKey>(revoke: (id: string) => Promise<unknown>, content: (key: K) => string) {
  const { t } = useTranslation('apiKeys');
  const confirm = (key: K) =>
    feedback.modal?.confirm({
      title: t('mine.revokeTitle', { name: key.name }),
      content: content(key),
      okText: t('revoke'),
      cancelText: t('common:cancel'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'api-key-revoke-confirm' } as Record<string, string>) },
      onOk: () => revoke(key.id).then(() => feedback.message?.success(t('mine.revoked'))),
    });
  return (key: K) =>
    key.status === 'active' && (
      <Tooltip title={t('revoke')}>
        <Button type="text" size="small" danger icon={<StopOutlined />} aria-label={`${t('revoke')} ${key.name}`} onClick={() => confirm(key)} />
      </Tooltip>
    );
}
