import { SaveOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, Grid, Skeleton, Space, Tabs, Typography } from 'antd';
import type { TProcedure } from '@tessera/core/contracts/data-factory';
import { P } from '@tessera/core/contracts/permissions';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { serverError } from '../../data-sources/api/server-error.ts';
import { useProcedure, useSaveProcedure } from '../api/data-factory.ts';
import { DefinitionForm } from './DefinitionForm.tsx';
import { draftOf, draftProblems, inputOf, newDraft, type ProcedureDraft } from './procedure-draft.ts';
import { RunsPanel } from './RunsPanel.tsx';
import { SchedulesPanel } from './SchedulesPanel.tsx';
import { TestPanel } from './TestPanel.tsx';
import { VersionsPanel } from './VersionsPanel.tsx';
import { ProblemAlert, type Problem } from './ProblemAlert.tsx';
import '../i18n.ts';

export type EditorTab = 'definition' | 'test' | 'versions' | 'runs' | 'schedules';
export type EditorTarget = { kind: 'create' } | { kind: 'edit'; id: string; tab?: EditorTab };

/** Creates or edits a procedure; a saved one also has its test panel, run log, schedules and versions. */
export function ProcedureEditor({ target, onClose }: { target: EditorTarget | null; onClose(): void }) {
  return (
    <Drawer open={Boolean(target)} onClose={onClose} size={Grid.useBreakpoint().md === false ? '100%' : '80vw'} destroyOnHidden data-testid="factory-editor" title={null} closable={false} styles={{ body: { padding: 16 } }}>
      {target && <EditorBody key={target.kind === 'edit' ? target.id : 'new'} target={target} onClose={onClose} />}
    </Drawer>
  );
}

function EditorBody({ target, onClose }: { target: EditorTarget; onClose(): void }) {
  const { t } = useTranslation('dataFactory');
  const canRun = useAccess(P.DataFactoryRun);
  const [id, setId] = useState<string | null>(target.kind === 'edit' ? target.id : null);
  const stored = useProcedure(id);
  const [current, setCurrent] = useState<TProcedure | null>(null);
  const [draft, setDraft] = useState<ProcedureDraft | null>(target.kind === 'create' ? newDraft() : null);
  const [tab, setTab] = useState<EditorTab>(target.kind === 'edit' ? (target.tab ?? 'definition') : 'definition');
  const [tried, setTried] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const save = useSaveProcedure();

  // The stored copy when it arrives (once: later refetches must not overwrite the user's edits).
  useEffect(() => {
    if (stored.data && !current) {
      setCurrent(stored.data);
      setDraft(draftOf(stored.data));
    }
  }, [stored.data, current]);

  const procedure = current;
  const wrong = tried && draft ? draftProblems(draft) : new Set<string>();

  const submit = async () => {
    if (!draft) return;
    setTried(true);
    setProblem(null);
    if (draftProblems(draft).size > 0) return;
    try {
      const input = inputOf(draft);
      const saved = procedure ? await save.mutateAsync({ id: procedure.id, input: { ...input, concurrencyStamp: procedure.concurrencyStamp } }) : await save.mutateAsync({ id: null, input });
      feedback.message?.success(procedure ? t('editor.saved', { version: saved.version }) : t('editor.created'));
      setCurrent(saved);
      setId(saved.id);
      setTried(false);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) return setProblem({ title: t('editor.conflict'), messages: [] });
      const e = serverError(err);
      setProblem({ title: t('editor.saveFailed'), messages: [e.message, ...e.details] });
    }
  };

  const restored = (p: TProcedure) => {
    setCurrent(p);
    setDraft(draftOf(p));
  };

  if (!draft) return <Skeleton active />;
  const definition = (
    <>
      <ProblemAlert problem={problem} testId="factory-save-error" />
      <DefinitionForm draft={draft} onChange={setDraft} wrong={wrong} onSave={() => void submit()} saved={procedure !== null} />
      {procedure && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} data-testid="factory-permission">
          {t('editor.permission')}：<Typography.Text code copyable>{procedure.permissionCode}</Typography.Text>
          <br />
          {t('editor.permissionHint')}
        </Typography.Paragraph>
      )}
    </>
  );
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }} wrap>
        <strong data-testid="factory-editor-title">{procedure ? `${t('editor.editTitle', { name: procedure.name })} · v${procedure.version}` : t('editor.createTitle')}</strong>
        <Space>
          <Button onClick={onClose} data-testid="factory-editor-close">
            {t('editor.close')}
          </Button>
          {tab === 'definition' && (
            <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} onClick={() => void submit()} data-testid="factory-save">
              {t('editor.save')}
            </Button>
          )}
        </Space>
      </Space>
      {procedure ? (
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as EditorTab)}
          destroyOnHidden
          items={[
            { key: 'definition', label: t('editor.definition'), children: definition },
            ...(canRun
              ? [
                  { key: 'test', label: <span data-testid="factory-tab-test">{t('editor.testTab')}</span>, children: <TestPanel key={procedure.concurrencyStamp} procedure={procedure} /> },
                  { key: 'runs', label: <span data-testid="factory-tab-runs">{t('editor.runsTab')}</span>, children: <RunsPanel procedureId={procedure.id} /> },
                ]
              : []),
            { key: 'schedules', label: <span data-testid="factory-tab-schedules">{t('editor.schedulesTab')}</span>, children: <SchedulesPanel key={procedure.concurrencyStamp} procedure={procedure} /> },
            { key: 'versions', label: <span data-testid="factory-tab-versions">{t('editor.versionsTab')}</span>, children: <VersionsPanel procedure={procedure} onRolledBack={restored} /> },
          ]}
        />
      ) : (
        <>
          <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('editor.unsaved')} />
          {definition}
        </>
      )}
    </>
  );
}
