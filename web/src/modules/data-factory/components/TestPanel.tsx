import { CaretRightOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Empty, Flex, Table, Typography } from 'antd';
import { type TProcedure, type TProcedureResultSet, type TProcedureRunResult } from '@tessera/core/contracts/data-factory';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cellText } from '../../data-sources/components/result-format.ts';
import { errorText } from '../../data-sources/api/server-error.ts';
import { useRunProcedure } from '../api/data-factory.ts';
import { textOfValue, valueFromText } from './factory-values.ts';
import { ParameterInputs } from './ParameterInputs.tsx';
import '../i18n.ts';

const shown = (value: unknown, nullText: string) => {
  const text = cellText(value);
  return text === null ? (
    <Typography.Text type="secondary" italic>
      {nullText}
    </Typography.Text>
  ) : (
    text
  );
};

/** One result set's rows (paged past 50). */
function ResultGrid({ set, index }: { set: TProcedureResultSet; index: number }) {
  const { t } = useTranslation('dataFactory');
  if (set.rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('test.noRows')} />;
  return (
    <Table
      size="small"
      rowKey={(_, i) => String(i)}
      pagination={set.rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
      scroll={{ x: 'max-content' }}
      dataSource={set.rows}
      data-testid={index === 0 ? 'factory-test-rows' : `factory-test-rows-${index + 1}`}
      columns={set.columns.map((c) => ({ key: c.name, title: <span title={c.dataType}>{c.name}</span>, render: (_: unknown, row: Record<string, unknown>) => shown(row[c.name], t('test.null')) }))}
    />
  );
}

/** Runs the saved procedure with a value per IN / INOUT parameter (its default to start with): each result set, the OUT values, or the error. */
export function TestPanel({ procedure }: { procedure: TProcedure }) {
  const { t } = useTranslation('dataFactory');
  const ins = procedure.parameters.filter((p) => p.mode !== 'out');
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(ins.map((p) => [p.name, textOfValue(p.defaultValue)])));
  const [result, setResult] = useState<TProcedureRunResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const runner = useRunProcedure();
  const parsed = Object.fromEntries(ins.map((p) => [p.name, valueFromText(p.type, texts[p.name] ?? '')]));
  const invalid = ins.some((p) => !parsed[p.name]!.ok);

  const run = async () => {
    setError(null);
    try {
      setResult(await runner.mutateAsync({ id: procedure.id, input: { parameters: Object.fromEntries(ins.map((p) => [p.name, parsed[p.name]!.value])) } }));
    } catch (err) {
      setResult(null);
      setError(errorText(err));
    }
  };

  const outs = Object.entries(result?.outParameters ?? {});
  return (
    <Flex vertical gap={12}>
      <Typography.Text strong>{t('test.parameters')}</Typography.Text>
      {ins.length === 0 ? (
        <Typography.Text type="secondary">{t('test.noParameters')}</Typography.Text>
      ) : (
        <ParameterInputs parameters={ins} texts={texts} onChange={setTexts} onEnter={() => !invalid && void run()} testIdPrefix="factory-test-value" />
      )}
      <div>
        <Button type="primary" icon={<CaretRightOutlined />} disabled={invalid} loading={runner.isPending} onClick={() => void run()} data-testid="factory-test-run">
          {t('test.run')}
        </Button>
      </div>
      {error && <Alert type="error" showIcon title={t('test.failed')} description={error} data-testid="factory-test-error" />}
      {result && (
        <Flex vertical gap={8} data-testid="factory-test-result">
          <Typography.Text type="secondary" data-testid="factory-test-status">
            {t('test.rows', { count: result.rowCount })} · {t('test.elapsed', { ms: Math.round(result.elapsedMs) })}
            {result.resultSets.some((set) => set.truncated) ? ` · ${t('test.truncated', { count: procedure.rowCap })}` : ''}
          </Typography.Text>
          {outs.length > 0 && (
            <Descriptions
              size="small"
              bordered
              title={t('test.outs')}
              column={1}
              data-testid="factory-test-outs"
              items={outs.map(([name, value]) => ({ key: name, label: <Typography.Text code>{name}</Typography.Text>, children: shown(value, t('test.null')) }))}
            />
          )}
          {result.resultSets.length === 1 && <ResultGrid set={result.resultSets[0]!} index={0} />}
          {result.resultSets.length > 1 &&
            result.resultSets.map((set, i) => (
              <Flex vertical gap={4} key={i} data-testid={`factory-test-set-${i + 1}`}>
                <Typography.Text strong>
                  {t('test.resultSet', { n: i + 1 })} <Typography.Text type="secondary">· {t('test.rows', { count: set.rowCount })}</Typography.Text>
                </Typography.Text>
                <ResultGrid set={set} index={i} />
              </Flex>
            ))}
          {result.resultSets.length === 0 && outs.length === 0 && <Typography.Text type="secondary">{t('test.noResult')}</Typography.Text>}
        </Flex>
      )}
    </Flex>
  );
}
