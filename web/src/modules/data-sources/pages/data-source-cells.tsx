import { Tag, Typography } from 'antd';
import type { TDataSource } from '@tessera/core/contracts/data-sources';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';

export const KIND_COLORS: Record<TDataSource['kind'], string> = { postgres: 'blue', mysql: 'orange', mssql: 'red', http: 'purple', own: 'green' };

/** The list's cells, shared by the table (wide screens) and the cards (phones). */
export function useDataSourceCells() {
  const { t } = useTranslation('dataSources');
  return {
    t,
    name: (r: TDataSource) => (
      <div style={{ minWidth: 0 }}>
        <div>{r.name}</div>
        {r.description && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis={{ tooltip: r.description }}>
            {r.description}
          </Typography.Text>
        )}
      </div>
    ),
    kind: (r: TDataSource) => <Tag color={KIND_COLORS[r.kind]}>{t(`kinds.${r.kind}`)}</Tag>,
    address: (r: TDataSource) => (
      <Typography.Text style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 }}>
        {r.http ? r.http.baseUrl : r.kind === 'own' ? 'biz_views' : `${r.host}:${r.port}/${r.database}`}
        {r.ssl && !r.http && (
          <Tag bordered={false} style={{ marginInlineStart: 6 }}>
            {t('list.ssl')}
          </Tag>
        )}
      </Typography.Text>
    ),
    access: (r: TDataSource) => (
      <Tag color={r.readOnly ? 'green' : 'volcano'} data-testid={`data-source-access-${r.id}`}>
        {r.readOnly ? t('list.readOnly') : t('list.writable')}
      </Tag>
    ),
    timeout: (r: TDataSource) => t('list.seconds', { count: r.statementTimeoutSeconds }),
    modified: (r: TDataSource) => dayjs(r.lastModificationTime ?? r.creationTime).format('YYYY-MM-DD HH:mm'),
  };
}
