import { Alert, Form, Input, Modal, Switch } from 'antd';
import type { TIdentityRole } from '@tessera/core/contracts/identity';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useCreateRole, useUpdateRole } from '../api/roles.ts';
import { showFormErrors } from '../../../shared/ui/form-errors.ts';
import '../i18n.ts';
import { validValues } from '../../../shared/ui/form-values.ts';

interface RoleForm {
  name: string;
  description: string;
  isDefault: boolean;
  isPublic: boolean;
}

export type RoleFormTarget = { kind: 'create' } | { kind: 'edit'; role: TIdentityRole };

/** Create or edit a role; a built-in role keeps its name. */
export function RoleFormModal({ target, onClose }: { target: RoleFormTarget | null; onClose(): void }) {
  const { t } = useTranslation('identity');
  const [form] = Form.useForm<RoleForm>();
  const create = useCreateRole();
  const update = useUpdateRole();
  const role = target?.kind === 'edit' ? target.role : null;
  const isAdminRole = !!role?.isStatic && role.name.toLowerCase() === 'admin';

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(role ? { name: role.name, description: role.description, isDefault: role.isDefault, isPublic: role.isPublic } : { name: '', description: '', isDefault: false, isPublic: true });
  }, [target, role, form]);

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    const body = { name: values.name.trim(), description: values.description?.trim() ?? '', isDefault: values.isDefault, isPublic: values.isPublic };
    try {
      if (role) await update.mutateAsync({ id: role.id, input: { ...body, concurrencyStamp: role.concurrencyStamp } });
      else await create.mutateAsync(body);
      feedback.message?.success(t('saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        feedback.message?.error(t('roles.staleText'));
        onClose();
      } else if (!showFormErrors(form, err, ['name', 'description', 'isDefault', 'isPublic'])) throw err;
    }
  };

  return (
    <Modal
      open={!!target}
      title={role ? t('roles.editTitle') : t('roles.createTitle')}
      onCancel={onClose}
      onOk={submit}
      okText={t('common:save')}
      confirmLoading={create.isPending || update.isPending}
      destroyOnHidden
      forceRender
    >
      {role?.isStatic && <Alert type="info" showIcon title={isAdminRole ? `${t('roles.staticHint')}；${t('roles.adminHint')}` : t('roles.staticHint')} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="name"
          label={t('roles.name')}
          rules={[
            { required: true, whitespace: true, message: t('roles.nameRequired') },
            { max: 64 },
            { pattern: /^[^,;，；]+$/, message: t('roles.nameInvalid') },
          ]}
        >
          <Input autoFocus maxLength={64} disabled={role?.isStatic} />
        </Form.Item>
        <Form.Item name="description" label={t('roles.description')} rules={[{ max: 256 }]}>
          <Input.TextArea rows={2} maxLength={256} showCount />
        </Form.Item>
        <Form.Item name="isDefault" label={t('roles.isDefault')} tooltip={t('roles.isDefaultHelp')} valuePropName="checked">
          <Switch disabled={isAdminRole} />
        </Form.Item>
        <Form.Item name="isPublic" label={t('roles.isPublic')} tooltip={t('roles.isPublicHelp')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
