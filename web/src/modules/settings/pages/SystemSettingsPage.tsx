import { ReloadOutlined, SaveOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { P } from '@tessera/core/contracts/permissions';
import type { TSystemSettings } from '@tessera/core/contracts/settings';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useSaveSystemSettings, useSystemSettings } from '../api/system-settings.ts';
import '../i18n.ts';

/** /system/settings: registration on/off and its default roles, the password policy. */
export default function SystemSettingsPage() {
  const { t } = useTranslation('settings');
  const [form] = Form.useForm<TSystemSettings>();
  const settings = useSystemSettings();
  const save = useSaveSystemSettings();
  const canManage = useAccess(P.SettingsManage);

  useEffect(() => {
    if (settings.data) form.setFieldsValue({ registration: settings.data.registration, passwordPolicy: settings.data.passwordPolicy });
  }, [settings.data, form]);

  const onFinish = async (values: TSystemSettings) => {
    try {
      await save.mutateAsync(values);
      feedback.message?.success(t('saved'));
    } catch (err) {
      const errors = err instanceof ApiError ? err.validationErrors : [];
      // Members are `passwordPolicy.minLength`…: the fields are two levels deep.
      if (errors.length) setFieldErrors(form, mapValidationErrors(errors, { depth: 2 }).fields);
      else feedback.message?.error((err as Error).message);
    }
  };

  const roleOptions = (settings.data?.roles ?? []).filter((r) => !r.isAdmin).map((r) => ({ value: r.id, label: r.name }));

  return (
    <Card
      title={t('title')}
      loading={settings.isLoading}
      extra={
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => void settings.refetch()}>
            {t('reload')}
          </Button>
          {canManage && (
            <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} onClick={() => form.submit()}>
              {t('save')}
            </Button>
          )}
        </Space>
      }
    >
      {!canManage && <Alert type="info" showIcon title={t('readOnly')} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" disabled={!canManage} onFinish={(v) => void onFinish(v)} style={{ maxWidth: 640 }} aria-label={t('title')}>
        <Typography.Title level={5}>{t('registration.title')}</Typography.Title>
        <Form.Item name={['registration', 'isEnabled']} label={t('registration.isEnabled')} extra={t('registration.isEnabledHelp')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name={['registration', 'defaultRoleIds']} label={t('registration.defaultRoles')} extra={t('registration.defaultRolesHelp')}>
          <Select mode="multiple" allowClear options={roleOptions} placeholder={t('registration.noRoles')} optionFilterProp="label" />
        </Form.Item>
        <Typography.Title level={5}>{t('passwordPolicy.title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('passwordPolicy.help')}</Typography.Paragraph>
        <Space size="large" wrap align="start">
          <Form.Item name={['passwordPolicy', 'minLength']} label={t('passwordPolicy.minLength')} rules={[{ required: true }]}>
            <InputNumber min={8} max={128} precision={0} />
          </Form.Item>
          <Form.Item name={['passwordPolicy', 'requiredClasses']} label={t('passwordPolicy.requiredClasses')} extra={t('passwordPolicy.requiredClassesHelp')} rules={[{ required: true }]}>
            <InputNumber min={1} max={4} precision={0} />
          </Form.Item>
        </Space>
      </Form>
    </Card>
  );
}
