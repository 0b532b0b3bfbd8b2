import { Descriptions, Table, Typography } from 'antd';
import type { TAuditLog } from '@tessera/core/contracts/audit';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../../shared/i18n/i18n.ts';
import { auditValueText, type ValueTexts } from '../audit-values.ts';
import '../i18n.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Before → after as a field-by-field comparison with field titles (changed fields marked), values
 * as a person reads them (audit-values.ts); the entry's other details as titled rows.
 */
export function AuditDetails({ log }: { log: TAuditLog }) {
  const { t, i18n } = useTranslation('audit');
  const texts = useMemo<ValueTexts>(
    () => ({
      yes: t('values.yes'),
      no: t('values.no'),
      empty: t('values.empty'),
      image: t('values.image'),
      localized: (text) => localized(text, i18n.language),
      time: (iso) => dayjs(iso).format('YYYY-MM-DD HH:mm:ss'),
      separator: i18n.language.startsWith('zh') ? '、' : ', ',
    }),
    [t, i18n.language],
  );
  // A field this screen has no title for shows its code.
  const title = (field: string) => t(`fields.${field}`, { defaultValue: field });
  // Codes the server writes as values (an operation, a sign-in failure's reason) read as words.
  const show = (v: unknown, field?: string) =>
    typeof v === 'string' && field && /^[\w ,-]+$/.test(v) && i18n.exists(`audit:valueTitles.${field}.${v}`)
      ? t(`valueTitles.${field}.${v}`)
      : auditValueText(v, texts);
  const details = log.details ?? {};
  const before = details.before as unknown;
  const after = details.after as unknown;
  const rest = Object.entries(details).filter(([k]) => k !== 'before' && k !== 'after');
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
    // What changed first (in the entry's order), then the rest.
    comparison.sort((x, y) => Number(y.changed) - Number(x.changed));
  } else if (before !== undefined || after !== undefined) {
    comparison = [{ field: '—', before, after, changed: JSON.stringify(before) !== JSON.stringify(after) }];
  }
  const entityType = log.entityType ? t(`entityTypes.${log.entityType}`, { defaultValue: log.entityType }) : null;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }} data-testid="audit-details">
      <Descriptions size="small" column={{ xs: 1, md: 3 }} items={[
        { key: 'entity', label: t('columns.entity'), children: [entityType, log.entityId].filter(Boolean).join(' / ') || '—' },
        { key: 'ip', label: t('columns.ip'), children: log.ip ?? '—' },
        { key: 'user', label: t('columns.userId'), children: log.userId ?? '—' },
      ]} />
      {comparison && (
        <Table
          size="small"
          rowKey="field"
          pagination={false}
          dataSource={comparison}
          scroll={{ x: 'max-content' }}
          columns={[
            {
              title: t('details.field'),
              dataIndex: 'field',
              width: 180,
              render: (v: string, r) => <span title={v}>{r.changed ? <Typography.Text strong>{title(v)}</Typography.Text> : title(v)}</span>,
            },
            { title: t('details.before'), dataIndex: 'before', render: (v: unknown, r) => <Typography.Text delete={r.changed && v !== undefined && v !== null} type={r.changed ? 'danger' : undefined} style={{ wordBreak: 'break-all' }}>{show(v, r.field)}</Typography.Text> },
            { title: t('details.after'), dataIndex: 'after', render: (v: unknown, r) => <Typography.Text type={r.changed ? 'success' : undefined} style={{ wordBreak: 'break-all' }}>{show(v, r.field)}</Typography.Text> },
          ]}
        />
      )}
      {rest.length > 0 && (
        <Descriptions
          size="small"
          bordered
          column={1}
          title={comparison ? t('details.more') : undefined}
          items={rest.map(([key, value]) => ({
            key,
            label: <span title={key}>{title(key)}</span>,
            children: <Typography.Text style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{show(value, key)}</Typography.Text>,
          }))}
        />
      )}
    </div>
  );
}
