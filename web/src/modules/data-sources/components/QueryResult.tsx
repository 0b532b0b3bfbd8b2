import { Alert, Empty, Flex, Table, Tooltip, Typography } from 'antd';
import type { TDataSourceQueryResult } from '@tessera/core/contracts/data-sources';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServerError } from '../api/server-error.ts';
import { cellText, columnWidth, statusLine } from './result-format.ts';
import '../i18n.ts';

interface QueryResultProps {
  result: TDataSourceQueryResult | null;
  error: ServerError | null;
  height: number;
}

type Row = { key: number; values: Record<string, unknown> };

/** Beyond this many rows the grid draws only the rows in view. */
const VIRTUAL_FROM = 100;
const NUMERIC = /\b(tinyint|smallint|mediumint|int|integer|bigint|int[248]|serial|bigserial|smallserial|numeric|decimal|float[48]?|double|real|money|number|year)\b/i;

/** The answer of a run: an error alert, or the status line and the rows (NULL greyed, JSON as text). */
export function QueryResult({ result, error, height }: QueryResultProps) {
  const { t } = useTranslation('dataSources');
  const columns = useMemo(
    () =>
      (result?.columns ?? []).map((c, i) => ({
        // By position: two columns may share a name (`select 1 as a, 2 as a`); the row then has one value.
        key: String(i),
        title: (
          <Tooltip title={c.dataType}>
            <span>{c.name}</span>
          </Tooltip>
        ),
        width: columnWidth(c.name),
        ellipsis: true,
        align: NUMERIC.test(c.dataType) ? ('right' as const) : undefined,
        render: (_: unknown, row: Row) => {
          const text = cellText(row.values[c.name]);
          return text === null ? (
            <Typography.Text type="secondary" italic>
              {t('result.null')}
            </Typography.Text>
          ) : (
            text
          );
        },
      })),
    [result, t],
  );
  const rows = useMemo<Row[]>(() => (result?.rows ?? []).map((values, key) => ({ key, values })), [result]);

  if (error)
    return (
      <Alert
        type="error"
        showIcon
        title={t(`errors.${error.kind}`)}
        description={
          <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {error.message}
            {error.details.length > 0 && (
              <ul style={{ margin: '4px 0 0', paddingInlineStart: 18 }}>
                {error.details.map((d, i) => (
                  <li key={i}>{d}</li>
                ))}
              </ul>
            )}
          </div>
        }
        data-testid="data-source-query-error"
        data-code={error.code ?? ''}
      />
    );
  if (!result) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('result.idle')} />;

  const width = columns.reduce((sum, c) => sum + c.width, 0);
  return (
    <Flex vertical gap={8} style={{ minWidth: 0 }}>
      <Typography.Text type={result.truncated ? 'warning' : 'secondary'} data-testid="data-source-result-status">
        {statusLine(result, (key, options) => t(key, options ?? {}))}
      </Typography.Text>
      {columns.length > 0 && (
        <Table<Row>
          size="small"
          bordered
          rowKey="key"
          pagination={false}
          columns={columns}
          dataSource={rows}
          virtual={rows.length > VIRTUAL_FROM}
          scroll={{ x: width, y: height }}
          locale={{ emptyText: t('result.noRows') }}
          data-testid="data-source-result"
        />
      )}
    </Flex>
  );
}
