import { newGuid } from '@tessera/core/helpers/guid';
import {
  PAPER_PRESETS,
  PRINT_FIELD_PATTERN,
  PRINT_LIMITS,
  paperSize,
  type TPaper,
  type TPrintElement,
  type TPrintElementType,
  type TPrintLayout,
  type TPrintSource,
  type TPrintTableColumn,
  type TTextStyle,
} from '@tessera/core/contracts/print-templates';

// Pure operations on a print layout (no React, no I/O): what the canvas designer does to the
// document it saves. Every function answers a new layout and leaves its argument alone, so the
// undo history can keep the old ones.

export type ElementOf<K extends TPrintElementType> = Extract<TPrintElement, { type: K }>;
/** What the palette offers: the element types, and text elements preset to a source. */
export type PaletteItem = 'text' | 'field' | 'table' | 'line' | 'rectangle' | 'image' | 'qrCode' | 'barcode' | 'pageNumber' | 'printTime' | 'printUser';
export type Corner = 'nw' | 'ne' | 'sw' | 'se';
/** A control the designer can bind: its code and display title. */
export interface PrintableField {
  code: string;
  title: string;
}
/** A child view a table lists: its code, title and controls. */
export interface PrintableView {
  code: string;
  title: string;
  fields: (PrintableField & { isNumber: boolean })[];
}

/** Snapping step and the smallest element side, in mm. */
export const SNAP_MM = 1;
export const MIN_SIDE_MM = 1;
/** A 1×1 transparent PNG: a new image element is valid before its picture is chosen. */
export const BLANK_IMAGE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export const defaultTextStyle = (): TTextStyle => ({
  font: 'sans',
  fontSize: 10,
  alignment: 'left',
  verticalAlignment: 'middle',
  lineHeight: 1,
  characterSpacing: 0,
  color: '#000000',
  backgroundColor: '',
  underline: false,
});

/** Element ids follow `ZElementId` (letters, digits, - and _). */
export const newElementId = () => `el-${newGuid().slice(0, 8)}`;

const round1 = (v: number) => Math.round(v * 10) / 10;
export const snapTo = (value: number, snap: boolean) => (snap ? Math.round(value / SNAP_MM) * SNAP_MM : round1(value));
const clamp = (v: number, min: number, max: number) => Math.min(Math.max(v, min), Math.max(min, max));

/** The paper's printable box in mm (inside the margins). */
export function contentBox(paper: TPaper) {
  const { width, height } = paperSize(paper);
  const [top, right, bottom, left] = paper.margins;
  return { x: left, y: top, width: Math.max(width - left - right, MIN_SIDE_MM), height: Math.max(height - top - bottom, MIN_SIDE_MM) };
}

/** The element shrunk to fit the page and moved onto it. */
export function clampToPaper<E extends TPrintElement>(element: E, paper: TPaper): E {
  const page = paperSize(paper);
  const width = clamp(element.width, MIN_SIDE_MM, page.width);
  const height = clamp(element.height, element.type === 'line' ? 0.1 : MIN_SIDE_MM, page.height);
  return { ...element, width, height, x: clamp(element.x, 0, page.width - width), y: clamp(element.y, 0, page.height - height) };
}

const base = (x: number, y: number, width: number, height: number) => ({ id: newElementId(), x, y, width, height, rotate: 0, everyPage: false });

const textElement = (x: number, y: number, width: number, height: number, source: TPrintSource, everyPage = false): ElementOf<'text'> => ({
  ...base(x, y, width, height),
  everyPage,
  type: 'text',
  source,
  format: { kind: 'none' },
  style: defaultTextStyle(),
});

/** A text element showing a master field (`{field}` on the canvas). */
export const fieldElement = (field: PrintableField, at: { x: number; y: number }): ElementOf<'text'> => textElement(at.x, at.y, 60, 8, { kind: 'field', field: field.code });

/** Column widths in percent that add up to 100 (two decimals; the last takes the rest). */
export function evenWidths(count: number): number[] {
  if (count <= 0) return [];
  const each = Math.floor((100 / count) * 100) / 100;
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? Math.round((100 - each * (count - 1)) * 100) / 100 : each));
}

/** Only controls whose codes a print field may name (`PRINT_FIELD_PATTERN`); at most the column limit. */
export const printableFields = <F extends PrintableField>(fields: F[]): F[] => fields.filter((f) => PRINT_FIELD_PATTERN.test(f.code));

/** A table listing a child view: its controls as columns of even widths, across the printable width. */
export function tableFromView(view: PrintableView, paper: TPaper, y: number): ElementOf<'table'> {
  const fields = printableFields(view.fields).slice(0, PRINT_LIMITS.columns);
  const widths = evenWidths(fields.length);
  const box = contentBox(paper);
  const columns: TPrintTableColumn[] = fields.map((f, i) => ({
    field: f.code,
    title: f.title.slice(0, 100),
    width: widths[i]!,
    alignment: f.isNumber ? 'right' : 'left',
    format: { kind: 'none' },
    total: false,
  }));
  return {
    ...base(box.x, y, box.width, 24),
    type: 'table',
    view: view.code,
    columns,
    repeatHead: true,
    totalLabel: null,
    subtotalLabel: null,
    style: { font: 'sans', fontSize: 9, headBackground: '#f0f0f0', headColor: '#000000', borderColor: '#000000', borderWidth: 0.3, padding: 1 },
  };
}

export interface PaletteContext {
  paper: TPaper;
  /** Where to put it (mm), before clamping. */
  at: { x: number; y: number };
  staticText: string;
  masterFields: PrintableField[];
  childViews: PrintableView[];
}

/** A new element of a palette item; null when it has nothing to bind (no fields, no child views). */
export function paletteElement(item: PaletteItem, ctx: PaletteContext): TPrintElement | null {
  const { x, y } = ctx.at;
  const width = contentBox(ctx.paper).width;
  switch (item) {
    case 'text':
      return textElement(x, y, 40, 8, { kind: 'static', text: ctx.staticText });
    case 'field': {
      const field = printableFields(ctx.masterFields)[0];
      return field ? fieldElement(field, ctx.at) : null;
    }
    case 'table': {
      const view = ctx.childViews.find((v) => printableFields(v.fields).length > 0);
      return view ? tableFromView(view, ctx.paper, y) : null;
    }
    case 'line':
      return { ...base(x, y, Math.min(100, width), 0.3), type: 'line', color: '#000000' };
    case 'rectangle':
      return { ...base(x, y, 60, 30), type: 'rectangle', borderColor: '#000000', borderWidth: 0.3, color: '' };
    case 'image':
      return { ...base(x, y, 30, 30), type: 'image', content: BLANK_IMAGE };
    case 'qrCode':
      return { ...base(x, y, 25, 25), type: 'qrCode', source: { kind: 'static', text: 'https://' } };
    case 'barcode':
      return { ...base(x, y, 50, 12), type: 'barcode', symbology: 'code128', source: { kind: 'static', text: '12345678' } };
    case 'pageNumber':
      return { ...textElement(x, y, 40, 6, { kind: 'pageNumber', pattern: 'zh' }, true), style: { ...defaultTextStyle(), alignment: 'center' } };
    case 'printTime':
      return textElement(x, y, 40, 6, { kind: 'printTime', pattern: 'YYYY-MM-DD HH:mm' });
    case 'printUser':
      return textElement(x, y, 30, 6, { kind: 'printUser' });
  }
}

export const findElement = (layout: TPrintLayout, id: string | null) => (id ? (layout.elements.find((e) => e.id === id) ?? null) : null);

/** Adds an element (placed onto the page); refused past the element limit. */
export function addElement(layout: TPrintLayout, element: TPrintElement): TPrintLayout {
  if (layout.elements.length >= PRINT_LIMITS.elements) return layout;
  return { ...layout, elements: [...layout.elements, clampToPaper(element, layout.paper)] };
}

export function removeElement(layout: TPrintLayout, id: string): TPrintLayout {
  return layout.elements.some((e) => e.id === id) ? { ...layout, elements: layout.elements.filter((e) => e.id !== id) } : layout;
}

/** Replaces one element (its id stays); the same layout when nothing changed. */
export function replaceElement(layout: TPrintLayout, next: TPrintElement): TPrintLayout {
  const i = layout.elements.findIndex((e) => e.id === next.id);
  if (i < 0 || layout.elements[i] === next) return layout;
  const elements = layout.elements.slice();
  elements[i] = next;
  return { ...layout, elements };
}

/** The element dragged by (dx, dy) mm from where the drag started, snapped to 1 mm unless `snap` is off, kept on the page. */
export function movedElement<E extends TPrintElement>(start: E, dx: number, dy: number, paper: TPaper, snap: boolean): E {
  const page = paperSize(paper);
  return {
    ...start,
    x: clamp(snapTo(start.x + dx, snap), 0, page.width - start.width),
    y: clamp(snapTo(start.y + dy, snap), 0, page.height - start.height),
  };
}

/** The element resized by dragging `corner` by (dx, dy) mm; the opposite corner stays, sides stay ≥ 1 mm and on the page. */
export function resizedElement<E extends TPrintElement>(start: E, corner: Corner, dx: number, dy: number, paper: TPaper, snap: boolean): E {
  const page = paperSize(paper);
  const minH = start.type === 'line' ? 0.1 : MIN_SIDE_MM;
  let left = start.x;
  let top = start.y;
  let right = start.x + start.width;
  let bottom = start.y + start.height;
  if (corner === 'nw' || corner === 'sw') left = clamp(snapTo(left + dx, snap), 0, right - MIN_SIDE_MM);
  else right = clamp(snapTo(right + dx, snap), left + MIN_SIDE_MM, page.width);
  if (corner === 'nw' || corner === 'ne') top = clamp(snapTo(top + dy, snap), 0, bottom - minH);
  else bottom = clamp(snapTo(bottom + dy, snap), top + minH, page.height);
  return { ...start, x: round1(left), y: round1(top), width: round1(right - left), height: round1(bottom - top) };
}

/** Arrow keys: nudged by whole mm on the page. */
export const nudgedElement = <E extends TPrintElement>(element: E, dx: number, dy: number, paper: TPaper): E => movedElement(element, dx, dy, paper, false);

/** A paper preset chosen: its sides; custom keeps the current ones. */
export function withPreset(paper: TPaper, preset: TPaper['preset']): TPaper {
  return preset === 'custom' ? { ...paper, preset } : { ...paper, preset, ...PAPER_PRESETS[preset] };
}

/** A copy of an element beside the original (a new id). */
export const duplicatedElement = (element: TPrintElement, paper: TPaper): TPrintElement => clampToPaper({ ...element, id: newElementId(), x: element.x + 5, y: element.y + 5 }, paper);

/** Table columns: moved up (-1) or down (+1). */
export function movedColumn(columns: TPrintTableColumn[], index: number, by: -1 | 1): TPrintTableColumn[] {
  const to = index + by;
  if (to < 0 || to >= columns.length) return columns;
  const next = columns.slice();
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** The table bound to another child view: that view's controls become its columns; place and style stay. */
export function rebindTable(table: ElementOf<'table'>, view: PrintableView, paper: TPaper): ElementOf<'table'> {
  const fresh = tableFromView(view, paper, table.y);
  return fresh.columns.length === 0 ? table : { ...table, view: view.code, columns: fresh.columns };
}

/** The columns' widths split evenly again (after adding or removing one). */
export const evenColumns = (columns: TPrintTableColumn[]): TPrintTableColumn[] => {
  const widths = evenWidths(columns.length);
  return columns.map((c, i) => ({ ...c, width: widths[i]! }));
};

/**
 * Where a clicked (not dropped) element goes: at the left margin, 2 mm under the lowest element
 * that flows with the content (headers and footers on every page do not count); the top margin
 * of an empty page.
 */
export function nextSpot(layout: TPrintLayout): { x: number; y: number } {
  const box = contentBox(layout.paper);
  const bottom = layout.elements.filter((e) => !e.everyPage).reduce((lowest, e) => Math.max(lowest, e.y + e.height + 2), box.y);
  return { x: box.x, y: Math.min(Math.ceil(bottom), box.y + box.height - MIN_SIDE_MM) };
}

/** Where a clicked palette item goes: a page number at the foot of the printable box, centred; anything else at `nextSpot`. */
export function clickSpot(layout: TPrintLayout, item: PaletteItem | null): { x: number; y: number } {
  if (item !== 'pageNumber') return nextSpot(layout);
  const box = contentBox(layout.paper);
  // The page number element is 40 × 6 mm (paletteElement).
  return { x: Math.round(box.x + (box.width - 40) / 2), y: Math.max(box.y, box.y + box.height - 6) };
}
