/*
 * Page subtotals (本页小计) of a print table. Which rows land on which page is known only where the
 * fonts are — in the print worker — so the server hands the worker a table's rows with their numbers
 * (a `PagedTable`, as the table's input), and the worker, before pdfme lays the document out, walks
 * the rows the way pdfme's table layout does (its row heights, its page breaks, the repeated header)
 * and puts a subtotal row at the foot of each page, keeping room for it. pdfme then breaks the pages
 * right after each subtotal. Imports pdfme: only the worker loads this file.
 */
import { getDynamicHeightsForTable } from '@pdfme/schemas';
import { formatSum, type PagedTable } from './print-sums.ts';

interface TableSchema {
  position: { x: number; y: number };
  repeatHead?: boolean;
  showHead?: boolean;
}
interface BlankPdf {
  width: number;
  height: number;
  padding: [number, number, number, number];
}

/** pdfme's tolerance when it checks whether a row still fits (getDynamicHeightsForTable). */
const SAFETY_MARGIN = 0.5;

function subtotalRow(table: PagedTable, rows: number[]): string[] {
  const { label, labelAt, formats } = table.subtotal;
  const cells = formats.map((f, c) => (f ? formatSum(rows.reduce((n, r) => n + (table.numbers[r]?.[c] ?? 0), 0), f) : ''));
  cells[labelAt] = label;
  return cells;
}

/**
 * The table's rows with a subtotal row closing each page (and the grand total after the last one).
 * A table that fits on its first page gets no subtotals. `font` is pdfme's font option.
 */
export async function withPageSubtotals(table: PagedTable, schema: TableSchema, basePdf: BlankPdf, font: object): Promise<string[][]> {
  const all = table.rows.map((_, i) => i);
  const closing = table.total ? [table.total] : [];
  const plain = [...table.rows, ...closing];
  if (table.rows.length === 0) return plain;
  // The head's, each row's, the total's and a subtotal's heights (a subtotal of every row is the widest).
  const measured = await getDynamicHeightsForTable(JSON.stringify([...plain, subtotalRow(table, all)]), {
    schema: { ...schema, repeatHead: false, showHead: true } as never,
    basePdf: basePdf as never,
    options: { font } as never,
    _cache: new Map(),
  });
  const [headH = 0, ...body] = measured;
  const rowH = body.slice(0, table.rows.length);
  const totalH = table.total ? body[table.rows.length]! : 0;
  const subH = body[body.length - 1]!;

  const [paddingTop, , paddingBottom] = basePdf.padding;
  const contentH = basePdf.height - paddingTop - paddingBottom;
  const pageStart = (page: number) => page * contentH + paddingTop;
  const firstPage = Math.max(0, Math.floor((schema.position.y - paddingTop) / contentH));
  const startY = schema.position.y + headH;
  if (startY + rowH.reduce((n, h) => n + h, 0) + totalH <= pageStart(firstPage) + contentH - SAFETY_MARGIN) return plain;

  const out: string[][] = [];
  let page = firstPage;
  let y = startY;
  let onPage: number[] = [];
  for (let i = 0; i < rowH.length; i++) {
    for (;;) {
      const remaining = pageStart(page) + contentH - y;
      const need = rowH[i]! + (onPage.length === 0 && page > firstPage ? headH : 0);
      // Room for this row and the subtotal under it — pdfme's own test for the row after a subtotal. (The
      // total is not kept room for: where it does not fit, pdfme carries it over under a repeated head.)
      if (onPage.length > 0 && need + subH > remaining - SAFETY_MARGIN) {
        out.push(subtotalRow(table, onPage));
        page++;
        y = pageStart(page);
        onPage = [];
        continue;
      }
      out.push(table.rows[i]!);
      onPage.push(i);
      y += need;
      break;
    }
  }
  out.push(subtotalRow(table, onPage), ...closing);
  return out;
}
