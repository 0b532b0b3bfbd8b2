import { DatabaseOutlined, EyeOutlined, KeyOutlined, ReloadOutlined, TableOutlined, WarningOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Flex, Input, Spin, Tooltip, Tree, Typography } from 'antd';
import type { TreeDataNode } from 'antd';
import type { SqlDialect } from '@tessera/core/helpers/sql-parameters';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverError } from '../api/server-error.ts';
import { columnKey, filterObjects, parseTreeKey, schemaKey, tableKey, type ColumnsState } from './object-tree-data.ts';
import { qualifiedName, selectAllStatement } from './sql-identifiers.ts';
import type { useSourceObjects } from './use-source-objects.ts';
import '../i18n.ts';

interface ObjectTreeProps {
  source: ReturnType<typeof useSourceObjects>;
  dialect: SqlDialect;
  /** A table was clicked: its `select *`, and its qualified name. */
  onInsert(statement: string, name: string): void;
  height: number;
}

/** Schemas → tables and views → columns (read when a table is opened); clicking a table writes a query for it. */
export function ObjectTree({ source, dialect, onInsert, height }: ObjectTreeProps) {
  const { t } = useTranslation('dataSources');
  const { objects, columns, loadColumns, refresh } = source;
  const [filter, setFilter] = useState('');
  const [expanded, setExpanded] = useState<string[]>([]);
  const [refreshing, setRefreshing] = useState(0);

  const schemas = useMemo(() => (objects.data ? filterObjects(objects.data, filter) : []), [objects.data, filter]);
  // While filtering, every schema with a match is open.
  const expandedKeys = filter.trim() ? [...new Set([...expanded, ...schemas.map((s) => schemaKey(s.name))])] : expanded;
  const treeData = useMemo(() => schemas.map((s): TreeDataNode => schemaNode(s, columns, t)), [schemas, columns, t]);
  const loadedKeys = Object.keys(columns);
  // What a table or view is (the product's own database: the page and view it shows).
  const comments = useMemo(() => new Map(schemas.flatMap((s) => s.tables.flatMap((tb) => (tb.comment ? [[tableKey(s.name, tb.name), tb.comment] as const] : [])))), [schemas]);

  const toggle = (key: string) => setExpanded((keys) => (keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key]));

  const renderTitle = (node: TreeDataNode) => {
    const key = String(node.key);
    const parsed = parseTreeKey(key);
    if (parsed.type === 'schema')
      return (
        <span data-testid={`data-source-schema-${parsed.schema}`} data-expanded={expandedKeys.includes(key)}>
          {plainTitle(node.title)}
        </span>
      );
    if (parsed.type === 'table')
      return (
        <Tooltip title={t('workbench.insertHint')} mouseEnterDelay={0.8}>
          <span data-testid={`data-source-table-${parsed.schema}.${parsed.table}`}>
            {plainTitle(node.title)}
            {comments.has(key) && (
              <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', lineHeight: 1.3 }}>
                {comments.get(key)}
              </Typography.Text>
            )}
          </span>
        </Tooltip>
      );
    return typeof node.title === 'function' ? node.title(node) : node.title;
  };

  const error = objects.error ? serverError(objects.error) : null;

  return (
    <Flex vertical gap={8} style={{ minWidth: 0 }} data-testid="data-source-objects">
      <Flex gap={8} align="center">
        <Typography.Text strong style={{ flex: 1 }}>
          {t('workbench.objects')}
        </Typography.Text>
        <Tooltip title={t('workbench.refreshObjects')}>
          <Button
            size="small"
            type="text"
            icon={<ReloadOutlined />}
            aria-label={t('workbench.refreshObjects')}
            loading={objects.isFetching}
            onClick={() => void refresh().then(() => setRefreshing((n) => n + 1))}
          />
        </Tooltip>
      </Flex>
      <Input.Search allowClear size="small" placeholder={t('workbench.filterObjects')} aria-label={t('workbench.filterObjects')} value={filter} onChange={(e) => setFilter(e.target.value)} />
      {error && <Alert type="error" showIcon title={t('workbench.objectsFailed')} description={error.message} data-testid="data-source-objects-error" />}
      <Spin spinning={objects.isLoading}>
        {objects.data && treeData.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workbench.noObjects')} />
        ) : (
          <Tree
            key={refreshing}
            showIcon
            blockNode
            height={height}
            treeData={treeData}
            expandedKeys={expandedKeys}
            onExpand={(keys) => setExpanded(keys.map(String))}
            loadedKeys={loadedKeys}
            selectedKeys={[]}
            loadData={async (node) => {
              const parsed = parseTreeKey(String(node.key));
              if (parsed.type === 'table' && !columns[String(node.key)]) await loadColumns(parsed.schema, parsed.table);
            }}
            onSelect={(_, { node }) => {
              const parsed = parseTreeKey(String(node.key));
              if (parsed.type === 'schema') toggle(String(node.key));
              if (parsed.type === 'table') onInsert(selectAllStatement(parsed.schema, parsed.table, dialect), qualifiedName(parsed.schema, parsed.table, dialect));
            }}
            titleRender={renderTitle}
          />
        )}
      </Spin>
    </Flex>
  );
}

/** Schema and table titles are plain names. */
const plainTitle = (title: TreeDataNode['title']) => (typeof title === 'string' ? title : null);

type Schema = ReturnType<typeof filterObjects>[number];

function schemaNode(s: Schema, columns: Readonly<Record<string, ColumnsState>>, t: (key: string) => string): TreeDataNode {
  return {
    key: schemaKey(s.name),
    title: s.name,
    icon: <DatabaseOutlined />,
    children: s.tables.length
      ? s.tables.map((table): TreeDataNode => {
          const key = tableKey(s.name, table.name);
          const state = columns[key];
          return {
            key,
            title: table.kind === 'view' ? `${table.name} (${t('workbench.view')})` : table.name,
            icon: table.kind === 'view' ? <EyeOutlined /> : <TableOutlined />,
            isLeaf: false,
            children: state ? columnNodes(s.name, table.name, state, t) : undefined,
          };
        })
      : [{ key: `none\u0000${s.name}`, title: t('workbench.noTables'), isLeaf: true, selectable: false, disabled: true }],
  };
}

function columnNodes(schema: string, table: string, state: ColumnsState, t: (key: string) => string): TreeDataNode[] {
  if ('error' in state)
    return [{ key: columnKey(schema, table, '\u0000error'), title: `${t('workbench.columnsFailed')}: ${state.error}`, icon: <WarningOutlined />, isLeaf: true, selectable: false }];
  return state.columns.map((c) => ({
    key: columnKey(schema, table, c.name),
    isLeaf: true,
    selectable: false,
    icon: c.isPrimaryKey ? <KeyOutlined aria-label={t('workbench.primaryKey')} style={{ color: '#d4b106' }} /> : <span style={{ display: 'inline-block', width: 14 }} />,
    title: (
      <span>
        {c.name} <Typography.Text type="secondary" style={{ fontSize: 12 }}>{c.dataType}</Typography.Text>
        {c.comment && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {' · '}
            {c.comment}
          </Typography.Text>
        )}
      </span>
    ),
  }));
}
