import { ThunderboltOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Typography } from 'antd';
import type { TIdentityUser } from '@tessera/core/contracts/identity';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../shared/clipboard.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useResetPassword } from '../api/users.ts';
import { showFormErrors } from '../../../shared/ui/form-errors.ts';
import '../i18n.ts';
import { validValues } from '../../../shared/ui/form-values.ts';

/** 14 characters from every class, from the browser's CSPRNG. */
function generatePassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '#$%&*+-=?@'];
  const all = sets.join('');
  const pick = (s: string) => s[crypto.getRandomValues(new Uint32Array(1))[0]! % s.length]!;
  const chars = [...sets.map(pick), ...Array.from({ length: 10 }, () => pick(all))];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = crypto.getRandomValues(new Uint32Array(1))[0]! % (i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** The administrator sets a new password; the user's sessions end. */
export function ResetPasswordModal({ user, onClose }: { user: TIdentityUser | null; onClose(): void }) {
  const { t } = useTranslation('identity');
  const [form] = Form.useForm<{ newPassword: string; confirm: string }>();
  const reset = useResetPassword();
  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    const { newPassword } = values;
    try {
      await reset.mutateAsync({ id: user!.id, newPassword });
      feedback.message?.success(t('users.resetDone'));
      form.resetFields();
      onClose();
    } catch (err) {
      if (!showFormErrors(form, err, ['newPassword'])) throw err;
    }
  };
  return (
    <Modal
      open={!!user}
      title={user ? t('users.resetTitle', { user: user.userName }) : ''}
      okText={t('common:save')}
      confirmLoading={reset.isPending}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      onOk={submit}
      forceRender
    >
      <Typography.Paragraph type="secondary">{t('users.resetText')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item label={t('users.newPassword')} required extra={t('users.fields.passwordHelp')}>
          <div style={{ display: 'flex', gap: 8 }}>
            <Form.Item name="newPassword" noStyle rules={[{ required: true, message: t('users.required', { field: t('users.newPassword') }) }, { max: 128 }]}>
              <Input.Password autoComplete="new-password" maxLength={128} aria-label={t('users.newPassword')} />
            </Form.Item>
            <Button
              icon={<ThunderboltOutlined />}
              onClick={() => {
                const password = generatePassword();
                form.setFieldsValue({ newPassword: password, confirm: password });
                void copyText(password).then((copied) => (copied ? feedback.message?.info(t('users.copied')) : feedback.message?.warning(t('common:copyFailed'))));
              }}
            >
              {t('users.generate')}
            </Button>
          </div>
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('users.confirmPassword')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('users.required', { field: t('users.confirmPassword') }) },
            ({ getFieldValue }) => ({
              validator: (_, v) => (!v || v === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error(t('users.passwordMismatch')))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={128} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
