import { DownloadOutlined, ExportOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Dropdown, Modal, Space, Spin, Tag, Tooltip } from 'antd';
import type { TPrintCount } from '@tessera/core/contracts/print-templates';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../../shared/api/client.ts';
import { saveFile } from '../../../shared/api/download.ts';
import type { ListExtraProps, RecordExtraProps } from '../../../shared/components/record-extras.ts';
import { renderPrint, usePrintables } from '../api/print-templates.ts';
import './i18n.ts';

interface Printed {
  url: string;
  blob: Blob;
  fileName: string;
  count: number;
}

const printCountKey = (pageId: string, recordId: string) => ['print-templates', 'print-count', pageId, recordId] as const;

/**
 * The print button of a business record or list: the page's enabled templates the user may print
 * with (a menu when there are several), the server's PDF of the records shown in the browser's
 * viewer in a dialog, with print and download (named by the record's document number).
 */
function PrintButton({ pageId, recordIds, label, testId }: { pageId: string; recordIds: readonly string[]; label: string; testId: string }) {
  const { t } = useTranslation('printRuntime');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const printables = usePrintables(pageId);
  const [busy, setBusy] = useState(false);
  const [printed, setPrinted] = useState<Printed | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => () => void (printed && URL.revokeObjectURL(printed.url)), [printed]);

  const items = printables.data?.items ?? [];
  if (items.length === 0) return null;

  const print = async (templateId: string) => {
    if (recordIds.length === 0) return void message.warning(t('selectFirst'));
    setBusy(true);
    try {
      const { blob, serverName } = await renderPrint(templateId, { recordIds: [...recordIds], offsetMinutes: -new Date().getTimezoneOffset() });
      const pdf = blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' });
      setPrinted({ url: URL.createObjectURL(pdf), blob: pdf, fileName: serverName ?? 'print.pdf', count: recordIds.length });
      for (const id of recordIds) void queryClient.invalidateQueries({ queryKey: printCountKey(pageId, id) });
    } catch (err) {
      message.error(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const button =
    items.length === 1 ? (
      <Button icon={<PrinterOutlined />} loading={busy} onClick={() => void print(items[0]!.id)} data-testid={testId}>
        {label}
      </Button>
    ) : (
      <Dropdown menu={{ items: items.map((i) => ({ key: i.id, label: i.name })), onClick: ({ key }) => void print(key) }} trigger={['click']}>
        <Button icon={<PrinterOutlined />} loading={busy} data-testid={testId} aria-haspopup="menu" title={t('chooseTemplate')}>
          {label}
        </Button>
      </Dropdown>
    );

  return (
    <>
      {button}
      <Modal
        open={printed !== null}
        title={printed && printed.count > 1 ? t('titleMany', { count: printed.count }) : t('title')}
        onCancel={() => setPrinted(null)}
        width="min(1000px, 96vw)"
        destroyOnHidden
        footer={
          printed && (
            <Space wrap>
              <Button icon={<ExportOutlined />} href={printed.url} target="_blank">{t('openTab')}</Button>
              <Button icon={<DownloadOutlined />} onClick={() => saveFile(printed.blob, printed.fileName)} data-testid="print-download">{t('download')}</Button>
              <Button type="primary" icon={<PrinterOutlined />} onClick={() => frame.current?.contentWindow?.print()}>{t('printNow')}</Button>
            </Space>
          )
        }
      >
        {printed ? (
          <div style={{ height: '70vh', background: '#f0f0f0' }}>
            <iframe ref={frame} title={t('title')} src={printed.url} style={{ width: '100%', height: '100%', border: 0 }} data-testid="print-frame" />
          </div>
        ) : (
          <Spin />
        )}
      </Modal>
      {busy && <Alert type="info" showIcon title={t('printing')} style={{ position: 'fixed', right: 24, bottom: 24, zIndex: 1000 }} />}
    </>
  );
}

/** On a record's page: print it, and how often it was printed (last by whom). */
export default function RecordPrint({ pageId, recordId }: RecordExtraProps) {
  const { t } = useTranslation('printRuntime');
  const count = useQuery({
    queryKey: printCountKey(pageId, recordId),
    queryFn: () => api.get<TPrintCount>('/app/print-template/print-count', { pageId, recordId }, { silent: true }),
    staleTime: 10_000,
  });
  const c = count.data;
  return (
    <>
      <PrintButton pageId={pageId} recordIds={[recordId]} label={t('print')} testId="record-print" />
      {c && c.count > 0 && (
        <Tooltip title={t('lastPrinted', { user: c.lastUserName ?? '-', time: c.lastTime ? dayjs(c.lastTime).format('YYYY-MM-DD HH:mm') : '-', template: c.lastTemplateName ?? '-' })}>
          <Tag color="blue" data-testid="print-count">{t('printedTimes', { count: c.count })}</Tag>
        </Tooltip>
      )}
    </>
  );
}

/** In a business list: print the selected records merged into one PDF. */
export function ListPrint({ pageId, selectedIds }: ListExtraProps) {
  const { t } = useTranslation('printRuntime');
  return <PrintButton pageId={pageId} recordIds={selectedIds} label={t('printSelected')} testId="list-print" />;
}
