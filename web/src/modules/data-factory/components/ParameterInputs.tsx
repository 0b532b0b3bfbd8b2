import { Descriptions, Input, Space, Typography } from 'antd';
import { FACTORY_TYPES, type TProcedureParameter } from '@tessera/core/contracts/data-factory';
import { useTranslation } from 'react-i18next';
import { valueFromText } from './factory-values.ts';
import '../i18n.ts';

/** The values of the IN / INOUT parameters as a text box each, marked when the type does not take them (empty is NULL). */
export function ParameterInputs({ parameters, texts, onChange, onEnter, testIdPrefix }: { parameters: TProcedureParameter[]; texts: Record<string, string>; onChange(texts: Record<string, string>): void; onEnter?(): void; testIdPrefix: string }) {
  const { t } = useTranslation('dataFactory');
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      items={parameters.map((p) => {
        const ok = valueFromText(p.type, texts[p.name] ?? '').ok;
        return {
          key: p.name,
          label: (
            <Space size={4}>
              <Typography.Text code>{p.name}</Typography.Text>
              <Typography.Text type="secondary">{FACTORY_TYPES[p.type]}</Typography.Text>
            </Space>
          ),
          children: (
            <Input
              size="small"
              value={texts[p.name]}
              placeholder={t('test.null')}
              status={ok ? undefined : 'error'}
              title={ok ? undefined : t('test.invalidValue', { type: FACTORY_TYPES[p.type] })}
              aria-label={p.name}
              onChange={(e) => onChange({ ...texts, [p.name]: e.target.value })}
              onPressEnter={onEnter}
              data-testid={`${testIdPrefix}-${p.name}`}
            />
          ),
        };
      })}
    />
  );
}
