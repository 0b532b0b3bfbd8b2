import { DeleteOutlined } from '@ant-design/icons';
import { Button, Empty, Form, Select, Space, Switch, Tag, Typography } from 'antd';
import { VIEW_TYPES, type TDesignerProperty } from '@tessera/core/contracts/pages';
import type { TDataControl } from '@tessera/core/page-definition';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LocalizedTextInput } from '../../../shared/components/LocalizedTextInput.tsx';
import { useDesigner } from './designer-store.ts';
import type { PaletteIndex } from './palette-index.ts';
import { getPath, indexDefinition, setElementProperty, updateControl } from './tree-ops.ts';
import { PropertyField } from './widgets/PropertyField.tsx';
import type { WidgetContext } from './widgets/widget-types.ts';

/** Title in several languages: `title` holds zh-CN (the default), `extraProperties.titles` the others. */
function TitleInput({ element, id }: { element: { title?: string | null; extraProperties?: unknown }; id: string }) {
  const titles = ((element.extraProperties as { titles?: Record<string, string> } | null)?.titles ?? {}) as Record<string, string>;
  const value = { ...titles, 'zh-CN': element.title ?? '' };
  return (
    <LocalizedTextInput
      id="prop-title"
      value={value}
      maxLength={100}
      onChange={(next) => {
        const { 'zh-CN': zh = '', ...others } = next;
        useDesigner.getState().apply(
          (d) => setElementProperty(setElementProperty(d, id, 'title', zh), id, 'extraProperties.titles', Object.keys(others).length ? others : undefined),
          `prop:${id}:title`,
        );
      }}
    />
  );
}

export function PropertiesPanel({ palette }: { palette: PaletteIndex }) {
  const { t, i18n } = useTranslation('pageDesigner');
  const def = useDesigner((s) => s.definition);
  const selection = useDesigner((s) => s.selection);
  const apply = useDesigner((s) => s.apply);
  const index = useMemo(() => indexDefinition(def), [def]);
  const primary = selection.length === 1 ? index.get(selection[0]!) : undefined;
  const primaryId = primary ? selection[0]! : null;

  const onSet = useCallback(
    (path: string, value: unknown) => {
      if (!primaryId) return;
      apply((d) => setElementProperty(d, primaryId, path, value), `prop:${primaryId}:${path}`);
    },
    [apply, primaryId],
  );

  const ctx: WidgetContext | null = useMemo(() => {
    if (!primary || !primaryId) return null;
    const view = primary.kind === 'view' ? primary.view! : primary.ownerId ? (index.get(primary.ownerId)?.view ?? null) : null;
    return { def, palette, kind: primary.kind, id: primaryId, view, control: primary.control ?? null, language: i18n.language };
  }, [def, palette, primary, primaryId, index, i18n.language]);

  if (selection.length > 1) return <MultiSelection ids={selection} />;
  if (!primary || !ctx) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('props.pickOne')} style={{ marginTop: 48 }} />;
  }

  let properties: TDesignerProperty[] = [];
  let element: object = {};
  let heading = '';
  let help = '';
  if (primary.kind === 'control') {
    const type = palette.controlType(Number(primary.control!.controlType));
    properties = type?.properties ?? [];
    element = primary.control!;
    heading = palette.text(type?.title) || String(primary.control!.controlType);
    help = palette.text(type?.help);
  } else if (primary.kind === 'view') {
    const type = palette.viewType(Number(primary.view!.viewType ?? VIEW_TYPES.form));
    properties = type?.properties ?? [];
    element = primary.view!;
    heading = palette.text(type?.title);
    help = palette.text(type?.help);
  } else {
    properties = palette.raw.buttonProperties;
    element = primary.button!;
    heading = primary.ownerId ? t('buttons.viewButton') : t('buttons.pageButton');
  }
  const assignmentsShown = primary.kind !== 'button' || String(getPath(element, 'buttonType') ?? 'custom') === 'custom';

  return (
    <div className="dz-props-body" data-testid="properties-panel">
      <Space direction="vertical" size={2} style={{ marginBottom: 12 }}>
        <Space>
          <Tag color="blue">{heading}</Tag>
          <Typography.Text type="secondary" style={{ fontFamily: 'ui-monospace, Menlo, monospace' }}>
            {(element as { code?: string }).code}
          </Typography.Text>
        </Space>
        {help && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{help}</Typography.Text>}
      </Space>
      <Form layout="vertical" size="small" component="div" key={primaryId}>
        {primary.kind === 'control' && (
          <Form.Item label={t('props.controlType')} htmlFor="prop-controlType" style={{ marginBottom: 12 }}>
            <Select
              id="prop-controlType"
              showSearch={{ optionFilterProp: 'label' }}
              value={Number(primary.control!.controlType)}
              onChange={(code: number) => apply((d) => updateControl(d, primaryId!, (c) => ({ ...c, controlType: code }) as TDataControl))}
              options={palette.raw.controlTypes.map((c) => ({ value: c.code, label: `${palette.text(c.title)} (${c.code})` }))}
            />
          </Form.Item>
        )}
        {properties.map((p) => {
          if (p.shownWhen && Number(getPath(element, p.shownWhen.key) ?? NaN) !== Number(p.shownWhen.value) && getPath(element, p.shownWhen.key) !== p.shownWhen.value) return null;
          if (p.key === 'title' && primary.kind !== 'view') {
            return (
              <Form.Item key={p.key} label={palette.text(p.title)} htmlFor="prop-title" required={p.required} style={{ marginBottom: 12 }} data-property="title">
                <TitleInput element={element as { title?: string }} id={primaryId!} />
              </Form.Item>
            );
          }
          if (p.key === 'assignments' && !assignmentsShown) return null;
          return <PropertyField key={p.key} ctx={ctx} property={p} element={element} onSet={onSet} />;
        })}
      </Form>
    </div>
  );
}

/** Several elements selected: the flags they share, and delete. */
function MultiSelection({ ids }: { ids: string[] }) {
  const { t } = useTranslation('pageDesigner');
  const def = useDesigner((s) => s.definition);
  const apply = useDesigner((s) => s.apply);
  const index = indexDefinition(def);
  const controls = ids.map((id) => index.get(id)?.control).filter((c): c is TDataControl => Boolean(c));
  const all = (path: string, fallback: boolean) => controls.every((c) => (getPath(c, path) ?? fallback) === true);
  const setAll = (path: string, value: boolean) =>
    apply((d) => controls.reduce((acc, c) => setElementProperty(acc, c.id, path, value), d));
  return (
    <div className="dz-props-body" data-testid="properties-panel">
      <Typography.Paragraph>{t('props.selectedCount', { count: ids.length })}</Typography.Paragraph>
      {controls.length > 0 && (
        <Form layout="horizontal" size="small" component="div" labelCol={{ flex: '120px' }}>
          <Form.Item label={t('props.bulkDisplayed')}>
            <Switch checked={all('isDisplayed', true)} onChange={(v) => setAll('isDisplayed', v)} />
          </Form.Item>
          <Form.Item label={t('props.bulkEditable')}>
            <Switch checked={all('isEdit', true)} onChange={(v) => setAll('isEdit', v)} />
          </Form.Item>
          <Form.Item label={t('props.bulkRequired')}>
            <Switch checked={all('extraProperties.required', false)} onChange={(v) => setAll('extraProperties.required', v)} />
          </Form.Item>
        </Form>
      )}
      <Button danger icon={<DeleteOutlined />} onClick={() => useDesigner.getState().deleteSelection()}>
        {t('designer.deleteSelected')}
      </Button>
    </div>
  );
}
