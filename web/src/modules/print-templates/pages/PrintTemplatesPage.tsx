import { CloudUploadOutlined, CopyOutlined, DeleteOutlined, DownloadOutlined, DownOutlined, FormOutlined, HistoryOutlined, ImportOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Dropdown, Empty, Grid, Input, Select, Space, Switch, Table, Typography } from 'antd';
import { P } from '@tessera/core/contracts/permissions';
import { PRINT_TEMPLATE_STATUSES, type TPrintTemplateListItem } from '@tessera/core/contracts/print-templates';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../../shared/api/client.ts';
import { safeFileName, saveFile } from '../../../shared/api/download.ts';
import { useAccessChecker } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { usePagedTable } from '../../../shared/ui/use-paged-table.ts';
import { PhoneCards } from '../../../shared/ui/PhoneCards.tsx';
import { exportPrintTemplate, useDeletePrintTemplate, usePrintTemplates, usePublishPrintTemplate, useSetPrintTemplateEnabled } from '../api/print-templates.ts';
import '../i18n.ts';
import { ImportTemplateModal } from './ImportTemplateModal.tsx';
import { showPublishFailure } from './publish-problems.tsx';
import { useTemplateCells } from './template-cells.tsx';
import { TemplateFormModal, type TemplateFormTarget } from './TemplateFormModal.tsx';
import { VersionsDrawer } from './VersionsDrawer.tsx';

/** The sheet designer (spec §2: `/sheet`, standalone) for one template. */
export const sheetDesignerPath = (id: string) => `/sheet?id=${encodeURIComponent(id)}`;


type Status = (typeof PRINT_TEMPLATE_STATUSES)[number];

/**
 * `/design/sheetIndex`: the print templates — search, status filter, paging and sorting; create,
 * copy, delete, enable/disable, publish, versions (restore), export/import as JSON. Opening a row
 * goes to the sheet designer. Phones get one card per template.
 */
export default function PrintTemplatesPage() {
  const cells = useTemplateCells();
  const { t } = cells;
  const navigate = useNavigate();
  const can = useAccessChecker();
  const canEdit = can(P.PrintTemplates);
  const phone = Grid.useBreakpoint().md === false;
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('');
  const [status, setStatus] = useState<Status | undefined>();
  const [enabled, setEnabled] = useState<boolean | undefined>();
  const paged = usePagedTable();
  const [editing, setEditing] = useState<TemplateFormTarget | null>(null);
  const [importing, setImporting] = useState(false);
  const [versionsOf, setVersionsOf] = useState<TPrintTemplateListItem | null>(null);
  const list = usePrintTemplates({ ...paged.query, Filter: filter || undefined, Status: status, Enabled: enabled });
  const remove = useDeletePrintTemplate();
  const setEnabledOf = useSetPrintTemplateEnabled();
  const publish = usePublishPrintTemplate();
  const open = (id: string) => navigate(sheetDesignerPath(id));
  const items = list.data?.items ?? [];
  const tableProps = paged.tableProps<TPrintTemplateListItem>(list.data?.totalCount ?? 0, (n) => t('list.total', { count: n }));

  const exportJson = async (r: TPrintTemplateListItem) => {
    try {
      const doc = await exportPrintTemplate(r.id);
      const file = `${safeFileName(r.name, 'print-template')}.json`;
      saveFile(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }), file);
      feedback.message?.success(t('list.exported', { file }));
    } catch (err) {
      feedback.message?.error(errorText(err));
    }
  };

  const confirmDelete = (r: TPrintTemplateListItem) =>
    feedback.modal?.confirm({
      title: t('list.confirmDelete', { name: r.name }),
      content: t('list.confirmDeleteText'),
      okText: t('list.delete'),
      cancelText: t('list.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await remove.mutateAsync(r.id);
          feedback.message?.success(t('list.deleted'));
        } catch (err) {
          feedback.message?.error(errorText(err));
        }
      },
    });

  const confirmPublish = (r: TPrintTemplateListItem) =>
    feedback.modal?.confirm({
      title: t('list.confirmPublish', { name: r.name }),
      content: t('list.confirmPublishText'),
      okText: t('list.publish'),
      cancelText: t('list.cancel'),
      onOk: async () => {
        try {
          const result = await publish.mutateAsync({ id: r.id, concurrencyStamp: r.concurrencyStamp });
          feedback.message?.success(t('list.published', { version: result.publishedVersion }));
        } catch (err) {
          showPublishFailure(err, { title: t('list.publishFailed'), ok: t('list.ok'), stale: t('list.stale') });
        }
      },
    });

  const toggle = async (r: TPrintTemplateListItem, on: boolean) => {
    try {
      await setEnabledOf.mutateAsync({ id: r.id, enabled: on });
      feedback.message?.success(on ? t('list.enabledOk') : t('list.disabledOk'));
    } catch (err) {
      feedback.message?.error(errorText(err));
    }
  };

  const enabledSwitch = (r: TPrintTemplateListItem) => (
    <Switch
      size="small"
      checked={r.enabled}
      disabled={!canEdit}
      loading={setEnabledOf.isPending && setEnabledOf.variables?.id === r.id}
      onChange={(on) => void toggle(r, on)}
      aria-label={`${t('list.enabled')} ${r.name}`}
    />
  );

  const actions = (r: TPrintTemplateListItem): ReactNode => (
    <Space size={0}>
      <Button type="link" size="small" icon={<FormOutlined />} onClick={() => open(r.id)}>
        {t('list.design')}
      </Button>
      {canEdit && !phone && (
        <Button type="link" size="small" icon={<CloudUploadOutlined />} onClick={() => confirmPublish(r)} data-testid={`publish-print-${r.id}`}>
          {t('list.publish')}
        </Button>
      )}
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            ...(canEdit && phone ? [{ key: 'publish', icon: <CloudUploadOutlined />, label: t('list.publish') }] : []),
            { key: 'versions', icon: <HistoryOutlined />, label: t('list.versions') },
            ...(canEdit ? [{ key: 'copy', icon: <CopyOutlined />, label: t('list.copy') }] : []),
            { key: 'export', icon: <DownloadOutlined />, label: t('list.export') },
            ...(canEdit ? [{ type: 'divider' as const }, { key: 'delete', icon: <DeleteOutlined />, label: t('list.delete'), danger: true }] : []),
          ],
          onClick: ({ key }) => {
            if (key === 'publish') confirmPublish(r);
            if (key === 'versions') setVersionsOf(r);
            if (key === 'copy') setEditing({ kind: 'copy', template: r });
            if (key === 'export') void exportJson(r);
            if (key === 'delete') confirmDelete(r);
          },
        }}
      >
        <Button type="link" size="small" data-testid={`more-print-${r.id}`}>
          {t('list.more')} <DownOutlined />
        </Button>
      </Dropdown>
    </Space>
  );

  return (
    <Card size="small" title={t('list.title')}>
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('list.search')}
            style={{ width: 260, maxWidth: '100%' }}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onSearch={(v) => {
              setFilter(v.trim());
              paged.firstPage();
            }}
            enterButton={t('list.searchButton')}
          />
          <Select<Status>
            allowClear
            placeholder={t('list.allStatuses')}
            style={{ width: 140 }}
            value={status}
            onChange={(v) => (setStatus(v), paged.firstPage())}
            options={PRINT_TEMPLATE_STATUSES.map((s) => ({ value: s, label: t(`list.statusFilter.${s}`) }))}
            aria-label={t('list.status')}
          />
          <Select<'true' | 'false'>
            allowClear
            placeholder={t('list.allEnabled')}
            style={{ width: 140 }}
            value={enabled === undefined ? undefined : enabled ? 'true' : 'false'}
            onChange={(v) => (setEnabled(v === undefined ? undefined : v === 'true'), paged.firstPage())}
            options={[
              { value: 'true', label: t('list.enabledOnly') },
              { value: 'false', label: t('list.disabledOnly') },
            ]}
            aria-label={t('list.enabled')}
          />
        </Space>
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => list.refetch()} aria-label={t('list.refresh')} />
          {canEdit && (
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
              {t('list.import')}
            </Button>
          )}
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'create' })} data-testid="print-template-create">
              {t('list.create')}
            </Button>
          )}
        </Space>
      </Space>
      {phone ? (
        <PhoneCards
          items={items}
          fetching={list.isFetching}
          empty={<Empty description={t('list.empty')} />}
          tableProps={tableProps}
          data-testid="print-template-cards"
          card={(r) => (
            <Card key={r.id} size="small" title={<Typography.Link onClick={() => open(r.id)}>{r.name}</Typography.Link>} extra={enabledSwitch(r)}>
              <Descriptions
                size="small"
                column={1}
                items={[
                  { key: 'page', label: t('list.page'), children: cells.page(r) },
                  { key: 'paper', label: t('list.paper'), children: cells.paper(r) },
                  { key: 'status', label: t('list.status'), children: cells.status(r) },
                  { key: 'modified', label: t('list.modified'), children: cells.modified(r) },
                ]}
              />
              {actions(r)}
            </Card>
          )}
        />
      ) : (
        <Table<TPrintTemplateListItem>
          size="small"
          rowKey="id"
          loading={list.isFetching}
          dataSource={items}
          locale={{ emptyText: <Empty description={t('list.empty')} /> }}
          {...tableProps}
          scroll={{ x: 1180 }}
          onRow={(record) => ({ onDoubleClick: () => open(record.id) })}
          columns={[
            {
              title: t('list.name'),
              key: 'name',
              dataIndex: 'name',
              sorter: true,
              width: 220,
              render: (v: string, r) => (
                <Typography.Link onClick={() => open(r.id)} data-testid={`open-print-${r.id}`}>
                  {v}
                </Typography.Link>
              ),
            },
            { title: t('list.page'), key: 'page', width: 200, render: (_, r) => cells.page(r) },
            { title: t('list.paper'), key: 'paper', width: 170, render: (_, r) => cells.paper(r) },
            { title: t('list.status'), key: 'status', sorter: true, width: 190, render: (_, r) => cells.status(r) },
            { title: t('list.enabled'), key: 'enabled', sorter: true, width: 80, render: (_, r) => enabledSwitch(r) },
            { title: t('list.modified'), key: 'lastModificationTime', sorter: true, width: 210, render: (_, r) => cells.modified(r) },
            { title: t('list.actions'), key: 'actions', width: 230, fixed: 'right', render: (_, r) => actions(r) },
          ]}
        />
      )}
      <TemplateFormModal target={editing} onClose={() => setEditing(null)} onCreated={open} />
      <ImportTemplateModal open={importing} onClose={() => setImporting(false)} />
      <VersionsDrawer template={versionsOf} onClose={() => setVersionsOf(null)} />
    </Card>
  );
}
