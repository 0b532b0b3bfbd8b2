import { Checkbox, Form, InputNumber, Select, Space } from 'antd';
import { DATE_PATTERNS, type TPrintFormat } from '@tessera/core/contracts/print-templates';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';

const KINDS: TPrintFormat['kind'][] = ['none', 'date', 'number', 'chineseAmount'];

function formatOf(kind: TPrintFormat['kind']): TPrintFormat {
  if (kind === 'date') return { kind, pattern: 'YYYY-MM-DD' };
  if (kind === 'number') return { kind, precision: 2, thousands: true };
  return { kind };
}

/** How a value is written: as it is, a date pattern, a number (decimals, thousands), or a Chinese capital amount. */
export function FormatEditor({ value, onChange, label }: { value: TPrintFormat; onChange(v: TPrintFormat): void; label?: string }) {
  const { t } = useTranslation('print');
  return (
    <Form.Item label={label ?? t('props.format')}>
      <Space direction="vertical" style={{ width: '100%' }} size={4}>
        <Select value={value.kind} onChange={(kind) => onChange(formatOf(kind))} options={KINDS.map((k) => ({ value: k, label: t(`props.formats.${k}`) }))} />
        {value.kind === 'date' && <Select value={value.pattern} onChange={(pattern) => onChange({ kind: 'date', pattern })} options={DATE_PATTERNS.map((p) => ({ value: p, label: p }))} />}
        {value.kind === 'number' && (
          <Space wrap>
            <InputNumber
              size="small"
              min={0}
              max={8}
              precision={0}
              value={value.precision}
              placeholder={t('props.precisionAuto')}
              addonBefore={t('props.precision')}
              style={{ width: 150 }}
              onChange={(v) => onChange({ ...value, precision: typeof v === 'number' ? v : null })}
            />
            <Checkbox checked={value.thousands} onChange={(e) => onChange({ ...value, thousands: e.target.checked })}>
              {t('props.thousands')}
            </Checkbox>
          </Space>
        )}
      </Space>
    </Form.Item>
  );
}
