import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import type { TDataControl, TPageDefinition, TView } from '@tessera/core/page-definition';
import { describe, expect, it } from 'vitest';
import {
  allViews, indexDefinition, insertView, isDescendant, makeView, moveControls, moveView, normalizeParents, paste, removeElements, uniqueCode, usedCodes,
} from './tree-ops.ts';

const control = (id: string): TDataControl => ({ id, code: id, title: id, controlType: 1001, isDisplayed: true, isEdit: true });
const view = (id: string, viewType: number, controls: string[] = [], children: TView[] = []): TView => ({
  id, code: id, title: id, viewType, dataControls: controls.map(control), viewButtons: [], viewControls: children,
});

// order (form: no, customer) ─┬─ tabs (container) ── lines (grid: qty) ── deliveries (grid: day)
//                             └─ notes (form: text)
const doc = (): TPageDefinition =>
  normalizeParents({
    viewControls: [
      view('order', VIEW_TYPES.form, ['no', 'customer'], [
        view('tabs', VIEW_TYPES.container, [], [view('lines', VIEW_TYPES.grid, ['qty'], [view('deliveries', VIEW_TYPES.grid, ['day'])])]),
        view('notes', VIEW_TYPES.form, ['text']),
      ]),
    ],
    pageButtons: [],
    dataLinkages: [],
  });

const shape = (def: TPageDefinition) => allViews(def).map((v) => `${v.id}[${v.dataControls.map((c) => c.id).join(',')}]^${v.parentViewControlId ?? '-'}`);

describe('moving controls', () => {
  it('moves a control into a child view at the place dropped', () => {
    const next = moveControls(doc(), ['customer'], 'lines', 0);
    expect(indexDefinition(next).get('customer')).toMatchObject({ kind: 'control', ownerId: 'lines', index: 0 });
    expect(indexDefinition(next).get('lines')!.view!.dataControls.map((c) => c.id)).toEqual(['customer', 'qty']);
    expect(indexDefinition(next).get('order')!.view!.dataControls.map((c) => c.id)).toEqual(['no']);
  });

  it('moving within a view counts the place as the user saw it (before the moved card left)', () => {
    const def = moveControls(doc(), ['no'], 'order', 2);
    expect(indexDefinition(def).get('order')!.view!.dataControls.map((c) => c.id)).toEqual(['customer', 'no']);
  });

  it('never changes the document it was given (undo keeps it)', () => {
    const before = doc();
    const snapshot = structuredClone(before);
    moveControls(before, ['customer'], 'lines', 0);
    removeElements(before, ['lines']);
    expect(before).toEqual(snapshot);
  });
});

describe('moving views', () => {
  it('refuses to move a view under itself or under one of its own children', () => {
    const def = doc();
    expect(moveView(def, 'tabs', 'tabs', 0)).toBe(def);
    expect(moveView(def, 'tabs', 'deliveries', 0)).toBe(def);
    expect(moveView(def, 'order', 'lines', 0)).toBe(def);
  });

  it('moves a view under another and points it at its new data parent', () => {
    const next = moveView(doc(), 'deliveries', 'notes', 0);
    expect(indexDefinition(next).get('deliveries')).toMatchObject({ ownerId: 'notes', index: 0 });
    expect(indexDefinition(next).get('deliveries')!.view!.parentViewControlId).toBe('notes');
    expect(indexDefinition(next).get('lines')!.view!.viewControls).toEqual([]);
  });

  it('a view moved to the top level has no parent', () => {
    const next = moveView(doc(), 'notes', null, 0);
    expect(next.viewControls.map((v) => v.id)).toEqual(['notes', 'order']);
    expect(indexDefinition(next).get('notes')!.view!.parentViewControlId).toBeNull();
  });
});

describe('normalizeParents', () => {
  it('points each data view at its nearest ancestor that is not a container', () => {
    expect(shape(doc())).toEqual(['order[no,customer]^-', 'tabs[]^-', 'lines[qty]^order', 'deliveries[day]^lines', 'notes[text]^order']);
  });
});

describe('isDescendant', () => {
  it('answers for views nested at any depth, and not for siblings or ancestors', () => {
    const def = doc();
    expect(isDescendant(def, 'order', 'deliveries')).toBe(true);
    expect(isDescendant(def, 'tabs', 'notes')).toBe(false);
    expect(isDescendant(def, 'lines', 'order')).toBe(false);
  });
});

describe('removing', () => {
  it('removes a view with everything in it, and controls wherever they are', () => {
    const next = removeElements(doc(), ['lines', 'text']);
    expect(shape(next)).toEqual(['order[no,customer]^-', 'tabs[]^-', 'notes[]^order']);
    expect(indexDefinition(next).has('day')).toBe(false);
  });
});

describe('codes', () => {
  it('keeps codes unique page-wide, ignoring case', () => {
    const used = usedCodes(doc());
    expect(uniqueCode('Customer', used)).toBe('Customer2');
    expect(uniqueCode('Customer', used)).toBe('Customer3');
    expect(uniqueCode('total', used)).toBe('total');
  });

  it('makes a code out of any title', () => {
    expect(uniqueCode('9 lives!', new Set())).toBe('lives');
    expect(uniqueCode('金额', new Set())).toBe('field');
  });
});

describe('paste', () => {
  it('pastes copies of a view tree with new ids and codes after the selected view, keeping child links', () => {
    const def = doc();
    const lines = indexDefinition(def).get('lines')!.view!;
    const { def: next, ids } = paste(def, { controls: [], views: [lines] }, 'notes');
    const copy = indexDefinition(next).get(ids[0]!)!;
    expect(copy).toMatchObject({ kind: 'view', ownerId: 'order', index: 2 });
    expect(copy.view!.code).toBe('lines2');
    const child = copy.view!.viewControls[0]!;
    expect(child.id).not.toBe('deliveries');
    expect(child.parentViewControlId).toBe(copy.view!.id);
    expect(child.dataControls[0]!.code).toBe('day2');
  });

  it('pastes controls after the selected control', () => {
    const def = doc();
    const { def: next, ids } = paste(def, { controls: [control('qty')], views: [] }, 'no');
    expect(indexDefinition(next).get('order')!.view!.dataControls.map((c) => c.id)).toEqual(['no', ids[0], 'customer']);
  });
});

describe('insertView', () => {
  it('a new grid dropped into a container belongs to the container’s data parent', () => {
    const def = doc();
    const grid = makeView(VIEW_TYPES.grid, 'Grid', usedCodes(def), indexDefinition(def).get('tabs')!.view!);
    const next = insertView(def, 'tabs', 1, grid);
    expect(indexDefinition(next).get(grid.id)!.view!.parentViewControlId).toBe('order');
    expect(indexDefinition(next).get(grid.id)).toMatchObject({ ownerId: 'tabs', index: 1 });
  });
});
