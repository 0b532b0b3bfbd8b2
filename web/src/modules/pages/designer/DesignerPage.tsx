import {
  ArrowLeftOutlined,
  CheckCircleOutlined,
  CloudUploadOutlined,
  CopyOutlined,
  DeleteOutlined,
  EyeOutlined,
  RedoOutlined,
  SafetyCertificateOutlined,
  SnippetsOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Button, Divider, Empty, Result, Select, Space, Spin, Tabs, Tag, theme, Tooltip, Typography } from 'antd';
import { VIEW_TYPES, type TPageDefinitionDetail, type TPageStatus } from '@tessera/core/contracts/pages';
import { ZPageDefinition } from '@tessera/core/page-definition';
import { useCallback, useEffect, useMemo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { fetchPageDefinition, useControlDesigner, usePageDefinitions } from '../api/page-definitions.ts';
import { flushDraft, useAutosave } from './autosave.ts';
import { ButtonsPanel } from './ButtonsPanel.tsx';
import { ChecksPanel, useDesignChecks } from './ChecksPanel.tsx';
import { DesignerCanvas } from './DesignerCanvas.tsx';
import { applyDrop, DesignerDnd } from './DesignerDnd.tsx';
import { useDesigner, type SidePanel } from './designer-store.ts';
import './designer-texts.ts';
import './designer.css';
import { LinkagesPanel } from './LinkagesPanel.tsx';
import { Palette } from './Palette.tsx';
import { buildPaletteIndex, type PaletteIndex } from './palette-index.ts';
import { PreviewModal } from './PreviewModal.tsx';
import { PropertiesPanel } from './PropertiesPanel.tsx';
import { PublishModal } from './PublishModal.tsx';
import { indexDefinition } from './tree-ops.ts';

/**
 * `/pageDefinition?id=<page id>` (spec §2, standalone): the page designer. Three panes — palette,
 * canvas, properties / buttons / linkages / checks — with autosaved drafts, preview and publish.
 */
export default function DesignerPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  return id ? <Designer key={id} pageId={id} /> : <PickPage />;
}

/** No page given: pick one (the list page `/design/form` creates them). */
function PickPage() {
  const { t, i18n } = useTranslation('pageDesigner');
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const list = usePageDefinitions({ SkipCount: 0, MaxResultCount: 50, Filter: search || undefined, Sorting: 'lastModificationTime desc' } as never);
  return (
    <Result
      icon={<SnippetsOutlined />}
      title={t('designer.pickTitle')}
      subTitle={t('designer.pickHint')}
      extra={
        <Space direction="vertical" style={{ width: 420 }}>
          <Select
            showSearch={{ filterOption: false, onSearch: setSearch }}
            style={{ width: '100%' }}
            placeholder={t('designer.pickPlaceholder')}
            loading={list.isFetching}
            aria-label={t('designer.pickPlaceholder')}
            onChange={(v: string) => navigate(`/pageDefinition?id=${v}`)}
            options={(list.data?.items ?? []).map((p) => ({ value: p.id, label: `${pickText(p.name, i18n.language)} (${p.code})` }))}
          />
          <Button onClick={() => navigate('/design/form')}>{t('designer.toList')}</Button>
        </Space>
      }
    />
  );
}

const statusColor: Record<TPageStatus, string> = { draft: 'default', published: 'success', modified: 'warning' };

function Designer({ pageId }: { pageId: string }) {
  const { t, i18n } = useTranslation('pageDesigner');
  const navigate = useNavigate();
  const paletteQuery = useControlDesigner();
  // Always the server's current draft when the designer opens (never a cached copy).
  const detailQuery = useQuery({ queryKey: ['designer', 'page', pageId], queryFn: () => fetchPageDefinition(pageId), gcTime: 0, staleTime: Infinity, refetchOnWindowFocus: false });
  const [meta, setMeta] = useState<Pick<TPageDefinitionDetail, 'code' | 'name' | 'status' | 'publishedVersion'> | null>(null);
  const loaded = useDesigner((s) => s.pageId === pageId);

  useEffect(() => {
    const d = detailQuery.data;
    if (!d) return;
    const definition = ZPageDefinition.parse(d.definition);
    useDesigner.getState().load(pageId, definition, d.concurrencyStamp);
    setMeta({ code: d.code, name: d.name, status: d.status, publishedVersion: d.publishedVersion });
  }, [detailQuery.data, detailQuery.dataUpdatedAt, pageId]);
  useEffect(
    () => () => {
      // Leaving: the store forgets this page (autosave flushed what was pending).
      if (useDesigner.getState().pageId === pageId) useDesigner.setState({ pageId: null });
    },
    [pageId],
  );

  const onSaved = useCallback((d: TPageDefinitionDetail) => setMeta({ code: d.code, name: d.name, status: d.status, publishedVersion: d.publishedVersion }), []);
  useAutosave(onSaved);

  const palette = useMemo(() => (paletteQuery.data ? buildPaletteIndex(paletteQuery.data, i18n.language) : null), [paletteQuery.data, i18n.language]);

  if (detailQuery.isError || paletteQuery.isError) {
    return (
      <Result
        status="warning"
        title={t('designer.loadFailed')}
        subTitle={(detailQuery.error ?? paletteQuery.error)?.message}
        extra={<Button onClick={() => navigate('/design/form')}>{t('designer.toList')}</Button>}
      />
    );
  }
  if (!palette || !meta || !loaded) return <Spin size="large" style={{ display: 'block', margin: '120px auto' }} />;
  return <DesignerShell pageId={pageId} palette={palette} meta={meta} onMeta={setMeta} reload={() => void detailQuery.refetch()} />;
}

interface ShellProps {
  pageId: string;
  palette: PaletteIndex;
  meta: Pick<TPageDefinitionDetail, 'code' | 'name' | 'status' | 'publishedVersion'>;
  onMeta(meta: ShellProps['meta']): void;
  reload(): void;
}

function DesignerShell({ pageId, palette, meta, onMeta, reload }: ShellProps) {
  const { t, i18n } = useTranslation('pageDesigner');
  const navigate = useNavigate();
  const panel = useDesigner((s) => s.panel);
  const saveState = useDesigner((s) => s.saveState);
  const saveError = useDesigner((s) => s.saveError);
  const canUndo = useDesigner((s) => s.past.length > 0);
  const canRedo = useDesigner((s) => s.future.length > 0);
  const hasSelection = useDesigner((s) => s.selection.length > 0);
  const hasClipboard = useDesigner((s) => s.clipboard !== null);
  const [previewOpen, setPreviewOpen] = useState(false);
  const [publishOpen, setPublishOpen] = useState(false);
  const checks = useDesignChecks(pageId);
  const problemIds = useMemo(() => new Set((checks.result?.problems ?? []).flatMap((p) => [p.controlId, p.viewId].filter((x): x is string => Boolean(x)))), [checks.result]);

  useDesignerKeys(!previewOpen && !publishOpen);
  const { token } = theme.useToken();
  const colours = {
    '--dz-bg': token.colorBgLayout,
    '--dz-panel': token.colorBgContainer,
    '--dz-elevated': token.colorBgElevated,
    '--dz-border': token.colorBorderSecondary,
    '--dz-border-strong': token.colorBorder,
    '--dz-text': token.colorText,
    '--dz-text-2': token.colorTextSecondary,
    '--dz-text-3': token.colorTextQuaternary,
    '--dz-primary': token.colorPrimary,
    '--dz-primary-hover': token.colorPrimaryBorderHover,
    '--dz-primary-bg': token.colorPrimaryBg,
    '--dz-fill': token.colorFillQuaternary,
    '--dz-error': token.colorError,
  } as CSSProperties;

  const addControl = (controlType: number) => {
    const s = useDesigner.getState();
    const index = indexDefinition(s.definition);
    const sel = s.selection[0] ? index.get(s.selection[0]) : undefined;
    let viewId = sel?.kind === 'view' ? sel.view!.id : sel?.kind === 'control' ? sel.ownerId : null;
    if (viewId && Number(index.get(viewId)?.view?.viewType) === VIEW_TYPES.container) viewId = null;
    viewId ??= [...index.values()].find((l) => l.kind === 'view' && Number(l.view!.viewType) !== VIEW_TYPES.container)?.view!.id ?? null;
    const at = sel?.kind === 'control' ? sel.index + 1 : viewId ? (index.get(viewId)?.view?.dataControls.length ?? 0) : 0;
    applyDrop({ kind: 'palette-control', controlType }, { action: { type: 'controls', viewId, index: at } }, palette, { form: t('designer.defaultFormTitle') });
  };
  const addView = (viewType: number) => {
    const s = useDesigner.getState();
    const index = indexDefinition(s.definition);
    const sel = s.selection[0] ? index.get(s.selection[0]) : undefined;
    const parent = sel?.kind === 'view' && Number(sel.view!.viewType) !== VIEW_TYPES.grid && !(viewType === VIEW_TYPES.container && Number(sel.view!.viewType) === VIEW_TYPES.container) ? sel.view! : null;
    const at = parent ? (parent.viewControls?.length ?? 0) : s.definition.viewControls.length;
    applyDrop({ kind: 'palette-view', viewType }, { action: { type: 'view', parentId: parent?.id ?? null, index: at } }, palette, { form: t('designer.defaultFormTitle') });
  };

  const openChecks = async () => {
    useDesigner.getState().setPanel('checks');
    await checks.run();
  };

  const saveLabel =
    saveState === 'saved' ? t('save.saved') : saveState === 'saving' ? t('save.saving') : saveState === 'dirty' ? t('save.dirty') : saveState === 'conflict' ? t('save.conflict') : t('save.error');
  const saveColor = saveState === 'saved' ? 'success' : saveState === 'saving' || saveState === 'dirty' ? 'processing' : 'error';
  const problemCount = checks.result?.problems.length ?? 0;

  return (
    <div className="dz-root" data-testid="page-designer" style={colours}>
      <div className="dz-toolbar">
        <Tooltip title={t('designer.toList')}>
          <Button icon={<ArrowLeftOutlined />} aria-label={t('designer.toList')} onClick={() => void flushDraft().finally(() => navigate('/design/form'))} />
        </Tooltip>
        <Typography.Text strong style={{ fontSize: 15 }}>
          {pickText(meta.name, i18n.language)}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontFamily: 'ui-monospace, Menlo, monospace' }}>
          {meta.code}
        </Typography.Text>
        <Tag color={statusColor[meta.status]} data-testid="page-status">
          {t(`status.${meta.status}`)}
          {meta.publishedVersion ? ` v${meta.publishedVersion}` : ''}
        </Tag>
        <Tooltip title={saveError ?? undefined}>
          <Badge status={saveColor} text={<span className="dz-save" data-testid="save-state" data-state={saveState}>{saveLabel}</span>} />
        </Tooltip>
        {saveState === 'error' && saveError && (
          <Typography.Text type="danger" ellipsis={{ tooltip: saveError }} style={{ maxWidth: 360, fontSize: 12 }} data-testid="save-error">
            {t('save.errorText', { message: saveError })}
          </Typography.Text>
        )}
        <Divider type="vertical" />
        <Space.Compact>
          <Tooltip title={`${t('edit.undo')} (Ctrl+Z)`}>
            <Button icon={<UndoOutlined />} disabled={!canUndo} aria-label={t('edit.undo')} onClick={() => useDesigner.getState().undo()} />
          </Tooltip>
          <Tooltip title={`${t('edit.redo')} (Ctrl+Shift+Z)`}>
            <Button icon={<RedoOutlined />} disabled={!canRedo} aria-label={t('edit.redo')} onClick={() => useDesigner.getState().redo()} />
          </Tooltip>
          <Tooltip title={`${t('edit.copy')} (Ctrl+C)`}>
            <Button icon={<CopyOutlined />} disabled={!hasSelection} aria-label={t('edit.copy')} onClick={() => useDesigner.getState().copySelection()} />
          </Tooltip>
          <Tooltip title={`${t('edit.paste')} (Ctrl+V)`}>
            <Button icon={<SnippetsOutlined />} disabled={!hasClipboard} aria-label={t('edit.paste')} onClick={() => useDesigner.getState().pasteClipboard()} />
          </Tooltip>
          <Tooltip title={`${t('edit.delete')} (Delete)`}>
            <Button icon={<DeleteOutlined />} disabled={!hasSelection} aria-label={t('edit.delete')} onClick={() => useDesigner.getState().deleteSelection()} />
          </Tooltip>
        </Space.Compact>
        <div style={{ flex: 1 }} />
        <Button icon={<EyeOutlined />} onClick={() => setPreviewOpen(true)}>
          {t('designer.preview')}
        </Button>
        <Badge count={problemCount} size="small" offset={[-4, 2]}>
          <Button icon={problemCount ? <SafetyCertificateOutlined /> : <CheckCircleOutlined />} onClick={() => void openChecks()} loading={checks.running}>
            {t('designer.check')}
          </Button>
        </Badge>
        <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => setPublishOpen(true)} disabled={saveState === 'conflict'}>
          {t('designer.publish')}
        </Button>
      </div>
      {saveState === 'conflict' && (
        <Alert
          type="error"
          showIcon
          banner
          message={t('save.conflictText')}
          action={
            <Button size="small" danger onClick={reload}>
              {t('save.reload')}
            </Button>
          }
        />
      )}
      <DesignerDnd palette={palette}>
        <div className="dz-panes">
          <Palette palette={palette} onAddControl={addControl} onAddView={addView} />
          <DesignerCanvas palette={palette} problemIds={problemIds} />
          <aside className="dz-props" aria-label={t('designer.sidePanel')}>
            <Tabs
              activeKey={panel}
              onChange={(k) => {
                useDesigner.getState().setPanel(k as SidePanel);
                if (k === 'checks') void checks.run();
              }}
              items={[
                { key: 'properties', label: t('panel.properties'), children: <PropertiesPanel palette={palette} /> },
                { key: 'buttons', label: t('panel.buttons'), children: <ButtonsPanel palette={palette} /> },
                { key: 'linkages', label: t('panel.linkages'), children: <LinkagesPanel /> },
                {
                  key: 'checks',
                  label: (
                    <span>
                      {t('panel.checks')} {problemCount > 0 && <Badge count={problemCount} size="small" />}
                    </span>
                  ),
                  children: <ChecksPanel checks={checks} />,
                },
              ]}
            />
          </aside>
        </div>
      </DesignerDnd>
      {previewOpen && <PreviewModal onClose={() => setPreviewOpen(false)} />}
      {publishOpen && (
        <PublishModal
          pageId={pageId}
          onClose={() => setPublishOpen(false)}
          onPublished={(detail) => {
            onMeta({ code: detail.code, name: detail.name, status: detail.status, publishedVersion: detail.publishedVersion });
            useDesigner.setState({ concurrencyStamp: detail.concurrencyStamp });
          }}
          onProblems={(result) => checks.set(result)}
        />
      )}
    </div>
  );
}

const isTyping = (target: EventTarget | null) => {
  const el = target as HTMLElement | null;
  if (!el) return false;
  if (el.isContentEditable || el.closest('[contenteditable="true"], .cm-editor')) return true;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
};

/** Delete, Ctrl+C / X / V, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, Escape — outside text inputs and dialogs. */
function useDesignerKeys(enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || (e.target as HTMLElement | null)?.closest?.('.ant-modal, .ant-select-dropdown, .ant-popover')) return;
      const s = useDesigner.getState();
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if ((e.key === 'Delete' || e.key === 'Backspace') && s.selection.length) {
        e.preventDefault();
        s.deleteSelection();
      } else if (mod && key === 'z') {
        e.preventDefault();
        if (e.shiftKey) s.redo();
        else s.undo();
      } else if (mod && key === 'y') {
        e.preventDefault();
        s.redo();
      } else if (mod && key === 'c' && s.selection.length) {
        e.preventDefault();
        s.copySelection();
      } else if (mod && key === 'x' && s.selection.length) {
        e.preventDefault();
        s.cutSelection();
      } else if (mod && key === 'v' && s.clipboard) {
        e.preventDefault();
        s.pasteClipboard();
      } else if (e.key === 'Escape') {
        s.select(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}

export function EmptyPanel({ text }: { text: string }) {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} style={{ marginTop: 48 }} />;
}
