import { Col, Form, Input, Modal, Row, Select } from 'antd';
import { PAPER_PRESET_NAMES, PAPER_PRESETS, PRINT_LIMITS, emptyPrintLayout, type TPaper, type TPrintTemplateListItem } from '@tessera/core/contracts/print-templates';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { showFormErrors } from '../../../shared/ui/form-errors.ts';
import { validValues } from '../../../shared/ui/form-values.ts';
import { useBindablePages, useCopyPrintTemplate, useCreatePrintTemplate } from '../api/print-templates.ts';
import '../i18n.ts';

export type TemplateFormTarget = { kind: 'create' } | { kind: 'copy'; template: TPrintTemplateListItem };

interface Values {
  name: string;
  description?: string;
  pageId: string;
  preset: TPaper['preset'];
  orientation: TPaper['orientation'];
}

/** Create (name, description, bound published page, paper) or copy a template under a new name. */
export function TemplateFormModal({ target, onClose, onCreated }: { target: TemplateFormTarget | null; onClose(): void; onCreated?(id: string): void }) {
  const { t, i18n } = useTranslation('print');
  const [form] = Form.useForm<Values>();
  const create = useCreatePrintTemplate();
  const copy = useCopyPrintTemplate();
  const pages = useBindablePages();
  const isCreate = target?.kind === 'create';

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target.kind === 'copy') form.setFieldsValue({ name: t('list.copyName', { name: target.template.name }).slice(0, PRINT_LIMITS.name) });
  }, [target, form, t]);

  const submit = async () => {
    const values = await validValues(form);
    if (!values || !target) return;
    try {
      if (target.kind === 'create') {
        const layout = emptyPrintLayout();
        if (values.preset !== 'custom') layout.paper = { ...layout.paper, preset: values.preset, ...PAPER_PRESETS[values.preset], orientation: values.orientation };
        const created = await create.mutateAsync({ name: values.name.trim(), description: values.description?.trim() || null, pageId: values.pageId, layout });
        feedback.message?.success(t('list.created'));
        onClose();
        onCreated?.(created.id);
      } else {
        await copy.mutateAsync({ id: target.template.id, name: values.name.trim() });
        feedback.message?.success(t('list.copied'));
        onClose();
      }
    } catch (err) {
      if (!showFormErrors(form, err, ['name', 'description', 'pageId'])) feedback.message?.error((err as Error).message);
    }
  };

  return (
    <Modal
      open={Boolean(target)}
      title={target?.kind === 'copy' ? t('list.copyTitle', { name: target.template.name }) : t('list.createTitle')}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={create.isPending || copy.isPending}
      okText={t('list.ok')}
      cancelText={t('list.cancel')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark initialValues={{ preset: 'A4', orientation: 'portrait' }}>
        <Form.Item name="name" label={t('list.name')} rules={[{ required: true, whitespace: true, message: t('list.nameRequired') }]}>
          <Input maxLength={PRINT_LIMITS.name} autoComplete="off" data-testid="print-template-name" />
        </Form.Item>
        {isCreate && (
          <>
            <Form.Item name="pageId" label={t('list.page')} rules={[{ required: true, message: t('list.pageRequired') }]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('list.pagePlaceholder')}
                loading={pages.isFetching}
                data-testid="print-template-page"
                options={(pages.data ?? []).map((p) => ({ value: p.id, label: `${pickText(p.name, i18n.language) || p.code} (${p.code})` }))}
              />
            </Form.Item>
            <Row gutter={12}>
              <Col span={14}>
                <Form.Item name="preset" label={t('list.paper')}>
                  <Select options={PAPER_PRESET_NAMES.filter((p) => p !== 'custom').map((p) => ({ value: p, label: t(`papers.${p}`) }))} />
                </Form.Item>
              </Col>
              <Col span={10}>
                <Form.Item name="orientation" label={t('props.orientation')}>
                  <Select options={(['portrait', 'landscape'] as const).map((o) => ({ value: o, label: t(`list.orientation.${o}`) }))} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="description" label={t('list.description')}>
              <Input.TextArea maxLength={PRINT_LIMITS.description} rows={2} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
