import { App, AutoComplete, Form, Input, Modal } from 'antd';
import { isSafeTextPath, NAMESPACE_PATTERN, TEXT_KEY_PATTERN, TEXT_VALUE_MAX } from '@tessera/core/contracts/localization';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createText } from '../api/localization.ts';
import { showFieldErrors } from './form-errors.ts';

interface Values {
  resourceName: string;
  key: string;
  value: string;
}

/** A custom text for a key the bundle does not have (or in a namespace of its own). */
export function AddTextModal({ open, culture, namespaces, onClose, onSaved }: { open: boolean; culture: string; namespaces: string[]; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation('localization');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await createText({ culture, resourceName: values.resourceName.trim(), key: values.key.trim(), value: values.value });
      message.success(t('packs.saved'));
      form.resetFields();
      onSaved();
    } catch (err) {
      if (!showFieldErrors(form, err, ['resourceName', 'key', 'value'])) message.error((err as Error).message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={open} title={`${t('grid.addKeyTitle')} (${culture})`} onCancel={onClose} onOk={() => form.submit()} confirmLoading={saving} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ resourceName: 'common' }}>
        <Form.Item
          name="resourceName"
          label={t('grid.namespace')}
          rules={[{ required: true, pattern: NAMESPACE_PATTERN, message: t('grid.namespaceInvalid') }, { validator: (_, v: string) => (!v || isSafeTextPath(v) ? Promise.resolve() : Promise.reject(new Error(t('grid.namespaceInvalid')))) }]}
        >
          <AutoComplete options={namespaces.map((n) => ({ value: n }))} filterOption />
        </Form.Item>
        <Form.Item
          name="key"
          label={t('grid.key')}
          extra={t('grid.keyHelp')}
          rules={[{ required: true, pattern: TEXT_KEY_PATTERN, message: t('grid.keyInvalid') }, { validator: (_, v: string) => (!v || isSafeTextPath(v) ? Promise.resolve() : Promise.reject(new Error(t('grid.keyInvalid')))) }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="value" label={t('grid.value')} rules={[{ required: true, whitespace: true, message: t('grid.valueRequired') }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} maxLength={TEXT_VALUE_MAX} lang={culture} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
