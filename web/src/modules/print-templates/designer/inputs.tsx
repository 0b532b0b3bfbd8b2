import { ColorPicker, InputNumber } from 'antd';

/** A colour `#rrggbb`, or '' for none (the contract's colour). */
export function ColorInput({ value, onChange, label }: { value: string; onChange(v: string): void; label: string }) {
  return (
    <ColorPicker
      size="small"
      allowClear
      disabledAlpha
      showText
      value={value || undefined}
      onChange={(c) => onChange(c.toHexString().slice(0, 7))}
      onClear={() => onChange('')}
      aria-label={label}
    />
  );
}

/** A number that is only reported when it is a number (clearing the box keeps the last value). */
export function NumberInput({ value, onChange, min, max, step, label, width = '100%' }: { value: number; onChange(v: number): void; min: number; max: number; step?: number; label: string; width?: number | string }) {
  return <InputNumber size="small" value={value} min={min} max={max} step={step} style={{ width }} aria-label={label} onChange={(v) => typeof v === 'number' && Number.isFinite(v) && onChange(v)} />;
}
