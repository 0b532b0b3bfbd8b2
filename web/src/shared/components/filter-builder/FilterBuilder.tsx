import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Select, Space, Tooltip } from 'antd';
import { findFilterOperator, parseFilterConditions, type FilterOperator } from '@tessera/core/filters/index';
import type { TableFieldType } from '@tessera/core/page-definition';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './filter-texts.ts';
import { FilterValueInput, operatorsForFilterField, type FilterBuilderField, type LoadFilterOptions } from './FilterValueInput.tsx';

export type { FilterBuilderField } from './FilterValueInput.tsx';

/** A flat filter / join condition row (spec §3); extra properties are kept as they are. */
export interface FilterConditionRow {
  key: string;
  judgmentMethod?: string | number | null;
  value?: unknown;
  leftBracket?: string | number | null;
  rightBracket?: string | number | null;
  linkCondition?: string | number | null;
  tableFieldType?: number | null;
  [extra: string]: unknown;
}

export interface FilterBuilderProps<T extends FilterConditionRow> {
  fields: FilterBuilderField[];
  value?: T[] | null;
  onChange?(next: T[]): void;
  /** Custom value editor (e.g. a formula editor for join conditions); the default follows the field (FilterValueInput). */
  renderValue?(props: { value: unknown; onChange(v: unknown): void; field: FilterBuilderField | undefined; disabled: boolean }): ReactNode;
  /** Values the structure check should not type-check (formulas evaluated later). */
  isDeferredValue?(value: unknown): boolean;
  disabled?: boolean;
  /** Options of dictionary / query-bound fields for the default value editor. */
  loadOptions?: LoadFilterOptions;
}

/** The value a condition starts with (and falls back to when its field or operator changes). */
const emptyValue = (op: FilterOperator | undefined) => (op?.arity === 'list' ? [] : '');

const SAMPLE: Record<TableFieldType, unknown> = { 1: 'x', 2: 1, 3: 1, 4: '2000-01-01', 5: true, 6: 'x' };

/**
 * Edits a flat condition list — brackets, field, operator allowed for the field's type (core
 * operator table), value, AND/OR — and shows the core parser's first problem (unbalanced brackets,
 * a value that does not fit the field).
 */
export function FilterBuilder<T extends FilterConditionRow>({ fields, value, onChange, renderValue, isDeferredValue, disabled = false, loadOptions }: FilterBuilderProps<T>) {
  const { t, i18n } = useTranslation('filterBuilder');
  const rows = value ?? [];
  const byCode = useMemo(() => new Map(fields.map((f) => [f.code, f])), [fields]);
  const set = (i: number, patch: Partial<FilterConditionRow>) => onChange?.(rows.map((r, j) => (j === i ? ({ ...r, ...patch } as T) : r)));
  const move = (i: number, d: -1 | 1) => {
    const j = i + d;
    if (j < 0 || j >= rows.length) return;
    const next = [...rows];
    [next[i], next[j]] = [next[j]!, next[i]!];
    onChange?.(next);
  };
  const add = () => {
    const first = fields[0];
    const op = first ? operatorsForFilterField(first)[0] : undefined;
    onChange?.([
      ...rows,
      { key: first?.code ?? '', judgmentMethod: op?.code ?? 'eq', value: emptyValue(op), leftBracket: '', rightBracket: '', linkCondition: 'and', tableFieldType: first?.tableFieldType ?? 1 } as T,
    ]);
  };

  const problem = useMemo(() => {
    if (!rows.length) return null;
    const checked = rows.map((r) => {
      const field = byCode.get(r.key);
      return isDeferredValue?.(r.value) && field ? { ...r, value: SAMPLE[field.tableFieldType] } : r;
    });
    const result = parseFilterConditions(checked, fields, { now: new Date() });
    return result.ok ? null : (result.errors[0]?.message ?? null);
  }, [rows, fields, byCode, isDeferredValue]);

  const label = (op: { zh: string; en: string }) => (i18n.language.startsWith('zh') ? op.zh : op.en);

  return (
    <div className="tessera-filter-builder">
      {rows.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} style={{ margin: '8px 0' }} />}
      {rows.map((row, i) => {
        const field = byCode.get(row.key);
        const ops = field ? operatorsForFilterField(field) : [];
        const op = findFilterOperator(row.judgmentMethod);
        const valueDisabled = disabled || op?.arity === 'none' || op?.arity === 'shortcut';
        return (
          <div key={i} style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 6, marginBottom: 6 }} data-testid="filter-row">
            <Space wrap size={4}>
              {i > 0 && (
                <Select
                  size="small"
                  style={{ width: 76 }}
                  disabled={disabled}
                  aria-label={t('link')}
                  value={String(row.linkCondition ?? 'and').toLowerCase() === 'or' ? 'or' : 'and'}
                  onChange={(v) => set(i, { linkCondition: v })}
                  options={[
                    { value: 'and', label: t('and') },
                    { value: 'or', label: t('or') },
                  ]}
                />
              )}
              <Select size="small" style={{ width: 56 }} disabled={disabled} aria-label="(" value={String(row.leftBracket ?? '')} onChange={(v) => set(i, { leftBracket: v })} options={['', '(', '(('].map((b) => ({ value: b, label: b || '—' }))} />
              <Select
                size="small"
                style={{ width: 150 }}
                disabled={disabled}
                showSearch={{ optionFilterProp: 'label' }}
                aria-label={t('field')}
                placeholder={t('field')}
                value={row.key || undefined}
                status={row.key && !field ? 'error' : undefined}
                onChange={(code: string) => {
                  // A value means something only for its field: a new field starts empty, and keeps
                  // the operator only when it offers it.
                  const f = byCode.get(code);
                  const keep = f && op && operatorsForFilterField(f).some((o) => o.code === op.code);
                  const nextOp = keep ? op : f ? operatorsForFilterField(f)[0] : undefined;
                  set(i, { key: code, tableFieldType: f?.tableFieldType ?? null, judgmentMethod: nextOp?.code ?? 'eq', value: emptyValue(nextOp) });
                }}
                options={fields.map((f) => ({ value: f.code, label: f.title ? `${f.title} (${f.code})` : f.code }))}
              />
              <Select
                size="small"
                style={{ width: 120 }}
                disabled={disabled || !field}
                aria-label={t('operator')}
                value={op?.code}
                onChange={(v) => {
                  const next = findFilterOperator(v);
                  // A value of another shape (one / two / several) does not carry over.
                  set(i, next?.arity === op?.arity ? { judgmentMethod: v } : { judgmentMethod: v, value: emptyValue(next) });
                }}
                options={ops.map((o) => ({ value: o.code, label: label(o) }))}
              />
              <Select size="small" style={{ width: 56 }} disabled={disabled} aria-label=")" value={String(row.rightBracket ?? '')} onChange={(v) => set(i, { rightBracket: v })} options={['', ')', '))'].map((b) => ({ value: b, label: b || '—' }))} />
              <Tooltip title={t('remove')}>
                <Button size="small" type="text" danger icon={<DeleteOutlined />} disabled={disabled} aria-label={t('remove')} onClick={() => onChange?.(rows.filter((_, j) => j !== i))} />
              </Tooltip>
              <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={disabled || i === 0} aria-label="up" onClick={() => move(i, -1)} />
              <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={disabled || i === rows.length - 1} aria-label="down" onClick={() => move(i, 1)} />
            </Space>
            {!valueDisabled && (
              <div style={{ marginTop: 4 }}>
                {renderValue ? (
                  renderValue({ value: row.value, onChange: (v) => set(i, { value: v }), field, disabled: valueDisabled })
                ) : (
                  <FilterValueInput field={field} arity={op?.arity ?? 'one'} value={row.value} onChange={(v) => set(i, { value: v })} loadOptions={loadOptions} />
                )}
              </div>
            )}
          </div>
        );
      })}
      {problem && <Alert type="warning" showIcon message={problem} style={{ marginBottom: 6 }} />}
      <Button size="small" type="dashed" icon={<PlusOutlined />} disabled={disabled || !fields.length} onClick={add} block>
        {t('add')}
      </Button>
    </div>
  );
}
