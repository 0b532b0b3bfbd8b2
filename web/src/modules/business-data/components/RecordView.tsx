import { Spin } from 'antd';
import type { TPageDefinition } from '@tessera/core/page-definition';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecordViewProps } from '../../../shared/components/record-view.ts';
import { usePageRuntime } from '../api/business-data.ts';
import '../i18n.ts';
import { RecordForm } from './RecordForm.tsx';

/**
 * One record of a page, opened from elsewhere by page and record id (the task centre's drawer): the
 * record form to read — the holder of a pending approval task edits what their node allows — with
 * the record extras. A page the caller cannot load shows `fallback`. `onFormHandle` hands the host the
 * unsaved edits (the approval page approves and saves them in one request).
 */
export default function RecordView({ pageId, recordId, fallback, onClose, withExtras = true, onFormHandle }: RecordViewProps) {
  const { t } = useTranslation('businessData');
  const runtime = usePageRuntime(pageId);
  const definition = useMemo(() => (runtime.data?.definition ?? null) as TPageDefinition | null, [runtime.data]);
  if (runtime.isLoading) return <Spin style={{ display: 'block', margin: 48 }} tip={t('loading')} />;
  if (!runtime.data || !definition) return <>{fallback}</>;
  return <RecordForm runtime={runtime.data} definition={definition} recordId={recordId} viewOnly withExtras={withExtras} onBack={onClose} onSaved={() => undefined} onFormHandle={onFormHandle} />;
}
