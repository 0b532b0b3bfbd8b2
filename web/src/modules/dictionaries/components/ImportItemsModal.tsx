import { InboxOutlined } from '@ant-design/icons';
import { Alert, Modal, Typography, Upload } from 'antd';
import type { TDictionary } from '@tessera/core/contracts/dictionaries';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useImportDictionaryItems } from '../api/dictionaries.ts';
import '../i18n.ts';

/** Imports items from an Excel file into a saved dictionary; row errors are listed and nothing is written. */
export function ImportItemsModal({ dictionary, onClose, onImported }: { dictionary: TDictionary | null; onClose(): void; onImported(d: TDictionary): void }) {
  const { t } = useTranslation('dictionaries');
  const importItems = useImportDictionaryItems();
  const [errors, setErrors] = useState<string[]>([]);
  // Percent of the file sent; at 100 the server is reading and checking the rows.
  const [sent, setSent] = useState(0);

  const pick = async (file: File) => {
    if (!dictionary) return;
    setErrors([]);
    setSent(0);
    try {
      const result = await importItems.mutateAsync({ id: dictionary.id, file, onProgress: setSent });
      feedback.message?.success(t('import.result', { created: result.createdCount, updated: result.updatedCount }));
      onImported(result.dictionary);
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        const rows = err.validationErrors.map((v) => v.message);
        setErrors(rows.length ? rows : [err.message]);
      } else setErrors([err instanceof Error ? err.message : String(err)]);
    }
  };

  return (
    <Modal
      open={!!dictionary}
      title={t('import.title')}
      footer={null}
      destroyOnHidden
      onCancel={() => {
        setErrors([]);
        onClose();
      }}
    >
      <Typography.Paragraph type="secondary">{t('import.hint')}</Typography.Paragraph>
      <Upload.Dragger
        accept=".xlsx"
        maxCount={1}
        showUploadList={false}
        disabled={importItems.isPending}
        beforeUpload={(file) => {
          void pick(file);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{importItems.isPending ? (sent < 100 ? t('common:uploading', { percent: sent }) : t('common:loading')) : t('import.pick')}</p>
      </Upload.Dragger>
      {errors.length > 0 && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          title={t('import.errors')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18, maxHeight: 240, overflow: 'auto' }}>
              {errors.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
          }
        />
      )}
    </Modal>
  );
}
