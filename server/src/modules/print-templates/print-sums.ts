/*
 * The sums of a print table and the table input that carries page subtotals to the print worker.
 * Kept apart from the layout (print-table-pages.ts) because that imports pdfme, whose loading takes
 * seconds: the server's print compiler needs only these. Imports two dependency-free helpers of core
 * by path (the worker runs with Node's type stripping, which does not read TypeScript inside
 * node_modules).
 */
import { chineseCapitals } from '../../../../packages/core/src/helpers/amount-in-words.ts';
import { formatNumber } from '../../../../packages/core/src/helpers/number-format.ts';

/** How a sum is written: a number (decimals, thousands separators) or an amount in Chinese capitals. */
export type SumFormat = { kind: 'number'; precision: number | null; thousands: boolean } | { kind: 'chineseAmount' };

/** A number at `precision` decimals (null: its own), with or without thousands separators. */
export function formatPrintNumber(n: number, precision: number | null, thousands: boolean): string {
  if (thousands) return formatNumber(n, precision);
  return precision === null ? String(n) : n.toFixed(precision);
}

/** A sum (rounded to 8 decimals first: 0.1 + 0.2 is 0.3). */
export function formatSum(sum: number, format: SumFormat): string {
  const n = Math.round(sum * 1e8) / 1e8;
  return format.kind === 'chineseAmount' ? chineseCapitals(n) : formatPrintNumber(n, format.precision, format.thousands);
}

/** A table input whose page subtotals the worker lays out (a plain table input is the rows' JSON array). */
export interface PagedTable {
  rows: string[][];
  /** Per row, per column: the number summed (null: a column without sums). */
  numbers: (number | null)[][];
  /** The grand total row, or null. */
  total: string[] | null;
  subtotal: { label: string; labelAt: number; formats: (SumFormat | null)[] };
}

export const isPagedTable = (input: string) => input.startsWith('{');
