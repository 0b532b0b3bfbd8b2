import { Checkbox, DatePicker, Input, InputNumber, Radio, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { decimalPlaces } from '@tessera/core/helpers/round';
import { ControlTypeId, formatControlValue, formatNumberForControl, numberAccuracyOf, parseControlValue, pickerSelectionType, readSelectionItems } from '@tessera/core/controls/registry';
import type { TBusinessRecord, TDataControl, TView } from '@tessera/core/page-definition';
import { memo, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectionItemPicker } from '../SelectionItemPicker.tsx';
import { FileField } from './FileField.tsx';
import { LookupField } from './LookupField.tsx';
import { CurrencyCapitals, MultilineTextField, RichTextField } from './TextControls.tsx';
import type { OptionItem, PageRendererServices, RendererMode } from './renderer-types.ts';
import './renderer-texts.ts';

export interface ControlFieldProps {
  control: TDataControl;
  view: TView;
  record: TBusinessRecord;
  value: unknown;
  /** Emits the stored value (already parsed by the control type) and extra fields (lookup mappings). */
  onChange(value: unknown, extra?: Record<string, unknown>): void;
  disabled?: boolean;
  mode: RendererMode;
  services?: PageRendererServices;
  /** Grid cells are compact and borderless. */
  compact?: boolean;
  status?: 'error';
  id?: string;
}

const offsetMinutes = () => -new Date().getTimezoneOffset();
const DATE_FORMATS: Record<number, string> = { 1: 'YYYY-MM', 2: 'YYYY-MM-DD', 3: 'YYYY-MM-DD HH:mm:ss' };

/** Static options of a control: `[{ label, value }]`, `['a', 'b']` or `{ items: [...] }`. */
export function staticOptions(control: TDataControl): OptionItem[] | null {
  const raw = control.options;
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' && Array.isArray((raw as { items?: unknown }).items) ? (raw as { items: unknown[] }).items : null;
  if (!list) return null;
  return list.flatMap((o): OptionItem[] => {
    if (typeof o === 'string' || typeof o === 'number') return [{ value: String(o), label: String(o) }];
    if (o && typeof o === 'object' && 'value' in o) {
      const v = String((o as { value: unknown }).value);
      const label = (o as { label?: unknown }).label;
      return [{ value: v, label: typeof label === 'string' && label ? label : v }];
    }
    return [];
  });
}

/** Options of drop-down style controls: static ones, or from the services (dictionaries, queries). */
/** The cascading parent's value (`extraProperties.parentCode`, same row), as a key for reloading; '' without one. */
function parentKeyOf(control: TDataControl, record: TBusinessRecord): string {
  const code = (control.extraProperties as { parentCode?: unknown } | null)?.parentCode;
  if (typeof code !== 'string' || !code.trim()) return '';
  const key = Object.keys(record).find((k) => k.toLowerCase() === code.trim().toLowerCase());
  return JSON.stringify(key === undefined ? null : (record[key] ?? null));
}

function useOptions(control: TDataControl, services: PageRendererServices | undefined, enabled: boolean, record: TBusinessRecord): OptionItem[] {
  // A saved query of a data source (extraProperties.sourceQuery) comes before any options the control holds.
  const fromQuery = Boolean((control.extraProperties as { sourceQuery?: unknown } | null)?.sourceQuery);
  const fixed = fromQuery ? null : staticOptions(control);
  const parentKey = parentKeyOf(control, record);
  const recordRef = useRef(record);
  recordRef.current = record;
  const [loaded, setLoaded] = useState<OptionItem[] | null>(null);
  const needsLoad = enabled && !fixed && (fromQuery || control.options != null) && typeof services?.loadOptions === 'function';
  useEffect(() => {
    if (!needsLoad) return;
    let live = true;
    services!.loadOptions!(control, recordRef.current).then(
      (items) => live && setLoaded(items),
      () => live && setLoaded([]),
    );
    return () => {
      live = false;
    };
    // The options reference is enough: a designer edit replaces it.
  }, [needsLoad, control.options, control.extraProperties, control.id, parentKey]); // eslint-disable-line react-hooks/exhaustive-deps
  return fixed ?? loaded ?? [];
}

/** Selection type of a 4001 picker: extraProperties.selectionType (1 org unit, 3 user, 4 role). */
const pickerMultiple = (control: TDataControl) => (control.extraProperties as { multiple?: unknown } | null)?.multiple !== false;

/**
 * A number field. Entering it selects what it holds, so typing replaces the pre-filled 0 instead of
 * joining it ("02.5"; a click would put the caret back where it landed, so the mouse-up that follows
 * the focus is ignored). While someone types, the number stays as typed: too many decimals or a
 * fraction in an integer field is an error at the field (control-rules.ts numberProblem), never
 * silently rounded. Elsewhere it is shown at the field's accuracy (15.5 as 15.50) when it fits it.
 */
function NumberField(props: { control: TDataControl; value: number | null; onValue(v: number | string | null): void; inputProps: Record<string, unknown>; label: string }) {
  const { control, value, onValue, inputProps, label } = props;
  const accuracy = numberAccuracyOf(control);
  const [focused, setFocused] = useState(false);
  const justFocused = useRef(false);
  const input = useRef<HTMLInputElement | null>(null);
  // Focused, the text changes (15.50 → 15.5) in a render after this one: select once it has.
  useLayoutEffect(() => {
    if (focused) queueMicrotask(() => input.current === document.activeElement && input.current?.select());
  }, [focused]);
  const fits = accuracy === null || (accuracy >= 0 && (value === null || decimalPlaces(value) <= accuracy));
  return (
    <InputNumber
      {...inputProps}
      value={value}
      // Shown as everywhere else (1,234.50: core formatNumberForControl); typed and edited plain.
      formatter={(v, info) => (info.userTyping ? info.input : v === undefined || v === null || String(v) === '' ? '' : focused || !fits ? String(v) : formatNumberForControl(control, v))}
      parser={(text) => (text ?? '').replace(/,/g, '') as unknown as number}
      onChange={onValue}
      onFocus={(e: FocusEvent<HTMLInputElement>) => {
        input.current = e.currentTarget;
        e.currentTarget.select();
        justFocused.current = true;
        setFocused(true);
      }}
      onMouseUp={(e: MouseEvent<HTMLDivElement>) => {
        if (!justFocused.current) return;
        justFocused.current = false;
        e.preventDefault();
      }}
      onBlur={() => {
        justFocused.current = false;
        setFocused(false);
      }}
      aria-label={label}
    />
  );
}

/** One data control's input, chosen by its control type code (spec §3). */
export const ControlField = memo(function ControlField(props: ControlFieldProps) {
  const { control, value, onChange, disabled, compact, status, id, services } = props;
  const { t, i18n } = useTranslation('pageRenderer');
  const type = Number(control.controlType);
  const locale = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const variant = compact ? ('borderless' as const) : undefined;
  const common = { id, disabled, status, variant, style: { width: '100%' } };
  const options = useOptions(control, services, type === ControlTypeId.SingleChoice || type === ControlTypeId.SingleChoiceAlt || type === ControlTypeId.MultiSelect || type === ControlTypeId.MultiValue, props.record);
  const emit = (input: unknown) => {
    const parsed = parseControlValue(control, input, { offsetMinutes: offsetMinutes() });
    if (parsed.ok) onChange(parsed.value);
  };

  switch (type) {
    case ControlTypeId.Integer:
    case ControlTypeId.Decimal:
    case ControlTypeId.Currency: {
      const n = typeof value === 'number' ? value : value === '' || value == null ? null : Number(value);
      const field = (
        <NumberField
          control={control}
          inputProps={common}
          value={n !== null && Number.isFinite(n) ? n : null}
          onValue={(v) => (v === null ? emit('') : typeof v === 'number' && Number.isFinite(v) ? onChange(v) : emit(v))}
          label={control.title}
        />
      );
      return type === ControlTypeId.Currency && !compact && control.extraProperties?.capitals ? <CurrencyCapitals value={n}>{field}</CurrencyCapitals> : field;
    }
    case ControlTypeId.MultilineText:
      return <MultilineTextField {...props} />;
    case ControlTypeId.RichText:
      return <RichTextField {...props} />;
    case ControlTypeId.Date: {
      const dateType = control.extraProperties?.dateType ?? 2;
      const text = typeof value === 'string' ? value : '';
      const parsed: Dayjs | null = text ? dayjs(text) : null;
      return (
        <DatePicker
          {...common}
          picker={dateType === 1 ? 'month' : 'date'}
          showTime={dateType === 3}
          format={DATE_FORMATS[dateType] ?? DATE_FORMATS[2]}
          value={parsed && parsed.isValid() ? parsed : null}
          onChange={(d) => {
            if (!d) return emit('');
            emit(dateType === 3 ? d.toISOString() : d.format('YYYY-MM-DD'));
          }}
          placeholder={t('select')}
          aria-label={control.title}
        />
      );
    }
    case ControlTypeId.Boolean:
      return compact ? (
        <Checkbox id={id} disabled={disabled} checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-label={control.title} />
      ) : (
        <Switch id={id} disabled={disabled} checked={value === true} onChange={(v) => onChange(v)} checkedChildren={t('yes')} unCheckedChildren={t('no')} aria-label={control.title} />
      );
    case ControlTypeId.SingleChoice:
      return (
        <Select {...common} allowClear showSearch={{ optionFilterProp: 'label' }} value={value === '' || value == null ? undefined : String(value)} options={options} onChange={(v) => emit(v ?? '')} placeholder={t('select')} aria-label={control.title} />
      );
    case ControlTypeId.SingleChoiceAlt:
      return compact ? (
        <Select {...common} allowClear value={value === '' || value == null ? undefined : String(value)} options={options} onChange={(v) => emit(v ?? '')} aria-label={control.title} />
      ) : (
        <Radio.Group id={id} disabled={disabled} value={value} options={options} onChange={(e) => emit(e.target.value)} aria-label={control.title} />
      );
    case ControlTypeId.MultiSelect:
    case ControlTypeId.MultiValue:
      return (
        <Select
          {...common}
          mode={type === ControlTypeId.MultiValue ? 'tags' : 'multiple'}
          allowClear
          maxTagCount={compact ? 'responsive' : undefined}
          value={Array.isArray(value) ? value.map(String) : []}
          options={options}
          onChange={(v: string[]) => emit(v)}
          placeholder={t('select')}
          aria-label={control.title}
        />
      );
    case ControlTypeId.Lookup:
      return <LookupField {...props} />;
    case ControlTypeId.DocumentNumber:
      if (Number(control.docNoOccasion) === 1) {
        return <Input {...common} readOnly value={typeof value === 'string' ? value : ''} placeholder={t('docNoPending')} aria-label={control.title} />;
      }
      return <TextInput {...props} />;
    case ControlTypeId.Id:
    case ControlTypeId.Ids:
      return <Input {...common} readOnly value={formatControlValue(control, value, { locale })} aria-label={control.title} />;
    case ControlTypeId.UserOrgPicker: {
      const items = readSelectionItems(value);
      const multiple = pickerMultiple(control);
      const store = (picked: { id: string; title: string }[]) =>
        emit(picked.map((p) => ({ id: p.id, title: p.title, type: pickerSelectionType(control) })));
      return multiple ? (
        <SelectionItemPicker id={id} type={pickerSelectionType(control)} context={services?.pickerContext?.(control)} multiple disabled={disabled} value={items.map((i) => i.id)} onChange={(_ids, picked) => store(picked)} aria-label={control.title} />
      ) : (
        <SelectionItemPicker id={id} type={pickerSelectionType(control)} context={services?.pickerContext?.(control)} disabled={disabled} value={items[0]?.id ?? null} onChange={(_id, picked) => store(picked)} aria-label={control.title} />
      );
    }
    case ControlTypeId.Attachment:
    case ControlTypeId.Image:
      return <FileField {...props} />;
    default:
      return <TextInput {...props} />;
  }
});

/** Text keeps what the user types locally and commits on every change (length rules apply to the text). */
function TextInput({ control, value, onChange, disabled, compact, status, id }: ControlFieldProps) {
  const { t } = useTranslation('pageRenderer');
  const max = Number((control.extraProperties as { maxLength?: unknown } | null)?.maxLength);
  return (
    <Input
      id={id}
      disabled={disabled}
      status={status}
      variant={compact ? 'borderless' : undefined}
      value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
      maxLength={Number.isFinite(max) && max > 0 ? max : undefined}
      onChange={(e) => onChange(e.target.value)}
      placeholder={compact ? undefined : t('input')}
      aria-label={control.title}
    />
  );
}
