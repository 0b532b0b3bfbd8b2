import { Button, Input, Popover, Skeleton, Typography, type InputRef } from 'antd';
import { chineseCapitals } from '@tessera/core/helpers/amount-in-words';
import { formatControlValue } from '@tessera/core/controls/registry';
import type { TDataControl } from '@tessera/core/page-definition';
import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RichTextView } from '../rich-text/RichTextView.tsx';
import type { ControlFieldProps } from './ControlField.tsx';
import '../rich-text/rich-text-texts.ts';

// Multi-line text (1011), rich text (1012) and the currency amount's capitals (1015). In a grid a
// text of several lines shows its first line and is edited in a pop-up, so Enter and Tab keep
// moving between cells (grid-keyboard.ts leaves keys typed in the pop-up's editor alone).

const RichTextEditor = lazy(() => import('../rich-text/RichTextEditor.tsx'));

const maxLengthOf = (control: TDataControl) => {
  const max = Number((control.extraProperties as { maxLength?: unknown } | null)?.maxLength);
  return Number.isFinite(max) && max > 0 ? max : undefined;
};
const textOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/**
 * A grid cell of a text of several lines: its first line, read-only; a click, F2 or typing opens
 * `editor` in a pop-up. Escape, Ctrl+Enter or Tab there close it and give the focus back to the cell.
 */
function CellPopoverEditor(props: { id?: string; text: string; label: string; disabled?: boolean; status?: 'error'; editor: ReactNode; onType?(key: string): void }) {
  const { id, text, label, disabled, status, editor, onType } = props;
  const { t } = useTranslation('textControls');
  const [open, setOpen] = useState(false);
  const cell = useRef<InputRef>(null);
  const lines = text.split('\n');
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => cell.current?.focus());
  };
  const start = (typed = '') => {
    if (disabled) return;
    if (typed) onType?.(typed);
    setOpen(true);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(o) => (o ? start() : setOpen(false))}
      trigger="click"
      placement="bottomLeft"
      destroyOnHidden
      // Always given (antd opens no pop-up without content); destroyOnHidden unmounts the editor when closed.
      content={
        (
          <div
            onKeyDown={(e) => {
              if (e.key === 'Escape' || e.key === 'Tab' || (e.key === 'Enter' && (e.ctrlKey || e.metaKey))) {
                e.preventDefault();
                e.stopPropagation();
                close();
              }
            }}
          >
            {editor}
            <div style={{ textAlign: 'right', marginTop: 4 }}>
              <Button size="small" onClick={close}>{t('done')}</Button>
            </div>
          </div>
        )
      }
    >
      <Input
        ref={cell}
        id={id}
        readOnly
        disabled={disabled}
        status={status}
        variant="borderless"
        value={lines[0] + (lines.length > 1 ? ' …' : '')}
        title={text ? text : t('editCell')}
        aria-label={label}
        aria-haspopup="dialog"
        onKeyDown={(e) => {
          if (e.key === 'F2') {
            e.preventDefault();
            start();
          } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
            e.preventDefault();
            start(e.key);
          }
        }}
      />
    </Popover>
  );
}

/** 1011: a text area that grows with its text (form), or a cell with a pop-up text area (grid). */
export function MultilineTextField({ control, value, onChange, disabled, compact, status, id }: ControlFieldProps) {
  const { t } = useTranslation('pageRenderer');
  const text = textOf(value);
  const area = (
    <Input.TextArea
      id={compact ? undefined : id}
      autoFocus={compact}
      disabled={disabled}
      status={status}
      autoSize={{ minRows: compact ? 4 : 2, maxRows: 12 }}
      style={compact ? { width: 360 } : undefined}
      value={text}
      maxLength={maxLengthOf(control)}
      onChange={(e) => onChange(e.target.value)}
      // Opened by typing in the cell: the caret goes after what was typed.
      onFocus={compact ? (e) => e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length) : undefined}
      placeholder={compact ? undefined : t('input')}
      aria-label={control.title}
    />
  );
  if (!compact) return area;
  return <CellPopoverEditor id={id} text={text} label={control.title} disabled={disabled} status={status} editor={area} onType={(key) => onChange(text + key)} />;
}

/** 1012: the rich text editor (loaded when first shown); read-only, the cleaned HTML; in a grid, the plain text with the editor in a pop-up. */
export function RichTextField({ control, value, onChange, disabled, compact, status, id }: ControlFieldProps) {
  const { t } = useTranslation('textControls');
  const editor = (autoFocus: boolean) => (
    <Suspense fallback={<Skeleton.Input active block aria-label={t('loading')} />}>
      <RichTextEditor value={value} onChange={onChange} id={compact ? undefined : id} label={control.title} status={status} autoFocus={autoFocus} />
    </Suspense>
  );
  if (compact) {
    return (
      <CellPopoverEditor id={id} text={formatControlValue(control, value)} label={control.title} disabled={disabled} status={status} editor={<div style={{ width: 480 }}>{editor(true)}</div>} />
    );
  }
  return disabled ? <RichTextView id={id} html={value} label={control.title} /> : editor(false);
}

/** 1015 with "show Chinese capitals": the amount in words under its input (壹仟贰佰叁拾肆元伍角整). */
export function CurrencyCapitals({ value, children }: { value: unknown; children: ReactNode }) {
  const { t } = useTranslation('textControls');
  const words = typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? chineseCapitals(value as number | string) : '';
  return (
    <div style={{ width: '100%' }}>
      {children}
      <Typography.Text type="secondary" data-testid="currency-capitals" style={{ display: 'block', fontSize: 12, minHeight: 20 }} aria-live="polite">
        {words ? t('capitals', { words }) : ''}
      </Typography.Text>
    </div>
  );
}
