import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import type { TPageDefinition, TView } from '@tessera/core/page-definition';
import { describe, expect, it } from 'vitest';
import { resolveDrop, type CardSlots, type DragData, type DropData } from './drop-logic.ts';

const view = (id: string, viewType: number, controls: string[] = [], children: TView[] = []): TView => ({
  id, code: id, title: id, viewType,
  dataControls: controls.map((c) => ({ id: c, code: c, title: c, controlType: 1001, isDisplayed: true, isEdit: true })),
  viewButtons: [], viewControls: children,
});

// order (form: no, customer) ─┬─ tabs (container) ── lines (grid: qty)
//                             └─ notes (form)
const def: TPageDefinition = {
  viewControls: [view('order', VIEW_TYPES.form, ['no', 'customer'], [view('tabs', VIEW_TYPES.container, [], [view('lines', VIEW_TYPES.grid, ['qty'])]), view('notes', VIEW_TYPES.form)])],
  pageButtons: [],
  dataLinkages: [],
};
const empty: TPageDefinition = { viewControls: [], pageButtons: [], dataLinkages: [] };

const rect = { left: 0, top: 100, width: 400, height: 200, right: 400, bottom: 300 };
const paletteControl: DragData = { kind: 'palette-control', controlType: 1001 };
const body = (id: string): DropData => ({ kind: 'vbody', id });
const head = (id: string): DropData => ({ kind: 'vhead', id });
const root: DropData = { kind: 'root' };

// The order view's two cards side by side: no at x 0–100, customer at x 110–210, y 100–140.
const card = (id: string, left: number) => ({ id, rect: { left, top: 100, right: left + 100, bottom: 140, width: 100, height: 40 } });
const slots: CardSlots = new Map([['order', [card('no', 0), card('customer', 110)]]]);

describe('dropping controls', () => {
  it('drops a control into a child view, after its last control', () => {
    expect(resolveDrop(def, paletteControl, body('lines'), rect, { x: 5, y: 5 })?.action).toEqual({ type: 'controls', viewId: 'lines', index: 1 });
    expect(resolveDrop(def, { kind: 'control', id: 'no' }, head('notes'), rect, null)?.action).toEqual({ type: 'controls', viewId: 'notes', index: 0 });
  });

  it('places a control before or after the card under the pointer, by which half it is over', () => {
    expect(resolveDrop(def, paletteControl, body('order'), rect, { x: 20, y: 120 }, slots)?.action).toEqual({ type: 'controls', viewId: 'order', index: 0 });
    expect(resolveDrop(def, paletteControl, body('order'), rect, { x: 80, y: 120 }, slots)?.action).toEqual({ type: 'controls', viewId: 'order', index: 1 });
    expect(resolveDrop(def, paletteControl, body('order'), rect, { x: 200, y: 120 }, slots)?.action).toEqual({ type: 'controls', viewId: 'order', index: 2 });
    // Below every card: at the end.
    expect(resolveDrop(def, paletteControl, body('order'), rect, { x: 20, y: 250 }, slots)?.action).toEqual({ type: 'controls', viewId: 'order', index: 2 });
  });

  it('says where the drop goes: before the card the mark precedes, or at the end of the view', () => {
    expect(resolveDrop(def, paletteControl, body('order'), rect, { x: 20, y: 120 }, slots)?.hint).toEqual({ kind: 'before', id: 'no' });
    expect(resolveDrop(def, paletteControl, body('order'), rect, { x: 80, y: 120 }, slots)?.hint).toEqual({ kind: 'before', id: 'customer' });
    expect(resolveDrop(def, paletteControl, body('order'), rect, { x: 200, y: 120 }, slots)?.hint).toEqual({ kind: 'end', viewId: 'order' });
    expect(resolveDrop(def, paletteControl, body('lines'), rect, { x: 5, y: 5 })?.hint).toEqual({ kind: 'end', viewId: 'lines' });
    expect(resolveDrop(def, { kind: 'palette-view', viewType: VIEW_TYPES.form }, head('notes'), rect, null)?.hint).toEqual({ kind: 'viewBefore', id: 'notes' });
    expect(resolveDrop(def, { kind: 'palette-view', viewType: VIEW_TYPES.form }, root, rect, null)?.hint).toEqual({ kind: 'top' });
  });

  it('compares the pointer with cards measured before the canvas scrolled', () => {
    // Scrolled 100px down since the drag started: the pointer at y 20 is over the cards' old y 120.
    const target = resolveDrop(def, paletteControl, body('order'), rect, { x: 80, y: 20 }, slots, { x: 0, y: 100 });
    expect(target?.action).toEqual({ type: 'controls', viewId: 'order', index: 1 });
    expect(target?.mark.top).toBe(0);
  });

  it('refuses a control dropped on a container, which holds no data', () => {
    expect(resolveDrop(def, paletteControl, body('tabs'), rect, { x: 5, y: 5 })).toBeNull();
  });

  it('a control on the empty canvas starts the first view; on a canvas with views it goes nowhere', () => {
    expect(resolveDrop(empty, paletteControl, root, rect, null)?.action).toEqual({ type: 'controls', viewId: null, index: 0 });
    expect(resolveDrop(def, paletteControl, root, rect, null)).toBeNull();
  });

  it('does nothing without a droppable under the pointer', () => {
    expect(resolveDrop(def, paletteControl, null, rect, { x: 5, y: 5 })).toBeNull();
  });
});

describe('dropping views', () => {
  const moveView = (id: string): DragData => ({ kind: 'view', id });

  it('refuses to move a view into itself or into one of its own children', () => {
    expect(resolveDrop(def, moveView('order'), body('order'), rect, null)).toBeNull();
    expect(resolveDrop(def, moveView('order'), body('notes'), rect, null)).toBeNull();
    expect(resolveDrop(def, moveView('tabs'), head('lines'), rect, null)).toBeNull();
  });

  it('nests nothing inside a grid', () => {
    expect(resolveDrop(def, { kind: 'palette-view', viewType: VIEW_TYPES.form }, body('lines'), rect, null)).toBeNull();
    expect(resolveDrop(def, moveView('notes'), body('lines'), rect, null)).toBeNull();
  });

  it('takes data views into a container, but not another container', () => {
    expect(resolveDrop(def, moveView('notes'), body('tabs'), rect, null)?.action).toEqual({ type: 'view', parentId: 'tabs', index: 1 });
    expect(resolveDrop(def, { kind: 'palette-view', viewType: VIEW_TYPES.container }, body('tabs'), rect, null)).toBeNull();
  });

  it('a view dropped on a header goes before that view, among its siblings', () => {
    expect(resolveDrop(def, moveView('lines'), head('notes'), rect, null)?.action).toEqual({ type: 'view', parentId: 'order', index: 1 });
  });

  it('a view dropped on the canvas goes to the end of the top level', () => {
    expect(resolveDrop(def, moveView('notes'), root, rect, null)?.action).toEqual({ type: 'view', parentId: null, index: 1 });
  });
});
