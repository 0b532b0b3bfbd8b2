import { ArrowRightOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Cascader, Input, Select, Space, Typography } from 'antd';
import { columnFieldType } from '@tessera/core/contracts/data-sources';
import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import { tableFieldTypeOf } from '@tessera/core/controls/registry';
import { flattenViews, type TableFieldType, type TJoinCondition, type TSourceQueryRef, type TView } from '@tessera/core/page-definition';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterBuilder, type FilterBuilderField } from '../../../../shared/components/filter-builder/FilterBuilder.tsx';
import { FormulaEditor } from '../../../../shared/components/formula-editor/FormulaEditor.tsx';
import { pickText } from '../../../../shared/components/LocalizedTextInput.tsx';
import { localizedTitle, viewTitle } from '../../../../shared/components/page-renderer/control-rules.ts';
import { usePublishedDefinition, usePublishedPages, useSourceQueries } from '../../api/designer-lookups.ts';
import { formulaReferencesFor, formulaSchemaFor } from '../formula-schema.ts';
import type { WidgetContext, WidgetProps } from './widget-types.ts';

/** System columns a lookup may read besides the source view's controls. */
const SOURCE_SYSTEM_FIELDS: FilterBuilderField[] = [
  { code: 'Id', tableFieldType: 6, title: 'Id' },
  { code: 'CreatorId', tableFieldType: 6, title: 'CreatorId' },
  { code: 'OwnerOrganizationUnitId', tableFieldType: 6, title: 'OwnerOrganizationUnitId' },
];

const extra = (ctx: WidgetContext) => (ctx.control?.extraProperties ?? {}) as Record<string, unknown>;

/** The saved query of a data source a control reads (extraProperties.sourceQuery), from the designer's catalogue. */
export function useSourceQuery(ctx: WidgetContext, key: 'sourceQuery' | 'defaultSourceQuery' = 'sourceQuery') {
  const queries = useSourceQueries();
  const ref = extra(ctx)[key] as TSourceQueryRef | null | undefined;
  const source = ref ? queries.data?.items.find((s) => s.sourceId === ref.sourceId) : undefined;
  const method = ref ? source?.methods.find((m) => m.code.toLowerCase() === ref.methodCode.toLowerCase()) : undefined;
  return { ref: ref ?? null, source, method, queries };
}

/**
 * The fields a lookup reads: a saved query's result columns (extraProperties.sourceQuery), else the
 * published view it reads from (extraProperties.dataSourcePageId + dataSourceId). `ready`: the
 * source is picked and known.
 */
export function useDataSourceView(ctx: WidgetContext): { view: TView | null; fields: FilterBuilderField[]; loading: boolean; ready: boolean } {
  const { i18n } = useTranslation();
  const query = useSourceQuery(ctx);
  const pages = usePublishedPages();
  const pageId = extra(ctx).dataSourcePageId as string | undefined;
  const viewId = extra(ctx).dataSourceId as string | undefined;
  const page = query.ref ? undefined : pages.data?.find((p) => p.id === pageId);
  const published = usePublishedDefinition(page?.id, page?.publishedVersion);
  return useMemo(() => {
    if (query.ref) {
      const fields = (query.method?.columns ?? []).map((c) => ({ code: c.name, tableFieldType: columnFieldType(c.dataType), title: c.name }));
      return { view: null, fields, loading: query.queries.isLoading, ready: Boolean(query.method) };
    }
    const view = published.data ? (flattenViews(published.data.definition).find((v) => v.view.id === viewId)?.view ?? null) : null;
    const fields: FilterBuilderField[] = view
      ? [...SOURCE_SYSTEM_FIELDS, ...view.dataControls.map((c) => ({ code: c.code, tableFieldType: tableFieldTypeOf(c.controlType) as TableFieldType, title: localizedTitle(c, i18n.language) }))]
      : [];
    return { view, fields, loading: pages.isLoading || published.isLoading, ready: view !== null };
  }, [query.ref, query.method, query.queries.isLoading, published.data, viewId, pages.isLoading, published.isLoading, i18n.language]);
}

/**
 * extraProperties.sourceQuery: a saved query of a data source the control reads instead of a page
 * view (a lookup) or its options (an option control) — the query, the column stored, the column
 * shown (option controls; a lookup shows its display field), and each parameter's fixed value or
 * `=formula` over this page.
 */
export function SourceQueryEditor({ ctx, value, onChange, setOther, id, purpose = 'feed' }: WidgetProps<TSourceQueryRef | null> & { purpose?: 'feed' | 'default' }) {
  const { t } = useTranslation('pageDesigner');
  const forDefault = purpose === 'default';
  const { source, method, queries } = useSourceQuery(ctx, forDefault ? 'defaultSourceQuery' : 'sourceQuery');
  // A default takes one column of the first row: no label column, nothing of a lookup's to reset.
  const isLookup = !forDefault && ctx.palette.raw.controlTypes.find((c) => c.code === Number(ctx.control?.controlType))?.group === 'lookup';
  const showLabel = !isLookup && !forDefault;
  const valueLabel = t(forDefault ? 'props.defaultColumn' : 'props.valueColumn');
  const columns = (method?.columns ?? []).map((c) => ({ value: c.name, label: `${c.name} · ${c.dataType}` }));
  const options = (queries.data?.items ?? [])
    .filter((s) => s.methods.length > 0)
    .map((s) => ({ value: s.sourceId, label: s.sourceName, children: s.methods.map((m) => ({ value: m.code, label: `${m.name} (${m.code})` })) }));
  const set = (patch: Partial<TSourceQueryRef>) => value && onChange({ ...value, ...patch });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={4}>
      <Cascader
        id={id}
        style={{ width: '100%' }}
        placeholder={t('props.pickSourceQuery')}
        loading={queries.isLoading}
        options={options}
        value={value ? [value.sourceId, value.methodCode] : undefined}
        allowClear
        onChange={(path) => {
          const [sourceId, methodCode] = (path ?? []) as string[];
          if (!sourceId || !methodCode) return onChange(null);
          const picked = queries.data?.items.find((s) => s.sourceId === sourceId)?.methods.find((m) => m.code === methodCode);
          const first = picked?.columns[0]?.name ?? '';
          // A query replaces the page view a lookup read from; its display field and mappings named that view's fields.
          if (isLookup) {
            setOther('extraProperties.dataSourceId', null);
            setOther('extraProperties.dataSourcePageId', null);
            if (value?.sourceId !== sourceId || value?.methodCode !== methodCode) setOther('extraProperties.dataSourceTitle', picked?.columns[1]?.name ?? first);
          }
          onChange({
            sourceId,
            methodCode,
            valueColumn: first,
            labelColumn: showLabel ? (picked?.columns[1]?.name ?? first) : null,
            parameters: (picked?.parameters ?? []).map((p) => ({ name: p.name, value: value?.parameters?.find((q) => q.name === p.name)?.value ?? '' })),
          });
        }}
        notFoundContent={<Typography.Text type="secondary">{t('props.noSourceQueries')}</Typography.Text>}
      />
      {value && (
        <>
          <Space.Compact style={{ width: '100%' }}>
            <Typography.Text style={{ width: '40%', fontSize: 12, alignSelf: 'center' }}>{valueLabel}</Typography.Text>
            <Select size="small" style={{ width: '60%' }} aria-label={valueLabel} value={value.valueColumn || undefined} status={method && !method.columns.some((c) => c.name === value.valueColumn) ? 'error' : undefined} onChange={(v: string) => set({ valueColumn: v })} options={columns} />
          </Space.Compact>
          {showLabel && (
            <Space.Compact style={{ width: '100%' }}>
              <Typography.Text style={{ width: '40%', fontSize: 12, alignSelf: 'center' }}>{t('props.labelColumn')}</Typography.Text>
              <Select size="small" style={{ width: '60%' }} aria-label={t('props.labelColumn')} value={value.labelColumn || undefined} onChange={(v: string) => set({ labelColumn: v })} options={columns} />
            </Space.Compact>
          )}
          {(method?.parameters.length ?? 0) > 0 && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('props.queryParameters')}</Typography.Text>}
          {method?.parameters.map((p) => (
            <Space.Compact key={p.name} style={{ width: '100%' }}>
              <Typography.Text code style={{ width: '40%', alignSelf: 'center' }}>:{p.name}</Typography.Text>
              <Input
                size="small"
                style={{ width: '60%' }}
                aria-label={`:${p.name}`}
                placeholder={t('props.queryParameterValue')}
                value={value.parameters?.find((q) => q.name === p.name)?.value ?? ''}
                onChange={(e) => set({ parameters: [...(value.parameters ?? []).filter((q) => q.name !== p.name), { name: p.name, value: e.target.value }] })}
              />
            </Space.Compact>
          ))}
          {!source && !queries.isLoading && <Typography.Text type="danger" style={{ fontSize: 12 }}>{t('props.noSourceQueries')}</Typography.Text>}
        </>
      )}
    </Space>
  );
}

/** spec §3 data source of a lookup: to start, a view of another published page. */
export function DataSourcePicker({ ctx, value, onChange, setOther, id }: WidgetProps<string | null>) {
  const { t, i18n } = useTranslation('pageDesigner');
  const pages = usePublishedPages();
  const pageId = extra(ctx).dataSourcePageId as string | undefined;
  const [openPage, setOpenPage] = useState<string | undefined>(pageId);
  const page = pages.data?.find((p) => p.id === (openPage ?? pageId));
  const published = usePublishedDefinition(page?.id, page?.publishedVersion);
  const views = published.data ? flattenViews(published.data.definition).map((v) => v.view).filter((v) => Number(v.viewType ?? VIEW_TYPES.form) !== VIEW_TYPES.container) : [];
  const options = (pages.data ?? []).map((p) => ({
    value: p.id,
    label: `${pickText(p.name, i18n.language)} (${p.code})`,
    isLeaf: false,
    children: p.id === page?.id ? views.map((v) => ({ value: v.id, label: `${viewTitle(v, i18n.language)} (${v.code})`, isLeaf: true })) : undefined,
  }));
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={4}>
      <Cascader
        id={id}
        style={{ width: '100%' }}
        placeholder={t('props.pickDataSource')}
        loading={pages.isLoading || published.isFetching}
        options={options}
        value={pageId && value ? [pageId, value] : undefined}
        loadData={(selected) => setOpenPage(String(selected[selected.length - 1]?.value))}
        changeOnSelect={false}
        onChange={(path) => {
          const [p, v] = (path ?? []) as string[];
          setOther('extraProperties.dataSourcePageId', p ?? null);
          if (v) setOther('extraProperties.sourceQuery', null);
          // Another source: the display field belonged to the old one.
          if (v !== value) setOther('extraProperties.dataSourceTitle', null);
          onChange(v ?? null);
        }}
        notFoundContent={<Typography.Text type="secondary">{t('props.noPublishedPages')}</Typography.Text>}
      />
      {!pages.isLoading && !pages.data?.length && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('props.noPublishedPages')}</Typography.Text>}
    </Space>
  );
}

type MapField = { sourceCode: string; targetCode: string };

/** mapFields: source field → a control of this view (the lookup's own code stores the row's Id). */
export function MapFieldsEditor({ ctx, value, onChange }: WidgetProps<MapField[] | null>) {
  const { t, i18n } = useTranslation('pageDesigner');
  const source = useDataSourceView(ctx);
  const rows = value ?? [];
  const targets = (ctx.view?.dataControls ?? []).filter((c) => c.id !== ctx.control?.id);
  const set = (i: number, patch: Partial<MapField>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={4}>
      {rows.map((r, i) => (
        <Space.Compact key={i} style={{ width: '100%' }}>
          <Select
            size="small"
            style={{ width: '45%' }}
            popupMatchSelectWidth={false}
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('props.sourceField')}
            aria-label={`${t('props.sourceField')} ${i + 1}`}
            value={r.sourceCode || undefined}
            status={r.sourceCode && source.ready && !source.fields.some((f) => f.code === r.sourceCode) ? 'error' : undefined}
            onChange={(v: string) => set(i, { sourceCode: v })}
            options={source.fields.map((f) => ({ value: f.code, label: f.title && f.title !== f.code ? `${f.title} (${f.code})` : f.code }))}
          />
          <Button size="small" disabled icon={<ArrowRightOutlined />} />
          <Select
            size="small"
            style={{ width: '45%' }}
            popupMatchSelectWidth={false}
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('props.targetControl')}
            aria-label={`${t('props.targetControl')} ${i + 1}`}
            value={r.targetCode || undefined}
            status={r.targetCode && !targets.some((c) => c.code === r.targetCode) ? 'error' : undefined}
            onChange={(v: string) => set(i, { targetCode: v })}
            options={targets.map((c) => ({ value: c.code, label: `${localizedTitle(c, i18n.language)} (${c.code})` }))}
          />
          <Button size="small" icon={<DeleteOutlined />} aria-label={t('props.remove')} onClick={() => onChange(rows.filter((_, j) => j !== i))} />
        </Space.Compact>
      ))}
      <Button size="small" type="dashed" block icon={<PlusOutlined />} onClick={() => onChange([...rows, { sourceCode: '', targetCode: '' }])}>
        {t('props.addMapping')}
      </Button>
    </Space>
  );
}

/** joinConditions: a filter over the source's fields; a value starting with `=` is a formula over this page. */
export function JoinConditionsEditor({ ctx, value, onChange }: WidgetProps<TJoinCondition[] | null>) {
  const { t } = useTranslation('pageDesigner');
  const source = useDataSourceView(ctx);
  const schema = useMemo(() => formulaSchemaFor(ctx.def, ctx.view), [ctx.def, ctx.view]);
  const references = useMemo(() => formulaReferencesFor(ctx.def, ctx.view, ctx.language), [ctx.def, ctx.view, ctx.language]);
  if (!source.ready && !source.loading) return <Typography.Text type="secondary">{t('props.pickDataSourceFirst')}</Typography.Text>;
  return (
    <FilterBuilder<TJoinCondition & { key: string }>
      fields={source.fields}
      value={(value ?? []) as (TJoinCondition & { key: string })[]}
      onChange={(next) => onChange(next.map((r) => ({ ...r, viewId: source.view?.id ?? null })))}
      isDeferredValue={(v) => typeof v === 'string' && v.startsWith('=')}
      renderValue={({ value: v, onChange: set }) => {
        const text = v === null || v === undefined ? '' : String(v);
        return text.startsWith('=') ? (
          <Space.Compact style={{ width: '100%' }}>
            <div style={{ flex: 1, minWidth: 0 }}>
              <FormulaEditor value={text.slice(1)} onChange={(f) => set(`=${f}`)} schema={schema} references={references} aria-label={t('props.joinValue')} />
            </div>
            <Button size="small" onClick={() => set('')}>{t('props.asText')}</Button>
          </Space.Compact>
        ) : (
          <Space.Compact style={{ width: '100%' }}>
            <Input size="small" value={text} onChange={(e) => set(e.target.value)} aria-label={t('props.joinValue')} />
            <Button size="small" onClick={() => set('=')}>{t('props.asFormula')}</Button>
          </Space.Compact>
        );
      }}
    />
  );
}
