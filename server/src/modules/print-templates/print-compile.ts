/*
 * A print layout (contracts/print-templates.ts) as a pdfme template, and a record as its inputs.
 *
 * Elements drawn once go in the page's schemas (a table there flows across pages and pushes what
 * is below it down); `everyPage` elements go in the blank paper's static schema, drawn on every
 * page. Only our own fixed patterns go through pdfme's `{…}` placeholders (page numbers): every
 * value that comes from a record is an input, which pdfme draws as it is and never evaluates.
 * A static (every-page) element whose text comes from a record has to be baked into the template,
 * so such a layout is compiled once per record (`perRecordStatics`).
 */
import { parseIsoDateParts } from '@tessera/core/helpers/iso-date';
import { chineseCapitals } from '@tessera/core/helpers/amount-in-words';
import { formatPrintNumber, formatSum, type PagedTable, type SumFormat } from './print-sums.ts';
import { compileFormula, toRecordValue, type CompiledFormula } from '@tessera/core/formula/index';
import { paperSize, type TPrintElement, type TPrintFormat, type TPrintLayout, type TPrintSource } from '@tessera/core/contracts/print-templates';

/** pdfme's template shape (the parts we write). */
export interface PdfmeSchema {
  name: string;
  type: string;
  position: { x: number; y: number };
  width: number;
  height: number;
  rotate?: number;
  readOnly?: boolean;
  content?: string;
  [key: string]: unknown;
}
export interface PdfmeTemplate {
  basePdf: { width: number; height: number; padding: [number, number, number, number]; staticSchema: PdfmeSchema[] };
  schemas: PdfmeSchema[][];
}

/** One record as printing reads it: typed values and display texts of the master and of each child view (by view code). */
export interface PrintRecord {
  values: Record<string, unknown>;
  texts: Record<string, unknown>;
  views: Record<string, { values: Record<string, unknown>[]; texts: Record<string, unknown>[] }>;
}

/** What every record of one print shares. */
export interface PrintContext {
  now: Date;
  offsetMinutes: number;
  userName: string;
}

const PAGE_NUMBER_TEXT = {
  zh: '第 {currentPage} 页 / 共 {totalPages} 页',
  slash: '{currentPage} / {totalPages}',
  en: 'Page {currentPage} of {totalPages}',
  current: '{currentPage}',
} as const;

const FONT_NAME = { sans: 'sans', sansBold: 'sansBold', serif: 'serif' } as const;

const isRecordSource = (source: TPrintSource) => source.kind === 'field' || source.kind === 'formula';
const sourceOf = (e: TPrintElement): TPrintSource | null => ('source' in e ? e.source : null);

/** The layout draws something from a record on every page (then it is compiled per record). */
export function perRecordStatics(layout: TPrintLayout): boolean {
  return layout.elements.some((e) => e.everyPage && (e.type === 'table' || (sourceOf(e) !== null && isRecordSource(sourceOf(e)!))));
}

/** The fonts a layout uses; 'sans' always (pdfme's fallback). Only these are embedded. */
export function fontsOf(layout: TPrintLayout): string[] {
  const used = new Set<string>(['sans']);
  for (const e of layout.elements) if (e.type === 'text' || e.type === 'table') used.add(FONT_NAME[e.style.font]);
  return [...used];
}

const box = (e: TPrintElement) => ({ name: e.id, position: { x: e.x, y: e.y }, width: e.width, height: e.height, rotate: e.rotate });

function textSchema(e: Extract<TPrintElement, { type: 'text' }>): PdfmeSchema {
  const s = e.style;
  return {
    ...box(e),
    type: 'text',
    fontName: FONT_NAME[s.font],
    fontSize: s.fontSize,
    alignment: s.alignment,
    verticalAlignment: s.verticalAlignment,
    lineHeight: s.lineHeight,
    characterSpacing: s.characterSpacing,
    fontColor: s.color || '#000000',
    backgroundColor: s.backgroundColor,
    underline: s.underline,
  };
}

function tableSchema(e: Extract<TPrintElement, { type: 'table' }>): PdfmeSchema {
  const st = e.style;
  const sum = e.columns.reduce((n, c) => n + c.width, 0);
  const pad = { top: st.padding, right: st.padding, bottom: st.padding, left: st.padding };
  const cell = { fontName: FONT_NAME[st.font], fontSize: st.fontSize, alignment: 'left', verticalAlignment: 'middle', lineHeight: 1, characterSpacing: 0, padding: pad };
  const border = { top: st.borderWidth, right: st.borderWidth, bottom: st.borderWidth, left: st.borderWidth };
  return {
    ...box(e),
    type: 'table',
    showHead: true,
    repeatHead: e.repeatHead,
    head: e.columns.map((c) => c.title),
    headWidthPercentages: e.columns.map((c) => (c.width / sum) * 100),
    tableStyles: { borderColor: st.borderColor || '#000000', borderWidth: st.borderWidth },
    headStyles: { ...cell, fontColor: st.headColor || '#000000', backgroundColor: st.headBackground, borderColor: st.borderColor || '#000000', borderWidth: border },
    bodyStyles: { ...cell, fontColor: '#000000', backgroundColor: '', alternateBackgroundColor: '', borderColor: st.borderColor || '#000000', borderWidth: border },
    columnStyles: { alignment: Object.fromEntries(e.columns.map((c, i) => [i, c.alignment])) },
  };
}

/** The element's pdfme schema; `content` is filled for what does not come from a record. */
function schemaOf(e: TPrintElement, shared: PrintContext): PdfmeSchema {
  switch (e.type) {
    case 'text': {
      const schema = textSchema(e);
      if (e.source.kind === 'pageNumber') return { ...schema, readOnly: true, content: PAGE_NUMBER_TEXT[e.source.pattern] };
      return { ...schema, content: isRecordSource(e.source) ? '' : formatted(staticText(e.source, shared), e.format, shared) };
    }
    case 'table':
      return { ...tableSchema(e), content: '[]' };
    case 'line':
      return { ...box(e), type: 'line', readOnly: true, color: e.color || '#000000' };
    case 'rectangle':
      return { ...box(e), type: 'rectangle', readOnly: true, borderWidth: e.borderWidth, borderColor: e.borderColor, color: e.color, radius: 0 };
    case 'image':
      return { ...box(e), type: 'image', readOnly: true, content: e.content };
    case 'qrCode':
      return { ...box(e), type: 'qrcode', backgroundColor: '#ffffff', barColor: '#000000', content: isRecordSource(e.source) ? '' : staticText(e.source, shared) };
    case 'barcode':
      return {
        ...box(e),
        type: e.symbology,
        backgroundColor: '#ffffff',
        barColor: '#000000',
        textColor: '#000000',
        includetext: true,
        content: isRecordSource(e.source) ? '' : staticText(e.source, shared),
      };
  }
}

function staticText(source: TPrintSource, shared: PrintContext): string {
  switch (source.kind) {
    case 'static':
      return source.text;
    case 'printTime':
      return formatWall(wallFields(shared.now, shared.offsetMinutes), source.pattern);
    case 'printUser':
      return shared.userName;
    default:
      return '';
  }
}

/**
 * The template for a layout. With `record`, every-page elements that come from a record are
 * baked in (layouts where `perRecordStatics` holds); without it they are left empty.
 */
export function compileTemplate(layout: TPrintLayout, shared: PrintContext, record?: PrintRecord, formulas?: FormulaCache): PdfmeTemplate {
  const { width, height } = paperSize(layout.paper);
  const [top, right, bottom, left] = layout.paper.margins;
  const staticSchema: PdfmeSchema[] = [];
  const body: PdfmeSchema[] = [];
  for (const e of layout.elements) {
    const schema = schemaOf(e, shared);
    if (!e.everyPage) {
      body.push(schema);
      continue;
    }
    // Drawn as it is on every page: never a placeholder (a record's text must not be evaluated).
    if (e.type === 'table') continue; // a table flows; repeated on every page it would be drawn over itself
    const source = sourceOf(e);
    if (source && isRecordSource(source)) schema.content = record ? elementValue(e, record, shared, formulas ?? new FormulaCache()) : '';
    if (schema.readOnly === undefined) schema.readOnly = false;
    staticSchema.push(schema);
  }
  return { basePdf: { width, height, padding: [top, right, bottom, left], staticSchema }, schemas: [body] };
}

// ---------------------------------------------------------------- values

interface Wall { Y: number; M: number; D: number; h: number; m: number; s: number }

function wallFields(moment: Date, offsetMinutes: number): Wall {
  const d = new Date(moment.getTime() + offsetMinutes * 60_000);
  return { Y: d.getUTCFullYear(), M: d.getUTCMonth() + 1, D: d.getUTCDate(), h: d.getUTCHours(), m: d.getUTCMinutes(), s: d.getUTCSeconds() };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const WALL_TOKENS: Record<string, (w: Wall) => string> = {
  YYYY: (w) => pad(w.Y, 4), MM: (w) => pad(w.M), M: (w) => String(w.M), DD: (w) => pad(w.D), D: (w) => String(w.D), HH: (w) => pad(w.h), mm: (w) => pad(w.m), ss: (w) => pad(w.s),
};

/** A wall time by one of DATE_PATTERNS (YYYY MM M DD D HH mm ss; anything else as written). */
export const formatWall = (w: Wall, pattern: string) => pattern.replace(/YYYY|MM|M|DD|D|HH|mm|ss/g, (token) => WALL_TOKENS[token]!(w));

/** Compiled formulas of one print, by source text. */
export class FormulaCache {
  private readonly map = new Map<string, CompiledFormula>();
  get(source: string): CompiledFormula {
    let compiled = this.map.get(source);
    if (!compiled) this.map.set(source, (compiled = compileFormula(source)));
    return compiled;
  }
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : Array.isArray(v) ? v.map(text).join(', ') : typeof v === 'object' ? '' : String(v));

function formatted(value: unknown, format: TPrintFormat, shared: PrintContext, display?: unknown): string {
  switch (format.kind) {
    case 'none':
      return text(display ?? value);
    case 'date': {
      if (value === null || value === undefined || value === '') return '';
      const parts = typeof value === 'string' ? parseIsoDateParts(value) : null;
      if (!parts) return text(display ?? value);
      // A moment (with a zone) is written in the reader's zone; a day or a floating time as it is.
      const wall =
        parts.hasTime && parts.offsetMinutes !== null
          ? wallFields(new Date(Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - parts.offsetMinutes * 60_000), shared.offsetMinutes)
          : { Y: parts.year, M: parts.month, D: parts.day, h: parts.hour, m: parts.minute, s: parts.second };
      return formatWall(wall, format.pattern);
    }
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      if (value === null || value === undefined || value === '' || !Number.isFinite(n)) return text(display ?? value);
      return formatPrintNumber(n, format.precision, format.thousands);
    }
    case 'chineseAmount':
      return value === null || value === undefined || value === '' ? '' : chineseCapitals(value as number | string);
  }
}

function sourceValue(source: TPrintSource, format: TPrintFormat, values: Record<string, unknown>, texts: Record<string, unknown>, record: PrintRecord, shared: PrintContext, formulas: FormulaCache): string {
  switch (source.kind) {
    case 'field':
      return formatted(values[source.field], format, shared, texts[source.field]);
    case 'formula': {
      const views = Object.fromEntries(Object.entries(record.views).map(([code, v]) => [code, v.values])) as Record<string, Record<string, unknown>[]>;
      const result = formulas.get(source.formula).evaluate({
        row: values as never,
        master: record.values as never,
        views: views as never,
        now: shared.now,
        offsetMinutes: shared.offsetMinutes,
      });
      return formatted(toRecordValue(result, shared.offsetMinutes), format, shared);
    }
    default:
      return formatted(staticText(source, shared), format, shared);
  }
}

/** The text (or table rows as JSON) an element prints for a record. */
export function elementValue(e: TPrintElement, record: PrintRecord, shared: PrintContext, formulas: FormulaCache): string {
  switch (e.type) {
    case 'text':
      return sourceValue(e.source, e.format, record.values, record.texts, record, shared, formulas);
    case 'qrCode':
    case 'barcode':
      return sourceValue(e.source, { kind: 'none' }, record.values, record.texts, record, shared, formulas);
    case 'table':
      return tableInput(e, record.views[e.view], shared);
    default:
      return '';
  }
}

/** How a column's sums are written: its number format; a plain column's with separators; amounts in capitals. */
function sumFormat(format: TPrintFormat): SumFormat {
  if (format.kind === 'number' || format.kind === 'chineseAmount') return format;
  return format.kind === 'none' ? { kind: 'number', precision: null, thousands: true } : { kind: 'number', precision: null, thousands: false };
}

/** A table's input: its rows' JSON, or (with page subtotals) a PagedTable the worker lays out. */
function tableInput(e: Extract<TPrintElement, { type: 'table' }>, view: PrintRecord['views'][string] | undefined, shared: PrintContext): string {
  const values = view?.values ?? [];
  const texts = view?.texts ?? [];
  const rows = values.map((row, i) => e.columns.map((c) => formatted(row[c.field], c.format, shared, texts[i]?.[c.field])));
  const numbers = values.map((row) => e.columns.map((c) => (c.total ? (Number.isFinite(Number(row[c.field])) ? Number(row[c.field]) : 0) : null)));
  const formats = e.columns.map((c) => (c.total ? sumFormat(c.format) : null));
  const labelAt = Math.max(0, formats.findIndex((f) => f === null));
  const sumRow = (label: string, sums: (number | null)[]) => e.columns.map((_, i) => (i === labelAt ? label : sums[i] === null ? '' : formatSum(sums[i]!, formats[i]!)));
  const total = e.totalLabel === null ? null : sumRow(e.totalLabel, formats.map((f, i) => (f ? numbers.reduce((n, row) => n + row[i]!, 0) : null)));
  if (!e.subtotalLabel) return JSON.stringify(total ? [...rows, total] : rows);
  const paged: PagedTable = { rows, numbers, total, subtotal: { label: e.subtotalLabel, labelAt, formats } };
  return JSON.stringify(paged);
}

/** The inputs of a record: one value per element drawn once (texts, codes, tables). */
export function recordInputs(layout: TPrintLayout, record: PrintRecord, shared: PrintContext, formulas: FormulaCache): Record<string, string> {
  const input: Record<string, string> = {};
  for (const e of layout.elements) {
    if (e.everyPage) continue;
    if (e.type === 'table') input[e.id] = elementValue(e, record, shared, formulas);
    else if (e.type === 'text' || e.type === 'qrCode' || e.type === 'barcode') {
      // Page numbers are the template's own placeholders; everything else is its value (fixed texts too: pdfme draws inputs).
      if (e.type !== 'text' || e.source.kind !== 'pageNumber') input[e.id] = elementValue(e, record, shared, formulas);
    }
  }
  return input;
}
