import { emptyPrintLayout, ZPrintLayout, type TPrintLayout } from '@tessera/core/contracts/print-templates';
import { describe, expect, it } from 'vitest';
import { createHistory, push, redo, undo } from '../../../shared/ui/undo-history.ts';
import {
  addElement,
  clampToPaper,
  clickSpot,
  contentBox,
  duplicatedElement,
  evenColumns,
  evenWidths,
  fieldElement,
  movedColumn,
  movedElement,
  nextSpot,
  nudgedElement,
  paletteElement,
  rebindTable,
  removeElement,
  replaceElement,
  resizedElement,
  tableFromView,
  withPreset,
  type PaletteItem,
  type PrintableView,
} from './layout-ops.ts';
import { printablePage, unboundElementIds } from './page-views.ts';

const a4 = () => emptyPrintLayout();
const lines: PrintableView = {
  code: 'lines',
  title: '明细',
  fields: [
    { code: 'product', title: '产品', isNumber: false },
    { code: 'qty', title: '数量', isNumber: true },
    { code: 'amount', title: '金额', isNumber: true },
    { code: '备注', title: '备注', isNumber: false },
  ],
};

describe('print layout operations', () => {
  it('adds a text element bound to a master field, with the default style', () => {
    const el = fieldElement({ code: 'total', title: '订单金额' }, { x: 20, y: 30 });
    const layout = addElement(a4(), el);
    expect(layout.elements).toHaveLength(1);
    expect(layout.elements[0]).toMatchObject({ type: 'text', x: 20, y: 30, rotate: 0, everyPage: false, source: { kind: 'field', field: 'total' }, format: { kind: 'none' } });
    expect(layout.elements[0]!.type === 'text' && layout.elements[0]!.style).toEqual({
      font: 'sans', fontSize: 10, alignment: 'left', verticalAlignment: 'middle', lineHeight: 1, characterSpacing: 0, color: '#000000', backgroundColor: '', underline: false,
    });
    expect(ZPrintLayout.safeParse(layout).success).toBe(true);
  });

  it('places an added element onto the page', () => {
    const layout = addElement(a4(), fieldElement({ code: 'total', title: '' }, { x: 200, y: 400 }));
    expect(layout.elements[0]).toMatchObject({ x: 150, y: 289, width: 60, height: 8 });
  });

  it('builds a table from a child view: printable controls as even columns across the margins', () => {
    const table = tableFromView(lines, a4().paper, 50);
    expect(table).toMatchObject({ type: 'table', view: 'lines', x: 10, y: 50, width: 190, totalLabel: null, repeatHead: true });
    expect(table.columns.map((c) => [c.field, c.title, c.width, c.alignment])).toEqual([
      ['product', '产品', 33.33, 'left'],
      ['qty', '数量', 33.33, 'right'],
      ['amount', '金额', 33.34, 'right'],
    ]);
    expect(ZPrintLayout.safeParse(addElement(a4(), table)).success).toBe(true);
  });

  it.each([
    [1, [100]],
    [3, [33.33, 33.33, 33.34]],
    [7, [14.28, 14.28, 14.28, 14.28, 14.28, 14.28, 14.32]],
  ])('splits %i columns evenly', (n, widths) => {
    expect(evenWidths(n)).toEqual(widths);
    expect(widths.reduce((s, w) => s + w, 0)).toBeCloseTo(100, 6);
  });

  it.each<PaletteItem>(['text', 'field', 'table', 'line', 'rectangle', 'image', 'qrCode', 'barcode', 'pageNumber', 'printTime', 'printUser'])('palette item %s makes a valid element', (item) => {
    const el = paletteElement(item, { paper: a4().paper, at: { x: 10, y: 10 }, staticText: '文本', masterFields: [{ code: 'total', title: '金额' }], childViews: [lines] });
    expect(el).not.toBeNull();
    const parsed = ZPrintLayout.safeParse(addElement(a4(), el!));
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('has no field or table element without fields or child views', () => {
    const ctx = { paper: a4().paper, at: { x: 0, y: 0 }, staticText: 'x', masterFields: [{ code: '中文', title: '' }], childViews: [] };
    expect(paletteElement('field', ctx)).toBeNull();
    expect(paletteElement('table', ctx)).toBeNull();
  });

  it('moves snapped to 1 mm, or to 0.1 mm without snapping, and never off the page', () => {
    const el = fieldElement({ code: 'a', title: '' }, { x: 10, y: 10 });
    expect(movedElement(el, 3.4, 5.6, a4().paper, true)).toMatchObject({ x: 13, y: 16 });
    expect(movedElement(el, 3.44, 5.66, a4().paper, false)).toMatchObject({ x: 13.4, y: 15.7 });
    expect(movedElement(el, -50, 500, a4().paper, true)).toMatchObject({ x: 0, y: 289 });
    expect(nudgedElement(el, 10, -1, a4().paper)).toMatchObject({ x: 20, y: 9 });
  });

  it('clamps to the landscape page', () => {
    const landscape = { ...a4().paper, orientation: 'landscape' as const };
    const el = fieldElement({ code: 'a', title: '' }, { x: 10, y: 10 });
    expect(movedElement(el, 1000, 1000, landscape, true)).toMatchObject({ x: 297 - 60, y: 210 - 8 });
  });

  it.each([
    ['se', 5.2, 2.7, { x: 10, y: 10, width: 65, height: 11 }],
    ['nw', 5, 2, { x: 15, y: 12, width: 55, height: 6 }],
    ['ne', 5, 2, { x: 10, y: 12, width: 65, height: 6 }],
    ['sw', -20, 0, { x: 0, y: 10, width: 70, height: 8 }],
    ['se', -100, -100, { x: 10, y: 10, width: 1, height: 1 }],
    ['se', 1000, 1000, { x: 10, y: 10, width: 200, height: 287 }],
  ] as const)('resizes by the %s corner (%d, %d)', (corner, dx, dy, box) => {
    const el = fieldElement({ code: 'a', title: '' }, { x: 10, y: 10 });
    expect(resizedElement(el, corner, dx, dy, a4().paper, true)).toMatchObject(box);
  });

  it('replaces and removes elements by id', () => {
    const el = fieldElement({ code: 'a', title: '' }, { x: 10, y: 10 });
    const layout = addElement(a4(), el);
    const moved = replaceElement(layout, { ...layout.elements[0]!, x: 50 });
    expect(moved.elements[0]!.x).toBe(50);
    expect(layout.elements[0]!.x).toBe(10);
    expect(replaceElement(layout, layout.elements[0]!)).toBe(layout);
    expect(removeElement(moved, el.id).elements).toEqual([]);
  });

  it('switches presets and keeps custom sides', () => {
    const a5 = withPreset(a4().paper, 'A5');
    expect(a5).toMatchObject({ preset: 'A5', width: 148, height: 210 });
    expect(withPreset(a5, 'custom')).toMatchObject({ preset: 'custom', width: 148, height: 210 });
    expect(contentBox(a5)).toEqual({ x: 10, y: 10, width: 128, height: 190 });
  });

  it('puts a clicked element under the lowest flowing element', () => {
    expect(nextSpot(a4())).toEqual({ x: 10, y: 10 });
    let layout = addElement(a4(), fieldElement({ code: 'a', title: '' }, { x: 50, y: 20.5 }));
    expect(nextSpot(layout)).toEqual({ x: 10, y: 31 });
    layout = addElement(layout, { ...fieldElement({ code: 'b', title: '' }, { x: 10, y: 280 }), everyPage: true });
    expect(nextSpot(layout)).toEqual({ x: 10, y: 31 });
    layout = addElement(layout, fieldElement({ code: 'c', title: '' }, { x: 10, y: 286 }));
    expect(nextSpot(layout)).toEqual({ x: 10, y: 286 });
  });

  it('rebinds a table to another child view, keeping its place and style', () => {
    const table = { ...tableFromView(lines, a4().paper, 40), x: 20, width: 150, totalLabel: '合计' };
    const other: PrintableView = { code: 'payments', title: '收款', fields: [{ code: 'paidOn', title: '日期', isNumber: false }] };
    const rebound = rebindTable(table, other, a4().paper);
    expect(rebound).toMatchObject({ id: table.id, view: 'payments', x: 20, y: 40, width: 150, totalLabel: '合计' });
    expect(rebound.columns.map((c) => [c.field, c.width])).toEqual([['paidOn', 100]]);
    expect(rebindTable(table, { code: 'empty', title: '', fields: [] }, a4().paper)).toBe(table);
  });

  it('splits column widths evenly again', () => {
    const { columns } = tableFromView(lines, a4().paper, 0);
    expect(evenColumns(columns.slice(0, 2)).map((c) => c.width)).toEqual([50, 50]);
  });

  it('duplicates an element beside the original with a new id', () => {
    const el = fieldElement({ code: 'a', title: '' }, { x: 10, y: 10 });
    const copy = duplicatedElement(el, a4().paper);
    expect(copy).toMatchObject({ x: 15, y: 15, type: 'text' });
    expect(copy.id).not.toBe(el.id);
  });

  it('shrinks an element larger than the page onto it', () => {
    const el = { ...fieldElement({ code: 'a', title: '' }, { x: 100, y: 10 }), width: 500, height: 0.01 };
    expect(clampToPaper(el, a4().paper)).toMatchObject({ x: 0, y: 10, width: 210, height: 1 });
  });

  it('puts a clicked page number at the foot of the page, centred', () => {
    const layout = addElement(a4(), fieldElement({ code: 'a', title: '' }, { x: 10, y: 10 }));
    expect(clickSpot(layout, 'pageNumber')).toEqual({ x: 85, y: 281 });
    expect(clickSpot(layout, 'text')).toEqual({ x: 10, y: 20 });
  });

  it('reorders table columns', () => {
    const { columns } = tableFromView(lines, a4().paper, 0);
    expect(movedColumn(columns, 0, 1).map((c) => c.field)).toEqual(['qty', 'product', 'amount']);
    expect(movedColumn(columns, 0, -1)).toBe(columns);
  });

  it('undoes and redoes edits; a drag is one step', () => {
    const el = fieldElement({ code: 'a', title: '' }, { x: 10, y: 10 });
    let h = createHistory<TPrintLayout>(a4());
    h = push(h, addElement(h.present, el));
    for (const dx of [1, 2, 3]) h = push(h, replaceElement(h.present, movedElement(el, dx, 0, h.present.paper, true)), `move:${el.id}:1`);
    expect(h.present.elements[0]!.x).toBe(13);
    h = undo(h);
    expect(h.present.elements[0]!.x).toBe(10);
    h = undo(h);
    expect(h.present.elements).toEqual([]);
    h = redo(redo(h));
    expect(h.present.elements[0]!.x).toBe(13);
  });
});

describe('the bound page as the designer sees it', () => {
  it('finds the master view fields and its child views, skipping containers', () => {
    const view = (id: string, code: string, viewType: number, parent: string | null, controls: [string, number][], children: unknown[] = []) => ({
      id, code, title: code.toUpperCase(), viewType, parentViewControlId: parent, dataControls: controls.map(([c, t]) => ({ id: c, code: c, title: c, controlType: t })), viewButtons: [], viewControls: children,
    });
    const def = {
      viewControls: [
        view('tabs', 'tabs', 3, null, [], [view('m', 'order', 1, null, [['no', 1], ['total', 2]], [view('l', 'lines', 2, 'm', [['product', 1], ['amount', 2]])])]),
      ],
    };
    const page = printablePage(def as never, 'zh-CN');
    expect(page.masterTitle).toBe('ORDER');
    expect(page.masterFields.map((f) => f.code)).toEqual(['no', 'total']);
    expect(page.childViews.map((v) => v.code)).toEqual(['lines']);
    expect(page.childViews[0]!.fields.map((f) => f.code)).toEqual(['product', 'amount']);
  });
});

describe('elements bound to what the page lacks', () => {
  it('marks fields, views and columns the page does not have', () => {
    const page = { masterTitle: '', masterFields: [{ code: 'total', title: '' }], childViews: [lines] };
    const ok = fieldElement({ code: 'total', title: '' }, { x: 0, y: 0 });
    const missing = fieldElement({ code: 'gone', title: '' }, { x: 0, y: 0 });
    const table = tableFromView(lines, a4().paper, 0);
    const badColumn = { ...tableFromView(lines, a4().paper, 0), columns: [{ ...table.columns[0]!, field: 'gone' }] };
    const badView = { ...tableFromView(lines, a4().paper, 0), view: 'other' };
    const ids = unboundElementIds([ok, missing, table, badColumn, badView], page);
    expect([...ids].sort()).toEqual([missing.id, badColumn.id, badView.id].sort());
  });
});
