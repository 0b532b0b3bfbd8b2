import { DeleteOutlined, DownloadOutlined, FilterOutlined, PlusOutlined, SaveOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Grid, Checkbox, Dropdown, Input, Modal, Popover, Progress, Space, Spin, Table, Tag, Tooltip, Typography, Upload } from 'antd';
import type { TableProps } from 'antd';
import { LIST_SYSTEM_COLUMNS, type TPageRuntime, type TQueryViewDataResult, type TViewPreferences } from '@tessera/core/contracts/business-data';
import { ControlTypeId, formatControlValue, tableFieldTypeOf } from '@tessera/core/controls/registry';
import { andFilterLists } from '@tessera/core/filters/index';
import type { TBusinessRecord, TDataControl, TPageDefinition } from '@tessera/core/page-definition';
import dayjs from 'dayjs';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import type { FilterConditionRow } from '../../../shared/components/filter-builder/FilterBuilder.tsx';
import {
  businessDataKeys,
  deleteRecords,
  download,
  importViewData,
  LIST_PAGE_SIZE,
  putPreferences,
  useFilterOptionsLoader,
  usePreferences,
  useViewData,
} from '../api/business-data.ts';
import { StoredFiles } from '../../../shared/components/page-renderer/StoredFiles.tsx';
import { summaryRow } from '../../../shared/components/page-renderer/summary.tsx';
import { QuickSearch } from './QuickSearch.tsx';
import { RecordCards } from './RecordCards.tsx';
import { ResizableHeader } from './ResizableHeader.tsx';
import { controlTitle, findView, viewsBelow } from './view-helpers.ts';
import { viewTitle } from '../../../shared/components/page-renderer/control-rules.ts';
import { FlowStatusTag, useFlowStatusOptions } from '../../../shared/components/FlowStatusTag.tsx';
import { recordListExtras } from '../../../shared/components/record-extras.ts';

// The filter panel (with its formula-capable value editors) loads when it is opened.
const FilterBuilder = lazy(() => import('../../../shared/components/filter-builder/FilterBuilder.tsx').then((m) => ({ default: m.FilterBuilder })));


interface Preferences {
  hiddenColumns?: string[];
  /** System columns (created / modified by and at) shown beside the design's fields; none by default. */
  systemColumns?: string[];
  /** Column widths by control code (dragged in the header). */
  widths?: Record<string, number>;
  filters?: { name: string; conditions: FilterConditionRow[] }[];
}

function lookupTitle(control: TDataControl, row: TBusinessRecord): string | null {
  if (Number(control.controlType) !== ControlTypeId.Lookup) return null;
  const extra = control.extraProperties;
  const map = extra?.mapFields?.find((m) => m.sourceCode === extra.dataSourceTitle && m.targetCode !== control.code);
  const text = map ? row[map.targetCode] : null;
  return typeof text === 'string' && text ? text : null;
}

/**
 * What a person reads for a value of a labelled field (the list answer's labels, in the caller's
 * language); null when the field has no labels or a lookup's row is not one the caller may see.
 */
function labelled(labels: Record<string, string> | undefined, value: unknown): string | null {
  if (!labels) return null;
  const values = Array.isArray(value) ? value.map(String) : value === null || value === undefined || value === '' ? [] : [String(value)];
  const texts = values.map((v) => labels[v] ?? v);
  return texts.some((text, i) => text !== values[i]) || values.length === 0 ? texts.join(', ') : null;
}

/** The master view's list: filter panel, sortable columns, paging (100), selection, batch delete, Excel. */
/** `onOpen(id, view)`: open a record to read (`view`) or to edit. */
export function RecordList({ runtime, definition, onOpen, onNew }: { runtime: TPageRuntime; definition: TPageDefinition; onOpen(id: string, view: boolean): void; onNew(): void }) {
  const { t, i18n } = useTranslation('businessData');
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const view = findView(definition, runtime.masterViewId)!;
  const controls = useMemo(() => view.dataControls.filter((c) => runtime.fields[c.code]?.view !== false && c.isDisplayed !== false), [view, runtime]);
  const prefs = usePreferences(runtime.pageId, view.id);
  const preferences = (prefs.data?.value ?? {}) as Preferences;
  const [draft, setDraft] = useState<FilterConditionRow[]>([]);
  const [applied, setApplied] = useState<FilterConditionRow[]>([]);
  // The quick-search row's conditions; both it and the advanced filter must hold.
  const [quick, setQuick] = useState<FilterConditionRow[]>([]);
  const conditions = useMemo(() => andFilterLists(quick, applied), [quick, applied]);
  const loadOptions = useFilterOptionsLoader(runtime.pageId);
  const [showFilter, setShowFilter] = useState(false);
  const [sorting, setSorting] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  // Rows are selected to delete them, or for what other modules do with a selection (printing).
  const selectable = runtime.actions.delete || recordListExtras().length > 0;
  const [importing, setImporting] = useState(false);
  const [progress, setProgress] = useState(0);

  const shownSystem = new Set(preferences.systemColumns ?? []);
  const namesOfUsers = LIST_SYSTEM_COLUMNS.some((c) => c.kind === 'user' && shownSystem.has(c.code));
  const query = { pageId: runtime.pageId, viewId: view.id, filterConditions: conditions, Sorting: sorting, SkipCount: (page - 1) * LIST_PAGE_SIZE, MaxResultCount: LIST_PAGE_SIZE, ...(namesOfUsers ? { namesOfUsers } : {}) };
  // A phone reads the list as cards (infinite scroll); wider screens get the table.
  const phone = Grid.useBreakpoint().md === false;
  const data = useViewData(query, !phone);
  const locale = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const offset = -new Date().getTimezoneOffset();
  const hidden = new Set(preferences.hiddenColumns ?? []);
  const flowStatusOptions = useFlowStatusOptions();
  // The approval status shows by default once a record of the page went into a flow (until the
  // user chooses the system columns).
  const flowSeen = (data.data?.items ?? []).some((r) => Number(r.FlowStatus ?? 0) !== 0);
  const visibleSystem = preferences.systemColumns ? shownSystem : new Set<string>(flowSeen ? ['FlowStatus'] : []);

  // Shown at once (a column ticked on a slow line answers the click), then saved and read back.
  const savePrefs = async (next: Preferences) => {
    const key = businessDataKeys.preferences(runtime.pageId, view.id);
    client.setQueryData<TViewPreferences>(key, { value: next as Record<string, unknown> });
    try {
      await putPreferences(runtime.pageId, view.id, next as Record<string, unknown>);
    } finally {
      await client.invalidateQueries({ queryKey: key });
    }
  };
  const refresh = () => client.invalidateQueries({ queryKey: businessDataKeys.list(runtime.pageId) });

  const remove = (ids: string[]) =>
    modal.confirm({
      title: ids.length === 1 ? t('confirmDelete') : t('confirmBatchDelete', { count: ids.length }),
      okButtonProps: { danger: true },
      onOk: async () => {
        await deleteRecords(runtime.pageId, ids);
        setSelected([]);
        message.success(t('deleted'));
        await refresh();
      },
    });

  // Options, dictionaries and lookups show the labels the server answered beside the values.
  const cellText = (c: TDataControl, row: TBusinessRecord, answer: TQueryViewDataResult | undefined) =>
    labelled(answer?.labels?.[c.code], row[c.code]) ?? lookupTitle(c, row) ?? formatControlValue(c, row[c.code], { locale, offsetMinutes: offset });

  const columns: TableProps<TBusinessRecord>['columns'] = [
    ...controls
      .filter((c) => !hidden.has(c.code))
      .map((c: TDataControl) => ({
        key: c.code,
        dataIndex: c.code,
        title: controlTitle(c, i18n.language),
        sorter: true,
        ellipsis: true,
        // Numbers line up by their digits.
        align: tableFieldTypeOf(c.controlType) === 2 || tableFieldTypeOf(c.controlType) === 3 ? ('right' as const) : undefined,
        width: preferences.widths?.[c.code] ?? (tableFieldTypeOf(c.controlType) === 1 ? 180 : 130),
        onHeaderCell: () =>
          ({
            width: preferences.widths?.[c.code] ?? (tableFieldTypeOf(c.controlType) === 1 ? 180 : 130),
            onResize: (width: number) => void savePrefs({ ...preferences, widths: { ...preferences.widths, [c.code]: Math.round(width) } }),
          }) as React.HTMLAttributes<HTMLElement>,
        sortOrder: sorting?.startsWith(`${c.code} `) ? (sorting.endsWith('desc') ? ('descend' as const) : ('ascend' as const)) : null,
        render: (value: unknown, row: TBusinessRecord) => {
          const type = Number(c.controlType);
          if (type === ControlTypeId.Attachment || type === ControlTypeId.Image) return <StoredFiles value={value} image={type === ControlTypeId.Image} size={28} />;
          return cellText(c, row, data.data);
        },
      })),
    ...LIST_SYSTEM_COLUMNS.filter((c) => visibleSystem.has(c.code)).map(({ code, kind }) => ({
      key: code,
      dataIndex: code,
      title: t(`system.${code}`),
      // The server sorts by the times; the users are named from the answer's labels.
      sorter: kind === 'time',
      sortOrder: kind === 'time' && sorting?.startsWith(`${code} `) ? (sorting.endsWith('desc') ? ('descend' as const) : ('ascend' as const)) : null,
      width: kind === 'status' ? 110 : 170,
      render: (value: unknown) =>
        kind === 'status' ? (
          <FlowStatusTag value={value} />
        ) : kind === 'user' ? (
          labelled(data.data?.labels?.[code], value) ?? ''
        ) : typeof value === 'string' && value ? (
          dayjs(value).format('YYYY-MM-DD HH:mm:ss')
        ) : (
          ''
        ),
    })),
    {
      key: '__actions',
      title: t('operations'),
      fixed: 'right' as const,
      width: 170,
      render: (_: unknown, row: TBusinessRecord) => (
        <Space size={4}>
          {/* Every row can be read; edit and delete follow the caller's permissions. */}
          <Button type="link" size="small" onClick={() => onOpen(row.Id, true)}>{t('view')}</Button>
          {runtime.actions.edit && <Button type="link" size="small" onClick={() => onOpen(row.Id, false)}>{t('edit')}</Button>}
          {runtime.actions.delete && <Button type="link" size="small" danger onClick={() => remove([row.Id])}>{t('delete')}</Button>}
        </Space>
      ),
    },
  ];

  // The design's fields (typed value widgets), the system columns (who and when), and the fields of
  // the views below ("orders having a line with …").
  const filterFields = useMemo(() => {
    const field = (c: TDataControl, code: string, title: string) => ({ code, title, tableFieldType: tableFieldTypeOf(c.controlType), control: c, pickerContext: { pageId: runtime.pageId, dataControlId: c.id } });
    const below = viewsBelow(definition, view.id).flatMap((v) =>
      v.dataControls
        .filter((c) => runtime.fields[c.code]?.view !== false && c.isDisplayed !== false)
        .map((c) => field(c, `${v.code}.${c.code}`, t('belowField', { view: viewTitle(v, i18n.language), field: controlTitle(c, i18n.language) }))),
    );
    return [
      ...controls.map((c) => field(c, c.code, controlTitle(c, i18n.language))),
      ...LIST_SYSTEM_COLUMNS.map(({ code, kind }) =>
        kind === 'status'
          ? { code, title: t(`system.${code}`), tableFieldType: 2 as const, options: flowStatusOptions }
          : { code, title: t(`system.${code}`), tableFieldType: kind === 'time' ? (4 as const) : (1 as const) },
      ),
      ...below,
    ];
  }, [controls, definition, view.id, runtime, i18n.language, t]);
  const apply = (conditions: FilterConditionRow[]) => {
    setApplied(conditions);
    setPage(1);
  };

  const doImport = async (file: File) => {
    setImporting(true);
    setProgress(0);
    try {
      const result = await importViewData(runtime.pageId, view.id, file, setProgress);
      message.success(t('imported', { count: result.imported }));
      await refresh();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const errors = ((err.body as { error?: { details?: { errors?: { sheet?: string | null; row: number; column: string | null; message: string }[] } } })?.error?.details?.errors) ?? [];
      modal.error({
        title: t('importFailed'),
        width: 640,
        content: errors.length ? (
          <ul style={{ maxHeight: 320, overflow: 'auto', paddingLeft: 18 }}>
            {errors.slice(0, 200).map((e, i) => (
              <li key={i}>{e.sheet ? `${e.sheet} · ` : ''}{t('row', { row: e.row })}{e.column ? ` · ${e.column}` : ''}: {e.message}</li>
            ))}
          </ul>
        ) : err.message,
      });
    } finally {
      setImporting(false);
    }
    return false;
  };

  const total = data.data?.totalCount ?? 0;
  return (
    <Card
      title={runtime.title[i18n.language] ?? runtime.title['zh-CN'] ?? runtime.pageCode}
      extra={
        <Space wrap>
          {runtime.actions.add && <Button type="primary" icon={<PlusOutlined />} onClick={onNew}>{t('add')}</Button>}
          {runtime.actions.delete && (
            <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={() => remove(selected)}>{t('batchDelete')}</Button>
          )}
          <Button icon={<FilterOutlined />} onClick={() => setShowFilter((s) => !s)} type={applied.length ? 'primary' : 'default'} ghost={applied.length > 0}>
            {t('filter')}{applied.length ? ` (${applied.length})` : ''}
          </Button>
          {runtime.actions.export && (
            <Button
              icon={<DownloadOutlined />}
              onClick={() => {
                message.info(t('exportStarted'));
                download('export-view-data', { method: 'POST', body: { pageId: runtime.pageId, viewId: view.id, filterConditions: conditions, Sorting: sorting } }, `${runtime.pageCode}.xlsx`).catch((e: Error) => message.error(e.message));
              }}
            >
              {t('export')}
            </Button>
          )}
          {runtime.actions.import && (
            <Dropdown.Button
              menu={{ items: [{ key: 'template', label: t('template') }], onClick: () => download('import-template', { method: 'GET', query: { pageId: runtime.pageId, viewId: view.id } }, `${runtime.pageCode}-template.xlsx`).catch((e: Error) => message.error(e.message)) }}
              loading={importing}
            >
              <Upload accept=".xlsx" showUploadList={false} beforeUpload={(file) => {
                void doImport(file);
                return false;
              }}>
                <span><UploadOutlined /> {importing ? t('importing') : t('import')}</span>
              </Upload>
            </Dropdown.Button>
          )}
          {recordListExtras().map((Extra, i) => (
            <Suspense key={i} fallback={null}>
              <Extra pageId={runtime.pageId} selectedIds={selected} />
            </Suspense>
          ))}
          <Popover
            trigger="click"
            title={t('columns')}
            content={
              <Checkbox.Group
                style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
                value={[...controls.filter((c) => !hidden.has(c.code)).map((c) => c.code), ...visibleSystem]}
                options={[
                  ...controls.map((c) => ({ value: c.code, label: controlTitle(c, i18n.language) })),
                  ...LIST_SYSTEM_COLUMNS.map(({ code }) => ({ value: code, label: t(`system.${code}`) })),
                ]}
                onChange={(shown) =>
                  void savePrefs({
                    ...preferences,
                    hiddenColumns: controls.map((c) => c.code).filter((code) => !shown.includes(code)),
                    systemColumns: LIST_SYSTEM_COLUMNS.map((c) => c.code).filter((code) => shown.includes(code)),
                  })
                }
              />
            }
          >
            <Tooltip title={t('columns')}><Button icon={<SettingOutlined />} aria-label={t('columns')} /></Tooltip>
          </Popover>
        </Space>
      }
    >
      <QuickSearch fields={filterFields} loadOptions={loadOptions} onSearch={(next) => { setQuick(next); setPage(1); }} />
      {showFilter && (
        <div style={{ marginBottom: 12 }} data-testid="filter-panel">
          {(preferences.filters?.length ?? 0) > 0 && (
            <Space wrap style={{ marginBottom: 8 }}>
              <Typography.Text type="secondary">{t('savedFilters')}:</Typography.Text>
              {preferences.filters!.map((f) => (
                <Tag
                  key={f.name}
                  closable
                  style={{ cursor: 'pointer' }}
                  onClick={() => {
                    setDraft(f.conditions);
                    apply(f.conditions);
                  }}
                  onClose={(e) => {
                    e.preventDefault();
                    void savePrefs({ ...preferences, filters: preferences.filters!.filter((x) => x.name !== f.name) });
                  }}
                >
                  {f.name}
                </Tag>
              ))}
            </Space>
          )}
          <Suspense fallback={<Spin size="small" />}>
            <FilterBuilder fields={filterFields} value={draft} onChange={setDraft} loadOptions={loadOptions} />
          </Suspense>
          <Space style={{ marginTop: 8 }}>
            <Button type="primary" onClick={() => apply(draft)}>{t('search')}</Button>
            <Button onClick={() => { setDraft([]); apply([]); }}>{t('reset')}</Button>
            <Button
              icon={<SaveOutlined />}
              disabled={draft.length === 0}
              onClick={() => {
                let name = '';
                modal.confirm({
                  title: t('saveFilter'),
                  content: <Input autoFocus placeholder={t('filterName')} onChange={(e) => (name = e.target.value)} />,
                  onOk: () => (name.trim() ? savePrefs({ ...preferences, filters: [...(preferences.filters ?? []).filter((f) => f.name !== name.trim()), { name: name.trim(), conditions: draft }] }) : undefined),
                });
              }}
            >
              {t('saveFilter')}
            </Button>
          </Space>
        </div>
      )}
      {data.error instanceof ApiError && <Typography.Text type="danger">{data.error.message}</Typography.Text>}
      {phone ? (
        <RecordCards
          query={{ pageId: runtime.pageId, viewId: view.id, filterConditions: conditions, Sorting: sorting }}
          controls={controls.filter((c) => !hidden.has(c.code))}
          text={cellText}
          canEdit={runtime.actions.edit}
          canDelete={runtime.actions.delete}
          onOpen={onOpen}
          onDelete={(id) => remove([id])}
        />
      ) : (
      <Table<TBusinessRecord>
        rowKey="Id"
        size="small"
        components={{ header: { cell: ResizableHeader } }}
        loading={data.isFetching}
        dataSource={(data.data?.items ?? []) as TBusinessRecord[]}
        columns={columns}
        scroll={{ x: 'max-content', y: 'calc(100vh - 360px)' }}
        locale={{ emptyText: t('empty') }}
        rowSelection={selectable ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) } : undefined}
        summary={
          data.data?.summary
            ? () =>
                summaryRow({
                  leading: selectable ? 1 : 0,
                  columns: [...controls.filter((c) => !hidden.has(c.code)), ...LIST_SYSTEM_COLUMNS.filter((c) => visibleSystem.has(c.code)).map(() => null), null],
                  totals: (c) => data.data?.summary?.[c.code] ?? null,
                  t,
                  language: i18n.language,
                })
            : undefined
        }
        onRow={(row) => ({ onDoubleClick: () => onOpen(row.Id, !runtime.actions.edit) })}
        onChange={(_p, _f, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          setSorting(s?.order && s.columnKey ? `${String(s.columnKey)} ${s.order === 'descend' ? 'desc' : 'asc'}` : undefined);
          setPage(1);
        }}
        pagination={{
          current: page,
          pageSize: LIST_PAGE_SIZE,
          total,
          showSizeChanger: false,
          onChange: setPage,
          showTotal: () => (data.data?.totalCountIsEstimate ? t('totalEstimate', { total }) : t('total', { total })),
        }}
      />
      )}
      {selected.length > 0 && <Typography.Text type="secondary">{t('selected', { count: selected.length })}</Typography.Text>}
      <Modal open={importing} title={t('importing')} footer={null} closable={false} maskClosable={false}>
        {/* The upload's own progress; at 100% the server is validating and writing every row. */}
        <Progress percent={progress} status="active" />
        {progress >= 100 && <Typography.Text type="secondary">{t('importValidating')}</Typography.Text>}
      </Modal>
    </Card>
  );
}

