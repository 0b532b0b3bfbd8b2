import { App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { useChangePassword } from '../api/auth.ts';
import { validValues } from '../../../shared/ui/form-values.ts';

interface PasswordForm {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** spec §2/§4: opened from the user menu with cleared fields; closes on cancel or success. */
export function PasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordForm>();
  const change = useChangePassword();

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    try {
      const result = await change.mutateAsync({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      message.success(result?.message || t('password.success'));
      onClose();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // The server names the field that failed (wrong current password, password policy).
      const { fields } = mapValidationErrors(err.validationErrors, { fields: ['currentPassword', 'newPassword'] });
      if (fields.length) setFieldErrors(form, fields);
      else message.error(err.message);
    }
  };

  return (
    <Modal
      open={open}
      title={t('password.title')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={change.isPending}
      destroyOnHidden
      forceRender
      okButtonProps={{ 'data-testid': 'password-submit' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" requiredMark onFinish={() => void submit()} autoComplete="off">
        <Form.Item name="currentPassword" label={t('password.current')} rules={[{ required: true, message: t('password.currentRequired') }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('password.new')}
          dependencies={['currentPassword']}
          rules={[
            { required: true, message: t('password.newRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value && value === getFieldValue('currentPassword') ? Promise.reject(new Error(t('password.sameAsCurrent'))) : Promise.resolve(),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('password.confirm')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('password.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || value === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </Form>
    </Modal>
  );
}
