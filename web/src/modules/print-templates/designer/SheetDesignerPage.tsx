import { ArrowLeftOutlined, CloudUploadOutlined, EyeOutlined, RedoOutlined, SaveOutlined, SettingOutlined, UndoOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Result, Select, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { paperSize, PRINT_LIMITS, ZPrintLayout, type TPrintTemplateDetail } from '@tessera/core/contracts/print-templates';
import { localizeCoreMessage } from '@tessera/core/messages/core-messages';
import zodChinese from 'zod/v4/locales/zh-CN.js';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate, useSearchParams } from 'react-router';
import { ApiError, errorText } from '../../../shared/api/client.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { fetchPrintTemplate, printTemplateKeys, publishPrintTemplate, savePrintTemplate, usePrintPageDesign, usePrintTemplate } from '../api/print-templates.ts';
import '../i18n.ts';
import { showPublishFailure } from '../pages/publish-problems.tsx';
import { ElementProperties } from './ElementProperties.tsx';
import { clickSpot, duplicatedElement, fieldElement, paletteElement, tableFromView } from './layout-ops.ts';
import { Palette, type AddPayload } from './Palette.tsx';
import { PaperCanvas } from './PaperCanvas.tsx';
import { PaperProperties } from './PaperProperties.tsx';
import { printablePage, unboundElementIds } from './page-views.ts';
import { PreviewModal } from './PreviewModal.tsx';
import { PickTemplate } from './PickTemplate.tsx';
import { TemplateSettingsModal } from './TemplateSettingsModal.tsx';
import { useDesignerKeys } from './use-designer-keys.ts';
import { useFitScale } from './use-fit-scale.ts';
import { useLayoutEditor } from './use-layout-editor.ts';
import './sheet-designer.css';

const LIST_PATH = '/design/sheetIndex';
/** CSS pixels per millimetre at 100 %. */
const MM_PX = 96 / 25.4;
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

/** `/sheet?id=<template id>` (spec §2, standalone): the print template's canvas designer. */
export default function SheetDesignerPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  return id ? <TemplateLoader key={id} id={id} /> : <PickTemplate />;
}

function TemplateLoader({ id }: { id: string }) {
  const { t } = useTranslation('print');
  const navigate = useNavigate();
  const template = usePrintTemplate(id);
  if (template.isError) return <Result status="404" title={t('designer.notFound')} extra={<Button onClick={() => navigate(LIST_PATH)}>{t('designer.toList')}</Button>} />;
  if (!template.data) return <Spin size="large" style={{ display: 'block', margin: '20vh auto' }} />;
  return <SheetDesigner template={template.data} />;
}

function SheetDesigner({ template }: { template: TPrintTemplateDetail }) {
  const { t, i18n } = useTranslation('print');
  const navigate = useNavigate();
  const client = useQueryClient();
  const editor = useLayoutEditor(template.layout);
  const [meta, setMeta] = useState(template);
  const [metaDirty, setMetaDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [stale, setStale] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const design = usePrintPageDesign(meta.pageId);
  const page = useMemo(() => printablePage(design.data?.definition, i18n.language), [design.data, i18n.language]);
  const { layout } = editor;
  const { ref: centreRef, fit } = useFitScale(paperSize(layout.paper).width);
  const scale = zoom === 'fit' ? fit : zoom * MM_PX;
  const dirty = editor.dirty || metaDirty;
  // Marked only once the page's design is known (an empty page would mark every bound element).
  const unbound = useMemo(() => (design.data ? unboundElementIds(layout.elements, page) : new Set<string>()), [design.data, layout.elements, page]);

  const titles = useMemo(() => {
    const master = new Map(page.masterFields.map((f) => [f.code, f.title]));
    const views = new Map(page.childViews.map((v) => [v.code, new Map(v.fields.map((f) => [f.code, f.title]))]));
    return { field: (code: string) => master.get(code) ?? code, viewField: (view: string, code: string) => views.get(view)?.get(code) ?? code };
  }, [page]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const add = (payload: AddPayload, at?: { x: number; y: number }) => {
    const where = at ?? clickSpot(layout, payload.kind === 'palette' ? payload.item : null);
    const element =
      payload.kind === 'field'
        ? fieldElement(page.masterFields.find((f) => f.code === payload.code) ?? { code: payload.code, title: '' }, where)
        : payload.kind === 'view'
          ? (() => {
              const view = page.childViews.find((v) => v.code === payload.code);
              return view && view.fields.length > 0 ? tableFromView(view, layout.paper, where.y) : null;
            })()
          : paletteElement(payload.item, { paper: layout.paper, at: where, staticText: t('palette.newText'), masterFields: page.masterFields, childViews: page.childViews });
    if (!element) return void feedback.message?.warning(t('palette.nothingToBind'));
    if (layout.elements.length >= PRINT_LIMITS.elements) return;
    editor.add(element);
  };

  /** Problems the contract finds in the layout (shown; nothing is sent). */
  const checkLayout = () => {
    // zod's own texts in Chinese for a Chinese reader; the contract's own texts through the core catalogue.
    const parsed = ZPrintLayout.safeParse(layout, /^zh\b/.test(i18n.language) ? { error: zodChinese().localeError } : undefined);
    if (parsed.success) return true;
    feedback.modal?.error({
      title: t('designer.invalid', { count: parsed.error.issues.length }),
      content: (
        <ul data-testid="print-layout-problems">
          {parsed.error.issues.slice(0, 20).map((issue, i) => {
            const [, index] = issue.path;
            const element = typeof index === 'number' && issue.path[0] === 'elements' ? layout.elements[index] : undefined;
            return (
              <li key={i}>
                {element ? `${t(`props.types.${element.type}`)} #${Number(index) + 1}` : issue.path.join('.')}
                {element && issue.path.length > 2 ? ` · ${issue.path.slice(2).join('.')}` : ''}: {localizeCoreMessage(issue.message, i18n.language)}
              </li>
            );
          })}
        </ul>
      ),
      okText: t('list.ok'),
    });
    return false;
  };

  const save = useCallback(async (): Promise<TPrintTemplateDetail | null> => {
    if (saving || stale || !checkLayout()) return null;
    const sent = layout;
    setSaving(true);
    try {
      const next = await savePrintTemplate(meta.id, {
        name: meta.name,
        description: meta.description,
        pageId: meta.pageId,
        layout: sent,
        permissionCode: meta.permissionCode,
        approvedOnly: meta.approvedOnly,
        concurrencyStamp: meta.concurrencyStamp,
      });
      setMeta(next);
      setMetaDirty(false);
      editor.markSaved(sent);
      client.setQueryData(printTemplateKeys.detail(meta.id), next);
      void client.invalidateQueries({ queryKey: [...printTemplateKeys.all, 'list'] });
      feedback.message?.success(t('designer.saved'));
      return next;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) setStale(true);
      else feedback.message?.error(errorText(err));
      return null;
    } finally {
      setSaving(false);
    }
  }, [saving, stale, layout, meta, editor, client, t]);

  const publish = async () => {
    const current = dirty ? await save() : meta;
    if (!current) return;
    setSaving(true);
    try {
      const next = await publishPrintTemplate(current.id, current.concurrencyStamp);
      setMeta(next);
      client.setQueryData(printTemplateKeys.detail(meta.id), next);
      void client.invalidateQueries({ queryKey: printTemplateKeys.all });
      feedback.message?.success(t('designer.published', { version: next.publishedVersion }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) setStale(true);
      else showPublishFailure(err, { title: t('list.publishFailed'), ok: t('list.ok'), stale: t('list.stale') });
    } finally {
      setSaving(false);
    }
  };

  const reload = async () => {
    try {
      const fresh = await fetchPrintTemplate(meta.id);
      client.setQueryData(printTemplateKeys.detail(meta.id), fresh);
      setMeta(fresh);
      setMetaDirty(false);
      editor.load(fresh.layout);
      setStale(false);
    } catch (err) {
      feedback.message?.error(errorText(err));
    }
  };

  const preview = () => {
    if (checkLayout()) setPreviewing(true);
  };

  // Unsaved changes: leaving by a route change asks first (closing the tab is the beforeunload above).
  const blocker = useBlocker(dirty);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    feedback.modal?.confirm({ title: t('designer.unsavedLeave'), okText: t('list.ok'), cancelText: t('list.cancel'), onOk: () => blocker.proceed(), onCancel: () => blocker.reset() });
  }, [blocker, t]);
  const back = () => navigate(LIST_PATH);

  useDesignerKeys(editor, () => void save(), !previewing && !settingsOpen);

  const selected = editor.selected;
  return (
    <div className="ps-page">
      <header className="ps-toolbar">
        <Space size={8}>
          <Tooltip title={t('designer.toList')}>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={back} aria-label={t('designer.toList')} />
          </Tooltip>
          <Typography.Text
            strong
            style={{ maxWidth: 260 }}
            editable={{
              maxLength: PRINT_LIMITS.name,
              onChange: (name) => {
                if (name.trim() && name.trim() !== meta.name) {
                  setMeta({ ...meta, name: name.trim() });
                  setMetaDirty(true);
                }
              },
            }}
            data-testid="print-title"
          >
            {meta.name}
          </Typography.Text>
          <Tag color={meta.publishedVersion === null ? 'default' : 'green'}>{meta.publishedVersion === null ? t('designer.draft') : t('designer.version', { version: meta.publishedVersion })}</Tag>
          {meta.publishedVersion !== null && meta.hasDraftChanges && <Tag color="orange">{t('designer.modified')}</Tag>}
        </Space>
        <Space size={4} wrap>
          <Tooltip title={t('designer.undo')}>
            <Button icon={<UndoOutlined />} disabled={!editor.canUndo} onClick={editor.undo} aria-label={t('designer.undo')} data-testid="print-undo" />
          </Tooltip>
          <Tooltip title={t('designer.redo')}>
            <Button icon={<RedoOutlined />} disabled={!editor.canRedo} onClick={editor.redo} aria-label={t('designer.redo')} data-testid="print-redo" />
          </Tooltip>
          <Tooltip title={t('settings.title')}>
            <Button icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)} aria-label={t('settings.title')} data-testid="print-settings" />
          </Tooltip>
          <Select<number | 'fit'>
            style={{ width: 110 }}
            value={zoom}
            onChange={setZoom}
            aria-label={t('designer.zoom')}
            options={[{ value: 'fit' as const, label: t('designer.fitWidth') }, ...ZOOMS.map((z) => ({ value: z, label: `${Math.round(z * 100)}%` }))]}
          />
          <Typography.Text type="secondary" data-testid="print-save-state">
            {saving ? t('designer.saving') : dirty ? t('designer.unsaved') : t('designer.saved')}
          </Typography.Text>
          <Button icon={<EyeOutlined />} onClick={preview} data-testid="print-preview">
            {t('designer.preview')}
          </Button>
          <Button icon={<SaveOutlined />} onClick={() => void save()} loading={saving} disabled={stale} data-testid="print-save">
            {t('designer.save')}
          </Button>
          <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => void publish()} disabled={saving || stale} data-testid="print-publish">
            {t('designer.publish')}
          </Button>
        </Space>
      </header>
      {stale && (
        <Alert
          type="error"
          showIcon
          banner
          title={t('designer.stale')}
          action={
            <Button size="small" onClick={() => void reload()}>
              {t('designer.reload')}
            </Button>
          }
          data-testid="print-stale"
        />
      )}
      {design.isError && <Alert type="warning" showIcon banner title={t('designer.pageMissing')} />}
      <div className="ps-body">
        <aside className="ps-left">
          <Spin spinning={design.isFetching}>
            <Palette page={page} onAdd={(payload) => add(payload)} />
          </Spin>
        </aside>
        <main className="ps-centre" ref={centreRef} onPointerDown={(e) => !(e.target as HTMLElement).closest('.ps-paper') && editor.select(null)}>
          <div className="ps-centre-inner">
            <PaperCanvas editor={editor} scale={scale} fieldTitle={titles.field} viewFieldTitle={titles.viewField} onDropItem={(payload, at) => add(JSON.parse(payload) as AddPayload, at)} unbound={unbound} />
          </div>
        </main>
        <aside className="ps-right">
          {selected ? (
            <ElementProperties
              key={selected.id}
              element={selected}
              paper={layout.paper}
              fields={page.masterFields}
              views={page.childViews}
              onChange={(next, mergeKey) => editor.update(next, mergeKey)}
              onRemove={() => editor.remove(selected.id)}
              onDuplicate={() => editor.add(duplicatedElement(selected, layout.paper))}
            />
          ) : (
            <PaperProperties paper={layout.paper} onChange={(paper, mergeKey) => editor.change((l) => ({ ...l, paper }), mergeKey)} />
          )}
        </aside>
      </div>
      <TemplateSettingsModal
        open={settingsOpen}
        value={meta}
        onClose={() => setSettingsOpen(false)}
        onChange={(next) => {
          setMeta({ ...meta, ...next });
          setMetaDirty(true);
        }}
      />
      <PreviewModal open={previewing} pageId={meta.pageId} layout={layout} onClose={() => setPreviewing(false)} />
    </div>
  );
}
