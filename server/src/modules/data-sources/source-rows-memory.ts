/*
 * Conditions, search, order and paging of a saved query's rows done here rather than on the
 * source: an HTTP source answers its rows whole (at most its row cap), so lookups and drop-downs
 * fed by one filter those rows in memory, with the meaning the SQL wrapper of source-rows.ts gives
 * them: a condition on a null value holds for eq (is null) and ne (is not null) only, text matches
 * ignore case, `in` compares as text, numbers compare as numbers.
 */
import type { TQueryParameterValue } from '@tessera/core/contracts/data-sources';
import type { SourceRowsRequest } from './source-rows.ts';

type Row = Record<string, unknown>;

const textOf = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));
const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
const asNumber = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'string' && NUMERIC.test(v) ? Number(v) : null);

/** -1, 0, 1 comparing a row's value with another: as numbers when both are, else as text. */
function compare(a: unknown, b: unknown): number {
  const [x, y] = [asNumber(a), asNumber(b)];
  if (x !== null && y !== null && (typeof a === 'number' || typeof b === 'number' || (typeof a === 'string' && typeof b === 'string'))) return x === y ? 0 : x < y ? -1 : 1;
  const [s, t] = [textOf(a) ?? '', textOf(b) ?? ''];
  return s === t ? 0 : s < t ? -1 : 1;
}

function holds(row: Row, c: NonNullable<SourceRowsRequest['where']>[number]): boolean {
  const value = row[c.column];
  const one: TQueryParameterValue = Array.isArray(c.value) ? (c.value[0] ?? null) : (c.value ?? null);
  const text = textOf(value);
  switch (c.op) {
    case 'in': {
      const list = (Array.isArray(c.value) ? c.value : [c.value ?? null]).filter((v) => v !== null).map(String);
      return text !== null && list.includes(text);
    }
    case 'contains':
    case 'notContains':
    case 'startsWith':
    case 'endsWith': {
      if (text === null) return false;
      const [hay, needle] = [text.toLowerCase(), (one === null ? '' : String(one)).toLowerCase()];
      if (c.op === 'contains') return hay.includes(needle);
      if (c.op === 'notContains') return !hay.includes(needle);
      return c.op === 'startsWith' ? hay.startsWith(needle) : hay.endsWith(needle);
    }
    case 'isEmpty':
      return text === null || text === '';
    case 'isNotEmpty':
      return text !== null && text !== '';
    default: {
      if (one === null) return c.op === 'ne' ? value !== null && value !== undefined : value === null || value === undefined;
      if (value === null || value === undefined) return false;
      const order = compare(value, one);
      return { eq: order === 0, ne: order !== 0, gt: order > 0, ge: order >= 0, lt: order < 0, le: order <= 0 }[c.op];
    }
  }
}

/**
 * The page of rows the request asks for, and how many rows its conditions and search keep.
 * Columns must be ones the query answers (`has`; else `unknown`'s error).
 */
export function rowsInMemory(
  rows: readonly Row[],
  request: Pick<SourceRowsRequest, 'where' | 'search' | 'orderBy' | 'limit' | 'offset'>,
  options: { rowCap: number; has(column: string): boolean; unknown(column: string): Error },
): { page: Row[]; count: number } {
  const column = (name: string) => {
    if (!options.has(name)) throw options.unknown(name);
    return name;
  };
  const where = (request.where ?? []).map((c) => ({ ...c, column: column(c.column) }));
  const search = request.search?.text.trim().toLowerCase();
  const searched = search && request.search ? request.search.columns.map(column) : null;
  const order = request.orderBy ? column(request.orderBy) : null;
  let kept = rows.filter((row) => where.every((c) => holds(row, c)) && (!searched || searched.some((name) => (textOf(row[name]) ?? '').toLowerCase().includes(search!))));
  if (order) {
    // Nulls last, as PostgreSQL orders ascending; ties keep the source's order.
    kept = kept
      .map((row, i) => ({ row, i }))
      .sort((a, b) => {
        const [x, y] = [a.row[order], b.row[order]];
        const nx = x === null || x === undefined;
        const ny = y === null || y === undefined;
        if (nx || ny) return nx === ny ? a.i - b.i : nx ? 1 : -1;
        return compare(x, y) || a.i - b.i;
      })
      .map((e) => e.row);
  }
  const limit = Math.max(0, Math.min(request.limit, options.rowCap));
  const offset = Math.max(0, request.offset ?? 0);
  return { page: kept.slice(offset, offset + limit), count: kept.length };
}
