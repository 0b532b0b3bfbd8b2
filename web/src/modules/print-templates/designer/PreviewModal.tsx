import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Select, Space, Spin } from 'antd';
import { isGuid } from '@tessera/core/helpers/guid';
import type { TPrintLayout } from '@tessera/core/contracts/print-templates';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/api/client.ts';
import { saveFile } from '../../../shared/api/download.ts';
import '../i18n.ts';
import { previewPrint, useRecentRecords } from '../api/print-templates.ts';

/**
 * The layout as the server prints it (`POST /preview`, a PDF): the unsaved layout with sample
 * data, or with a real record of the page when its id is given. The PDF shows in a frame.
 */
export function PreviewModal({ open, pageId, layout, onClose }: { open: boolean; pageId: string; layout: TPrintLayout; onClose(): void }) {
  const { t } = useTranslation('print');
  const [recordId, setRecordId] = useState('');
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  /** The page's Content-Security-Policy refused to frame the blob (it needs `frame-src blob:`): open or download it instead. */
  const [framingBlocked, setFramingBlocked] = useState(false);
  const [blob, setBlob] = useState<Blob | null>(null);
  const [typed, setTyped] = useState('');
  const records = useRecentRecords(open ? pageId : null);

  useEffect(() => {
    const onViolation = (e: SecurityPolicyViolationEvent) => {
      if (e.blockedURI.startsWith('blob')) setFramingBlocked(true);
    };
    document.addEventListener('securitypolicyviolation', onViolation);
    return () => document.removeEventListener('securitypolicyviolation', onViolation);
  }, []);

  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  const run = async () => {
    const id = recordId.trim();
    if (id && !isGuid(id)) return setError(t('designer.previewBadId'));
    setLoading(true);
    setError(null);
    try {
      const answer = await previewPrint({ pageId, layout, recordId: id || null, offsetMinutes: -new Date().getTimezoneOffset() });
      const pdf = answer.type === 'application/pdf' ? answer : new Blob([answer], { type: 'application/pdf' });
      setBlob(pdf);
      setUrl(URL.createObjectURL(pdf));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setLoading(false);
    }
  };

  // Each opening previews the layout as it is now.
  useEffect(() => {
    if (open) void run();
    else setUrl(null);
  }, [open]);

  return (
    <Modal open={open} title={t('designer.previewTitle')} onCancel={onClose} footer={null} width="min(1000px, 96vw)" destroyOnHidden>
      <Space wrap style={{ marginBottom: 8 }}>
        <Select
          allowClear
          showSearch={{ filterOption: (input, option) => String(option?.label ?? '').toLowerCase().includes(input.toLowerCase()), onSearch: setTyped }}
          style={{ width: 380, maxWidth: '80vw' }}
          placeholder={t('designer.previewRecord')}
          aria-label={t('designer.previewRecord')}
          value={recordId || undefined}
          options={isGuid(typed.trim()) && !records.some((r) => r.value === typed.trim()) ? [{ value: typed.trim(), label: typed.trim() }, ...records] : records}
          notFoundContent={t('designer.previewNoRecords')}
          onChange={(value: string | undefined) => setRecordId(value ?? '')}
          data-testid="print-preview-record"
        />
        <Button type="primary" onClick={() => void run()} loading={loading}>
          {t('designer.previewRun')}
        </Button>
        {url && (
          <Button icon={<ExportOutlined />} href={url} target="_blank">
            {t('designer.previewOpen')}
          </Button>
        )}
        {blob && (
          <Button icon={<DownloadOutlined />} onClick={() => saveFile(blob, 'preview.pdf')}>
            {t('designer.previewDownload')}
          </Button>
        )}
      </Space>
      {framingBlocked && <Alert type="warning" showIcon title={t('designer.previewFramingBlocked')} style={{ marginBottom: 8 }} />}
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 8 }} />}
      <Spin spinning={loading}>
        <div style={{ height: '70vh', background: '#f0f0f0' }}>{url && !framingBlocked && <iframe title={t('designer.previewTitle')} src={url} style={{ width: '100%', height: '100%', border: 0 }} data-testid="print-preview-frame" />}</div>
      </Spin>
    </Modal>
  );
}
