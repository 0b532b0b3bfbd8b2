import { Form, Input, Modal, Select } from 'antd';
import { WORKFLOW_LIMITS, type TWorkflowDefinitionListItem } from '@tessera/core/contracts/workflow';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/api/client.ts';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { validValues } from '../../../shared/ui/form-values.ts';
import { useCopyWorkflowDefinition, useCreateWorkflowDefinition } from '../api/workflow-definitions.ts';
import { usePublishedPages } from '../api/workflow-lookups.ts';
import { initialGraph } from '../designer/graph-model.ts';
import '../i18n.ts';

export type DefinitionFormTarget = { kind: 'create' } | { kind: 'copy'; definition: TWorkflowDefinitionListItem };

interface Values {
  name: string;
  pageId: string;
  condition?: string;
  description?: string;
}

/** Create (name, bound published page, optional condition, description) or copy a definition. */
export function DefinitionFormModal({ target, onClose, onCreated }: { target: DefinitionFormTarget | null; onClose: () => void; onCreated?: (id: string) => void }) {
  const { t, i18n } = useTranslation('workflow');
  const [form] = Form.useForm<Values>();
  const create = useCreateWorkflowDefinition();
  const copy = useCopyWorkflowDefinition();
  const pages = usePublishedPages();

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target.kind === 'copy') form.setFieldsValue({ name: `${target.definition.name} (2)`.slice(0, WORKFLOW_LIMITS.name) });
  }, [target, form]);

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    try {
      if (target?.kind === 'create') {
        const created = await create.mutateAsync({
          name: values.name.trim(),
          pageId: values.pageId,
          condition: values.condition?.trim() || null,
          description: values.description?.trim() || null,
          // Start and end named in the designer's language.
          graph: initialGraph({ start: t('nodeTypes.start'), end: t('nodeTypes.end') }),
        });
        feedback.message?.success(t('list.created'));
        onClose();
        onCreated?.(created.id);
      } else if (target?.kind === 'copy') {
        await copy.mutateAsync({ id: target.definition.id, input: { name: values.name.trim() } });
        feedback.message?.success(t('list.copied'));
        onClose();
      }
    } catch (err) {
      feedback.message?.error(errorText(err));
    }
  };

  return (
    <Modal
      open={Boolean(target)}
      title={target?.kind === 'copy' ? t('list.copyTitle', { name: target.definition.name }) : t('list.createTitle')}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={create.isPending || copy.isPending}
      okText={t('list.ok')}
      cancelText={t('list.cancel')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="name" label={t('list.name')} rules={[{ required: true, whitespace: true, message: t('list.nameRequired') }]}>
          <Input maxLength={WORKFLOW_LIMITS.name} autoComplete="off" data-testid="workflow-name" />
        </Form.Item>
        {target?.kind === 'create' && (
          <>
            <Form.Item name="pageId" label={t('list.page')} rules={[{ required: true, message: t('list.pageRequired') }]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('list.pagePlaceholder')}
                loading={pages.isFetching}
                data-testid="workflow-page"
                options={(pages.data ?? []).map((p) => ({ value: p.id, label: `${pickText(p.name, i18n.language) || p.code} (${p.code})` }))}
              />
            </Form.Item>
            <Form.Item name="condition" label={t('list.condition')} extra={t('list.conditionHelp')}>
              <Input maxLength={WORKFLOW_LIMITS.formula} placeholder="{total} > 10000" autoComplete="off" style={{ fontFamily: 'monospace' }} />
            </Form.Item>
            <Form.Item name="description" label={t('list.description')}>
              <Input.TextArea maxLength={WORKFLOW_LIMITS.description} rows={2} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
