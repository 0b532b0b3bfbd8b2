import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import { Alert, Button, Checkbox, List, Modal, Result, Space, Spin, Table, Tag, Typography } from 'antd';
import type { TDesignCheckResult, TPageDefinitionDetail, TPublishBlocker, TPublishChange, TPublishPlan, TPublishResult } from '@tessera/core/contracts/pages';
import type { TErrorResponse } from '@tessera/core/contracts/common';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

type TFn = (k: string, o?: Record<string, unknown>) => string;
import { api, ApiError } from '../../../shared/api/client.ts';
import { pageKeys } from '../api/page-definitions.ts';
import { PageMenuSetup } from './PageMenuSetup.tsx';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { P } from '@tessera/core/contracts/permissions';
import { flushDraft } from './autosave.ts';
import { ProblemList } from './ChecksPanel.tsx';
import { indexDefinition } from './tree-ops.ts';
import { useDesigner } from './designer-store.ts';

// Publish: save the draft, show the dry run (`GET /{id}/publish-plan`): design problems, the schema
// changes, and what is refused — a narrowing whose values do not cast (count and sample rows), a
// removed control or view that still has data (publish only with "hide and keep"), conflicts.

interface Props {
  pageId: string;
  onClose(): void;
  onPublished(detail: TPageDefinitionDetail): void;
  onProblems(result: TDesignCheckResult): void;
}

type Phase = { kind: 'loading' } | { kind: 'plan'; plan: TPublishPlan } | { kind: 'error'; message: string } | { kind: 'done'; result: TPublishResult };

export function PublishModal({ pageId, onClose, onPublished, onProblems }: Props) {
  const { t } = useTranslation('pageDesigner');
  const client = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [confirmHide, setConfirmHide] = useState(false);
  const [publishing, setPublishing] = useState(false);

  const loadPlan = async () => {
    setPhase({ kind: 'loading' });
    if (!(await flushDraft())) {
      setPhase({ kind: 'error', message: useDesigner.getState().saveError ?? t('checks.notSaved') });
      return;
    }
    try {
      const plan = await api.get<TPublishPlan>(`/app/page-definition/${pageId}/publish-plan`, undefined, { silent: true });
      setPhase({ kind: 'plan', plan });
      onProblems({ ok: plan.problems.length === 0, problems: plan.problems });
    } catch (e) {
      setPhase({ kind: 'error', message: (e as Error).message });
    }
  };
  useEffect(() => {
    void loadPlan();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const publish = async () => {
    setPublishing(true);
    try {
      const result = await api.post<TPublishResult>(`/app/page-definition/${pageId}/publish`, { confirmHideColumns: confirmHide }, { silent: true });
      onPublished(result.page);
      void client.invalidateQueries({ queryKey: pageKeys.all });
      setPhase({ kind: 'done', result });
    } catch (e) {
      const details = e instanceof ApiError ? (e.body as TErrorResponse | undefined)?.error?.details : null;
      // 409 Pages.DataLoss / 400 Pages.DesignProblems: the refreshed plan shows why.
      if (details && typeof details === 'object' && 'blockers' in details) setPhase({ kind: 'plan', plan: details as TPublishPlan });
      else if (details && typeof details === 'object' && 'problems' in details) {
        const r = details as TDesignCheckResult;
        onProblems(r);
        setPhase((p) => (p.kind === 'plan' ? { kind: 'plan', plan: { ...p.plan, problems: r.problems, canPublish: false, needsConfirmation: false } } : p));
      } else setPhase({ kind: 'error', message: (e as Error).message });
    } finally {
      setPublishing(false);
    }
  };

  const plan = phase.kind === 'plan' ? phase.plan : null;
  // After the first publish, a menu (and its grants) in one step.
  const offerMenu = useAccess(P.MenusCreate) && phase.kind === 'done' && phase.result.version.version === 1;
  const canPress = plan ? plan.canPublish || (plan.needsConfirmation && confirmHide) : false;

  return (
    <Modal
      open
      width={760}
      title={t('publish.title')}
      onCancel={onClose}
      footer={
        phase.kind === 'done' ? (
          <Button type="primary" onClick={onClose}>
            {t('publish.close')}
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('publish.cancel')}</Button>
            <Button type="primary" danger={Boolean(plan?.needsConfirmation)} disabled={!canPress} loading={publishing} onClick={() => void publish()} data-testid="publish-confirm">
              {plan?.needsConfirmation ? t('publish.publishHiding') : t('publish.publish')}
            </Button>
          </Space>
        )
      }
    >
      <div data-testid="publish-dialog">
        {phase.kind === 'loading' && <Spin style={{ display: 'block', margin: '48px auto' }} />}
        {phase.kind === 'error' && (
          <Alert type="error" showIcon message={phase.message} action={<Button size="small" onClick={() => void loadPlan()}>{t('publish.retry')}</Button>} />
        )}
        {phase.kind === 'done' && (
          <>
            <Result
              status="success"
              title={t('publish.done', { version: phase.result.version.version })}
              subTitle={t('publish.doneHint', { count: phase.result.version.changeSummary.length })}
              data-testid="publish-done"
              style={offerMenu ? { paddingBottom: 8 } : undefined}
            />
            {offerMenu && <PageMenuSetup page={phase.result.page} onDone={onClose} />}
          </>
        )}
        {plan && <PlanView plan={plan} confirmHide={confirmHide} setConfirmHide={setConfirmHide} onPick={onClose} />}
      </div>
    </Modal>
  );
}

function PlanView({ plan, confirmHide, setConfirmHide, onPick }: { plan: TPublishPlan; confirmHide: boolean; setConfirmHide(v: boolean): void; onPick(): void }) {
  const { t } = useTranslation('pageDesigner');
  const def = useDesigner((s) => s.definition);
  const index = indexDefinition(def);
  const name = (viewId: string, controlId: string | null) => {
    const c = controlId ? index.get(controlId)?.control : undefined;
    const v = index.get(viewId)?.view;
    return [v?.code, c?.code].filter(Boolean).join('.') || viewId;
  };
  const refused = plan.blockers.filter((b) => b.kind !== 'removeWithData');
  const hidable = plan.blockers.filter((b): b is Extract<TPublishBlocker, { kind: 'removeWithData' }> => b.kind === 'removeWithData');
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <Typography.Text>
        {t('publish.nextVersion', { version: plan.nextVersion })}
      </Typography.Text>
      {plan.problems.length > 0 && (
        <Alert
          type="error"
          showIcon
          message={t('publish.problems', { count: plan.problems.length })}
          description={<ProblemList problems={plan.problems} onPick={onPick} />}
        />
      )}
      {refused.length > 0 && (
        <Alert
          type="error"
          showIcon
          icon={<CloseCircleFilled />}
          message={t('publish.refused')}
          data-testid="publish-refused"
          description={
            <Space direction="vertical" style={{ width: '100%' }}>
              {refused.map((b, i) => (
                <div key={i}>
                  <Typography.Text strong>{b.message}</Typography.Text>
                  {b.kind === 'narrowing' && (
                    <>
                      <div>{t('publish.narrowing', { column: b.column, from: b.fromType, to: b.toType, count: b.failingCount })}</div>
                      <Table
                        size="small"
                        pagination={false}
                        rowKey="id"
                        style={{ marginTop: 4 }}
                        dataSource={b.samples}
                        columns={[
                          { key: 'id', dataIndex: 'id', title: 'Id', ellipsis: true },
                          { key: 'value', dataIndex: 'value', title: t('publish.value') },
                        ]}
                      />
                    </>
                  )}
                </div>
              ))}
            </Space>
          }
        />
      )}
      {hidable.length > 0 && (
        <Alert
          type="warning"
          showIcon
          icon={<ExclamationCircleFilled />}
          message={t('publish.dataLoss')}
          data-testid="publish-hide"
          description={
            <>
              <List
                size="small"
                dataSource={hidable}
                renderItem={(b) => (
                  <List.Item>
                    {b.message} <Tag>{t('publish.rows', { count: b.rowCount })}</Tag>
                  </List.Item>
                )}
              />
              <Checkbox checked={confirmHide} onChange={(e) => setConfirmHide(e.target.checked)} disabled={!plan.needsConfirmation}>
                {t('publish.hideAndKeep')}
              </Checkbox>
            </>
          }
        />
      )}
      {plan.problems.length === 0 && refused.length === 0 && (
        <div>
          <Typography.Text strong>
            <CheckCircleFilled style={{ color: '#52c41a', marginRight: 6 }} />
            {plan.changes.length ? t('publish.changes', { count: plan.changes.length }) : t('publish.noChanges')}
          </Typography.Text>
          <List size="small" dataSource={plan.changes} data-testid="publish-changes" renderItem={(c) => <List.Item>{describeChange(c, t as unknown as TFn, name)}</List.Item>} style={{ maxHeight: 260, overflow: 'auto' }} />
        </div>
      )}
    </Space>
  );
}

function describeChange(c: TPublishChange, t: TFn, name: (viewId: string, controlId: string | null) => string): string {
  switch (c.kind) {
    case 'createTable':
      return t('change.createTable', { view: c.viewCode, columns: c.columns });
    case 'addColumn':
      return t('change.addColumn', { column: name(c.viewId, c.controlId), type: c.sqlType });
    case 'alterType':
      return t('change.alterType', { column: name(c.viewId, c.controlId), from: c.fromType, to: c.toType });
    case 'renameColumn':
      return t('change.renameColumn', { from: c.from, to: c.to });
    case 'dropColumn':
      return t('change.dropColumn', { column: c.column });
    case 'hideColumn':
      return t('change.hideColumn', { column: c.column, count: c.rowCount });
    case 'unhideColumn':
      return t('change.unhideColumn', { column: c.column });
    case 'dropTable':
      return t('change.dropTable', { table: c.table });
    case 'hideTable':
      return t('change.hideTable', { table: c.table, count: c.rowCount });
    case 'setParent':
      return t('change.setParent', { table: c.table });
    case 'createIndex':
      return t('change.createIndex', { column: c.column });
  }
}
