import { Alert, Descriptions, Form, Input, Modal, Select } from 'antd';
import { BPMN_MAX_CHARS, WORKFLOW_EXPORT_FORMAT, WORKFLOW_LIMITS, type TImportWorkflowDefinitionInput, type TImportWorkflowDefinitionResult } from '@tessera/core/contracts/workflow';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/api/client.ts';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useImportWorkflowBpmn, useImportWorkflowDefinition } from '../api/workflow-definitions.ts';
import { usePublishedPages } from '../api/workflow-lookups.ts';
import '../i18n.ts';
import { FileDragger } from '../../../shared/ui/FileDragger.tsx';

type ExportDocument = TImportWorkflowDefinitionInput['document'];
type Picked = { name: string; at: number } & ({ kind: 'json'; doc: ExportDocument } | { kind: 'bpmn'; xml: string });

/** Reads a picked file: a Tessera workflow export (JSON) or BPMN 2.0 XML; null when it is neither. */
export function parseWorkflowFile(name: string, text: string): { kind: 'json'; doc: ExportDocument } | { kind: 'bpmn'; xml: string } | null {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('<')) return /<([\w-]+:)?definitions[\s>]/.test(trimmed) && text.length <= BPMN_MAX_CHARS ? { kind: 'bpmn', xml: text } : null;
  try {
    const doc = JSON.parse(text) as Partial<ExportDocument> | null;
    if (!doc || doc.format !== WORKFLOW_EXPORT_FORMAT || !doc.definition?.graph) return null;
    return { kind: 'json', doc: doc as ExportDocument };
  } catch {
    return null;
  }
}

/** Import of an exported definition (JSON) or a BPMN file as a new disabled draft. */
export function ImportDefinitionModal({ open, onClose, onImported }: { open: boolean; onClose(): void; onImported?(id: string): void }) {
  const { t, i18n } = useTranslation('workflow');
  const [form] = Form.useForm<{ name?: string; pageId?: string }>();
  const [file, setFile] = useState<Picked | null>(null);
  const [badFile, setBadFile] = useState(false);
  const importJson = useImportWorkflowDefinition();
  const importBpmn = useImportWorkflowBpmn();
  const pages = usePublishedPages();

  const close = () => {
    setFile(null);
    setBadFile(false);
    onClose();
  };

  const read = async (picked: File) => {
    const parsed = parseWorkflowFile(picked.name, await picked.text());
    setBadFile(!parsed);
    setFile(parsed ? { ...parsed, name: picked.name, at: Date.now() } : null);
  };

  const submit = async () => {
    if (!file) return setBadFile(true);
    const values = form.getFieldsValue();
    const extra = { ...(values.name?.trim() ? { name: values.name.trim() } : {}), ...(values.pageId ? { pageId: values.pageId } : {}) };
    try {
      const result: TImportWorkflowDefinitionResult =
        file.kind === 'json' ? await importJson.mutateAsync({ document: file.doc, ...extra }) : await importBpmn.mutateAsync({ xml: file.xml, ...extra });
      if (result.problems.length > 0) feedback.message?.warning(t('list.importedProblems', { count: result.problems.length }));
      else feedback.message?.success(t('list.imported'));
      close();
      onImported?.(result.id);
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
      confirmLoading={importJson.isPending || importBpmn.isPending}
      okText={t('list.import')}
      cancelText={t('list.cancel')}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('list.importHint')} style={{ marginBottom: 12 }} />
      <FileDragger accept=".json,application/json,.bpmn,.xml,application/xml,text/xml" fileName={file?.name} placeholder={t('list.importPick')} onPick={(picked) => void read(picked)} />
      {badFile && <Alert type="error" showIcon title={t('list.importBadFile')} style={{ marginTop: 12 }} />}
      {file && (
        <>
          {file.kind === 'json' && (
            <Descriptions size="small" column={1} style={{ marginTop: 12 }}>
              <Descriptions.Item label={t('list.name')}>{file.doc.definition.name}</Descriptions.Item>
              <Descriptions.Item label={t('list.page')}>{file.doc.definition.page.code ?? file.doc.definition.page.id ?? '—'}</Descriptions.Item>
            </Descriptions>
          )}
          <Form form={form} layout="vertical" key={file.at} initialValues={{ name: file.kind === 'json' ? file.doc.definition.name : '' }} style={{ marginTop: 12 }}>
            <Form.Item name="name" label={t('list.name')}>
              <Input maxLength={WORKFLOW_LIMITS.name} autoComplete="off" />
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
