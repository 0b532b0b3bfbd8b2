import { Form, Input, Modal, Switch } from 'antd';
import { PRINT_LIMITS, type TPrintTemplateDetail } from '@tessera/core/contracts/print-templates';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { validValues } from '../../../shared/ui/form-values.ts';
import '../i18n.ts';

type Settings = Pick<TPrintTemplateDetail, 'name' | 'description' | 'permissionCode' | 'approvedOnly'>;

/** The contract's permission code pattern (`ZPermissionCode`). */
const PERMISSION_CODE = /^[A-Za-z][A-Za-z0-9_.]{0,127}$/;

/** A template's name, description, the permission printing with it needs, and whether only approved records print. Saved with the layout. */
export function TemplateSettingsModal({ open, value, onClose, onChange }: { open: boolean; value: Settings; onClose(): void; onChange(next: Settings): void }) {
  const { t } = useTranslation('print');
  const [form] = Form.useForm<{ name: string; description?: string; permissionCode?: string; approvedOnly: boolean }>();

  useEffect(() => {
    if (open) form.setFieldsValue({ name: value.name, description: value.description ?? '', permissionCode: value.permissionCode ?? '', approvedOnly: value.approvedOnly });
  }, [open, value, form]);

  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    onChange({ name: v.name.trim(), description: v.description?.trim() || null, permissionCode: v.permissionCode?.trim() || null, approvedOnly: v.approvedOnly });
    onClose();
  };

  return (
    <Modal open={open} title={t('settings.title')} onCancel={onClose} onOk={submit} okText={t('list.ok')} cancelText={t('list.cancel')} forceRender>
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="name" label={t('list.name')} rules={[{ required: true, whitespace: true, message: t('list.nameRequired') }]}>
          <Input maxLength={PRINT_LIMITS.name} autoComplete="off" />
        </Form.Item>
        <Form.Item name="description" label={t('list.description')}>
          <Input.TextArea maxLength={PRINT_LIMITS.description} rows={2} />
        </Form.Item>
        <Form.Item name="permissionCode" label={t('settings.permissionCode')} extra={t('settings.permissionCodeHelp')} rules={[{ pattern: PERMISSION_CODE, message: t('settings.permissionCodeInvalid') }]}>
          <Input maxLength={128} autoComplete="off" style={{ fontFamily: 'monospace' }} data-testid="print-permission-code" />
        </Form.Item>
        <Form.Item name="approvedOnly" label={t('settings.approvedOnly')} extra={t('settings.approvedOnlyHelp')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
