import { tryParseIsoDate } from '../helpers/iso-date.ts';
import type { FilterConditionNode, FilterNode, FilterScalar } from './filter-tree.ts';

// JavaScript back end of the filter tree, for rows held in the browser. Semantics the server's
// SQL back end must mirror (the differential test compares both):
//   - empty = null, undefined, '' or an empty list;
//   - positive operators (eq, gt, contains, in, between…) never match an empty value;
//   - negative operators (ne, notContains, notIn) do match empty values
//     (SQL: `IS DISTINCT FROM`, `col IS NULL OR col NOT ILIKE …`);
//   - text eq/ne/in are case-sensitive; contains/startsWith/endsWith are case-insensitive (ILIKE),
//     folding each code point with its simple lower-case mapping (`foldCase`: what PostgreSQL's
//     lower() does; JavaScript's context-dependent final sigma and `İ` → `i̇` are not used);
//   - text gt/ge/lt/le/between order by code point (SQL `COLLATE "C"`), not by UTF-16 unit;
//   - dates compare as instants; zone-less row values are read at `offsetMinutes`.

export type FilterPredicate = (row: Readonly<Record<string, unknown>>) => boolean;

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

function normalize(v: unknown, c: FilterConditionNode, offsetMinutes: number): FilterScalar | null {
  if (isEmpty(v)) return null;
  switch (c.fieldType) {
    case 2:
    case 3: {
      const n = typeof v === 'number' ? v : Number(v);
      return Number.isFinite(n) ? n : null;
    }
    case 4: {
      const d = v instanceof Date ? v : tryParseIsoDate(v, offsetMinutes);
      return d ? d.getTime() : null;
    }
    case 5:
      return v === true || v === 'true' || v === 1;
    default:
      return Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
}

const operandOf = (x: FilterScalar, c: FilterConditionNode): FilterScalar => (c.fieldType === 4 ? Date.parse(x as string) : x);

const ASCII = /^[\x00-\x7f]*$/;
/** Case folding shared with SQL `ILIKE`/`lower()`: per code point, simple mapping. */
export function foldCase(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) out += ch === '\u0130' ? 'i' : ch.toLowerCase();
  return out;
}
const lower = (x: FilterScalar | null) => foldCase(String(x));

/** Orders strings by code point (UTF-8 byte order, SQL `COLLATE "C"`); numbers as numbers. */
function compare(a: FilterScalar, b: FilterScalar): number {
  if (typeof a !== 'string' || typeof b !== 'string') return a < b ? -1 : a > b ? 1 : 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (U+D800–DFFF) stands for a code point above U+FFFF: it sorts after U+E000–FFFF.
    const kx = x >= 0xd800 && x <= 0xdfff ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
    const ky = y >= 0xd800 && y <= 0xdfff ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
    return kx - ky;
  }
  return a.length - b.length;
}

function testCondition(c: FilterConditionNode, row: Readonly<Record<string, unknown>>, offsetMinutes: number): boolean {
  const raw = Object.hasOwn(row, c.field) ? row[c.field] : undefined;
  const v = normalize(raw, c, offsetMinutes);
  const ops = c.operands.map((o) => operandOf(o, c));
  const [a, b] = ops;
  switch (c.operator) {
    case 'isEmpty':
      return v === null;
    case 'isNotEmpty':
      return v !== null;
    case 'ne':
      return v === null || v !== a;
    case 'notContains':
      return v === null || !lower(v).includes(lower(a));
    case 'notIn':
      return v === null || !ops.includes(v);
  }
  if (v === null) return false;
  switch (c.operator) {
    case 'eq':
      return v === a;
    case 'gt':
      return compare(v, a) > 0;
    case 'ge':
      return compare(v, a) >= 0;
    case 'lt':
      return compare(v, a) < 0;
    case 'le':
      return compare(v, a) <= 0;
    case 'contains':
      return lower(v).includes(lower(a));
    case 'startsWith':
      return lower(v).startsWith(lower(a));
    case 'endsWith':
      return lower(v).endsWith(lower(a));
    case 'in':
      return ops.includes(v);
    case 'between':
      return compare(v, a) >= 0 && compare(v, b) <= 0;
  }
}

/** Compiles a filter tree into a row predicate. */
export function compileFilterPredicate(tree: FilterNode, options: { offsetMinutes?: number } = {}): FilterPredicate {
  const offset = options.offsetMinutes ?? 0;
  const build = (node: FilterNode): FilterPredicate => {
    if (node.kind === 'condition') return (row) => testCondition(node, row, offset);
    const children = node.children.map(build);
    return node.link === 'and' ? (row) => children.every((p) => p(row)) : (row) => children.length === 0 || children.some((p) => p(row));
  };
  return build(tree);
}
