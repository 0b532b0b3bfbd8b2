import { DatePicker, Input, InputNumber, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { ControlTypeId, pickerSelectionType } from '@tessera/core/controls/registry';
import { operatorsForFieldType, type FilterField, type FilterOperator } from '@tessera/core/filters/index';
import type { OperandArity } from '@tessera/core/filters/operators';
import type { TDataControl } from '@tessera/core/page-definition';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { staticOptions } from '../page-renderer/ControlField.tsx';
import { SelectionItemPicker, type SelectionContext } from '../SelectionItemPicker.tsx';
import type { OptionItem } from '../page-renderer/renderer-types.ts';
import './filter-texts.ts';

/** A field a filter may use, with what a person needs to pick its values. */
export interface FilterBuilderField extends FilterField {
  title?: string;
  /** The data control behind the field: its type, options and dateType choose the value widget. */
  control?: TDataControl;
  /** Known options (value → label); a field with options gets a select of their labels. */
  options?: OptionItem[];
  /** Where a user / organisation picker field is (the server answers the items its page may show). */
  pickerContext?: SelectionContext;
}

/** Loads the options of a field bound to a dictionary or a query (the form's drop-down API). */
export type LoadFilterOptions = (field: FilterBuilderField) => Promise<OptionItem[]>;

export type FilterValueKind = 'text' | 'number' | 'date' | 'boolean' | 'options' | 'picker';

const OPTION_TYPES: readonly number[] = [ControlTypeId.SingleChoice, ControlTypeId.SingleChoiceAlt, ControlTypeId.MultiSelect];

/** Which widget edits a field's filter value: the control's type first, else the table field type. */
export function filterValueKind(field: FilterBuilderField | undefined): FilterValueKind {
  if (!field) return 'text';
  if (field.options) return 'options';
  const control = field.control;
  if (control && OPTION_TYPES.includes(Number(control.controlType)) && control.options != null) return 'options';
  if (control && Number(control.controlType) === ControlTypeId.UserOrgPicker) return 'picker';
  switch (field.tableFieldType) {
    case 2:
    case 3:
      return 'number';
    case 4:
      return 'date';
    case 5:
      return 'boolean';
    default:
      return 'text';
  }
}

/** spec §3 dateType: 1 month, 2 date, 3 date and time. */
const dateTypeOf = (field: FilterBuilderField): 1 | 2 | 3 => {
  const t = Number(field.control?.extraProperties?.dateType ?? 2);
  return t === 1 || t === 3 ? t : 2;
};

function useFieldOptions(field: FilterBuilderField | undefined, enabled: boolean, load: LoadFilterOptions | undefined): OptionItem[] {
  const fixed = field?.options ?? (field?.control ? staticOptions(field.control) : null);
  const [loaded, setLoaded] = useState<OptionItem[] | null>(null);
  const needsLoad = enabled && !fixed && Boolean(field?.control) && typeof load === 'function';
  useEffect(() => {
    setLoaded(null);
    if (!needsLoad || !field) return;
    let live = true;
    load!(field).then(
      (items) => live && setLoaded(items),
      () => live && setLoaded([]),
    );
    return () => {
      live = false;
    };
  }, [needsLoad, field?.code, field?.control?.id]); // eslint-disable-line react-hooks/exhaustive-deps
  return fixed ?? loaded ?? [];
}

const asList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' && value.trim() ? value.split(/[,，]/).map((s) => s.trim()).filter(Boolean) : value == null || value === '' ? [] : [String(value)];
const asPair = (value: unknown): [unknown, unknown] => (Array.isArray(value) ? [value[0], value[1]] : [undefined, undefined]);
const asDay = (value: unknown): Dayjs | null => {
  if (typeof value !== 'string' || !value) return null;
  const d = dayjs(value);
  return d.isValid() ? d : null;
};
const asNumber = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

export interface FilterValueInputProps {
  field: FilterBuilderField | undefined;
  /** The operator's operand count: `one`, `two` (between) or `list` (in / not in). */
  arity: OperandArity;
  value: unknown;
  /**
   * Emits what the server's filter parser reads: a scalar for `one`, a pair for `two`, a list for
   * `list`; dates as ISO text (date-only for date fields, read in the caller's zone; an instant
   * for date-and-time fields), booleans as true/false, '' when nothing is chosen.
   */
  onChange(value: unknown): void;
  loadOptions?: LoadFilterOptions;
  size?: 'small' | 'middle';
  ariaLabel?: string;
  disabled?: boolean;
  /** Enter in a text or number box (the quick-search row applies on Enter). */
  onPressEnter?(): void;
  style?: React.CSSProperties;
}

/**
 * The value of one filter condition, edited the way the field is filled in: a select of labels for
 * dictionary and option fields (several for in / not in), a date or range picker following the
 * control's dateType, a yes/no select, a number box, a text box.
 */
export function FilterValueInput({ field, arity, value, onChange, loadOptions, size = 'small', ariaLabel, disabled, onPressEnter, style }: FilterValueInputProps) {
  const { t } = useTranslation('filterBuilder');
  const kind = filterValueKind(field);
  const options = useFieldOptions(field, kind === 'options', loadOptions);
  const label = ariaLabel ?? t('value');
  const common = { size, disabled, 'aria-label': label };
  const width = style?.width ?? '100%';

  if (kind === 'picker' && arity === 'one') {
    // The field holds its items as JSON text; a condition names one of them by its id.
    return (
      <SelectionItemPicker
        type={pickerSelectionType(field!.control!)}
        context={field!.pickerContext}
        disabled={disabled}
        allowClear
        value={typeof value === 'string' && value ? value : null}
        onChange={(id) => onChange(id ?? '')}
        style={{ ...style, width, minWidth: 180 }}
        aria-label={label}
      />
    );
  }

  if (kind === 'options' || (arity === 'list' && kind !== 'date' && kind !== 'boolean')) {
    const list = arity === 'list';
    const selected = list ? asList(value) : value === '' || value == null ? undefined : String(value);
    return (
      <Select
        {...common}
        style={{ ...style, width, minWidth: 160 }}
        mode={list ? (kind === 'options' ? 'multiple' : 'tags') : undefined}
        tokenSeparators={list && kind !== 'options' ? [',', '，'] : undefined}
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={list ? t(kind === 'options' ? 'pickSeveral' : 'typeSeveral') : t('pick')}
        value={selected}
        options={kind === 'options' ? options : []}
        notFoundContent={kind === 'options' ? undefined : null}
        open={kind === 'options' ? undefined : false}
        onChange={(v: string | string[] | undefined) => onChange(v ?? (list ? [] : ''))}
        maxTagCount="responsive"
      />
    );
  }

  if (kind === 'boolean') {
    return (
      <Select
        {...common}
        style={{ ...style, width, minWidth: 100 }}
        allowClear
        placeholder={t('pick')}
        value={value === true || value === 'true' ? 'true' : value === false || value === 'false' ? 'false' : undefined}
        options={[
          { value: 'true', label: t('yes') },
          { value: 'false', label: t('no') },
        ]}
        onChange={(v: string | undefined) => onChange(v === 'true' ? true : v === 'false' ? false : '')}
      />
    );
  }

  if (kind === 'date') {
    const dateType = dateTypeOf(field!);
    const picker = dateType === 1 ? ('month' as const) : ('date' as const);
    const format = dateType === 1 ? 'YYYY-MM' : dateType === 3 ? 'YYYY-MM-DD HH:mm' : 'YYYY-MM-DD';
    // A month is its first day; the end of a month range is its last day (date-only ends are inclusive).
    const encode = (d: Dayjs, end: boolean) =>
      dateType === 3 ? d.toISOString() : dateType === 1 ? (end ? d.endOf('month') : d.startOf('month')).format('YYYY-MM-DD') : d.format('YYYY-MM-DD');
    if (arity === 'two') {
      const [from, to] = asPair(value);
      return (
        <DatePicker.RangePicker
          {...common}
          style={{ ...style, width: style?.width ?? (dateType === 3 ? 340 : 250) }}
          picker={picker}
          showTime={dateType === 3 ? { format: 'HH:mm' } : undefined}
          format={format}
          value={[asDay(from), asDay(to)]}
          allowEmpty={[false, false]}
          onChange={(range) => onChange(range?.[0] && range[1] ? [encode(range[0], false), encode(range[1], true)] : '')}
          aria-label={label}
        />
      );
    }
    return (
      <DatePicker
        {...common}
        style={{ ...style, width: style?.width ?? (dateType === 3 ? 190 : 150) }}
        picker={picker}
        showTime={dateType === 3 ? { format: 'HH:mm' } : undefined}
        format={format}
        value={asDay(value)}
        onChange={(d: Dayjs | null) => onChange(d ? encode(d, false) : '')}
        placeholder={t('pickDate')}
      />
    );
  }

  if (kind === 'number') {
    const box = (v: unknown, emit: (n: number | null) => void, aria: string) => (
      <InputNumber
        size={size}
        disabled={disabled}
        aria-label={aria}
        style={{ width: arity === 'two' ? 120 : width }}
        value={asNumber(v)}
        precision={field?.tableFieldType === 2 ? 0 : undefined}
        onChange={(n) => emit(typeof n === 'number' ? n : null)}
        onPressEnter={onPressEnter}
      />
    );
    if (arity === 'two') {
      const [from, to] = asPair(value);
      return (
        <Space size={4} style={style}>
          {box(from, (n) => onChange([n ?? '', to ?? '']), `${label} ${t('from')}`)}
          <span>~</span>
          {box(to, (n) => onChange([from ?? '', n ?? '']), `${label} ${t('to')}`)}
        </Space>
      );
    }
    return <span style={style}>{box(value, (n) => onChange(n ?? ''), label)}</span>;
  }

  if (arity === 'two') {
    const [from, to] = asPair(value);
    const text = (v: unknown) => (v == null ? '' : String(v));
    return (
      <Space size={4} style={style}>
        <Input size={size} disabled={disabled} aria-label={`${label} ${t('from')}`} value={text(from)} onChange={(e) => onChange([e.target.value, text(to)])} onPressEnter={onPressEnter} />
        <span>~</span>
        <Input size={size} disabled={disabled} aria-label={`${label} ${t('to')}`} value={text(to)} onChange={(e) => onChange([text(from), e.target.value])} onPressEnter={onPressEnter} />
      </Space>
    );
  }
  return (
    <Input
      {...common}
      style={{ ...style, width }}
      allowClear
      placeholder={ariaLabel ? t('typeText') : t('value')}
      value={value == null || typeof value === 'object' ? '' : String(value)}
      onChange={(e) => onChange(e.target.value)}
      onPressEnter={onPressEnter}
    />
  );
}

const SINGLE_OPTION_OPS = new Set(['eq', 'ne', 'in', 'notIn', 'isEmpty', 'isNotEmpty']);
// A multiple-choice field holds its values joined with ','; it is filtered by the one it contains.
const MULTI_OPTION_OPS = new Set(['contains', 'notContains', 'isEmpty', 'isNotEmpty']);
// A picker field holds a JSON list of items (an empty one is '[]', not empty): filtered by the item it holds.
const PICKER_OPS = new Set(['contains', 'notContains']);

/** Operators offered for a field: its table field type's (core table), narrowed for option fields. */
export function operatorsForFilterField(field: FilterBuilderField): FilterOperator[] {
  const all = operatorsForFieldType(field.tableFieldType);
  const kind = filterValueKind(field);
  if (kind === 'picker') return all.filter((op) => PICKER_OPS.has(op.code));
  if (kind !== 'options') return all;
  const allowed = Number(field.control?.controlType) === ControlTypeId.MultiSelect ? MULTI_OPTION_OPS : SINGLE_OPTION_OPS;
  return all.filter((op) => allowed.has(op.code));
}
