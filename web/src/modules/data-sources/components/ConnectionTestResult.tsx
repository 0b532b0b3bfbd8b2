import { Alert } from 'antd';
import type { TDataSourceTestResult } from '@tessera/core/contracts/data-sources';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';

/** A connection test's outcome: the server's version and time (green), or why it failed (red). */
export type ConnectionTestOutcome = TDataSourceTestResult | { ok: false; version: null; elapsedMs: null; message: string };

export function ConnectionTestResult({ outcome }: { outcome: ConnectionTestOutcome }) {
  const { t } = useTranslation('dataSources');
  return outcome.ok ? (
    <Alert
      type="success"
      showIcon
      title={t('form.testOk')}
      description={t('form.testDetail', { version: outcome.version ?? '', ms: Math.round(outcome.elapsedMs) })}
      data-testid="data-source-form-test-result"
      data-ok="true"
    />
  ) : (
    <Alert
      type="error"
      showIcon
      title={t('form.testFailed')}
      description={<span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{outcome.message}</span>}
      data-testid="data-source-form-test-result"
      data-ok="false"
    />
  );
}
