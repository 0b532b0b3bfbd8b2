import { SearchOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { ControlTypeId } from '@tessera/core/controls/registry';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterConditionRow } from '../../../shared/components/filter-builder/FilterBuilder.tsx';
import { FilterValueInput, filterValueKind, type FilterBuilderField, type LoadFilterOptions } from '../../../shared/components/filter-builder/FilterValueInput.tsx';

/** Fields shown when the designer marks none (extraProperties.quickSearch): the first few of these kinds. */
const DEFAULT_COUNT = 3;
const NOT_QUICK: readonly number[] = [ControlTypeId.UserOrgPicker, ControlTypeId.Lookup, ControlTypeId.Id, ControlTypeId.Ids, ControlTypeId.Image];

/** The page's quick-search fields: those the designer marked, else the first text, option or date fields. */
export function quickSearchFields(fields: readonly FilterBuilderField[]): FilterBuilderField[] {
  const marked = fields.filter((f) => (f.control?.extraProperties as { quickSearch?: unknown } | null | undefined)?.quickSearch === true);
  if (marked.length) return marked;
  return fields
    .filter((f) => f.control && !NOT_QUICK.includes(Number(f.control.controlType)) && ['text', 'options', 'date'].includes(filterValueKind(f)))
    .slice(0, DEFAULT_COUNT);
}

/** How a quick-search box filters: text contains, options one of, dates within a range, else equals. */
function operatorOf(field: FilterBuilderField): { code: string; arity: 'one' | 'two' | 'list' } {
  switch (filterValueKind(field)) {
    case 'text':
      return { code: 'contains', arity: 'one' };
    case 'options':
      return Number(field.control?.controlType) === ControlTypeId.MultiSelect ? { code: 'contains', arity: 'one' } : { code: 'in', arity: 'list' };
    case 'date':
      return { code: 'between', arity: 'two' };
    case 'picker':
      return { code: 'contains', arity: 'one' };
    default:
      return { code: 'eq', arity: 'one' };
  }
}

const isBlank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && (v.length === 0 || v.every((x) => x === '' || x == null)));

/**
 * The row above a list: a box per quick-search field, all of them ANDed, applied with Enter or the
 * search button. The advanced (bracket) filter stays in the filter panel.
 */
export function QuickSearch({ fields, loadOptions, onSearch }: { fields: readonly FilterBuilderField[]; loadOptions?: LoadFilterOptions; onSearch(conditions: FilterConditionRow[]): void }) {
  const { t } = useTranslation('businessData');
  const shown = useMemo(() => quickSearchFields(fields), [fields]);
  const [values, setValues] = useState<Record<string, unknown>>({});
  if (!shown.length) return null;

  const search = (next = values) =>
    onSearch(
      shown.flatMap((f) => {
        const value = next[f.code];
        if (isBlank(value)) return [];
        const op = operatorOf(f);
        return [{ key: f.code, judgmentMethod: op.code, value, linkCondition: 'and', tableFieldType: f.tableFieldType }];
      }),
    );

  return (
    <Space wrap size={[16, 8]} style={{ marginBottom: 12 }} data-testid="quick-search">
      {shown.map((f) => (
        <Space key={f.code} size={6}>
          <Typography.Text>{f.title ?? f.code}</Typography.Text>
          <FilterValueInput
            field={f}
            arity={operatorOf(f).arity}
            value={values[f.code]}
            onChange={(v) => setValues((s) => ({ ...s, [f.code]: v }))}
            loadOptions={loadOptions}
            size="middle"
            ariaLabel={f.title ?? f.code}
            onPressEnter={() => search()}
            style={{ width: filterValueKind(f) === 'text' ? 180 : filterValueKind(f) === 'options' ? 200 : undefined }}
          />
        </Space>
      ))}
      <Space size={8}>
        <Button type="primary" icon={<SearchOutlined />} onClick={() => search()}>{t('search')}</Button>
        <Button
          onClick={() => {
            setValues({});
            search({});
          }}
        >
          {t('reset')}
        </Button>
      </Space>
    </Space>
  );
}
