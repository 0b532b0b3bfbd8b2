import {
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  DownOutlined,
  EditOutlined,
  FormOutlined,
  HistoryOutlined,
  ImportOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { Button, Card, Dropdown, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { PAGE_STATUSES, type TPageDefinitionListItem, type TPageInUseDetails, type TPageStatus } from '@tessera/core/contracts/pages';
import { P } from '@tessera/core/contracts/permissions';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveFile } from '../../../shared/api/download.ts';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api/client.ts';
import { useAccessChecker } from '../../../shared/components/Auth.tsx';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { exportPageDefinition, useDeletePageDefinition, usePageDefinitions } from '../api/page-definitions.ts';
import { ImportPageModal } from './ImportPageModal.tsx';
import { PageFormModal, type PageFormTarget } from './PageFormModal.tsx';
import { VersionsDrawer } from './VersionsDrawer.tsx';
import './page-list-texts.ts';

const STATUS_COLORS: Record<TPageStatus, string> = { draft: 'default', published: 'green', modified: 'orange' };

/** The designer route (spec §2: `/pageDefinition`, standalone) for one page. */
export const designerPath = (id: string) => `/pageDefinition?id=${encodeURIComponent(id)}`;

const download = (fileName: string, content: string) => saveFile(new Blob([content], { type: 'application/json' }), fileName);

/**
 * `/design/form`: the page definitions — search, status filter, paging and sorting; create, copy,
 * rename, delete (refused while business menus or workflows use the page), import/export as JSON,
 * version history with rollback. Opening a row goes to the designer.
 */
export default function PageDefinitionsPage() {
  const { t, i18n } = useTranslation('pageList');
  const navigate = useNavigate();
  const can = useAccessChecker();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('');
  const [status, setStatus] = useState<TPageStatus | undefined>();
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const [sorting, setSorting] = useState<string | undefined>();
  const [editing, setEditing] = useState<PageFormTarget | null>(null);
  const [importing, setImporting] = useState(false);
  const [versionsOf, setVersionsOf] = useState<TPageDefinitionListItem | null>(null);
  const pages = usePageDefinitions({
    SkipCount: (paging.current - 1) * paging.pageSize,
    MaxResultCount: paging.pageSize,
    Filter: filter || undefined,
    Sorting: sorting,
    Status: status,
  });
  const remove = useDeletePageDefinition();
  const nameOf = (p: TPageDefinitionListItem) => pickText(p.name, i18n.language) || p.code;
  const open = (id: string) => navigate(designerPath(id));

  const exportPage = async (page: TPageDefinitionListItem, source: 'draft' | 'published') => {
    try {
      const doc = await exportPageDefinition(page.id, source);
      const file = `${page.code}${source === 'published' ? `.v${page.publishedVersion}` : ''}.page.json`;
      download(file, JSON.stringify(doc, null, 2));
      feedback.message?.success(t('exported', { file }));
    } catch (err) {
      feedback.message?.error((err as Error).message);
    }
  };

  const confirmDelete = (page: TPageDefinitionListItem) =>
    feedback.modal?.confirm({
      title: t('confirmDelete', { name: nameOf(page) }),
      content: t('confirmDeleteText'),
      okText: t('delete'),
      cancelText: t('cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await remove.mutateAsync(page.id);
          feedback.message?.success(t('deleted'));
        } catch (err) {
          const body = err instanceof ApiError ? (err.body as { error?: { code?: string; message?: string; details?: TPageInUseDetails } }) : undefined;
          if (body?.error?.code === 'Pages.InUse') {
            const users = [...(body.error.details?.menus ?? []), ...(body.error.details?.workflows ?? [])];
            feedback.modal?.error({
              title: t('inUseTitle'),
              content: (
                <div data-testid="page-in-use">
                  <p>{body.error.message}</p>
                  <ul>
                    {users.map((u) => (
                      <li key={u.id}>{pickText(u.title, i18n.language) || u.id}</li>
                    ))}
                  </ul>
                </div>
              ),
              okText: t('ok'),
            });
            return;
          }
          feedback.message?.error(body?.error?.message ?? (err as Error).message);
        }
      },
    });

  return (
    <Card size="small" title={t('title')}>
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('search')}
            style={{ width: 300 }}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onSearch={(v) => {
              setFilter(v.trim());
              setPaging((p) => ({ ...p, current: 1 }));
            }}
            enterButton={t('searchButton')}
          />
          <Select<TPageStatus>
            allowClear
            placeholder={t('allStatuses')}
            style={{ width: 180 }}
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPaging((p) => ({ ...p, current: 1 }));
            }}
            options={PAGE_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) }))}
            aria-label={t('status')}
          />
        </Space>
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => pages.refetch()} aria-label={t('refresh')} />
          {can(P.PagesCreate) && (
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>
              {t('import')}
            </Button>
          )}
          {can(P.PagesCreate) && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'create' })}>
              {t('create')}
            </Button>
          )}
        </Space>
      </Space>
      <Table<TPageDefinitionListItem>
        size="small"
        rowKey="id"
        loading={pages.isFetching}
        dataSource={pages.data?.items ?? []}
        locale={{ emptyText: t('empty') }}
        pagination={{ ...paging, total: pages.data?.totalCount ?? 0, showSizeChanger: true, showTotal: (n) => t('total', { count: n }) }}
        onChange={(p, _f, sorter) => {
          setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? 20 });
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          setSorting(s?.order ? `${String(s.columnKey)} ${s.order === 'descend' ? 'desc' : 'asc'}` : undefined);
        }}
        scroll={{ x: 1300 }}
        onRow={(record) => ({ onDoubleClick: () => open(record.id) })}
        columns={[
          {
            title: t('code'),
            key: 'code',
            dataIndex: 'code',
            sorter: true,
            width: 220,
            render: (v: string, r) => (
              <Typography.Link onClick={() => open(r.id)} data-testid={`open-${v}`}>
                {v}
              </Typography.Link>
            ),
          },
          { title: t('name'), key: 'name', sorter: true, width: 220, render: (_, r) => pickText(r.name, i18n.language) || '—' },
          { title: t('description'), key: 'description', dataIndex: 'description', ellipsis: true },
          {
            title: t('status'),
            key: 'status',
            dataIndex: 'status',
            sorter: true,
            width: 150,
            render: (v: TPageStatus) => <Tag color={STATUS_COLORS[v]}>{t(`statuses.${v}`)}</Tag>,
          },
          { title: t('version'), key: 'publishedVersion', dataIndex: 'publishedVersion', width: 100, render: (v: number | null) => (v === null ? '—' : `v${v}`) },
          {
            title: t('modified'),
            key: 'lastModificationTime',
            sorter: true,
            width: 150,
            render: (_, r) => dayjs(r.lastModificationTime ?? r.creationTime).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('published'),
            key: 'publishedTime',
            dataIndex: 'publishedTime',
            sorter: true,
            width: 150,
            render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '—'),
          },
          {
            title: t('actions'),
            key: 'actions',
            width: 250,
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" icon={<FormOutlined />} onClick={() => open(r.id)}>
                  {t('design')}
                </Button>
                <Button type="link" size="small" icon={<HistoryOutlined />} onClick={() => setVersionsOf(r)}>
                  {t('versions')}
                </Button>
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      ...(can(P.PagesCreate) ? [{ key: 'copy', icon: <CopyOutlined />, label: t('copy') }] : []),
                      ...(can(P.PagesUpdate) ? [{ key: 'rename', icon: <EditOutlined />, label: t('rename') }] : []),
                      { key: 'exportDraft', icon: <DownloadOutlined />, label: t('exportDraft') },
                      { key: 'exportPublished', icon: <DownloadOutlined />, label: t('exportPublished'), disabled: r.publishedVersion === null },
                      ...(can(P.PagesDelete) ? [{ type: 'divider' as const }, { key: 'delete', icon: <DeleteOutlined />, label: t('delete'), danger: true }] : []),
                    ],
                    onClick: ({ key }) => {
                      if (key === 'copy') setEditing({ kind: 'copy', page: r });
                      if (key === 'rename') setEditing({ kind: 'rename', page: r });
                      if (key === 'exportDraft') void exportPage(r, 'draft');
                      if (key === 'exportPublished') void exportPage(r, 'published');
                      if (key === 'delete') confirmDelete(r);
                    },
                  }}
                >
                  <Tooltip title={t('more')}>
                    <Button type="link" size="small" data-testid={`more-${r.code}`}>
                      {t('more')} <DownOutlined />
                    </Button>
                  </Tooltip>
                </Dropdown>
              </Space>
            ),
          },
        ]}
      />
      {/* A new page opens in the designer at once (a copy stays in the list). */}
      <PageFormModal target={editing} onClose={() => setEditing(null)} onCreated={(id) => editing?.kind === 'create' && open(id)} />
      <ImportPageModal open={importing} onClose={() => setImporting(false)} />
      <VersionsDrawer page={versionsOf} onClose={() => setVersionsOf(null)} />
    </Card>
  );
}
