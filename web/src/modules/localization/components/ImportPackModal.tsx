import { InboxOutlined } from '@ant-design/icons';
import { Alert, App, Modal, Space, Typography, Upload } from 'antd';
import type { TImportPackResult, TLanguagePack } from '@tessera/core/contracts/localization';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useImportPack, type PackFile } from '../api/localization.ts';
import { checkForTextChanges } from '../sync.ts';

const MAX_FILE_BYTES = 6 * 1024 * 1024;

/** A JSON file is parsed here and sent as JSON; anything else is sent as it is, as a workbook. */
async function readFile(culture: string, file: File): Promise<PackFile> {
  if (/\.json$/i.test(file.name) || file.type === 'application/json') return { culture, format: 'json', content: JSON.parse(await file.text()) };
  return { culture, format: 'xlsx', file };
}

/** Imports a JSON or Excel file into a pack; shows the counts, or every bad row (nothing imported). */
export function ImportPackModal({ pack, onClose }: { pack: TLanguagePack | null; onClose(): void }) {
  const { t } = useTranslation('localization');
  const { message } = App.useApp();
  const importPack = useImportPack();
  const [result, setResult] = useState<TImportPackResult | null>(null);
  const [errors, setErrors] = useState<string[]>([]);

  const close = () => {
    setResult(null);
    setErrors([]);
    onClose();
  };

  const upload = async (file: File) => {
    if (!pack) return;
    setResult(null);
    setErrors([]);
    let parsed;
    try {
      if (file.size > MAX_FILE_BYTES) throw new Error('too large');
      parsed = await readFile(pack.culture, file);
    } catch {
      message.error(t('import.unreadable'));
      return;
    }
    try {
      setResult(await importPack.mutateAsync(parsed));
      void checkForTextChanges();
    } catch (err) {
      if (err instanceof ApiError && err.validationErrors.length) setErrors(err.validationErrors.map((v) => v.message));
      else message.error((err as Error).message);
    }
  };

  return (
    <Modal open={!!pack} title={pack ? t('import.title', { title: pack.title }) : ''} onCancel={close} footer={null} width={640} destroyOnHidden>
      <Space orientation="vertical" style={{ width: '100%' }} size={12}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('import.hint')}
        </Typography.Paragraph>
        <Upload.Dragger
          accept=".json,.xlsx,application/json,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          showUploadList={false}
          disabled={importPack.isPending}
          beforeUpload={(file) => {
            void upload(file);
            return false;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('import.pick')}</p>
        </Upload.Dragger>
        {result && <Alert type="success" showIcon message={t('import.result', result)} />}
        {errors.length > 0 && (
          <Alert
            type="error"
            showIcon
            message={t('import.errors')}
            description={
              <ul style={{ margin: 0, paddingLeft: 18, maxHeight: 240, overflow: 'auto' }}>
                {errors.map((e, i) => (
                  <li key={i}>{e}</li>
                ))}
              </ul>
            }
          />
        )}
      </Space>
    </Modal>
  );
}
