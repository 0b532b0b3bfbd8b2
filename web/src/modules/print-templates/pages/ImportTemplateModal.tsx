import { Alert, Descriptions, Form, Input, Modal, Select } from 'antd';
import { PRINT_LIMITS, type TPrintTemplateExportDocument } from '@tessera/core/contracts/print-templates';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/api/client.ts';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { FileDragger } from '../../../shared/ui/FileDragger.tsx';
import { useBindablePages, useImportPrintTemplate } from '../api/print-templates.ts';
import '../i18n.ts';
import { parsePrintTemplateFile } from './import-file.ts';

/** Import of an exported template (JSON) as a new draft, optionally renamed or bound to another page. */
export function ImportTemplateModal({ open, onClose, onImported }: { open: boolean; onClose(): void; onImported?(id: string): void }) {
  const { t, i18n } = useTranslation('print');
  const [form] = Form.useForm<{ name?: string; pageId?: string }>();
  const [file, setFile] = useState<{ name: string; at: number; doc: TPrintTemplateExportDocument } | null>(null);
  const [badFile, setBadFile] = useState(false);
  const importTemplate = useImportPrintTemplate();
  const pages = useBindablePages();

  const close = () => {
    setFile(null);
    setBadFile(false);
    onClose();
  };

  const read = async (picked: File) => {
    const doc = parsePrintTemplateFile(await picked.text());
    setBadFile(!doc);
    setFile(doc ? { name: picked.name, at: Date.now(), doc } : null);
  };

  const submit = async () => {
    if (!file) return setBadFile(true);
    const values = form.getFieldsValue();
    try {
      const created = await importTemplate.mutateAsync({
        document: file.doc,
        ...(values.name?.trim() ? { name: values.name.trim() } : {}),
        ...(values.pageId ? { pageId: values.pageId } : {}),
      });
      feedback.message?.success(t('list.imported'));
      close();
      onImported?.(created.id);
    } catch (err) {
      feedback.message?.error(errorText(err));
    }
  };

  return (
    <Modal
      open={open}
      title={t('list.importTitle')}
      onCancel={close}
      onOk={submit}
      okButtonProps={{ disabled: !file }}
      confirmLoading={importTemplate.isPending}
      okText={t('list.import')}
      cancelText={t('list.cancel')}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('list.importHint')} style={{ marginBottom: 12 }} />
      <FileDragger accept=".json,application/json" fileName={file?.name} placeholder={t('list.importPick')} onPick={(picked) => void read(picked)} />
      {badFile && <Alert type="error" showIcon title={t('list.importBadFile')} style={{ marginTop: 12 }} />}
      {file && (
        <>
          <Descriptions size="small" column={1} style={{ marginTop: 12 }}>
            <Descriptions.Item label={t('list.name')}>{file.doc.template.name}</Descriptions.Item>
            <Descriptions.Item label={t('list.page')}>{file.doc.template.page.code ?? file.doc.template.page.id ?? '—'}</Descriptions.Item>
          </Descriptions>
          <Form form={form} layout="vertical" key={file.at} initialValues={{ name: file.doc.template.name }} style={{ marginTop: 12 }}>
            <Form.Item name="name" label={t('list.name')}>
              <Input maxLength={PRINT_LIMITS.name} autoComplete="off" />
            </Form.Item>
            <Form.Item name="pageId" label={t('list.importPageOverride')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                options={(pages.data ?? []).map((p) => ({ value: p.id, label: `${pickText(p.name, i18n.language) || p.code} (${p.code})` }))}
              />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  );
}
