import { decimalPlaces, toFixedHalfAwayFromZero } from './round.ts';

// The one way Tessera writes a number for people (lists, forms, grids, summaries, Excel): thousands
// separators, and the control's decimal places (its accuracy) when it has one — 1234.5 at 2 places
// is 1,234.50 everywhere, and Excel gets the number itself with the matching format #,##0.00.

const groupThousands = (fixed: string) => {
  const [i, f] = fixed.split('.');
  const grouped = i!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return f === undefined ? grouped : `${grouped}.${f}`;
};

/** `value` with thousands separators, at `accuracy` decimal places (null: as many as the value has, at 15 significant digits). '' for null. */
export function formatNumber(value: number | null, accuracy: number | null): string {
  if (value === null || !Number.isFinite(value)) return '';
  if (accuracy !== null) return groupThousands(toFixedHalfAwayFromZero(value, accuracy));
  // Without an accuracy the value's own decimals, written out (never 1e-7, never 0.30000000000000004).
  return groupThousands(toFixedHalfAwayFromZero(value, Math.min(15, decimalPlaces(value))));
}

/** Excel's number format for the same display: `#,##0`, `#,##0.00` (null accuracy: the value's own decimals). */
export function excelNumberFormat(value: number, accuracy: number | null): string {
  const places = accuracy ?? Math.min(15, decimalPlaces(value));
  return places > 0 ? `#,##0.${'0'.repeat(places)}` : '#,##0';
}
