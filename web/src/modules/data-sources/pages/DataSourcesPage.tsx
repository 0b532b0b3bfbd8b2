import { ApiOutlined, ConsoleSqlOutlined, DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Empty, Flex, Grid, Input, Select, Space, Table, Typography, type ButtonProps } from 'antd';
import { DATA_SOURCE_KINDS, type TDataSource, type TDataSourceKind } from '@tessera/core/contracts/data-sources';
import { useState, type ReactNode } from 'react';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { usePagedTable } from '../../../shared/ui/use-paged-table.ts';
import { PhoneCards } from '../../../shared/ui/PhoneCards.tsx';
import { useDataSources, useDeleteDataSource, useTestDataSource } from '../api/data-sources.ts';
import { errorText } from '../api/server-error.ts';
import { useDataSourceCells } from './data-source-cells.tsx';
import { DataSourceForm, type DataSourceFormTarget } from './DataSourceForm.tsx';
import { DataSourceWorkbench } from './DataSourceWorkbench.tsx';
import '../i18n.ts';

/**
 * `/dataSet/source`: the external databases the product reads — search, kind filter, sorting and
 * paging; create, edit, test the connection, delete; 查询 opens the workbench. Phones get one card
 * per source.
 */
export default function DataSourcesPage() {
  const cells = useDataSourceCells();
  const { t } = cells;
  const phone = Grid.useBreakpoint().md === false;
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('');
  const [kind, setKind] = useState<TDataSourceKind | undefined>();
  const paged = usePagedTable();
  const [editing, setEditing] = useState<DataSourceFormTarget | null>(null);
  const [querying, setQuerying] = useState<TDataSource | null>(null);
  const list = useDataSources({ ...paged.query, Filter: filter || undefined, Kind: kind });
  const remove = useDeleteDataSource();
  const test = useTestDataSource();
  const items = list.data?.items ?? [];
  const tableProps = paged.tableProps<TDataSource>(list.data?.totalCount ?? 0, (n) => t('list.total', { count: n }));
  const filtered = Boolean(filter || kind);

  const confirmDelete = (r: TDataSource) =>
    feedback.modal?.confirm({
      title: t('list.confirmDelete', { name: r.name }),
      content: t('list.confirmDeleteText'),
      okText: t('list.delete'),
      cancelText: t('list.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'data-source-delete-ok' } as ButtonProps,
      onOk: async () => {
        try {
          await remove.mutateAsync(r.id);
          feedback.message?.success(t('list.deleted'));
        } catch (err) {
          feedback.message?.error(errorText(err));
        }
      },
    });

  const testConnection = async (r: TDataSource) => {
    try {
      const result = await test.mutateAsync(r.id);
      if (result.ok) feedback.message?.success(t('list.testOk', { name: r.name, version: result.version ?? '', ms: Math.round(result.elapsedMs) }), 5);
      else feedback.notification?.error({ title: t('list.testFailed', { name: r.name }), description: result.message, duration: 8 });
    } catch (err) {
      feedback.notification?.error({ title: t('list.testFailed', { name: r.name }), description: errorText(err), duration: 8 });
    }
  };

  const actions = (r: TDataSource): ReactNode => (
    <Space size={0} wrap>
      <Button type="link" size="small" icon={<ConsoleSqlOutlined />} onClick={() => setQuerying(r)} data-testid={`data-source-query-${r.id}`}>
        {t('list.query')}
      </Button>
      <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ kind: 'edit', id: r.id })} data-testid={`data-source-edit-${r.id}`}>
        {t('list.edit')}
      </Button>
      <Button
        type="link"
        size="small"
        icon={<ApiOutlined />}
        loading={test.isPending && test.variables === r.id}
        onClick={() => void testConnection(r)}
        data-testid={`data-source-test-${r.id}`}
      >
        {t('list.test')}
      </Button>
      <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => confirmDelete(r)} data-testid={`data-source-delete-${r.id}`}>
        {t('list.delete')}
      </Button>
    </Space>
  );

  const create = () => setEditing({ kind: 'create' });
  const empty = filtered ? (
    <Empty description={t('common:empty')} />
  ) : (
    <Empty
      description={
        <>
          <div>{t('list.empty')}</div>
          <Typography.Text type="secondary">{t('list.emptyHint')}</Typography.Text>
        </>
      }
      data-testid="data-source-empty"
    >
      <Button type="primary" icon={<PlusOutlined />} onClick={create} data-testid="data-source-empty-create">
        {t('list.create')}
      </Button>
    </Empty>
  );

  return (
    <Card size="small" title={t('list.title')}>
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 12 }}>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('list.search')}
            aria-label={t('list.search')}
            style={{ width: 280, maxWidth: '100%' }}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              if (!e.target.value) (setFilter(''), paged.firstPage());
            }}
            onSearch={(v) => (setFilter(v.trim()), paged.firstPage())}
            enterButton={t('list.searchButton')}
            data-testid="data-source-search"
          />
          <Select<TDataSourceKind>
            allowClear
            placeholder={t('list.allKinds')}
            aria-label={t('list.kind')}
            style={{ width: 170 }}
            value={kind}
            onChange={(v) => (setKind(v), paged.firstPage())}
            options={DATA_SOURCE_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
            data-testid="data-source-kind-filter"
          />
        </Space>
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} aria-label={t('list.refresh')} />
          <Button type="primary" icon={<PlusOutlined />} onClick={create} data-testid="data-source-create">
            {t('list.create')}
          </Button>
        </Space>
      </Flex>
      {phone ? (
        <PhoneCards
          items={items}
          fetching={list.isFetching}
          empty={list.isLoading ? null : empty}
          tableProps={tableProps}
          data-testid="data-source-cards"
          card={(r) => (
            <Card key={r.id} size="small" title={r.name} extra={cells.kind(r)} data-testid={`data-source-card-${r.id}`}>
              <Descriptions
                size="small"
                column={1}
                items={[
                  ...(r.description ? [{ key: 'description', label: t('form.description'), children: r.description }] : []),
                  { key: 'address', label: t('list.address'), children: cells.address(r) },
                  { key: 'user', label: t('list.user'), children: r.user },
                  { key: 'access', label: t('list.access'), children: cells.access(r) },
                  { key: 'limits', label: t('list.rowCap'), children: `${r.rowCap} · ${cells.timeout(r)}` },
                  { key: 'modified', label: t('list.modified'), children: cells.modified(r) },
                ]}
              />
              {actions(r)}
            </Card>
          )}
        />
      ) : (
        <Table<TDataSource>
          size="small"
          rowKey="id"
          loading={list.isFetching}
          dataSource={items}
          locale={{ emptyText: list.isLoading ? <span /> : empty }}
          {...tableProps}
          scroll={{ x: 1280 }}
          data-testid="data-sources"
          onRow={(r) => ({ onDoubleClick: () => setQuerying(r) })}
          columns={[
            { title: t('list.name'), key: 'name', sorter: true, width: 220, render: (_, r) => cells.name(r) },
            { title: t('list.kind'), key: 'kind', sorter: true, width: 150, render: (_, r) => cells.kind(r) },
            { title: t('list.address'), key: 'host', sorter: true, width: 260, render: (_, r) => cells.address(r) },
            { title: t('list.user'), key: 'user', dataIndex: 'user', width: 120, ellipsis: true },
            { title: t('list.access'), key: 'readOnly', width: 80, render: (_, r) => cells.access(r) },
            { title: t('list.rowCap'), key: 'rowCap', dataIndex: 'rowCap', width: 90, align: 'right' },
            { title: t('list.timeout'), key: 'timeout', width: 80, align: 'right', render: (_, r) => cells.timeout(r) },
            { title: t('list.modified'), key: 'lastModificationTime', sorter: true, width: 150, render: (_, r) => cells.modified(r) },
            { title: t('list.actions'), key: 'actions', width: 330, fixed: 'right', render: (_, r) => actions(r) },
          ]}
        />
      )}
      <DataSourceForm target={editing} onClose={() => setEditing(null)} />
      <DataSourceWorkbench source={querying} onClose={() => setQuerying(null)} />
    </Card>
  );
}
