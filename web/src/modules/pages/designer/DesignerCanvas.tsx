import { HolderOutlined } from '@ant-design/icons';
import { useDraggable, useDroppable } from '@dnd-kit/core';
import { Tag } from 'antd';
import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import type { TButton, TDataControl, TView } from '@tessera/core/page-definition';
import { memo, useMemo, useRef, type MouseEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { localizedTitle, viewTitle } from '../../../shared/components/page-renderer/control-rules.ts';
import { controlSpan } from '../../../shared/components/page-renderer/FormView.tsx';
import { useDesigner } from './designer-store.ts';
import type { DragData } from './drop-logic.ts';
import type { PaletteIndex } from './palette-index.ts';

// The canvas: views as boxes, their controls as light cards (no real inputs, so hundreds stay
// fast). Cards hold no drag-and-drop hooks: one canvas-level draggable starts a drag from whichever
// card or view head is pressed, and the place among the cards comes from their rectangles
// (drop-logic.ts), so a drag re-renders no card. The drop mark is drawn once by DropMark.

const selectFromClick = (id: string, e: MouseEvent) => {
  e.stopPropagation();
  useDesigner.getState().select(id, e.ctrlKey || e.metaKey ? 'toggle' : e.shiftKey ? 'add' : 'replace');
};

export interface CanvasProps {
  palette: PaletteIndex;
  /** Ids with design problems (a red dot on the card). */
  problemIds: ReadonlySet<string>;
}

export function DesignerCanvas({ palette, problemIds }: CanvasProps) {
  const { t } = useTranslation('pageDesigner');
  const views = useDesigner((s) => s.definition.viewControls);
  const pageButtons = useDesigner((s) => s.definition.pageButtons);
  const selection = useDesigner((s) => s.selection);
  const selected = useMemo(() => new Set(selection), [selection]);
  const { setNodeRef } = useDroppable({ id: 'root', data: { kind: 'root' } });
  // The one draggable of the canvas: its data and node become the pressed card's / view's.
  const pressed = useRef<DragData>({ kind: 'control', id: '' }).current;
  const drag = useDraggable({ id: 'canvas-element', data: pressed });
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    const el = target.closest<HTMLElement>('.dz-card, .dz-view-head');
    if (!el || target.closest('.dz-button-chip')) return;
    Object.assign(pressed, el.classList.contains('dz-card') ? { kind: 'control', id: el.dataset.elementId } : { kind: 'view', id: el.dataset.elementId });
    drag.setNodeRef(el);
    drag.listeners?.onPointerDown?.(e);
  };
  return (
    <div className="dz-canvas-wrap" onClick={() => useDesigner.getState().select(null)}>
      <div ref={setNodeRef} className="dz-canvas" data-testid="designer-canvas" aria-label={t('designer.canvas')} role="region" onPointerDown={onPointerDown}>
        {pageButtons.length > 0 && <ButtonStrip buttons={pageButtons} selected={selected} page />}
        {views.map((view) => (
          <ViewNode key={view.id} view={view} selected={selected} palette={palette} problemIds={problemIds} />
        ))}
        {views.length === 0 && <div className="dz-empty">{t('designer.emptyCanvas')}</div>}
      </div>
    </div>
  );
}

interface ViewNodeProps {
  view: TView;
  selected: ReadonlySet<string>;
  palette: PaletteIndex;
  problemIds: ReadonlySet<string>;
}

const ViewNode = memo(function ViewNode({ view, selected, palette, problemIds }: ViewNodeProps) {
  const { t, i18n } = useTranslation('pageDesigner');
  const head = useDroppable({ id: `vhead:${view.id}`, data: { kind: 'vhead', id: view.id } });
  const body = useDroppable({ id: `vbody:${view.id}`, data: { kind: 'vbody', id: view.id } });
  const type = Number(view.viewType ?? VIEW_TYPES.form);
  const kind = type === VIEW_TYPES.grid ? 'grid' : type === VIEW_TYPES.container ? 'container' : 'form';
  const isSelected = selected.has(view.id);
  return (
    <div className={`dz-view dz-view-kind-${kind}${isSelected ? ' dz-selected' : ''}`} data-view-code={view.code} data-element-id={view.id} onClick={(e) => selectFromClick(view.id, e)}>
      <div ref={head.setNodeRef} className="dz-view-head" data-element-id={view.id} aria-label={`${t('designer.view')} ${view.code}`} role="button" tabIndex={0}>
        <HolderOutlined className="dz-muted-icon" />
        <span className="dz-view-title">{viewTitle(view, i18n.language)}</span>
        <span className="dz-card-code">{view.code}</span>
        <Tag color={kind === 'grid' ? 'purple' : kind === 'container' ? 'gold' : 'blue'} style={{ marginLeft: 'auto' }}>
          {palette.viewTypeTitle(type)}
        </Tag>
        {problemIds.has(view.id) && <Tag color="error">!</Tag>}
      </div>
      {view.viewButtons.length > 0 && <ButtonStrip buttons={view.viewButtons} selected={selected} />}
      <div ref={body.setNodeRef} className="dz-view-body">
        {kind !== 'container' && (
          <div className={kind === 'grid' ? 'dz-controls-grid' : 'dz-controls-form'}>
            {view.dataControls.map((control) => (
              <ControlCard
                key={control.id}
                ownerId={view.id}
                control={control}
                selected={selected.has(control.id)}
                problem={problemIds.has(control.id)}
                typeTitle={palette.controlTypeTitle(Number(control.controlType))}
                grid={kind === 'grid'}
              />
            ))}
            {view.dataControls.length === 0 && <div className="dz-hint">{t('designer.dropControls')}</div>}
          </div>
        )}
        {kind === 'grid' && <div className="dz-grid-rows" />}
        {(view.viewControls?.length ?? 0) > 0 && (
          <div className="dz-children">
            {view.viewControls.map((child) => (
              <ViewNode key={child.id} view={child} selected={selected} palette={palette} problemIds={problemIds} />
            ))}
          </div>
        )}
        {kind === 'container' && !view.viewControls?.length && <div className="dz-hint">{t('designer.dropViews')}</div>}
      </div>
    </div>
  );
});

/** Page or view buttons as small chips; a click selects the button (edited in the buttons panel). */
const ButtonStrip = memo(function ButtonStrip({ buttons, selected, page = false }: { buttons: TButton[]; selected: ReadonlySet<string>; page?: boolean }) {
  const { t } = useTranslation('pageDesigner');
  return (
    <div className={`dz-button-strip${page ? ' dz-page-buttons' : ''}`} aria-label={page ? t('buttons.pageButtons') : t('buttons.viewButtons')}>
      {buttons.map((b) => (
        <span
          key={b.id}
          role="button"
          tabIndex={0}
          data-element-id={b.id}
          className={`dz-button-chip${selected.has(b.id) ? ' dz-selected' : ''}`}
          onClick={(e) => {
            e.stopPropagation();
            useDesigner.getState().setSelection([b.id]);
            useDesigner.getState().setPanel('buttons');
          }}
        >
          {b.title || b.code}
        </span>
      ))}
    </div>
  );
});

interface ControlCardProps {
  control: TDataControl;
  ownerId: string;
  selected: boolean;
  problem: boolean;
  typeTitle: string;
  grid: boolean;
}

const ControlCard = memo(function ControlCard({ control, ownerId, selected, problem, typeTitle, grid }: ControlCardProps) {
  const className = `dz-card${selected ? ' dz-selected' : ''}${control.isDisplayed === false ? ' dz-hidden' : ''}${problem ? ' dz-problem' : ''}`;
  return (
    <div
      className={className}
      style={grid ? undefined : { gridColumn: `span ${controlSpan(control)}` }}
      data-control-code={control.code}
      data-element-id={control.id}
      data-owner-id={ownerId}
      onClick={(e) => selectFromClick(control.id, e)}
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-label={control.code}
    >
      <CardBody control={control} typeTitle={typeTitle} />
    </div>
  );
});

const CardBody = memo(function CardBody({ control, typeTitle }: { control: TDataControl; typeTitle: string }) {
  const { i18n } = useTranslation();
  const required = (control.extraProperties as { required?: unknown } | null)?.required === true;
  return (
    <>
      <div className="dz-card-label">
        {required && <span className="dz-req">*</span>}
        {localizedTitle(control, i18n.language)}
        <span className="dz-card-code">{control.code}</span>
      </div>
      <div className="dz-card-input">{typeTitle}</div>
    </>
  );
});
