import { EyeOutlined } from '@ant-design/icons';
import { Button, Drawer, Empty, Table } from 'antd';
import type { TWorkflowDefinitionListItem, TWorkflowVersionListItem } from '@tessera/core/contracts/workflow';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useWorkflowVersions } from '../api/workflow-definitions.ts';
import '../i18n.ts';

/** The published versions of a definition; viewing one opens it read-only on the canvas. */
export function VersionsDrawer({ definition, onClose, onView }: { definition: TWorkflowDefinitionListItem | null; onClose(): void; onView(version: number): void }) {
  const { t } = useTranslation('workflow');
  const versions = useWorkflowVersions(definition?.id ?? null);
  return (
    <Drawer open={Boolean(definition)} onClose={onClose} title={definition ? t('list.versionsTitle', { name: definition.name }) : ''} size="large" destroyOnHidden>
      <Table<TWorkflowVersionListItem>
        size="small"
        rowKey="version"
        loading={versions.isFetching}
        dataSource={versions.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('list.noVersions')} /> }}
        columns={[
          { title: t('list.versionCol'), dataIndex: 'version', width: 80, render: (v: number) => <span data-testid={`version-${v}`}>v{v}</span> },
          { title: t('list.publishedAt'), dataIndex: 'publishedTime', render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
          { title: t('list.publishedBy'), dataIndex: 'publisherName', render: (v: string | null) => v ?? '—' },
          { title: t('list.nodeCount'), dataIndex: 'nodeCount', width: 90 },
          {
            title: t('list.actions'),
            key: 'view',
            width: 90,
            render: (_, r) => (
              <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => onView(r.version)}>
                {t('list.view')}
              </Button>
            ),
          },
        ]}
      />
    </Drawer>
  );
}
