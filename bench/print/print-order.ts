/** The bench's purchase order: a layout (title, fields, a 3-column table with totals, page numbers, a QR code) and records of n lines. */
import type { TPrintElement, TPrintLayout } from '@tessera/core/contracts/print-templates';
import type { PrintRecord } from '../../server/src/modules/print-templates/print-compile.ts';

const style = { font: 'sans', fontSize: 10, alignment: 'left', verticalAlignment: 'middle', lineHeight: 1, characterSpacing: 0, color: '#000000', backgroundColor: '', underline: false } as const;
const text = (id: string, y: number, source: object, format: object = { kind: 'none' }): TPrintElement =>
  ({ id, type: 'text', x: 10, y, width: 150, height: 8, rotate: 0, everyPage: false, source, format, style }) as TPrintElement;

export function benchOrderLayout(): TPrintLayout {
  return {
    paper: { preset: 'A4', width: 210, height: 297, orientation: 'portrait', margins: [15, 10, 15, 10] },
    elements: [
      { ...text('title', 10, { kind: 'static', text: '采购订单' }), style: { ...style, fontSize: 18, alignment: 'center' } } as TPrintElement,
      text('supplier', 22, { kind: 'field', field: 'SupplierName' }),
      text('note', 30, { kind: 'field', field: 'Note' }),
      text('total', 38, { kind: 'field', field: 'Total' }, { kind: 'chineseAmount' }),
      {
        id: 'lines', type: 'table', x: 10, y: 48, width: 190, height: 12, rotate: 0, everyPage: false, view: 'Lines', repeatHead: true, totalLabel: '合计',
        columns: [
          { field: 'Product', title: '品名', width: 50, alignment: 'left', format: { kind: 'none' }, total: false },
          { field: 'Quantity', title: '数量', width: 20, alignment: 'right', format: { kind: 'number', precision: 0, thousands: true }, total: true },
          { field: 'Amount', title: '金额', width: 30, alignment: 'right', format: { kind: 'number', precision: 2, thousands: true }, total: true },
        ],
        style: { font: 'sans', fontSize: 9, headBackground: '#eeeeee', headColor: '#000000', borderColor: '#000000', borderWidth: 0.2, padding: 1 },
      },
      { ...text('pageNo', 285, { kind: 'pageNumber', pattern: 'zh' }), everyPage: true } as TPrintElement,
      { id: 'qr', type: 'qrCode', x: 175, y: 5, width: 20, height: 20, rotate: 0, everyPage: false, source: { kind: 'field', field: 'SupplierName' } },
    ],
  };
}

const PRODUCTS = ['钢笔', '铅笔', '笔记本', '订书机', '文件夹', '打印纸', '墨盒', '胶带', '剪刀', '计算器'];
export const benchLines = (n: number) => Array.from({ length: n }, (_, i) => ({ Product: `${PRODUCTS[i % PRODUCTS.length]} 规格${i + 1}`, Quantity: (i % 9) + 1, Price: 12.5, Amount: ((i % 9) + 1) * 12.5 }));

export function benchRecord(lines: number, supplier = '上海文具有限公司'): PrintRecord {
  const rows = benchLines(lines);
  const total = rows.reduce((n, r) => n + r.Amount, 0);
  return { values: { SupplierName: supplier, Note: '请于本月底前送达仓库', Total: total }, texts: { SupplierName: supplier, Note: '请于本月底前送达仓库', Total: total }, views: { Lines: { values: rows, texts: rows } } };
}
