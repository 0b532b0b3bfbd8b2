import { describe, expect, it } from 'vitest';
import { rowsInMemory } from './source-rows-memory.ts';
import type { SourceCondition } from './source-rows.ts';

// The in-memory filter of an HTTP query's rows: the meaning source-rows.ts gives the same request in SQL.

const rows = [
  { code: 'A', name: 'Alpha', credit: 100, note: null, day: '2026-01-02' },
  { code: 'B', name: 'beta 50%', credit: '20', note: '', day: '2026-03-01' },
  { code: 'C', name: 'Gamma', credit: 3, note: 'x', day: null },
];
const has = (c: string) => ['code', 'name', 'credit', 'note', 'day'].includes(c);
const run = (request: Parameters<typeof rowsInMemory>[1]) => rowsInMemory(rows, request, { rowCap: 100, has, unknown: (c) => new Error(`unknown ${c}`) });
const codes = (where: SourceCondition[]) => run({ where, limit: 10 }).page.map((r) => r.code);

describe('rowsInMemory', () => {
  it.each<[string, SourceCondition[], string[]]>([
    ['numbers compare as numbers (text digits too)', [{ column: 'credit', op: 'gt', value: 10 }], ['A', 'B']],
    ['ge on text digits', [{ column: 'credit', op: 'ge', value: '20' }], ['A', 'B']],
    ['eq null is "is null"', [{ column: 'note', op: 'eq', value: null }], ['A']],
    ['ne null is "is not null"', [{ column: 'note', op: 'ne', value: null }], ['B', 'C']],
    ['a comparison with a null row value fails', [{ column: 'day', op: 'lt', value: '2030-01-01' }], ['A', 'B']],
    ['contains ignores case, takes % literally', [{ column: 'name', op: 'contains', value: '50%' }], ['B']],
    ['startsWith ignores case', [{ column: 'name', op: 'startsWith', value: 'BETA' }], ['B']],
    ['notContains leaves nulls out', [{ column: 'note', op: 'notContains', value: 'x' }], ['B']],
    ['in compares as text', [{ column: 'credit', op: 'in', value: ['100', 3] }], ['A', 'C']],
    ['isEmpty: null or empty', [{ column: 'note', op: 'isEmpty' }], ['A', 'B']],
    ['all conditions must hold', [{ column: 'credit', op: 'lt', value: 200 }, { column: 'name', op: 'endsWith', value: 'a' }], ['A', 'C']],
  ])('%s', (_, where, expected) => {
    expect(codes(where)).toEqual(expected);
  });

  it('searches some columns, orders (nulls last), pages and counts', () => {
    expect(run({ search: { columns: ['name', 'code'], text: 'A' }, orderBy: 'credit', limit: 1, offset: 1 })).toEqual({ page: [rows[1]], count: 3 });
    expect(run({ orderBy: 'day', limit: 10 }).page.map((r) => r.code)).toEqual(['A', 'B', 'C']);
    expect(run({ search: { columns: ['name'], text: 'zzz' }, limit: 10 }).count).toBe(0);
  });

  it('refuses a column the query does not answer, and caps the page at the row cap', () => {
    expect(() => run({ where: [{ column: 'secret', op: 'eq', value: 1 }], limit: 10 })).toThrow('unknown secret');
    expect(() => run({ orderBy: 'x', limit: 10 })).toThrow('unknown x');
    expect(rowsInMemory(rows, { limit: 50 }, { rowCap: 2, has, unknown: () => new Error() }).page).toHaveLength(2);
  });
});
