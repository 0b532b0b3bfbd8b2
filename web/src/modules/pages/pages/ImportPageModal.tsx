import { Alert, Descriptions, Form, Input, Modal } from 'antd';
import { IDENTIFIER_PATTERN, PAGE_EXPORT_FORMAT, type TImportPageDefinitionInput } from '@tessera/core/contracts/pages';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/api/client.ts';
import { LocalizedTextInput, pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useImportPageDefinition } from '../api/page-definitions.ts';
import { applyServerErrors } from './PageFormModal.tsx';
import './page-list-texts.ts';
import { validValues } from '../../../shared/ui/form-values.ts';
import { FileDragger } from '../../../shared/ui/FileDragger.tsx';

type ExportDocument = TImportPageDefinitionInput['document'];

/** Reads an export file; null when it is not a Tessera page-definition export. */
function parseExport(text: string): ExportDocument | null {
  try {
    const doc = JSON.parse(text) as Partial<ExportDocument> | null;
    if (!doc || doc.format !== PAGE_EXPORT_FORMAT || !doc.page || typeof doc.page.code !== 'string' || !doc.definition) return null;
    return doc as ExportDocument;
  } catch {
    return null;
  }
}

/**
 * Import of an exported page (from this or another instance): pick the file, check or change the
 * code and name, import as a new draft page.
 */
export function ImportPageModal({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported?: (id: string) => void }) {
  const { t, i18n } = useTranslation('pageList');
  const [form] = Form.useForm<{ code: string; name: Record<string, string>; description?: string }>();
  const [file, setFile] = useState<{ name: string; doc: ExportDocument; at: number } | null>(null);
  const [badFile, setBadFile] = useState(false);
  const importPage = useImportPageDefinition();

  const close = () => {
    setFile(null);
    setBadFile(false);
    onClose();
  };

  const read = async (picked: File) => {
    const doc = parseExport(await picked.text());
    setBadFile(!doc);
    setFile(doc ? { name: picked.name, doc, at: Date.now() } : null);
  };

  const submit = async () => {
    if (!file) {
      setBadFile(true);
      return;
    }
    const values = await validValues(form);
    if (!values) return;
    try {
      const page = await importPage.mutateAsync({ document: file.doc, code: values.code.trim(), name: values.name });
      if (page.unresolvedDataSources.length > 0) {
        feedback.modal?.warning({
          title: t('importedUnresolved'),
          content: (
            <div data-testid="import-unresolved">
              <p>{t('importedUnresolvedText')}</p>
              <ul>
                {page.unresolvedDataSources.map((s) => (
                  <li key={s.viewId}>
                    {s.pageCode} · {s.viewCode}
                  </li>
                ))}
              </ul>
            </div>
          ),
          okText: t('ok'),
        });
      } else {
        feedback.message?.success(t('imported'));
      }
      close();
      onImported?.(page.id);
    } catch (err) {
      if (applyServerErrors(form, err)) return;
      feedback.message?.error(errorText(err));
    }
  };

  return (
    <Modal open={open} title={t('importTitle')} onCancel={close} onOk={submit} okButtonProps={{ disabled: !file }} confirmLoading={importPage.isPending} okText={t('import')} cancelText={t('cancel')} destroyOnHidden>
      <Alert type="info" showIcon title={t('importHint')} style={{ marginBottom: 12 }} />
      <FileDragger accept=".json,application/json" fileName={file?.name} placeholder={t('importPick')} onPick={(picked) => void read(picked)} />
      {badFile && <Alert type="error" showIcon title={t('importBadFile')} style={{ marginTop: 12 }} />}
      {file && (
        <>
          <Descriptions size="small" column={1} style={{ marginTop: 12 }}>
            <Descriptions.Item label={t('importSource')}>
              {file.doc.page.code} · {pickText(file.doc.page.name as Record<string, string>, i18n.language)}
            </Descriptions.Item>
            {file.doc.exportedAt && <Descriptions.Item label={t('importExportedAt')}>{dayjs(file.doc.exportedAt).format('YYYY-MM-DD HH:mm')}</Descriptions.Item>}
          </Descriptions>
          <Form form={form} layout="vertical" key={file.at} initialValues={{ code: file.doc.page.code, name: file.doc.page.name }}>
            <Form.Item
              name="code"
              label={t('code')}
              extra={t('importCodeHelp')}
              rules={[
                { required: true, whitespace: true, message: t('codeRequired') },
                { pattern: IDENTIFIER_PATTERN, message: t('codeHelp') },
              ]}
            >
              <Input maxLength={40} autoComplete="off" data-testid="import-code" />
            </Form.Item>
            <Form.Item
              name="name"
              label={t('name')}
              rules={[{ validator: (_, v: Record<string, string> | undefined) => (Object.values(v ?? {}).some((s) => s.trim()) ? Promise.resolve() : Promise.reject(new Error(t('nameRequired')))) }]}
            >
              <LocalizedTextInput maxLength={200} />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  );
}
