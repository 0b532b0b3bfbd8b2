import { CaretRightOutlined, DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Input, Space, Table, Tag, Typography, type ButtonProps } from 'antd';
import type { TProcedureList } from '@tessera/core/contracts/data-factory';
import { P } from '@tessera/core/contracts/permissions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { usePagedTable } from '../../../shared/ui/use-paged-table.ts';
import { errorText } from '../../data-sources/api/server-error.ts';
import { useDeleteProcedure, useProcedures } from '../api/data-factory.ts';
import { ProcedureEditor, type EditorTarget } from '../components/ProcedureEditor.tsx';
import '../i18n.ts';

type Row = TProcedureList['items'][number];

/**
 * `/dataSet/storedProcedure`: the data factory's PL/pgSQL functions and the stored routines of
 * database sources it calls — search, sorting, paging; create and edit (SQL editor, parameters,
 * returns; or a source's routine), test runs, versions with a diff and rollback, the run log;
 * delete drops the function.
 */
export default function DataFactoryPage() {
  const { t } = useTranslation('dataFactory');
  const canRun = useAccess(P.DataFactoryRun);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('');
  const paged = usePagedTable();
  const [editing, setEditing] = useState<EditorTarget | null>(null);
  const list = useProcedures({ ...paged.query, Filter: filter || undefined });
  const remove = useDeleteProcedure();
  const items = list.data?.items ?? [];
  const tableProps = paged.tableProps<Row>(list.data?.totalCount ?? 0, (n) => t('list.total', { count: n }));

  const confirmDelete = (r: Row) =>
    feedback.modal?.confirm({
      title: t('list.confirmDelete', { name: r.name }),
      content: t('list.confirmDeleteText', { code: r.code }),
      okText: t('list.delete'),
      cancelText: t('list.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'factory-delete-ok' } as ButtonProps,
      onOk: async () => {
        try {
          await remove.mutateAsync(r.id);
          feedback.message?.success(t('list.deleted'));
        } catch (err) {
          feedback.message?.error(errorText(err));
        }
      },
    });

  const returnsOf = (r: Row) => {
    if (r.sourceId && r.routine) return t('list.external', { source: r.sourceName ?? t('list.sourceGone'), routine: `${r.routine.schema}.${r.routine.name}` });
    if (r.returns.kind === 'table') return t('list.table', { count: r.returns.columns.length });
    return r.parameters.some((p) => p.mode === 'out') ? t('list.outs') : t('list.void');
  };
  const create = () => setEditing({ kind: 'create' });
  const empty = filter ? (
    <Empty description={t('common:empty')} />
  ) : (
    <Empty
      description={
        <>
          <div>{t('list.empty')}</div>
          <Typography.Text type="secondary">{t('list.emptyHint')}</Typography.Text>
        </>
      }
      data-testid="factory-empty"
    >
      <Button type="primary" icon={<PlusOutlined />} onClick={create}>
        {t('list.create')}
      </Button>
    </Empty>
  );

  return (
    <Card size="small" title={t('list.title')}>
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          style={{ width: 300, maxWidth: '100%' }}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            if (!e.target.value) (setFilter(''), paged.firstPage());
          }}
          onSearch={(v) => (setFilter(v.trim()), paged.firstPage())}
          enterButton={t('list.searchButton')}
          data-testid="factory-search"
        />
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} aria-label={t('list.refresh')} />
          <Button type="primary" icon={<PlusOutlined />} onClick={create} data-testid="factory-create">
            {t('list.create')}
          </Button>
        </Space>
      </Flex>
      <Table<Row>
        size="small"
        rowKey="id"
        loading={list.isFetching}
        dataSource={items}
        locale={{ emptyText: list.isLoading ? <span /> : empty }}
        {...tableProps}
        scroll={{ x: 1000 }}
        data-testid="factory-procedures"
        onRow={(r) => ({ onDoubleClick: () => setEditing({ kind: 'edit', id: r.id }) })}
        columns={[
          { title: t('list.code'), key: 'code', sorter: true, width: 200, render: (_, r) => <Typography.Text code>factory.{r.code}</Typography.Text> },
          { title: t('list.name'), key: 'name', sorter: true, width: 200, render: (_, r) => <span title={r.description}>{r.name}</span> },
          {
            title: t('list.parameters'),
            key: 'parameters',
            ellipsis: true,
            render: (_, r) => r.parameters.map((p) => `${p.mode === 'out' ? 'OUT ' : ''}${p.name}`).join(', '),
          },
          { title: t('list.returns'), key: 'returns', width: 200, ellipsis: true, render: (_, r) => returnsOf(r) },
          { title: t('list.version'), key: 'version', sorter: true, width: 80, align: 'right', render: (_, r) => <Tag>v{r.version}</Tag> },
          { title: t('list.modified'), key: 'lastModificationTime', sorter: true, width: 170, render: (_, r) => new Date(r.lastModificationTime ?? r.creationTime).toLocaleString() },
          {
            title: t('list.actions'),
            key: 'actions',
            width: 230,
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ kind: 'edit', id: r.id })} data-testid={`factory-edit-${r.code}`}>
                  {t('list.edit')}
                </Button>
                {canRun && (
                  <Button type="link" size="small" icon={<CaretRightOutlined />} onClick={() => setEditing({ kind: 'edit', id: r.id, tab: 'test' })} data-testid={`factory-test-${r.code}`}>
                    {t('list.test')}
                  </Button>
                )}
                <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => confirmDelete(r)} data-testid={`factory-delete-${r.code}`}>
                  {t('list.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <ProcedureEditor target={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
