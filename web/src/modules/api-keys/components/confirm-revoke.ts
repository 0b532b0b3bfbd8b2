import type { TApiKey } from '@tessera/core/contracts/api-keys';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import '../i18n.ts';

/** Asks before a key is revoked (it cannot be undone), then revokes it and says so. */
export function useConfirmRevoke(revoke: (id: string) => Promise<unknown>) {
  const { t } = useTranslation('apiKeys');
  return (key: TApiKey, content: string) =>
    feedback.modal?.confirm({
      title: t('mine.revokeTitle', { name: key.name }),
      content,
      okText: t('revoke'),
      cancelText: t('common:cancel'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'api-key-revoke-confirm' } as Record<string, string>) },
      onOk: () => revoke(key.id).then(() => feedback.message?.success(t('mine.revoked'))),
    });
}
