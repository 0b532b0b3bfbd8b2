import { Alert, Button, Descriptions, Empty, Form, Input, Space, Typography } from 'antd';
import { compileFormula, displayFormulaValue, isFormulaError, type FormulaSchema } from '@tessera/core/formula/index';
import type { FieldKind } from '@tessera/core/formula/index';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './formula-texts.ts';

export interface FormulaTestPanelProps {
  source: string;
  schema?: FormulaSchema;
  /** Sample values to start with, by reference text (`amount`, `lines.qty`). */
  initialValues?: Record<string, string>;
  user?: { id: string; name: string; orgUnitId?: string | null; orgUnitName?: string | null } | null;
}

function kindOf(schema: FormulaSchema | undefined, view: string | null, code: string): { kind?: FieldKind; isList: boolean } {
  if (!schema) return { isList: false };
  if (view === null) return { kind: schema.fields[code] ?? schema.masterFields?.[code], isList: false };
  const v = schema.views?.[view];
  return { kind: v?.fields[code], isList: Boolean(v?.isList) };
}

/** Sample text → a record value of the field's kind (numbers, booleans; text and dates as typed). */
function sampleValue(text: string, kind: FieldKind | undefined): unknown {
  const t = text.trim();
  if (kind === 2 || kind === 3) return t === '' ? null : Number(t.replace(/,/g, ''));
  if (kind === 5) return /^(true|1|是|yes)$/i.test(t);
  if (kind === undefined && t !== '' && /^[+-]?\d+(\.\d+)?$/.test(t)) return Number(t);
  return text;
}

/** Evaluates a formula against sample values for each control it refers to (designer's test panel). */
export function FormulaTestPanel({ source, schema, initialValues, user }: FormulaTestPanelProps) {
  const { t } = useTranslation('formulaEditor');
  const compiled = useMemo(() => compileFormula(source, { schema }), [source, schema]);
  const [values, setValues] = useState<Record<string, string>>(initialValues ?? {});
  const [result, setResult] = useState<{ text: string; error?: string } | null>(null);

  const refs = compiled.references.map((r) => ({ ...r, key: r.view ? `${r.view}.${r.code}` : r.code, ...kindOf(schema, r.view, r.code) }));

  const run = () => {
    const row: Record<string, unknown> = {};
    const views: Record<string, Record<string, unknown>[] | Record<string, unknown>> = {};
    for (const r of refs) {
      const text = values[r.key] ?? '';
      if (r.view === null) row[r.code] = sampleValue(text, r.kind);
      else if (r.isList) {
        const items = text.split(/[,，]/).filter((s) => s.trim() !== '');
        const rows = (views[r.view] as Record<string, unknown>[] | undefined) ?? [];
        items.forEach((item, i) => (rows[i] = { ...(rows[i] ?? {}), [r.code]: sampleValue(item, r.kind) }));
        views[r.view] = rows;
      } else {
        views[r.view] = { ...((views[r.view] as Record<string, unknown>) ?? {}), [r.code]: sampleValue(text, r.kind) };
      }
    }
    const value = compiled.evaluate({ row, master: row, views, now: new Date(), offsetMinutes: -new Date().getTimezoneOffset(), user: user ?? null });
    setResult(isFormulaError(value) ? { text: value.code, error: value.message } : { text: displayFormulaValue(value) });
  };

  if (!source.trim()) return <Typography.Text type="secondary">{t('empty')}</Typography.Text>;
  if (!compiled.ok) return <Alert type="warning" showIcon message={t('fixFirst')} />;
  return (
    <div data-testid="formula-test-panel">
      <Typography.Text strong>{t('sampleValues')}</Typography.Text>
      {refs.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noReferences')} />
      ) : (
        <Form layout="horizontal" labelCol={{ flex: '140px' }} size="small" style={{ marginTop: 8 }} component="div">
          {refs.map((r) => (
            <Form.Item key={r.key} label={`{${r.key}}`} extra={r.isList ? t('listHint') : undefined} style={{ marginBottom: 6 }}>
              <Input aria-label={`{${r.key}}`} value={values[r.key] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [r.key]: e.target.value }))} onPressEnter={run} />
            </Form.Item>
          ))}
        </Form>
      )}
      <Space style={{ marginTop: 8 }} align="start">
        <Button size="small" type="primary" onClick={run}>
          {t('run')}
        </Button>
        {result && (
          <Descriptions size="small" column={1} items={[{ key: 'r', label: result.error ? t('error') : t('result'), children: <span data-testid="formula-result">{result.error ? `${result.text} ${result.error}` : result.text}</span> }]} />
        )}
      </Space>
    </div>
  );
}
