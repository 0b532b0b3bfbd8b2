import { Form, Input, Select } from 'antd';
import { DATE_PATTERNS, PAGE_NUMBER_PATTERNS, PRINT_LIMITS, type TPrintSource } from '@tessera/core/contracts/print-templates';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';
import type { PrintableField } from './layout-ops.ts';

type Kind = TPrintSource['kind'];
const KINDS: Kind[] = ['static', 'field', 'formula', 'pageNumber', 'printTime', 'printUser'];

function sourceOf(kind: Kind, fields: PrintableField[]): TPrintSource {
  switch (kind) {
    case 'static':
      return { kind, text: '' };
    case 'field':
      return { kind, field: fields[0]?.code ?? '' };
    case 'formula':
      return { kind, formula: '' };
    case 'pageNumber':
      return { kind, pattern: 'zh' };
    case 'printTime':
      return { kind, pattern: 'YYYY-MM-DD HH:mm' };
    case 'printUser':
      return { kind };
  }
}

/** Where a text, QR code or barcode gets its content: fixed text, a master field, a formula, page number, print time or user. */
export function SourceEditor({ value, onChange, fields, kinds = KINDS }: { value: TPrintSource; onChange(v: TPrintSource, mergeKey?: string): void; fields: PrintableField[]; kinds?: Kind[] }) {
  const { t } = useTranslation('print');
  return (
    <>
      <Form.Item label={t('props.source')}>
        <Select
          value={value.kind}
          onChange={(kind) => onChange(sourceOf(kind, fields))}
          options={kinds.map((k) => ({ value: k, label: t(`props.sources.${k}`), disabled: k === 'field' && fields.length === 0 }))}
          data-testid="print-source-kind"
        />
      </Form.Item>
      {value.kind === 'static' && (
        <Form.Item label={t('props.text')}>
          <Input.TextArea rows={2} maxLength={PRINT_LIMITS.staticText} value={value.text} onChange={(e) => onChange({ kind: 'static', text: e.target.value }, 'source:text')} data-testid="print-static-text" />
        </Form.Item>
      )}
      {value.kind === 'field' && (
        <Form.Item label={t('props.fieldPick')}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            value={value.field || undefined}
            onChange={(field) => onChange({ kind: 'field', field })}
            options={fields.map((f) => ({ value: f.code, label: `${f.title} (${f.code})` }))}
          />
        </Form.Item>
      )}
      {value.kind === 'formula' && (
        <Form.Item label={t('props.formula')} extra={t('props.formulaHelp')}>
          <Input.TextArea rows={2} maxLength={PRINT_LIMITS.formula} value={value.formula} style={{ fontFamily: 'monospace' }} onChange={(e) => onChange({ kind: 'formula', formula: e.target.value }, 'source:formula')} />
        </Form.Item>
      )}
      {value.kind === 'pageNumber' && (
        <Form.Item label={t('props.pattern')}>
          <Select value={value.pattern} onChange={(pattern) => onChange({ kind: 'pageNumber', pattern })} options={PAGE_NUMBER_PATTERNS.map((p) => ({ value: p, label: t(`props.pageNumberPatterns.${p}`) }))} />
        </Form.Item>
      )}
      {value.kind === 'printTime' && (
        <Form.Item label={t('props.pattern')}>
          <Select value={value.pattern} onChange={(pattern) => onChange({ kind: 'printTime', pattern })} options={DATE_PATTERNS.map((p) => ({ value: p, label: p }))} />
        </Form.Item>
      )}
    </>
  );
}
