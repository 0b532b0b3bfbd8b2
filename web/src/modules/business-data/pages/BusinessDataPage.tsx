import { Alert, Spin } from 'antd';
import type { TPageDefinition } from '@tessera/core/page-definition';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { ApiError } from '../../../shared/api/client.ts';
import { useMenu, usePageRuntime } from '../api/business-data.ts';
import { RecordList } from '../components/RecordList.tsx';
import '../i18n.ts';

// The form (the page renderer with every control type) is not needed to show the list: it loads
// while the list is on screen, so a reload shows rows sooner and opening a record stays quick.
const loadRecordForm = () => import('../components/RecordForm.tsx').then((m) => ({ default: m.RecordForm }));
const RecordForm = lazy(loadRecordForm);

/**
 * spec §2 `/menu/:menuId/params/:menuChildId`: the business menu's published page — its list
 * (search, sort, page, select, delete, export, import) and its form (master + child grids).
 * A menu the user may not open answers 403 from the server and shows the 403 page.
 */
export default function BusinessDataPage() {
  const { menuChildId = '' } = useParams();
  const { t } = useTranslation('businessData');
  const menu = useMenu(menuChildId);
  const pageId = menu.data?.pageDefinitionId ?? null;
  const runtime = usePageRuntime(pageId);
  // A record open in the form: to read (`view`: every field read-only) or to edit; id null = new.
  const [editing, setEditing] = useState<{ id: string | null; view?: boolean } | null>(null);
  const definition = useMemo(() => (runtime.data?.definition ?? null) as TPageDefinition | null, [runtime.data]);
  useEffect(() => {
    if (!runtime.data) return;
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    idle(() => void loadRecordForm());
  }, [runtime.data]);

  const failure = menu.error ?? runtime.error;
  if (failure instanceof ApiError && (failure.status === 403 || failure.status === 404)) return <Navigate to="/403" replace />;
  if (menu.isLoading || runtime.isLoading) return <Spin style={{ display: 'block', margin: 48 }} tip={t('loading')} />;
  if (failure) return <Alert type="error" showIcon message={t('loadFailed')} description={failure.message} />;
  if (!pageId) return <Alert type="info" showIcon message={t('noPage')} />;
  if (!runtime.data || !definition) return null;

  if (editing) {
    return (
      <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} tip={t('loading')} />}>
        <RecordForm
          key={`${editing.id ?? 'new'}|${editing.view ? 'view' : 'edit'}`}
          runtime={runtime.data}
          definition={definition}
          recordId={editing.id}
          viewOnly={editing.view === true}
          onEdit={() => setEditing({ id: editing.id })}
          onBack={() => setEditing(null)}
          onSaved={(id) => setEditing({ id })}
        />
      </Suspense>
    );
  }
  return <RecordList runtime={runtime.data} definition={definition} onOpen={(id, view) => setEditing({ id, view })} onNew={() => setEditing({ id: null })} />;
}
