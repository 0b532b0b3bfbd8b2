import {
  DndContext,
  DragOverlay,
  MeasuringStrategy,
  PointerSensor,
  useDndMonitor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { useDndAccessibility } from '../../../shared/ui/dnd-accessibility.ts';
import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import type { TPageDefinition } from '@tessera/core/page-definition';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDesigner } from './designer-store.ts';
import { designerCollision, resolveDrop, type CardSlots, type DragData, type DropData, type DropHint, type DropTarget } from './drop-logic.ts';
import { localizedTitle } from '../../../shared/components/page-renderer/control-rules.ts';
import type { PaletteIndex } from './palette-index.ts';
import { indexDefinition, insertControls, insertView, makeControl, makeView, mapView, moveControls, moveView, usedCodes } from './tree-ops.ts';

const pointerOf = (e: DragMoveEvent | DragEndEvent) => {
  const start = e.activatorEvent as PointerEvent | MouseEvent | null;
  return start && 'clientX' in start ? { x: start.clientX + e.delta.x, y: start.clientY + e.delta.y } : null;
};

/** Card rectangles of the current drag (measured once at its start) and the canvas scroll then. */
let slots: CardSlots = new Map();
let scrollAtStart = { x: 0, y: 0 };
const canvasScroller = () => document.querySelector<HTMLElement>('.dz-canvas-wrap');

function measureSlots() {
  const map = new Map<string, { id: string; rect: DOMRect }[]>();
  for (const el of document.querySelectorAll<HTMLElement>('.dz-card[data-element-id]')) {
    const owner = el.dataset.ownerId!;
    let list = map.get(owner);
    if (!list) map.set(owner, (list = []));
    list.push({ id: el.dataset.elementId!, rect: el.getBoundingClientRect() });
  }
  slots = map;
  const scroller = canvasScroller();
  scrollAtStart = { x: scroller?.scrollLeft ?? 0, y: scroller?.scrollTop ?? 0 };
}

function targetOf(e: DragMoveEvent | DragEndEvent): DropTarget | null {
  const drag = e.active.data.current as DragData | undefined;
  if (!drag || !e.over) return null;
  const scroller = canvasScroller();
  const shift = { x: (scroller?.scrollLeft ?? 0) - scrollAtStart.x, y: (scroller?.scrollTop ?? 0) - scrollAtStart.y };
  return resolveDrop(useDesigner.getState().definition, { ...drag }, e.over.data.current as DropData, e.over.rect, pointerOf(e), slots, shift);
}

/** Dims the cards being dragged (classes, not React state: nothing re-renders during a drag). */
function markDragging(ids: string[]) {
  for (const el of document.querySelectorAll('.dz-card.dz-dragging')) el.classList.remove('dz-dragging');
  for (const id of ids) document.querySelector(`.dz-card[data-element-id="${CSS.escape(id)}"]`)?.classList.add('dz-dragging');
}

/** The controls a drag of `id` moves: the whole selection when the card is part of it. */
function draggedControls(def: TPageDefinition, id: string, selection: string[]): string[] {
  if (!selection.includes(id)) return [id];
  const index = indexDefinition(def);
  const order = new Map<string, number>();
  let n = 0;
  for (const [key, l] of index) if (l.kind === 'control') order.set(key, n++);
  return selection.filter((s) => index.get(s)?.kind === 'control').sort((a, b) => order.get(a)! - order.get(b)!);
}

/** Applies a finished drag to the design. Exported for keyboard/click adds through the same path. */
export function applyDrop(drag: DragData, target: Pick<DropTarget, 'action'>, palette: PaletteIndex, titles: { form: string }) {
  const store = useDesigner.getState();
  const { action } = target;
  let selectIds: string[] = [];
  store.apply((def) => {
    const used = usedCodes(def);
    if (action.type === 'controls') {
      if (drag.kind === 'palette-control') {
        const type = palette.controlType(drag.controlType);
        const control = makeControl(drag.controlType, type?.name ?? 'field', palette.text(type?.title), used, palette.controlDefaults(drag.controlType));
        let next = def;
        let viewId = action.viewId;
        if (!viewId) {
          const view = makeView(VIEW_TYPES.form, titles.form, used, null);
          next = insertView(next, null, 0, view);
          viewId = view.id;
        }
        selectIds = [control.id];
        return insertControls(next, viewId, action.index, [control]);
      }
      if (drag.kind === 'control' && action.viewId) {
        selectIds = draggedControls(def, drag.id, store.selection);
        return moveControls(def, selectIds, action.viewId, action.index);
      }
      return def;
    }
    if (drag.kind === 'palette-view') {
      const parent = action.parentId ? (indexDefinition(def).get(action.parentId)?.view ?? null) : null;
      const view = { ...makeView(drag.viewType, palette.viewTypeTitle(drag.viewType), used, parent), ...palette.viewDefaults(drag.viewType) };
      // A child grid keeps its rows under the parent record through the system key (spec §3).
      if (parent && drag.viewType !== VIEW_TYPES.container && !view.associateForeignKeyCode) view.associateForeignKeyCode = 'ParentViewDataId';
      selectIds = [view.id];
      return insertView(def, action.parentId, action.index, view);
    }
    if (drag.kind === 'view') {
      selectIds = [drag.id];
      const moved = moveView(def, drag.id, action.parentId, action.index);
      const view = indexDefinition(moved).get(drag.id)?.view;
      // Moved under a parent: a child needs its key to the parent record.
      return view && view.parentViewControlId && !view.associateForeignKeyCode ? mapView(moved, drag.id, (v) => ({ ...v, associateForeignKeyCode: 'ParentViewDataId' })) : moved;
    }
    return def;
  });
  if (selectIds.length) store.setSelection(selectIds);
}

/** The hint beside the mark: where the drop puts the dragged control or view. */
function hintText(hint: DropHint, def: TPageDefinition, t: (key: string, options?: Record<string, unknown>) => string, language: string): string {
  const index = indexDefinition(def);
  const name = (id: string) => {
    const at = index.get(id);
    const item = at?.control ?? at?.view;
    return item ? localizedTitle(item as { title: string; code: string }, language) || item.code : '';
  };
  switch (hint.kind) {
    case 'before':
      return t('designer.dropBefore', { name: name(hint.id) });
    case 'after':
      return t('designer.dropAfter', { name: name(hint.id) });
    case 'end':
      return t('designer.dropEnd', { name: name(hint.viewId) });
    case 'viewBefore':
      return t('designer.dropViewBefore', { name: name(hint.id) });
    case 'into':
      return t('designer.dropInto', { name: name(hint.viewId) });
    case 'newView':
      return t('designer.dropNewView');
    default:
      return t('designer.dropTop');
  }
}

/** The one insertion mark of a drag (a bar between cards, or a box around a view) with its hint. */
function DropMark() {
  const { t, i18n } = useTranslation('pageDesigner');
  const [target, setTarget] = useState<Pick<DropTarget, 'mark' | 'hint'> | null>(null);
  const update = (e: DragMoveEvent) => {
    const next = targetOf(e);
    setTarget((prev) => {
      if (!next) return null;
      const [a, b] = [prev?.mark, next.mark];
      const same = a && a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height && JSON.stringify(prev!.hint) === JSON.stringify(next.hint);
      return same ? prev : { mark: next.mark, hint: next.hint };
    });
  };
  useDndMonitor({ onDragMove: update, onDragOver: update, onDragEnd: () => setTarget(null), onDragCancel: () => setTarget(null) });
  if (!target) return null;
  const { mark } = target;
  const hintTop = mark.box ? mark.top + 6 : mark.top + mark.height + 4;
  return (
    <>
      <div className={`dz-mark${mark.box ? ' dz-mark-box' : ''}`} style={{ left: mark.left, top: mark.top, width: mark.width, height: mark.height }} data-testid="drop-mark" />
      <div className="dz-mark-hint" style={{ left: mark.box ? mark.left + 8 : mark.left, top: hintTop }} data-testid="drop-hint">
        {hintText(target.hint, useDesigner.getState().definition, t as never, i18n.language)}
      </div>
    </>
  );
}

export function DesignerDnd({ palette, children }: { palette: PaletteIndex; children: ReactNode }) {
  const { t, i18n } = useTranslation('pageDesigner');
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }));
  const [dragging, setDragging] = useState<{ label: string } | null>(null);

  const onDragStart = (e: DragStartEvent) => {
    const drag = e.active.data.current as DragData | undefined;
    measureSlots();
    const state = useDesigner.getState();
    const index = indexDefinition(state.definition);
    let label = '';
    if (drag?.kind === 'palette-control') label = palette.controlTypeTitle(drag.controlType);
    else if (drag?.kind === 'palette-view') label = palette.viewTypeTitle(drag.viewType);
    else if (drag?.kind === 'control') {
      const n = draggedControls(state.definition, drag.id, state.selection).length;
      label = n > 1 ? t('designer.dragCount', { count: n }) : (index.get(drag.id)?.control?.code ?? '');
      markDragging(draggedControls(state.definition, drag.id, state.selection));
    } else if (drag?.kind === 'view') label = index.get(drag.id)?.view?.code ?? '';
    setDragging({ label });
  };
  // Screen readers hear the palette entries' and views' names, never the internal ids.
  const draggingLabel = useRef('');
  draggingLabel.current = dragging?.label ?? draggingLabel.current;
  const nameOf = useCallback(
    (id: UniqueIdentifier) => {
      const [kind, rest] = [String(id).split(':')[0], String(id).split(':').slice(1).join(':')];
      if (kind === 'pal') return rest.startsWith('ctl:') ? palette.controlTypeTitle(Number(rest.slice(4))) : palette.viewTypeTitle(Number(rest.slice(5)));
      if (kind === 'vhead' || kind === 'vbody') {
        const view = indexDefinition(useDesigner.getState().definition).get(rest)?.view;
        return view ? localizedTitle(view as { title: string; code: string }, i18n.language) || view.code : null;
      }
      if (id === 'root') return t('designer.canvas');
      return draggingLabel.current;
    },
    [palette, t, i18n.language],
  );
  const accessibility = useDndAccessibility(nameOf);
  const onDragEnd = (e: DragEndEvent) => {
    setDragging(null);
    markDragging([]);
    const drag = e.active.data.current as DragData | undefined;
    const target = targetOf(e);
    if (drag && target) applyDrop(drag, target, palette, { form: t('designer.defaultFormTitle') });
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={designerCollision}
      measuring={{ droppable: { strategy: MeasuringStrategy.WhileDragging } }}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => (setDragging(null), markDragging([]))}
      autoScroll={{ threshold: { x: 0, y: 0.15 } }}
      accessibility={accessibility}
    >
      {children}
      <DropMark />
      <DragOverlay dropAnimation={null}>{dragging ? <div className="dz-overlay">{dragging.label}</div> : null}</DragOverlay>
    </DndContext>
  );
}
