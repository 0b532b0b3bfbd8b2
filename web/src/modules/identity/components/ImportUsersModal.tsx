import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Spin, Table, Typography, Upload } from 'antd';
import type { TImportRowError } from '@tessera/core/contracts/identity';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { downloadUserTemplate, useImportUsers } from '../api/users.ts';
import '../i18n.ts';

const MAX_BYTES = 5 * 1024 * 1024;

/** Upload the filled template; any row error is listed and nothing is imported. */
export function ImportUsersModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('identity');
  const importUsers = useImportUsers();
  const [errors, setErrors] = useState<{ summary: string; rows: TImportRowError[] } | null>(null);
  // Percent of the file sent; at 100 the server is reading and checking the rows.
  const [sent, setSent] = useState(0);
  const close = () => {
    setErrors(null);
    onClose();
  };

  const upload = async (file: File) => {
    setErrors(null);
    if (!file.name.toLowerCase().endsWith('.xlsx')) return feedback.message?.error(t('users.notXlsx'));
    if (file.size > MAX_BYTES) return feedback.message?.error(t('users.fileTooLarge'));
    setSent(0);
    try {
      const res = await importUsers.mutateAsync({ file, onProgress: setSent });
      feedback.message?.success(t('users.imported', { count: res.importedCount }));
      close();
    } catch (err) {
      if (err instanceof ApiError) {
        const rows = ((err.body as { error?: { details?: { rows?: TImportRowError[] } } })?.error?.details?.rows ?? []) as TImportRowError[];
        setErrors({ summary: err.message, rows });
      } else throw err;
    }
  };

  return (
    <Modal open={open} title={t('users.importTitle')} onCancel={close} footer={null} width={720} destroyOnHidden>
      <Space orientation="vertical" style={{ width: '100%' }} size={12}>
        <Space style={{ justifyContent: 'space-between', width: '100%' }}>
          <Typography.Text type="secondary">{t('users.importRules')}</Typography.Text>
          <Button icon={<DownloadOutlined />} onClick={() => downloadUserTemplate().catch((e: Error) => feedback.message?.error(e.message))}>
            {t('users.template')}
          </Button>
        </Space>
        <Spin spinning={importUsers.isPending} description={sent < 100 ? t('common:uploading', { percent: sent }) : t('users.importing')}>
          <Upload.Dragger
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            multiple={false}
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file);
              return Upload.LIST_IGNORE;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('users.importHint')}</p>
          </Upload.Dragger>
        </Spin>
        {errors && (
          <>
            <Alert type="error" showIcon title={errors.rows.length ? t('users.importErrors', { count: errors.rows.length }) : errors.summary} />
            {errors.rows.length > 0 && (
              <Table<TImportRowError>
                size="small"
                rowKey={(r) => `${r.row}-${r.column}-${r.message}`}
                dataSource={errors.rows}
                pagination={{ pageSize: 8, hideOnSinglePage: true }}
                columns={[
                  { title: t('users.importRow'), dataIndex: 'row', width: 70 },
                  { title: t('users.importColumn'), dataIndex: 'column', width: 140 },
                  { title: t('users.importMessage'), dataIndex: 'message' },
                ]}
              />
            )}
          </>
        )}
      </Space>
    </Modal>
  );
}
