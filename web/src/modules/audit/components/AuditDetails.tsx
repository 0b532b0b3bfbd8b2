import { Descriptions, Table, Typography } from 'antd';
import type { TAuditLog } from '@tessera/core/contracts/audit';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';

const show = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** Before/after as a field-by-field comparison (changed fields marked); anything else as JSON. */
export function AuditDetails({ log }: { log: TAuditLog }) {
  const { t } = useTranslation('audit');
  const details = log.details ?? {};
  const before = details.before as Record<string, unknown> | unknown[] | undefined;
  const after = details.after as Record<string, unknown> | unknown[] | undefined;
  const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  const rest = Object.fromEntries(Object.entries(details).filter(([k]) => k !== 'before' && k !== 'after'));
  let comparison: { field: string; before: unknown; after: unknown; changed: boolean }[] | null = null;
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    comparison = [...new Set([...Object.keys(b), ...Object.keys(a)])].map((field) => ({
      field,
      before: b[field],
      after: a[field],
      changed: JSON.stringify(b[field]) !== JSON.stringify(a[field]),
    }));
  } else if (before !== undefined || after !== undefined) {
    comparison = [{ field: '—', before, after, changed: JSON.stringify(before) !== JSON.stringify(after) }];
  }
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <Descriptions size="small" column={3} items={[
        { key: 'entity', label: t('columns.entity'), children: [log.entityType, log.entityId].filter(Boolean).join(' / ') || '—' },
        { key: 'ip', label: t('columns.ip'), children: log.ip ?? '—' },
        { key: 'user', label: t('columns.userId'), children: log.userId ?? '—' },
      ]} />
      {comparison && (
        <Table
          size="small"
          rowKey="field"
          pagination={false}
          dataSource={comparison}
          columns={[
            { title: t('details.field'), dataIndex: 'field', width: 180, render: (v: string, r) => (r.changed ? <Typography.Text strong>{v}</Typography.Text> : v) },
            { title: t('details.before'), dataIndex: 'before', render: (v: unknown, r) => <Typography.Text delete={r.changed && v !== undefined} type={r.changed ? 'danger' : undefined} style={{ wordBreak: 'break-all' }}>{show(v)}</Typography.Text> },
            { title: t('details.after'), dataIndex: 'after', render: (v: unknown, r) => <Typography.Text type={r.changed ? 'success' : undefined} style={{ wordBreak: 'break-all' }}>{show(v)}</Typography.Text> },
          ]}
        />
      )}
      {Object.keys(rest).length > 0 && (
        <pre style={{ margin: 0, padding: 8, background: 'rgba(0,0,0,0.03)', borderRadius: 6, whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 320, overflow: 'auto' }}>
          {JSON.stringify(rest, null, 2)}
        </pre>
      )}
    </div>
  );
}
