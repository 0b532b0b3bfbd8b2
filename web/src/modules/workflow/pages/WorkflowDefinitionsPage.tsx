import { CloudUploadOutlined, CopyOutlined, DeleteOutlined, DownloadOutlined, DownOutlined, FormOutlined, HistoryOutlined, ImportOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Dropdown, Input, Select, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { P } from '@tessera/core/contracts/permissions';
import { WORKFLOW_DEFINITION_STATUSES, type TWorkflowDefinitionListItem, type TWorkflowDefinitionStatus } from '@tessera/core/contracts/workflow';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, errorText } from '../../../shared/api/client.ts';
import { safeFileName, saveFile } from '../../../shared/api/download.ts';
import { useAccessChecker } from '../../../shared/components/Auth.tsx';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { downloadWorkflowBpmn, exportWorkflowDefinition, useDeleteWorkflowDefinition, usePublishWorkflow, useSetWorkflowEnabled, useWorkflowDefinitions } from '../api/workflow-definitions.ts';
import { usePublishedPages } from '../api/workflow-lookups.ts';
import '../i18n.ts';
import { DefinitionFormModal, type DefinitionFormTarget } from './DefinitionFormModal.tsx';
import { ImportDefinitionModal } from './ImportDefinitionModal.tsx';
import { VersionsDrawer } from './VersionsDrawer.tsx';

/** The canvas designer (spec §2: `/flow`, standalone) for one definition. */
export const flowDesignerPath = (id: string, extra = '') => `/flow?id=${encodeURIComponent(id)}${extra}`;



/**
 * `/design/workflow`: the workflow definitions — search, filters (status, enabled, bound page),
 * paging and sorting; create, copy, delete, enable/disable, publish, versions, export/import as
 * JSON or BPMN 2.0 XML. Opening a row goes to the canvas designer.
 */
export default function WorkflowDefinitionsPage() {
  const { t, i18n } = useTranslation('workflow');
  const navigate = useNavigate();
  const can = useAccessChecker();
  const canEdit = can(P.Workflows);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('');
  const [status, setStatus] = useState<TWorkflowDefinitionStatus | undefined>();
  const [enabled, setEnabled] = useState<boolean | undefined>();
  const [pageId, setPageId] = useState<string | undefined>();
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const [sorting, setSorting] = useState<string | undefined>();
  const [editing, setEditing] = useState<DefinitionFormTarget | null>(null);
  const [importing, setImporting] = useState(false);
  const [versionsOf, setVersionsOf] = useState<TWorkflowDefinitionListItem | null>(null);
  const list = useWorkflowDefinitions({
    SkipCount: (paging.current - 1) * paging.pageSize,
    MaxResultCount: paging.pageSize,
    Filter: filter || undefined,
    Sorting: sorting,
    Status: status,
    Enabled: enabled,
    PageId: pageId,
  });
  const pages = usePublishedPages();
  const remove = useDeleteWorkflowDefinition();
  const setEnabledOf = useSetWorkflowEnabled();
  const publish = usePublishWorkflow();
  const open = (id: string) => navigate(flowDesignerPath(id));
  const firstPage = () => setPaging((p) => ({ ...p, current: 1 }));
  const pageNameOf = (r: TWorkflowDefinitionListItem) => pickText(r.pageName, i18n.language) || r.pageCode || '—';

  const exportJson = async (r: TWorkflowDefinitionListItem, source: 'draft' | 'published') => {
    try {
      const doc = await exportWorkflowDefinition(r.id, source);
      const file = `${safeFileName(r.name, 'workflow')}${source === 'published' ? `.v${r.publishedVersion}` : ''}.workflow.json`;
      saveFile(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }), file);
      feedback.message?.success(t('list.exported', { file }));
    } catch (err) {
      feedback.message?.error(errorText(err));
    }
  };

  const exportBpmn = async (r: TWorkflowDefinitionListItem) => {
    const file = `${safeFileName(r.name, 'workflow')}.bpmn`;
    try {
      await downloadWorkflowBpmn(r.id, 'draft', file);
      feedback.message?.success(t('list.exported', { file }));
    } catch (err) {
      feedback.message?.error(errorText(err));
    }
  };

  const confirmDelete = (r: TWorkflowDefinitionListItem) =>
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

  const confirmPublish = (r: TWorkflowDefinitionListItem) =>
    feedback.modal?.confirm({
      title: t('list.confirmPublish', { name: r.name }),
      content: t('list.confirmPublishText'),
      okText: t('list.publish'),
      cancelText: t('list.cancel'),
      onOk: async () => {
        try {
          const result = await publish.mutateAsync({ id: r.id, input: { concurrencyStamp: r.concurrencyStamp } });
          feedback.message?.success(t('list.published', { version: result.version }));
        } catch (err) {
          if (err instanceof ApiError && err.status === 409) return void feedback.message?.error(t('list.stale'));
          const code = err instanceof ApiError ? (err.body as { error?: { code?: string } } | undefined)?.error?.code : undefined;
          if (code === 'Workflow.GraphProblems') {
            feedback.modal?.error({
              title: t('list.publishFailed'),
              content: (
                <ul data-testid="publish-problems">
                  {(err as ApiError).validationErrors.map((v, i) => (
                    <li key={i}>{v.message}</li>
                  ))}
                </ul>
              ),
              okText: t('list.ok'),
            });
            return;
          }
          feedback.message?.error(errorText(err));
        }
      },
    });

  const toggle = async (r: TWorkflowDefinitionListItem, on: boolean) => {
    try {
      await setEnabledOf.mutateAsync({ id: r.id, enabled: on });
      feedback.message?.success(on ? t('list.enabledOk') : t('list.disabledOk'));
    } catch (err) {
      feedback.message?.error(errorText(err));
    }
  };

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
              firstPage();
            }}
            enterButton={t('list.searchButton')}
          />
          <Select<TWorkflowDefinitionStatus>
            allowClear
            placeholder={t('list.allStatuses')}
            style={{ width: 140 }}
            value={status}
            onChange={(v) => (setStatus(v), firstPage())}
            options={WORKFLOW_DEFINITION_STATUSES.map((s) => ({ value: s, label: t(`list.statuses.${s}`) }))}
            aria-label={t('list.status')}
          />
          <Select<'true' | 'false'>
            allowClear
            placeholder={t('list.allEnabled')}
            style={{ width: 180 }}
            value={enabled === undefined ? undefined : enabled ? 'true' : 'false'}
            onChange={(v) => (setEnabled(v === undefined ? undefined : v === 'true'), firstPage())}
            options={[
              { value: 'true', label: t('list.enabledOnly') },
              { value: 'false', label: t('list.disabledOnly') },
            ]}
            aria-label={t('list.enabled')}
          />
          <Select<string>
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('list.allPages')}
            style={{ width: 200, maxWidth: '100%' }}
            value={pageId}
            onChange={(v) => (setPageId(v), firstPage())}
            options={(pages.data ?? []).map((p) => ({ value: p.id, label: pickText(p.name, i18n.language) || p.code }))}
            aria-label={t('list.page')}
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
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'create' })} data-testid="workflow-create">
              {t('list.create')}
            </Button>
          )}
        </Space>
      </Space>
      <Table<TWorkflowDefinitionListItem>
        size="small"
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: t('list.empty') }}
        pagination={{ ...paging, total: list.data?.totalCount ?? 0, showSizeChanger: true, showTotal: (n) => t('list.total', { count: n }) }}
        onChange={(p, _f, sorter) => {
          setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? 20 });
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          setSorting(s?.order ? `${String(s.columnKey)} ${s.order === 'descend' ? 'desc' : 'asc'}` : undefined);
        }}
        scroll={{ x: 1200 }}
        onRow={(record) => ({ onDoubleClick: () => open(record.id) })}
        columns={[
          {
            title: t('list.name'),
            key: 'name',
            dataIndex: 'name',
            sorter: true,
            width: 220,
            render: (v: string, r) => (
              <Typography.Link onClick={() => open(r.id)} data-testid={`open-workflow-${r.id}`}>
                {v}
              </Typography.Link>
            ),
          },
          { title: t('list.page'), key: 'page', width: 180, render: (_, r) => pageNameOf(r) },
          {
            title: t('list.condition'),
            key: 'condition',
            dataIndex: 'condition',
            width: 180,
            ellipsis: true,
            render: (v: string | null) => (v ? <Typography.Text code>{v}</Typography.Text> : '—'),
          },
          {
            title: t('list.status'),
            key: 'status',
            dataIndex: 'status',
            sorter: true,
            width: 150,
            render: (v: TWorkflowDefinitionStatus, r) => (
              <Space size={4}>
                <Tag color={v === 'published' ? 'green' : 'default'}>{t(`list.statuses.${v}`)}</Tag>
                {v === 'published' && r.hasDraftChanges && (
                  <Tooltip title={t('list.draftChanges')}>
                    <Badge status="warning" aria-label={t('list.draftChanges')} />
                  </Tooltip>
                )}
              </Space>
            ),
          },
          {
            title: t('list.version'),
            key: 'publishedVersion',
            dataIndex: 'publishedVersion',
            sorter: true,
            width: 100,
            render: (v: number | null, r) => <span data-testid={`workflow-version-${r.id}`}>{v === null ? '—' : `v${v}`}</span>,
          },
          {
            title: t('list.enabled'),
            key: 'enabled',
            dataIndex: 'enabled',
            sorter: true,
            width: 90,
            render: (v: boolean, r) => (
              <Switch size="small" checked={v} disabled={!canEdit} loading={setEnabledOf.isPending && setEnabledOf.variables?.id === r.id} onChange={(on) => void toggle(r, on)} aria-label={`${t('list.enabled')} ${r.name}`} />
            ),
          },
          {
            title: t('list.modified'),
            key: 'lastModificationTime',
            sorter: true,
            width: 170,
            render: (_, r) => (
              <span>
                {dayjs(r.lastModificationTime ?? r.creationTime).format('YYYY-MM-DD HH:mm')}
                {r.lastModifierName ? <Typography.Text type="secondary"> · {r.lastModifierName}</Typography.Text> : null}
              </span>
            ),
          },
          {
            title: t('list.actions'),
            key: 'actions',
            width: 260,
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" icon={<FormOutlined />} onClick={() => open(r.id)}>
                  {t('list.design')}
                </Button>
                {canEdit && (
                  <Button type="link" size="small" icon={<CloudUploadOutlined />} onClick={() => confirmPublish(r)} data-testid={`publish-workflow-${r.id}`}>
                    {t('list.publish')}
                  </Button>
                )}
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      { key: 'versions', icon: <HistoryOutlined />, label: t('list.versions') },
                      ...(canEdit ? [{ key: 'copy', icon: <CopyOutlined />, label: t('list.copy') }] : []),
                      { key: 'exportDraft', icon: <DownloadOutlined />, label: t('list.exportJson') },
                      { key: 'exportPublished', icon: <DownloadOutlined />, label: t('list.exportPublishedJson'), disabled: r.publishedVersion === null },
                      { key: 'exportBpmn', icon: <DownloadOutlined />, label: t('list.exportBpmn') },
                      ...(canEdit ? [{ type: 'divider' as const }, { key: 'delete', icon: <DeleteOutlined />, label: t('list.delete'), danger: true }] : []),
                    ],
                    onClick: ({ key }) => {
                      if (key === 'versions') setVersionsOf(r);
                      if (key === 'copy') setEditing({ kind: 'copy', definition: r });
                      if (key === 'exportDraft') void exportJson(r, 'draft');
                      if (key === 'exportPublished') void exportJson(r, 'published');
                      if (key === 'exportBpmn') void exportBpmn(r);
                      if (key === 'delete') confirmDelete(r);
                    },
                  }}
                >
                  <Button type="link" size="small" data-testid={`more-workflow-${r.id}`}>
                    {t('list.more')} <DownOutlined />
                  </Button>
                </Dropdown>
              </Space>
            ),
          },
        ]}
      />
      <DefinitionFormModal target={editing} onClose={() => setEditing(null)} onCreated={open} />
      <ImportDefinitionModal open={importing} onClose={() => setImporting(false)} />
      <VersionsDrawer definition={versionsOf} onClose={() => setVersionsOf(null)} onView={(v) => versionsOf && navigate(flowDesignerPath(versionsOf.id, `&version=${v}&readonly=1`))} />
    </Card>
  );
}
