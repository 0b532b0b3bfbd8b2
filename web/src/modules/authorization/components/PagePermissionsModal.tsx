import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import type { TPagePermissionsInput } from '@tessera/core/contracts/authorization';
import { bizPermission } from '@tessera/core/contracts/permissions';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { LocalizedTextInput, requireSomeText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useCreatePagePermissions } from '../api/permission-definitions.ts';
import '../i18n.ts';
import { validValues } from '../../../shared/ui/form-values.ts';

type Values = Required<Pick<TPagePermissionsInput, 'pageCode' | 'displayName'>> & {
  buttons: { code: string; displayName: Record<string, string> }[];
  fields: { code: string; displayName: Record<string, string> }[];
};
const CODE = /^[A-Za-z][A-Za-z0-9_]*$/;

/** One business page's codes at once: access, each button, view/edit for each field. */
export function PagePermissionsModal({ open, onClose }: { open: boolean; onClose(created?: string): void }) {
  const { t } = useTranslation('authorization');
  const [form] = Form.useForm<Values>();
  const create = useCreatePagePermissions();
  const pageCode = Form.useWatch('pageCode', form) ?? '';
  const buttons = Form.useWatch('buttons', form) ?? [];
  const fields = Form.useWatch('fields', form) ?? [];
  const valid = CODE.test(pageCode);
  const preview = valid
    ? [
        bizPermission.access(pageCode),
        ...buttons.filter((b) => b && CODE.test(b.code ?? '')).map((b) => bizPermission.button(pageCode, b.code)),
        ...fields
          .filter((f) => f && CODE.test(f.code ?? ''))
          .flatMap((f) => [bizPermission.fieldView(pageCode, f.code), bizPermission.fieldEdit(pageCode, f.code)]),
      ]
    : [];

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    try {
      const result = await create.mutateAsync({ ...values, buttons: values.buttons ?? [], fields: values.fields ?? [] });
      feedback.message?.success(t('pagePermissions.done', { created: result.created.length, existing: result.existing.length }));
      onClose(`Biz.${values.pageCode}`);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      feedback.message?.error([err.message, ...err.validationErrors.map((v) => `${v.members.join(', ')}: ${v.message}`)].join(' — '));
    }
  };

  const codeRules = [{ required: true, message: t('pagePermissions.codeRequired') }, { pattern: CODE, message: t('pagePermissions.codeRule') }];
  const list = (name: 'buttons' | 'fields', addLabel: string) => (
    <Form.List name={name}>
      {(items, { add, remove }) => (
        <Space direction="vertical" style={{ width: '100%' }}>
          {items.map((item) => (
            <Space key={item.key} align="start" style={{ width: '100%' }}>
              <Form.Item name={[item.name, 'code']} rules={codeRules} style={{ width: 160, marginBottom: 0 }}>
                <Input placeholder={t('pagePermissions.code')} aria-label={t('pagePermissions.code')} />
              </Form.Item>
              <Form.Item name={[item.name, 'displayName']} rules={[requireSomeText(t('requiredText'))]} style={{ width: 360, marginBottom: 0 }}>
                <LocalizedTextInput />
              </Form.Item>
              <Button type="text" danger icon={<MinusCircleOutlined />} aria-label={t('pagePermissions.remove')} onClick={() => remove(item.name)} />
            </Space>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ code: '', displayName: {} })}>
            {addLabel}
          </Button>
        </Space>
      )}
    </Form.List>
  );

  return (
    <Modal open={open} title={t('pagePermissions.title')} onCancel={() => onClose()} onOk={submit} confirmLoading={create.isPending} width={720} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ buttons: [], fields: [] }}>
        <Form.Item name="pageCode" label={t('pagePermissions.pageCode')} rules={codeRules} extra={t('pagePermissions.pageCodeHelp')}>
          <Input placeholder="Orders" />
        </Form.Item>
        <Form.Item name="displayName" label={t('pagePermissions.pageTitle')} rules={[requireSomeText(t('requiredText'))]}>
          <LocalizedTextInput />
        </Form.Item>
        <Form.Item label={t('pagePermissions.buttons')}>{list('buttons', t('pagePermissions.addButton'))}</Form.Item>
        <Form.Item label={t('pagePermissions.fields')}>{list('fields', t('pagePermissions.addField'))}</Form.Item>
        {preview.length > 0 && (
          <div>
            <Typography.Text type="secondary">{t('pagePermissions.preview')}</Typography.Text>
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, marginTop: 4 }}>
              {preview.map((code) => (
                <Typography.Text key={code} code>
                  {code}
                </Typography.Text>
              ))}
            </div>
          </div>
        )}
      </Form>
    </Modal>
  );
}
