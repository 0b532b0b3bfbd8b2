import { Alert, Input, Select, Table, Typography } from 'antd';
import { DATA_SOURCE_LIMITS } from '@tessera/core/contracts/data-sources';
import { useTranslation } from 'react-i18next';
import { isValidParameter, PARAMETER_TYPES, tooManyParameters, withType, type ParameterRow } from './query-parameters.ts';
import '../i18n.ts';

interface ParametersTableProps {
  rows: ParameterRow[];
  onChange(row: ParameterRow): void;
  /** After a run was refused for them: empty numbers are marked too, not only mistyped ones. */
  showAllErrors: boolean;
}

/** One row per `:name` in the SQL: its type and value (always bound, never put into the SQL). */
export function ParametersTable({ rows, onChange, showAllErrors }: ParametersTableProps) {
  const { t } = useTranslation('dataSources');
  if (rows.length === 0)
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="data-source-no-parameters">
        {t('workbench.noParameters')}
      </Typography.Text>
    );
  const wrong = (r: ParameterRow) => !isValidParameter(r) && (showAllErrors || r.value.trim() !== '');
  return (
    <>
      {tooManyParameters(rows.map((r) => r.name)) && (
        <Alert type="warning" showIcon style={{ marginBottom: 8 }} title={t('workbench.tooManyParameters', { max: DATA_SOURCE_LIMITS.parameters })} />
      )}
      <Table<ParameterRow>
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={rows}
        scroll={rows.length > 6 ? { y: 200 } : undefined}
        data-testid="data-source-parameters"
        columns={[
          { title: t('workbench.paramName'), key: 'name', width: '30%', render: (_, r) => <Typography.Text code>:{r.name}</Typography.Text> },
          {
            title: t('workbench.paramType'),
            key: 'type',
            width: 120,
            render: (_, r) => (
              <Select
                size="small"
                style={{ width: '100%' }}
                value={r.type}
                aria-label={`${t('workbench.paramType')} :${r.name}`}
                data-testid={`data-source-param-type-${r.name}`}
                onChange={(type) => onChange(withType(r, type))}
                options={PARAMETER_TYPES.map((type) => ({ value: type, label: t(`workbench.types.${type}`) }))}
              />
            ),
          },
          {
            title: t('workbench.paramValue'),
            key: 'value',
            render: (_, r) => {
              const label = `${t('workbench.paramValue')} :${r.name}`;
              const testId = `data-source-param-value-${r.name}`;
              if (r.type === 'null') return <Input size="small" disabled value={t('result.null')} aria-label={label} data-testid={testId} />;
              if (r.type === 'boolean')
                return (
                  <Select
                    size="small"
                    style={{ width: '100%' }}
                    value={r.value}
                    aria-label={label}
                    data-testid={testId}
                    onChange={(value) => onChange({ ...r, value })}
                    options={[
                      { value: 'true', label: 'true' },
                      { value: 'false', label: 'false' },
                    ]}
                  />
                );
              return (
                <Input
                  size="small"
                  value={r.value}
                  inputMode={r.type === 'number' ? 'decimal' : undefined}
                  status={wrong(r) ? 'error' : undefined}
                  title={wrong(r) ? t('workbench.numberInvalid') : undefined}
                  aria-label={label}
                  aria-invalid={wrong(r)}
                  data-testid={testId}
                  maxLength={DATA_SOURCE_LIMITS.parameterText}
                  onChange={(e) => onChange({ ...r, value: e.target.value })}
                />
              );
            },
          },
        ]}
      />
    </>
  );
}
