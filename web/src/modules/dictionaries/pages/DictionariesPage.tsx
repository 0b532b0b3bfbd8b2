import { DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Card, Input, Select, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TDictionarySummary, TSysDictionary } from '@tessera/core/contracts/dictionaries';
import { P } from '@tessera/core/contracts/permissions';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePagedTable } from '../../../shared/ui/use-paged-table.ts';
import { ApiError } from '../../../shared/api/client.ts';
import { useAccessChecker } from '../../../shared/components/Auth.tsx';
import { HelpLink } from '../../../shared/components/HelpLink.tsx';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { downloadDictionaryExcel, useDeleteDictionary, useDictionaries, useSysDictionaries } from '../api/dictionaries.ts';
import { DictionaryEditorDrawer, type DictionaryEditorTarget } from '../components/DictionaryEditorDrawer.tsx';
import '../dictionaries.css';
import '../i18n.ts';

/** /dataSet/dictionary: business dictionaries (search, page, edit with items, Excel) and the read-only system dictionaries. */
export default function DictionariesPage() {
  const { t } = useTranslation('dictionaries');
  const [tab, setTab] = useState('business');
  return (
    <Card size="small" title={t('title')} extra={<HelpLink docKey="dictionaries" />}>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'business', label: t('tabs.business'), children: <BusinessDictionaries /> },
          { key: 'system', label: t('tabs.system'), children: <SystemDictionaries /> },
        ]}
      />
    </Card>
  );
}

function BusinessDictionaries() {
  const { t, i18n } = useTranslation('dictionaries');
  const can = useAccessChecker();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<{ text?: string; isTree?: boolean }>({});
  const table = usePagedTable();
  const [editing, setEditing] = useState<DictionaryEditorTarget | null>(null);
  const list = useDictionaries({ Filter: filter.text || undefined, IsTree: filter.isTree, ...table.query });
  const remove = useDeleteDictionary();

  const apply = (next: { text?: string; isTree?: boolean }) => {
    setFilter((f) => ({ ...f, ...next }));
    table.firstPage();
  };

  const confirmDelete = (d: TDictionarySummary) =>
    feedback.modal?.confirm({
      title: t('common:confirmDelete'),
      content: `${d.code}（${pickText(d.title, i18n.language)}）`,
      okText: t('common:ok'),
      cancelText: t('common:cancel'),
      okButtonProps: { danger: true },
      // The confirmation closes at once; a refusal opens its own dialog (not one stacked under the confirmation).
      onOk: () => void removeDictionary(d),
    });

  const removeDictionary = async (d: TDictionarySummary) => {
    try {
      await remove.mutateAsync(d.id);
      feedback.message?.success(t('list.deleted'));
    } catch (err) {
      // "In use" names the pages: a dialog, not a 3-second toast.
      const pages = err instanceof ApiError ? ((err.body as { error?: { details?: { pages?: string[] } } })?.error?.details?.pages ?? []) : [];
      feedback.modal?.error({
        title: t('list.inUseTitle'),
        content: (
          <div data-testid="dictionary-in-use">
            <p>{err instanceof Error ? err.message : String(err)}</p>
            {pages.length > 0 && (
              <ul style={{ paddingInlineStart: 18 }}>
                {pages.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
          </div>
        ),
      });
    }
  };

  const exportItems = (d: TDictionarySummary) => downloadDictionaryExcel(d.id, d.code).catch((err: Error) => feedback.message?.error(err.message));

  const columns: ColumnsType<TDictionarySummary> = [
    {
      title: t('list.code'),
      dataIndex: 'code',
      key: 'code',
      sorter: true,
      render: (code: string, d) => (
        <Typography.Link onClick={() => setEditing({ kind: 'edit', id: d.id })} data-testid={`dictionary-${code}`}>
          {code}
        </Typography.Link>
      ),
    },
    { title: t('list.name'), key: 'title', render: (_, d) => pickText(d.title, i18n.language) },
    { title: t('list.type'), key: 'isTree', width: 90, render: (_, d) => (d.isTree ? <Tag color="geekblue">{t('list.tree')}</Tag> : <Tag>{t('list.flat')}</Tag>) },
    {
      title: (
        <Tooltip title={t('list.itemsHint')}>
          <span>{t('list.items')}</span>
        </Tooltip>
      ),
      key: 'items',
      width: 100,
      align: 'right',
      render: (_, d) => t('list.itemsCount', { enabled: d.enabledItemCount, total: d.itemCount }),
    },
    { title: t('list.description'), dataIndex: 'description', key: 'description', ellipsis: true },
    {
      title: t('list.modified'),
      key: 'lastModificationTime',
      sorter: true,
      width: 170,
      render: (_, d) => dayjs(d.lastModificationTime ?? d.creationTime).format('YYYY-MM-DD HH:mm:ss'),
    },
    {
      title: t('common:actions'),
      key: 'actions',
      width: 130,
      render: (_, d) => (
        <Space size={0}>
          <Tooltip title={t('common:edit')}>
            <Button type="text" size="small" icon={<EditOutlined />} aria-label={`${t('common:edit')} ${d.code}`} onClick={() => setEditing({ kind: 'edit', id: d.id })} />
          </Tooltip>
          {can(P.Dictionaries) && (
            <Tooltip title={t('list.export')}>
              <Button type="text" size="small" icon={<DownloadOutlined />} aria-label={`${t('list.export')} ${d.code}`} onClick={() => void exportItems(d)} />
            </Tooltip>
          )}
          {can(P.DictionariesDelete) && (
            <Tooltip title={t('common:delete')}>
              <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`${t('common:delete')} ${d.code}`} onClick={() => confirmDelete(d)} />
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          prefix={<SearchOutlined />}
          style={{ width: 300 }}
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            if (!e.target.value) apply({ text: undefined });
          }}
          onSearch={(v) => apply({ text: v.trim() || undefined })}
          enterButton={t('common:search')}
        />
        <Select
          style={{ width: 130 }}
          value={filter.isTree === undefined ? 'all' : filter.isTree ? 'tree' : 'flat'}
          aria-label={t('list.type')}
          onChange={(v: string) => apply({ isTree: v === 'all' ? undefined : v === 'tree' })}
          options={[
            { value: 'all', label: t('list.allTypes') },
            { value: 'flat', label: t('list.flat') },
            { value: 'tree', label: t('list.tree') },
          ]}
        />
        {can(P.DictionariesCreate) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'create' })}>
            {t('list.create')}
          </Button>
        )}
      </Space>
      <Table<TDictionarySummary>
        size="middle"
        rowKey="id"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: t('list.empty') }}
        data-testid="dictionaries"
        {...table.tableProps<TDictionarySummary>(list.data?.totalCount ?? 0, (total) => t('list.total', { total }))}
      />
      <DictionaryEditorDrawer target={editing} onClose={() => setEditing(null)} />
    </>
  );
}

/** The built-in dictionaries, read-only, with their items in a nested table. */
function SystemDictionaries() {
  const { t, i18n } = useTranslation('dictionaries');
  const sys = useSysDictionaries();
  const [text, setText] = useState('');
  const needle = text.trim().toLowerCase();
  const rows = (sys.data?.items ?? []).filter((d) => !needle || d.code.toLowerCase().includes(needle) || Object.values(d.title).some((v) => v.toLowerCase().includes(needle)));
  const columns: ColumnsType<TSysDictionary> = [
    { title: t('sys.code'), dataIndex: 'code', key: 'code', width: 220, render: (c: string) => <Typography.Text code>{c}</Typography.Text> },
    { title: t('sys.name'), key: 'title', width: 220, render: (_, d) => pickText(d.title, i18n.language) },
    {
      title: t('sys.items'),
      key: 'items',
      render: (_, d) => (
        <Space size={[4, 4]} wrap>
          {d.items.map((i) => (
            <Tag key={i.code} color={i.color ?? undefined}>
              {pickText(i.label, i18n.language)} <Typography.Text type="secondary" style={{ fontSize: 11 }}>{i.code}</Typography.Text>
            </Tag>
          ))}
        </Space>
      ),
    },
  ];
  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <Input allowClear prefix={<SearchOutlined />} style={{ width: 300 }} placeholder={t('list.search')} aria-label={t('list.search')} value={text} onChange={(e) => setText(e.target.value)} />
        <Typography.Text type="secondary">{t('list.systemHint')}</Typography.Text>
      </Space>
      <Table<TSysDictionary> size="middle" rowKey="id" loading={sys.isFetching} columns={columns} dataSource={rows} pagination={false} data-testid="sys-dictionaries" />
    </>
  );
}
