import { DatePicker, Form, Modal, Radio, Typography } from 'antd';
import type { TIdentityUser } from '@tessera/core/contracts/identity';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useLockUser } from '../api/users.ts';
import '../i18n.ts';

const DURATIONS = { m15: 15, h1: 60, d1: 60 * 24, d7: 60 * 24 * 7, d30: 60 * 24 * 30 } as const;
type Choice = keyof typeof DURATIONS | 'custom';

/** Lock a user for a while or until a time; their sessions end at once. */
export function LockUserModal({ user, onClose }: { user: TIdentityUser | null; onClose(): void }) {
  const { t } = useTranslation('identity');
  const lock = useLockUser();
  const [choice, setChoice] = useState<Choice>('h1');
  const [until, setUntil] = useState<Dayjs | null>(null);
  const valid = choice !== 'custom' || (until && until.isAfter(dayjs()));
  return (
    <Modal
      open={!!user}
      title={user ? t('users.lockTitle', { user: user.userName }) : ''}
      okText={t('users.lock')}
      okButtonProps={{ danger: true, disabled: !valid }}
      confirmLoading={lock.isPending}
      onCancel={onClose}
      onOk={async () => {
        const input = choice === 'custom' ? { until: until!.toISOString() } : { minutes: DURATIONS[choice] };
        await lock.mutateAsync({ id: user!.id, input });
        feedback.message?.success(t('users.lockedDone'));
        onClose();
      }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('users.lockText')}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('users.lockFor')}>
          <Radio.Group
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            options={(['m15', 'h1', 'd1', 'd7', 'd30', 'custom'] as const).map((k) => ({ value: k, label: t(`users.durations.${k}`) }))}
          />
        </Form.Item>
        {choice === 'custom' && (
          <Form.Item label={t('users.lockUntil')}>
            <DatePicker showTime format="YYYY-MM-DD HH:mm" value={until} onChange={setUntil} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
