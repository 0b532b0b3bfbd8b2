import { ApartmentOutlined, ArrowLeftOutlined, CloudUploadOutlined, DeleteOutlined, NodeIndexOutlined, RedoOutlined, SaveOutlined, SettingOutlined, UndoOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Result, Select, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import type { TOrganizationUnitNode } from '@tessera/core/contracts/identity';
import type { TWorkflowDefinitionDetail, TWorkflowProblem } from '@tessera/core/contracts/workflow';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, errorText } from '../../../shared/api/client.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { fetchWorkflowVersion, publishWorkflow, saveWorkflowDefinition, useWorkflowDefinition, useWorkflowDefinitions, workflowKeys } from '../api/workflow-definitions.ts';
import { usePublishedPageDefinition, useRoles, useUnitTree, useUserDirectory } from '../api/workflow-lookups.ts';
import '../i18n.ts';
import { DefinitionSettingsModal } from './DefinitionSettingsModal.tsx';
import { FlowDesigner, type FlowDesignerHandle } from './FlowDesigner.tsx';
import { useFlowColours } from './flow-colours.ts';
import type { GraphProblem } from './graph-checks.ts';
import type { WfGraph } from './graph-model.ts';
import type { NameBook } from './node-summary.ts';
import { pageFieldsOf } from './page-fields.ts';

/**
 * `/flow?id=<definition id>` (spec §2, standalone): the workflow canvas designer. `&readonly=1`
 * shows it read-only; `&version=N` shows a published version (read-only).
 */
export default function FlowDesignerPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const version = Number(params.get('version')) || null;
  const readOnly = params.get('readonly') === '1' || version !== null;
  return id ? <DefinitionDesigner key={`${id}:${version}`} id={id} version={version} readOnly={readOnly} /> : <PickDefinition />;
}

function PickDefinition() {
  const { t } = useTranslation('workflow');
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const list = useWorkflowDefinitions({ SkipCount: 0, MaxResultCount: 50, Filter: search || undefined, Sorting: 'lastModificationTime desc' });
  return (
    <Result
      icon={<ApartmentOutlined />}
      title={t('designer.pickTitle')}
      subTitle={t('designer.pickHint')}
      extra={
        <Space direction="vertical" style={{ width: 'min(420px, 90vw)' }}>
          <Select
            showSearch={{ filterOption: false, onSearch: setSearch }}
            style={{ width: '100%' }}
            placeholder={t('designer.pickPlaceholder')}
            aria-label={t('designer.pickPlaceholder')}
            loading={list.isFetching}
            onChange={(v: string) => navigate(`/flow?id=${encodeURIComponent(v)}`)}
            options={(list.data?.items ?? []).map((d) => ({ value: d.id, label: d.name }))}
          />
          <Button onClick={() => navigate('/design/workflow')}>{t('designer.toList')}</Button>
        </Space>
      }
    />
  );
}

function flattenUnits(units: TOrganizationUnitNode[], out = new Map<string, string>()) {
  for (const u of units) {
    out.set(u.id, u.displayName);
    flattenUnits(u.children, out);
  }
  return out;
}

function DefinitionDesigner({ id, version, readOnly }: { id: string; version: number | null; readOnly: boolean }) {
  const { t, i18n } = useTranslation('workflow');
  const navigate = useNavigate();
  const client = useQueryClient();
  const definition = useWorkflowDefinition(id);
  const versionDetail = useQuery({ queryKey: workflowKeys.version(id, version ?? 0), queryFn: () => fetchWorkflowVersion(id, version!), enabled: version !== null });
  const pageDef = usePublishedPageDefinition(definition.data?.pageId);
  const roles = useRoles();
  const units = useUnitTree();
  const users = useUserDirectory();
  const [handle, setHandle] = useState<FlowDesignerHandle | null>(null);
  const [meta, setMeta] = useState<TWorkflowDefinitionDetail | null>(null);
  const [saving, setSaving] = useState(false);
  const [stale, setStale] = useState(false);
  const [serverProblems, setServerProblems] = useState<GraphProblem[]>([]);
  const [settingsOpen, setSettingsOpen] = useState(false);
  /** Name, description or condition changed in the settings dialog since the last save. */
  const [metaDirty, setMetaDirty] = useState(false);
  const colours = useFlowColours().style;

  useEffect(() => {
    if (definition.data && !meta) setMeta(definition.data);
  }, [definition.data, meta]);

  const page = useMemo(() => pageFieldsOf(pageDef.data?.definition as never, i18n.language), [pageDef.data, i18n.language]);
  const names = useMemo<NameBook>(() => {
    const roleNames = new Map((roles.data?.items ?? []).map((r) => [r.id, r.name]));
    const unitNames = flattenUnits(units.data ?? []);
    const userNames = new Map((users.data?.items ?? []).map((u) => [u.id, personDisplayName(u, i18n.language)]));
    const fieldNames = new Map(page.fields.map((f) => [f.ref, f.title]));
    return {
      user: (uid) => userNames.get(uid) ?? uid.slice(0, 8),
      role: (rid) => roleNames.get(rid) ?? rid.slice(0, 8),
      unit: (oid) => unitNames.get(oid) ?? oid.slice(0, 8),
      field: (ref) => fieldNames.get(ref) ?? ref,
    };
  }, [roles.data, units.data, users.data, page, i18n.language]);

  const dirty = (Boolean(handle?.dirty) || metaDirty) && !readOnly;
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const save = useCallback(async (): Promise<TWorkflowDefinitionDetail | null> => {
    if (!handle || !meta || readOnly) return null;
    const graph: WfGraph = handle.graph;
    setSaving(true);
    try {
      const next = await saveWorkflowDefinition(id, {
        name: meta.name,
        description: meta.description,
        pageId: meta.pageId,
        condition: meta.condition,
        graph,
        concurrencyStamp: meta.concurrencyStamp,
      });
      setMeta(next);
      setMetaDirty(false);
      handle.markSaved(graph);
      client.setQueryData(workflowKeys.detail(id), next);
      void client.invalidateQueries({ queryKey: ['workflow-definitions', 'list'] });
      feedback.message?.success(t('designer.saved'));
      return next;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) setStale(true);
      else feedback.message?.error(errorText(err));
      return null;
    } finally {
      setSaving(false);
    }
  }, [handle, meta, readOnly, id, client, t]);

  const publish = async () => {
    if (!handle || !meta) return;
    if (handle.problems.length > 0) {
      handle.showProblems();
      feedback.message?.error(t('designer.publishBlocked', { count: handle.problems.length }));
      return;
    }
    const current = handle.dirty || metaDirty ? await save() : meta;
    if (!current) return;
    setSaving(true);
    try {
      const result = await publishWorkflow(id, { concurrencyStamp: current.concurrencyStamp });
      setMeta(result.definition);
      setServerProblems([]);
      client.setQueryData(workflowKeys.detail(id), result.definition);
      void client.invalidateQueries({ queryKey: ['workflow-definitions', 'list'] });
      void client.invalidateQueries({ queryKey: workflowKeys.versions(id) });
      feedback.message?.success(t('designer.published', { version: result.version }));
    } catch (err) {
      const body = err instanceof ApiError ? (err.body as { error?: { code?: string; details?: { problems?: TWorkflowProblem[] } } } | undefined) : undefined;
      if (err instanceof ApiError && err.status === 409) setStale(true);
      else if (body?.error?.code === 'Workflow.GraphProblems') {
        setServerProblems(body.error.details?.problems ?? []);
        handle.showProblems();
        feedback.message?.error(t('list.publishFailed'));
      } else feedback.message?.error((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  const back = () => {
    if (dirty) {
      feedback.modal?.confirm({ title: t('designer.unsavedLeave'), okText: t('list.ok'), cancelText: t('list.cancel'), onOk: () => navigate('/design/workflow') });
    } else navigate('/design/workflow');
  };

  if (definition.isError) return <Result status="404" title={t('designer.notFound')} extra={<Button onClick={() => navigate('/design/workflow')}>{t('designer.toList')}</Button>} />;
  const graph = version !== null ? versionDetail.data?.graph : definition.data?.graph;
  if (!graph || !meta) return <Spin size="large" style={{ display: 'block', margin: '20vh auto' }} />;

  const status = version !== null ? t('designer.version', { version }) : meta.publishedVersion === null ? t('designer.draft') : t('designer.version', { version: meta.publishedVersion });
  return (
    <div className="wf-page" style={colours}>
      <header className="wf-toolbar">
        <Space size={8} className="wf-toolbar-title">
          <Tooltip title={t('designer.toList')}>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={back} aria-label={t('designer.toList')} />
          </Tooltip>
          <Typography.Text strong ellipsis style={{ maxWidth: 260 }} data-testid="wf-title">
            {meta.name}
          </Typography.Text>
          <Tag color={meta.publishedVersion === null ? 'default' : 'green'} data-testid="wf-status">
            {status}
          </Tag>
          {version === null && meta.publishedVersion !== null && meta.hasDraftChanges && <Tag color="orange">{t('designer.modified')}</Tag>}
          {readOnly && <Tag color="blue">{t('designer.readOnly')}</Tag>}
        </Space>
        {!readOnly && (
          <Space size={4} wrap className="wf-toolbar-actions">
            <Tooltip title={t('designer.undo')}>
              <Button icon={<UndoOutlined />} disabled={!handle?.canUndo} onClick={handle?.undo} aria-label={t('designer.undo')} data-testid="wf-undo" />
            </Tooltip>
            <Tooltip title={t('designer.redo')}>
              <Button icon={<RedoOutlined />} disabled={!handle?.canRedo} onClick={handle?.redo} aria-label={t('designer.redo')} data-testid="wf-redo" />
            </Tooltip>
            <Tooltip title={t('designer.deleteSelected')}>
              <Button icon={<DeleteOutlined />} disabled={!handle?.hasSelection} onClick={handle?.removeSelection} aria-label={t('designer.deleteSelected')} />
            </Tooltip>
            <Tooltip title={t('designer.settings')}>
              <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)} aria-label={t('designer.settings')} data-testid="wf-settings" />
            </Tooltip>
            <Tooltip title={t('designer.layout')}>
              <Button icon={<NodeIndexOutlined />} onClick={handle?.layout} aria-label={t('designer.layout')} data-testid="wf-layout">
                <span className="wf-hide-narrow">{t('designer.layout')}</span>
              </Button>
            </Tooltip>
            <Typography.Text type="secondary" className="wf-save-state wf-hide-narrow" data-testid="wf-save-state">
              {saving ? t('designer.saving') : dirty ? t('designer.unsaved') : t('designer.saved')}
            </Typography.Text>
            <Button icon={<SaveOutlined />} onClick={() => void save()} loading={saving} disabled={stale} data-testid="wf-save">
              {t('designer.save')}
            </Button>
            <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => void publish()} disabled={saving || stale} data-testid="wf-publish">
              {t('designer.publish')}
            </Button>
          </Space>
        )}
      </header>
      {stale && (
        <Alert
          type="error"
          showIcon
          banner
          title={t('designer.stale')}
          action={
            <Button size="small" onClick={() => window.location.reload()}>
              {t('designer.reload')}
            </Button>
          }
          data-testid="wf-stale"
        />
      )}
      <FlowDesigner
        initialGraph={graph}
        readOnly={readOnly}
        names={names}
        page={page}
        definitionCondition={meta.condition}
        serverProblems={serverProblems}
        onState={setHandle}
        onSaveShortcut={() => void save()}
      />
      <DefinitionSettingsModal
        open={settingsOpen}
        value={meta}
        page={page}
        onClose={() => setSettingsOpen(false)}
        onChange={(next) => {
          setMeta({ ...meta, ...next });
          setMetaDirty(true);
        }}
      />
    </div>
  );
}
