import { CloseCircleFilled, SearchOutlined } from '@ant-design/icons';
import { Button, Input, Modal, Space, Table, Typography } from 'antd';
import type { TBusinessRecord, TDataControl } from '@tessera/core/page-definition';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ControlFieldProps } from './ControlField.tsx';
import type { LookupResult } from './renderer-types.ts';
import { localizedTitle } from './control-rules.ts';
import './renderer-texts.ts';

const PAGE_SIZE = 10;
const SYSTEM_COLUMNS = new Set(['Id', 'ParentViewDataId', 'DataStatus', 'isLink', 'isActivelyAddSubData', 'ConcurrencyStamp', 'CreatorId', 'CreationTime', 'LastModifierId', 'LastModificationTime', 'IsDeleted', 'OwnerOrganizationUnitId', 'FlowStatus']);

const mapFieldsOf = (control: TDataControl) => control.extraProperties?.mapFields ?? [];

/** What the field shows: the first mapped value copied into this record, else the stored id. */
export function lookupDisplay(control: TDataControl, record: TBusinessRecord): string {
  // The display field (extraProperties.dataSourceTitle, a source field code) through its mapping first.
  const display = control.extraProperties?.dataSourceTitle;
  const shown = display ? mapFieldsOf(control).find((m) => m.sourceCode === display) : undefined;
  const first = shown ? record[shown.targetCode] : undefined;
  if (shown && shown.targetCode !== control.code && first !== null && first !== undefined && first !== '') return String(first);
  for (const m of mapFieldsOf(control)) {
    const v = record[m.targetCode];
    if (m.targetCode !== control.code && v !== null && v !== undefined && v !== '') return String(v);
  }
  const own = record[control.code];
  return own === null || own === undefined ? '' : String(own);
}

/** Preview rows: five sample records carrying each mapped source field. */
export function sampleLookupRows(control: TDataControl, sampleTitle: (n: number) => string): LookupResult {
  const sources = [...new Set(mapFieldsOf(control).map((m) => m.sourceCode))];
  const items = Array.from({ length: 5 }, (_, i) => {
    const row: Record<string, unknown> = { Id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}` };
    for (const code of sources) row[code] = `${sampleTitle(i + 1)} · ${code}`;
    if (!sources.length) row.title = sampleTitle(i + 1);
    return row;
  });
  return { items, totalCount: items.length };
}

/**
 * spec §3 lookup / open-data (1010): a read-only field with a search button opening a window of
 * source rows; picking one stores its Id and copies mapFields (source → target) into the record.
 */
export function LookupField({ control, view, record, onChange, disabled, compact, status, id, services, mode }: ControlFieldProps) {
  const { t, i18n } = useTranslation('pageRenderer');
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<LookupResult | null>(null);
  const [loading, setLoading] = useState(false);
  const text = lookupDisplay(control, record);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setLoading(true);
    const query = { control, view, record, filter, skipCount: (page - 1) * PAGE_SIZE, maxResultCount: PAGE_SIZE };
    const run: Promise<LookupResult> = services?.queryLookup
      ? services.queryLookup(query)
      : Promise.resolve(mode === 'preview' ? sampleLookupRows(control, (n) => t('sampleRow', { n })) : { items: [], totalCount: 0 });
    run.then(
      (r) => live && (setResult(r), setLoading(false)),
      () => live && (setResult({ items: [], totalCount: 0 }), setLoading(false)),
    );
    return () => {
      live = false;
    };
  }, [open, filter, page]); // eslint-disable-line react-hooks/exhaustive-deps

  const columns = useMemo(() => {
    const given = result?.columns;
    const codes = given?.map((c) => c.code) ?? [...new Set([...mapFieldsOf(control).map((m) => m.sourceCode), ...Object.keys(result?.items[0] ?? {})])].filter((c) => !SYSTEM_COLUMNS.has(c));
    return codes.map((code) => ({
      key: code,
      dataIndex: code,
      title: given?.find((c) => c.code === code)?.title ?? code,
      ellipsis: true,
      render: (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)),
    }));
  }, [result, control]);

  const pick = (row: Record<string, unknown>) => {
    const extra: Record<string, unknown> = {};
    for (const m of mapFieldsOf(control)) if (m.targetCode !== control.code) extra[m.targetCode] = row[m.sourceCode] ?? null;
    onChange(row.Id === undefined || row.Id === null ? null : String(row.Id), extra);
    setOpen(false);
  };
  const clear = () => {
    const extra: Record<string, unknown> = {};
    for (const m of mapFieldsOf(control)) if (m.targetCode !== control.code) extra[m.targetCode] = null;
    onChange(null, extra);
  };
  const title = localizedTitle(control, i18n.language);

  return (
    <>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          id={id}
          readOnly
          disabled={disabled}
          status={status}
          variant={compact ? 'borderless' : undefined}
          value={text}
          placeholder={disabled ? undefined : t('lookup')}
          onClick={() => !disabled && setOpen(true)}
          suffix={text && !disabled ? <CloseCircleFilled aria-label={t('lookupClear')} style={{ color: 'rgba(0,0,0,.25)', cursor: 'pointer' }} onClick={(e) => (e.stopPropagation(), clear())} /> : <span />}
          aria-label={control.title}
        />
        <Button icon={<SearchOutlined />} disabled={disabled} onClick={() => setOpen(true)} aria-label={`${t('lookup')} ${control.title}`} />
      </Space.Compact>
      <Modal open={open} title={title} footer={null} width={720} onCancel={() => setOpen(false)} destroyOnHidden>
        <Input.Search
          allowClear
          autoFocus
          placeholder={t('lookupSearch')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(v) => (setFilter(v.trim()), setPage(1))}
          style={{ marginBottom: 8 }}
        />
        {!columns.length && !loading ? (
          <Typography.Text type="secondary">{t('lookupUnavailable')}</Typography.Text>
        ) : (
          <Table
            size="small"
            rowKey={(r) => String(r.Id ?? JSON.stringify(r))}
            loading={loading}
            columns={columns}
            dataSource={result?.items ?? []}
            locale={{ emptyText: t('lookupEmpty') }}
            onRow={(row) => ({ onClick: () => pick(row), style: { cursor: 'pointer' } })}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: result?.totalCount ?? 0, onChange: setPage, showSizeChanger: false }}
          />
        )}
      </Modal>
    </>
  );
}
