import { RollbackOutlined } from '@ant-design/icons';
import { Button, Drawer, Empty, Table } from 'antd';
import type { TPrintTemplateListItem } from '@tessera/core/contracts/print-templates';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/api/client.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { usePrintTemplateVersions, useRestorePrintTemplateVersion } from '../api/print-templates.ts';
import '../i18n.ts';

interface VersionRow {
  version: number;
  publishedTime: string;
  publisherName: string | null;
  elementCount: number;
}

/** The published versions of a template; restoring one makes it the draft (after a confirmation). */
export function VersionsDrawer({ template, onClose }: { template: TPrintTemplateListItem | null; onClose(): void }) {
  const { t } = useTranslation('print');
  const versions = usePrintTemplateVersions(template?.id ?? null);
  const restore = useRestorePrintTemplateVersion();

  const confirmRestore = (version: number) =>
    template &&
    feedback.modal?.confirm({
      title: t('list.confirmRestore', { version }),
      content: t('list.confirmRestoreText'),
      okText: t('list.restore'),
      cancelText: t('list.cancel'),
      onOk: async () => {
        try {
          await restore.mutateAsync({ id: template.id, version });
          feedback.message?.success(t('list.restored', { version }));
        } catch (err) {
          feedback.message?.error(errorText(err));
        }
      },
    });

  return (
    <Drawer open={Boolean(template)} onClose={onClose} title={template ? t('list.versionsTitle', { name: template.name }) : ''} size="large" destroyOnHidden>
      <Table<VersionRow>
        size="small"
        rowKey="version"
        loading={versions.isFetching}
        dataSource={versions.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('list.noVersions')} /> }}
        columns={[
          { title: t('list.versionCol'), dataIndex: 'version', width: 80, render: (v: number) => <span data-testid={`print-version-${v}`}>v{v}</span> },
          { title: t('list.publishedAt'), dataIndex: 'publishedTime', render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
          { title: t('list.publishedBy'), dataIndex: 'publisherName', render: (v: string | null) => v ?? '—' },
          { title: t('list.elementCount'), dataIndex: 'elementCount', width: 90 },
          {
            title: t('list.actions'),
            key: 'restore',
            width: 130,
            render: (_, r) => (
              <Button type="link" size="small" icon={<RollbackOutlined />} onClick={() => confirmRestore(r.version)} data-testid={`restore-print-version-${r.version}`}>
                {t('list.restore')}
              </Button>
            ),
          },
        ]}
      />
    </Drawer>
  );
}
