import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Divider, Dropdown, List, Select, Space, Tag, Typography } from 'antd';
import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import type { TButton, TPageDefinition } from '@tessera/core/page-definition';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { viewTitle } from '../../../shared/components/page-renderer/control-rules.ts';
import { useDesigner } from './designer-store.ts';
import type { PaletteIndex } from './palette-index.ts';
import { PropertiesPanel } from './PropertiesPanel.tsx';
import { allViews, indexDefinition, mapView, moveButton, newId, uniqueCode, usedCodes } from './tree-ops.ts';

// Page buttons and view buttons (spec §3): built-in actions (add, edit, delete, save, copy row,
// import, export; print and submit-for-approval once those modules exist) and custom actions that
// run assignments. The selected button is edited below the list with the palette's button properties.

function addButton(def: TPageDefinition, viewId: string | null, action: string, title: string): { def: TPageDefinition; id: string } {
  const used = usedCodes(def);
  const button: TButton = { id: newId(), code: uniqueCode(action === 'custom' ? 'action' : action, used), title, buttonType: action, ...(action === 'custom' ? { assignments: [] } : {}) };
  if (viewId === null) return { def: { ...def, pageButtons: [...def.pageButtons, button] }, id: button.id };
  return { def: mapView(def, viewId, (v) => ({ ...v, viewButtons: [...v.viewButtons, button] })), id: button.id };
}

export function ButtonsPanel({ palette }: { palette: PaletteIndex }) {
  const { t, i18n } = useTranslation('pageDesigner');
  const def = useDesigner((s) => s.definition);
  const selection = useDesigner((s) => s.selection);
  const index = useMemo(() => indexDefinition(def), [def]);
  const selected = selection.length === 1 ? index.get(selection[0]!) : undefined;
  // The view whose buttons are listed: the selected view / the selected control's or button's view.
  const contextViewId = selected?.kind === 'view' ? selected.view!.id : selected?.kind === 'control' || (selected?.kind === 'button' && selected.ownerId) ? selected.ownerId : null;
  const views = allViews(def).filter((v) => Number(v.viewType) !== VIEW_TYPES.container);
  const [viewId, setViewId] = useState<string | null>(null);
  const shownViewId = viewId && index.has(viewId) ? viewId : (contextViewId ?? views[0]?.id ?? null);
  const shownView = shownViewId ? index.get(shownViewId)?.view : undefined;

  const actionMenu = (scope: 'page' | 'view', target: string | null) => ({
    items: palette.raw.buttonActions
      .filter((a) => a.scope === 'both' || a.scope === scope)
      .map((a) => ({ key: a.code, label: a.enabled ? palette.text(a.title) : `${palette.text(a.title)}（${t('props.notYet')}）`, disabled: !a.enabled })),
    onClick: ({ key }: { key: string }) => {
      const action = palette.raw.buttonActions.find((a) => a.code === key);
      let id = '';
      useDesigner.getState().apply((d) => {
        const r = addButton(d, target, key, palette.text(action?.title));
        id = r.id;
        return r.def;
      });
      useDesigner.getState().setSelection([id]);
    },
  });

  const list = (buttons: TButton[], testId: string) => (
    <List
      size="small"
      bordered
      dataSource={buttons}
      locale={{ emptyText: t('buttons.none') }}
      data-testid={testId}
      renderItem={(b, i) => (
        <List.Item
          key={b.id}
          data-element-id={b.id}
          className={selection.includes(b.id) ? 'dz-button-selected' : undefined}
          style={{ cursor: 'pointer' }}
          onClick={() => useDesigner.getState().setSelection([b.id])}
          actions={[
            <Button key="u" size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} aria-label={t('buttons.up')} onClick={(e) => (e.stopPropagation(), useDesigner.getState().apply((d) => moveButton(d, b.id, -1)))} />,
            <Button key="d" size="small" type="text" icon={<ArrowDownOutlined />} disabled={i === buttons.length - 1} aria-label={t('buttons.down')} onClick={(e) => (e.stopPropagation(), useDesigner.getState().apply((d) => moveButton(d, b.id, 1)))} />,
            <Button
              key="x"
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('props.remove')}
              onClick={(e) => {
                e.stopPropagation();
                useDesigner.getState().setSelection([b.id]);
                useDesigner.getState().deleteSelection();
              }}
            />,
          ]}
        >
          <Space size={4}>
            <Typography.Text>{b.title || b.code}</Typography.Text>
            <Tag>{palette.text(palette.raw.buttonActions.find((a) => a.code === String(b.buttonType ?? 'custom'))?.title) || String(b.buttonType ?? '')}</Tag>
          </Space>
        </List.Item>
      )}
    />
  );

  return (
    <div className="dz-props-body" data-testid="buttons-panel">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 6 }}>
        <Typography.Text strong>{t('buttons.pageButtons')}</Typography.Text>
        <Dropdown menu={actionMenu('page', null)}>
          <Button size="small" icon={<PlusOutlined />}>
            {t('buttons.add')}
          </Button>
        </Dropdown>
      </Space>
      {list(def.pageButtons, 'page-buttons')}
      <Divider style={{ margin: '12px 0' }} />
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 6 }}>
        <Typography.Text strong>{t('buttons.viewButtons')}</Typography.Text>
        <Dropdown menu={actionMenu('view', shownViewId)} disabled={!shownViewId}>
          <Button size="small" icon={<PlusOutlined />} disabled={!shownViewId}>
            {t('buttons.add')}
          </Button>
        </Dropdown>
      </Space>
      {views.length === 0 ? (
        <Typography.Text type="secondary">{t('buttons.noViews')}</Typography.Text>
      ) : (
        <>
          <Select
            size="small"
            style={{ width: '100%', marginBottom: 6 }}
            aria-label={t('buttons.ofView')}
            value={shownViewId ?? undefined}
            onChange={(v: string) => setViewId(v)}
            options={views.map((v) => ({ value: v.id, label: `${viewTitle(v, i18n.language)} (${v.code})` }))}
          />
          {list(shownView?.viewButtons ?? [], 'view-buttons')}
        </>
      )}
      {selected?.kind === 'button' && (
        <>
          <Divider style={{ margin: '12px 0 0' }} />
          <PropertiesPanel palette={palette} />
        </>
      )}
    </div>
  );
}
