import { Form, Input, Modal } from 'antd';
import { WORKFLOW_LIMITS } from '@tessera/core/contracts/workflow';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormulaEditor } from '../../../shared/components/formula-editor/FormulaEditor.tsx';
import { validValues } from '../../../shared/ui/form-values.ts';
import type { PageFields } from './page-fields.ts';

export interface DefinitionSettings {
  name: string;
  description: string | null;
  condition: string | null;
}

/** The definition's name, description and condition (which of a page's definitions applies), edited in the designer. */
export function DefinitionSettingsModal({ value, open, page, onClose, onChange }: { value: DefinitionSettings; open: boolean; page: PageFields; onClose(): void; onChange(next: DefinitionSettings): void }) {
  const { t } = useTranslation('workflow');
  const [form] = Form.useForm<{ name: string; description?: string; condition?: string }>();
  useEffect(() => {
    if (open) form.setFieldsValue({ name: value.name, description: value.description ?? '', condition: value.condition ?? '' });
  }, [open, value, form]);
  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    onChange({ name: values.name.trim(), description: values.description?.trim() || null, condition: values.condition?.trim() || null });
    onClose();
  };
  return (
    <Modal open={open} title={t('designer.settings')} onCancel={onClose} onOk={submit} okText={t('list.ok')} cancelText={t('list.cancel')} destroyOnHidden>
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="name" label={t('list.name')} rules={[{ required: true, whitespace: true, message: t('list.nameRequired') }]}>
          <Input maxLength={WORKFLOW_LIMITS.name} autoComplete="off" data-testid="wf-settings-name" />
        </Form.Item>
        <Form.Item name="condition" label={t('list.condition')} extra={t('list.conditionHelp')}>
          <FormulaEditor references={page.references} schema={page.fields.length ? page.formulaSchema : undefined} aria-label={t('list.condition')} />
        </Form.Item>
        <Form.Item name="description" label={t('list.description')}>
          <Input.TextArea maxLength={WORKFLOW_LIMITS.description} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
