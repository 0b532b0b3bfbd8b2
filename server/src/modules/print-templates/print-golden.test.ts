import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TPrintElement, TPrintLayout } from '@tessera/core/contracts/print-templates';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfPagePngs, pdfPageTexts } from '../../../test/pdf-pages.ts';
import { readCodes } from '../../../test/read-codes.ts';
import { compileTemplate, fontsOf, FormulaCache, recordInputs, type PrintRecord } from './print-compile.ts';
import { PrintPool } from './print-pool.ts';

// Golden pictures of the sample templates (issue 15): each is printed with fixed values and a fixed
// clock, its pages drawn as PNG by PDF.js (40 dpi, the embedded fonts) and compared with the pictures in
// golden/. A change in layout, pagination, fonts or formats shows as different pixels. After an
// intended change: UPDATE_GOLDEN=1 npx vitest run --project server print-golden, and look at them.

const GOLDEN = join(import.meta.dirname, 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const pool = new PrintPool(1);
afterAll(() => pool.close());

const style = { font: 'sans', fontSize: 10, alignment: 'left', verticalAlignment: 'middle', lineHeight: 1, characterSpacing: 0, color: '#000000', backgroundColor: '', underline: false } as const;
const text = (id: string, x: number, y: number, width: number, source: object, extra: Partial<Extract<TPrintElement, { type: 'text' }>> = {}): TPrintElement =>
  ({ id, type: 'text', x, y, width, height: 7, rotate: 0, everyPage: false, source, format: { kind: 'none' }, style, ...extra }) as TPrintElement;
const shared = { now: new Date('2026-11-26T08:30:00Z'), offsetMinutes: 480, userName: '王采购' };

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ Product: `钢笔 规格${i + 1}`, Quantity: (i % 9) + 1, Amount: ((i % 9) + 1) * 12.5, Day: `2026-11-${String((i % 28) + 1).padStart(2, '0')}` }));
const record = (lines: number): PrintRecord => {
  const r = rows(lines);
  const values = { OrderNo: 'PO-20261126-0001', Supplier: '上海文具有限公司', Total: r.reduce((n, x) => n + x.Amount, 0), OrderDate: '2026-11-26', Barcode: '6901234567892' };
  return { values, texts: values, views: { Lines: { values: r, texts: r } } };
};

const SAMPLES: Record<string, { layout: TPrintLayout; lines: number }> = {
  // A4 order: a title in bold, fields with formats, a table over three pages with its header
  // repeated and a total row, the page number and the print time on every page, a QR code.
  'order-a4': {
    lines: 110,
    layout: {
      paper: { preset: 'A4', width: 210, height: 297, orientation: 'portrait', margins: [15, 10, 20, 10] },
      elements: [
        text('title', 10, 10, 190, { kind: 'static', text: '采购订单' }, { height: 10, style: { ...style, font: 'sansBold', fontSize: 18, alignment: 'center' } }),
        text('no', 10, 24, 90, { kind: 'field', field: 'OrderNo' }),
        text('supplier', 10, 31, 90, { kind: 'field', field: 'Supplier' }),
        text('day', 110, 24, 60, { kind: 'field', field: 'OrderDate' }, { format: { kind: 'date', pattern: 'YYYY年M月D日' } }),
        text('capital', 110, 31, 90, { kind: 'field', field: 'Total' }, { format: { kind: 'chineseAmount' }, style: { ...style, font: 'serif' } }),
        {
          id: 'lines', type: 'table', x: 10, y: 42, width: 190, height: 12, rotate: 0, everyPage: false, view: 'Lines', repeatHead: true, totalLabel: '合计', subtotalLabel: '本页小计',
          columns: [
            { field: 'Product', title: '品名', width: 40, alignment: 'left', format: { kind: 'none' }, total: false },
            { field: 'Day', title: '交期', width: 25, alignment: 'center', format: { kind: 'date', pattern: 'MM-DD' }, total: false },
            { field: 'Quantity', title: '数量', width: 15, alignment: 'right', format: { kind: 'number', precision: 0, thousands: true }, total: true },
            { field: 'Amount', title: '金额', width: 20, alignment: 'right', format: { kind: 'number', precision: 2, thousands: true }, total: true },
          ],
          style: { font: 'sans', fontSize: 9, headBackground: '#e6e6e6', headColor: '#000000', borderColor: '#000000', borderWidth: 0.2, padding: 1 },
        },
        { ...text('page', 10, 282, 190, { kind: 'pageNumber', pattern: 'zh' }, { style: { ...style, fontSize: 8, alignment: 'center' } }), everyPage: true } as TPrintElement,
        { ...text('time', 130, 5, 70, { kind: 'printTime', pattern: 'YYYY-MM-DD HH:mm' }, { style: { ...style, fontSize: 7, alignment: 'right' } }), everyPage: true } as TPrintElement,
        { id: 'qr', type: 'qrCode', x: 180, y: 20, width: 18, height: 18, rotate: 0, everyPage: false, source: { kind: 'field', field: 'OrderNo' } },
      ],
    },
  },
  // 针式打印 三等分 (241 × 93 mm): a delivery note with a frame, lines and a short table.
  'delivery-241x93': {
    lines: 4,
    layout: {
      paper: { preset: 'continuous241x93', width: 241, height: 93, orientation: 'portrait', margins: [5, 8, 5, 8] },
      elements: [
        { id: 'frame', type: 'rectangle', x: 6, y: 4, width: 229, height: 85, rotate: 0, everyPage: false, borderColor: '#000000', borderWidth: 0.3, color: '' },
        text('title', 8, 6, 225, { kind: 'static', text: '送货单' }, { style: { ...style, font: 'serif', fontSize: 14, alignment: 'center' } }),
        { id: 'rule', type: 'line', x: 8, y: 15, width: 225, height: 0.3, rotate: 0, everyPage: false, color: '#000000' },
        text('supplier', 8, 17, 110, { kind: 'formula', formula: 'CONCATENATE("收货单位：", {Supplier})' }),
        text('user', 150, 17, 80, { kind: 'printUser' }, { style: { ...style, alignment: 'right' } }),
        {
          id: 'lines', type: 'table', x: 8, y: 26, width: 225, height: 10, rotate: 0, everyPage: false, view: 'Lines', repeatHead: true, totalLabel: null,
          columns: [
            { field: 'Product', title: '品名', width: 60, alignment: 'left', format: { kind: 'none' }, total: false },
            { field: 'Quantity', title: '数量', width: 20, alignment: 'right', format: { kind: 'number', precision: 0, thousands: false }, total: false },
            { field: 'Amount', title: '金额', width: 20, alignment: 'right', format: { kind: 'number', precision: 2, thousands: true }, total: false },
          ],
          style: { font: 'sans', fontSize: 9, headBackground: '', headColor: '#000000', borderColor: '#000000', borderWidth: 0.2, padding: 0.8 },
        },
      ],
    },
  },
  // Turned elements: each about its centre, clockwise (a rectangle at 90° stays on the page).
  'turned-100x100': {
    lines: 0,
    layout: {
      paper: { preset: 'custom', width: 100, height: 100, orientation: 'portrait', margins: [0, 0, 0, 0] },
      elements: [
        { id: 'flat', type: 'rectangle', x: 50, y: 50, width: 40, height: 10, rotate: 0, everyPage: false, borderColor: '#0000ff', borderWidth: 0.3, color: '' },
        { id: 'upright', type: 'rectangle', x: 50, y: 50, width: 40, height: 10, rotate: 90, everyPage: false, borderColor: '#ff0000', borderWidth: 0.5, color: '' },
        text('slant', 5, 20, 40, { kind: 'static', text: '旋转文字' }, { height: 10, rotate: 30, style: { ...style, backgroundColor: '#ffcccc' } }),
        { id: 'qr', type: 'qrCode', x: 5, y: 60, width: 30, height: 20, rotate: 90, everyPage: false, source: { kind: 'static', text: 'hello' } },
      ],
    },
  },
  // A 100 × 50 mm label: the order number as Code 128, the EAN-13 of the goods, a QR code.
  'label-100x50': {
    lines: 0,
    layout: {
      paper: { preset: 'label100x50', width: 100, height: 50, orientation: 'portrait', margins: [2, 2, 2, 2] },
      elements: [
        text('supplier', 3, 3, 60, { kind: 'field', field: 'Supplier' }, { style: { ...style, font: 'sansBold', fontSize: 9 } }),
        { id: 'code128', type: 'barcode', symbology: 'code128', x: 3, y: 12, width: 60, height: 14, rotate: 0, everyPage: false, source: { kind: 'field', field: 'OrderNo' } },
        { id: 'ean', type: 'barcode', symbology: 'ean13', x: 3, y: 29, width: 45, height: 18, rotate: 0, everyPage: false, source: { kind: 'field', field: 'Barcode' } },
        { id: 'qr', type: 'qrCode', x: 70, y: 10, width: 26, height: 26, rotate: 0, everyPage: false, source: { kind: 'static', text: 'https://tessera.example/o/PO-20261126-0001' } },
      ],
    },
  },
};

async function printSample(name: string): Promise<Buffer> {
  const { layout, lines } = SAMPLES[name]!;
  const pdf = await pool.render([{ template: compileTemplate(layout, shared), inputs: [recordInputs(layout, record(lines), shared, new FormulaCache())], fonts: fontsOf(layout) }]);
  return Buffer.from(pdf);
}

/** Share of pixels whose grey level differs by more than 64 of 255 (1 when the sizes differ). */
async function difference(a: Buffer, b: string): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((f) => sharp(f).greyscale().raw().toBuffer({ resolveWithObject: true })));
  if (x!.info.width !== y!.info.width || x!.info.height !== y!.info.height) return 1;
  let differing = 0;
  for (let i = 0; i < x!.data.length; i++) if (Math.abs(x!.data[i]! - y!.data[i]!) > 64) differing++;
  return differing / x!.data.length;
}

describe('golden print pictures', () => {
  for (const name of Object.keys(SAMPLES)) {
    it(`${name} prints as its golden pictures`, async () => {
      const drawn = await pdfPagePngs(await printSample(name), 40);
      const goldens = readdirSync(GOLDEN).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png')).sort();
      if (UPDATE) {
        for (const f of goldens) rmSync(join(GOLDEN, f));
        drawn.forEach((png, i) => writeFileSync(join(GOLDEN, `${name}-${i + 1}.png`), png));
        return;
      }
      expect(goldens.length, `pages of ${name}`).toBe(drawn.length);
      for (let i = 0; i < drawn.length; i++) {
        const golden = join(GOLDEN, `${name}-${i + 1}.png`);
        expect(existsSync(golden)).toBe(true);
        expect(await difference(drawn[i]!, golden), `${name} page ${i + 1}`).toBeLessThan(0.002);
      }
    }, 60_000);
  }

  it('the sample order breaks into three pages, each with the header row and its page number', async () => {
    const text = await pdfPageTexts(await printSample('order-a4'));
    expect(text).toHaveLength(3);
    text.forEach((page, i) => {
      expect(page).toMatch(/品名\s+交期\s+数量\s+金额/);
      expect(page).toMatch(new RegExp(`第\\s*${i + 1}\\s*页\\s*/\\s*共\\s*3\\s*页`));
      expect(page).toContain('2026-11-26 16:30');
    });
    expect(text[0]).toContain('陆仟柒佰捌拾柒元伍角');
    expect(text[2]).toMatch(/合计\s+543\s+6,787\.50/);
  }, 60_000);

  it('each page of the order closes with the subtotal of its own rows; a short order has none', async () => {
    const number = (s: string) => Number(s.replace(/,/g, ''));
    const pages = await pdfPageTexts(await printSample('order-a4'));
    let rows = 0;
    for (const page of pages) {
      const lines = [...page.matchAll(/钢笔 规格\d+\s+\d\d-\d\d\s+(\d+)\s+([\d,.]+)/g)];
      const subtotal = /本页小计\s+([\d,]+)\s+([\d,.]+)/.exec(page);
      expect(lines.length).toBeGreaterThan(20);
      expect(subtotal, page).not.toBeNull();
      expect(number(subtotal![1]!)).toBe(lines.reduce((n, m) => n + number(m[1]!), 0));
      expect(number(subtotal![2]!)).toBeCloseTo(lines.reduce((n, m) => n + number(m[2]!), 0), 2);
      expect(page.slice(subtotal!.index), "the subtotal is the page's last row").not.toContain('钢笔');
      rows += lines.length;
    }
    expect(rows).toBe(110);

    const { layout } = SAMPLES['order-a4']!;
    const short = await pool.render([{ template: compileTemplate(layout, shared), inputs: [recordInputs(layout, record(5), shared, new FormulaCache())], fonts: fontsOf(layout) }]);
    const [only] = await pdfPageTexts(short);
    expect(only).toMatch(/合计\s+15\s+187\.50/);
    expect(only).not.toContain('本页小计');
  }, 60_000);

  it("its QR codes and barcodes scan back to the record's values", async () => {
    const [order] = await pdfPagePngs(await printSample('order-a4'), 150);
    expect(await readCodes(order!)).toEqual([{ format: 'QRCode', text: 'PO-20261126-0001' }]);
    const [label] = await pdfPagePngs(await printSample('label-100x50'), 300);
    expect((await readCodes(label!)).sort((a, b) => a.format.localeCompare(b.format))).toEqual([
      { format: 'Code128', text: 'PO-20261126-0001' },
      { format: 'EAN13', text: '6901234567892' },
      { format: 'QRCode', text: 'https://tessera.example/o/PO-20261126-0001' },
    ]);
  }, 60_000);
});
