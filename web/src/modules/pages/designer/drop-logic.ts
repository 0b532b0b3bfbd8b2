import type { ClientRect, CollisionDetection } from '@dnd-kit/core';
import { pointerWithin } from '@dnd-kit/core';
import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import type { TPageDefinition } from '@tessera/core/page-definition';
import { indexDefinition, isDescendant, type Located } from './tree-ops.ts';

// Where a drag ends up. Draggables: `pal:ctl:<type>`, `pal:view:<type>`, and one canvas draggable
// that carries whichever card or view head was pressed. Droppables: `vhead:<id>` (before a view),
// `vbody:<id>` (into a view), `root` (top level, at the end). Cards are not droppables (so a drag
// never re-renders hundreds of them): the place among a view's cards comes from their rectangles,
// measured once when the drag starts (`CardSlots`).

export type DragData =
  | { kind: 'palette-control'; controlType: number }
  | { kind: 'palette-view'; viewType: number }
  | { kind: 'control'; id: string }
  | { kind: 'view'; id: string };

export type DropData = { kind: 'vhead'; id: string } | { kind: 'vbody'; id: string } | { kind: 'root' };

/** Card rectangles per view id, in viewport coordinates of the moment they were measured. */
export type CardSlots = ReadonlyMap<string, { id: string; rect: { left: number; top: number; right: number; bottom: number; width: number; height: number } }[]>;

export type DropAction =
  | { type: 'controls'; viewId: string | null; index: number }
  | { type: 'view'; parentId: string | null; index: number };

/** What the drop will do, for the hint beside the mark ("before 备注", "at the end of 明细"). */
export type DropHint =
  | { kind: 'before'; id: string }
  | { kind: 'end'; viewId: string }
  | { kind: 'newView' }
  | { kind: 'viewBefore'; id: string }
  | { kind: 'into'; viewId: string }
  | { kind: 'top' };

export interface DropTarget {
  action: DropAction;
  /** Where the insertion mark goes (viewport coordinates). */
  mark: { left: number; top: number; width: number; height: number; box?: boolean };
  hint: DropHint;
}

const RANK: Record<DropData['kind'], number> = { vhead: 1, vbody: 2, root: 3 };

/** Innermost droppable under the pointer: controls before view headers before view bodies before the canvas. */
export const designerCollision: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  if (hits.length <= 1) return hits;
  const area = (id: string | number) => {
    const r = args.droppableRects.get(id);
    return r ? r.width * r.height : Infinity;
  };
  const kind = (id: string | number) => (args.droppableContainers.find((c) => c.id === id)?.data.current as DropData | undefined)?.kind ?? 'root';
  return [...hits].sort((a, b) => RANK[kind(a.id)] - RANK[kind(b.id)] || area(a.id) - area(b.id));
};

const isContainer = (l: Located | undefined) => Number(l?.view?.viewType) === VIEW_TYPES.container;
const isGrid = (l: Located | undefined) => Number(l?.view?.viewType) === VIEW_TYPES.grid;

/** The place among a view's cards for a pointer: before the card under it or the next one in reading order. */
function slotIn(cards: NonNullable<ReturnType<CardSlots['get']>>, p: { x: number; y: number }): { index: number; mark: DropTarget['mark'] | null } {
  const bar = (left: number, top: number, height: number) => ({ left, top, width: 4, height });
  const hit = cards.findIndex((c) => p.x >= c.rect.left && p.x <= c.rect.right && p.y >= c.rect.top && p.y <= c.rect.bottom);
  if (hit >= 0) {
    const r = cards[hit]!.rect;
    const after = p.x > r.left + r.width / 2;
    return { index: hit + (after ? 1 : 0), mark: bar(after ? r.right - 1 : r.left - 3, r.top, r.height) };
  }
  const next = cards.findIndex((c) => c.rect.top > p.y || (c.rect.bottom >= p.y && c.rect.left > p.x));
  if (next >= 0) {
    const r = cards[next]!.rect;
    return { index: next, mark: bar(r.left - 3, r.top, r.height) };
  }
  const last = cards[cards.length - 1];
  return { index: cards.length, mark: last ? bar(last.rect.right - 1, last.rect.top, last.rect.height) : null };
}

/**
 * The drop a pointer position means, or null when it is not allowed there. `slots` are the cards'
 * rectangles and `shift` how far the canvas scrolled since they were measured.
 */
export function resolveDrop(
  def: TPageDefinition,
  drag: DragData,
  drop: DropData | null,
  rect: ClientRect | null,
  pointer: { x: number; y: number } | null,
  slots: CardSlots = new Map(),
  shift: { x: number; y: number } = { x: 0, y: 0 },
): DropTarget | null {
  if (!drop || !rect) return null;
  const index = indexDefinition(def);
  const bar = (left: number, top: number, width: number, height: number) => ({ left, top, width, height });
  const box = { left: rect.left, top: rect.top, width: rect.width, height: rect.height, box: true };

  if (drag.kind === 'palette-control' || drag.kind === 'control') {
    if (drop.kind === 'vhead' || drop.kind === 'vbody') {
      const at = index.get(drop.id);
      if (at?.kind !== 'view' || isContainer(at)) return null;
      const cards = slots.get(drop.id) ?? [];
      if (drop.kind === 'vbody' && pointer && cards.length) {
        // Measured rectangles are in the scroll position of the drag start: compare in that frame.
        const slot = slotIn(cards, { x: pointer.x + shift.x, y: pointer.y + shift.y });
        const mark = slot.mark ? { ...slot.mark, left: slot.mark.left - shift.x, top: slot.mark.top - shift.y } : box;
        const before = cards[slot.index];
        return { action: { type: 'controls', viewId: drop.id, index: slot.index }, mark, hint: before ? { kind: 'before', id: before.id } : { kind: 'end', viewId: drop.id } };
      }
      return { action: { type: 'controls', viewId: drop.id, index: at.view!.dataControls.length }, mark: box, hint: { kind: 'end', viewId: drop.id } };
    }
    // The empty canvas: a first control makes a form view for it.
    if (def.viewControls.length === 0) return { action: { type: 'controls', viewId: null, index: 0 }, mark: box, hint: { kind: 'newView' } };
    return null;
  }

  // Views.
  const moving = drag.kind === 'view' ? drag.id : null;
  const draggedType = drag.kind === 'palette-view' ? drag.viewType : Number(index.get(drag.id)?.view?.viewType ?? VIEW_TYPES.form);
  const allowedUnder = (parentId: string | null) => {
    if (moving && (parentId === moving || (parentId && isDescendant(def, moving, parentId)))) return false;
    const parent = parentId ? index.get(parentId) : undefined;
    // A grid's rows are edited inline: nothing nests inside a grid.
    if (parent && isGrid(parent)) return false;
    // Containers group data views; a container directly inside a container adds nothing.
    if (parent && isContainer(parent) && draggedType === VIEW_TYPES.container) return false;
    return true;
  };
  if (drop.kind === 'vhead') {
    const at = index.get(drop.id);
    if (at?.kind !== 'view' || drop.id === moving || !allowedUnder(at.ownerId)) return null;
    return { action: { type: 'view', parentId: at.ownerId, index: at.index }, mark: bar(rect.left, rect.top - 3, rect.width, 4), hint: { kind: 'viewBefore', id: drop.id } };
  }
  if (drop.kind === 'vbody') {
    const viewId = drop.id;
    const at = viewId ? index.get(viewId) : undefined;
    if (!at?.view || viewId === moving || !allowedUnder(viewId!)) return null;
    return { action: { type: 'view', parentId: viewId!, index: (at.view.viewControls ?? []).length }, mark: box, hint: { kind: 'into', viewId: viewId! } };
  }
  return { action: { type: 'view', parentId: null, index: def.viewControls.length }, mark: box, hint: { kind: 'top' } };
}
