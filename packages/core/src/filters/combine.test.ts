import { describe, expect, it } from 'vitest';
import { andFilterLists, compileFilterPredicate, parseFilterConditions, type FilterField, type FlatCondition } from './index.ts';

const fields: FilterField[] = [
  { code: 'name', tableFieldType: 1 },
  { code: 'qty', tableFieldType: 2 },
];
const rows = [
  { Id: 'a', name: 'apple', qty: 1 },
  { Id: 'b', name: 'banana', qty: 2 },
  { Id: 'c', name: 'cherry', qty: 3 },
];
const c = (key: string, judgmentMethod: string, value: unknown, extra: object = {}): FlatCondition => ({ key, judgmentMethod, value, ...extra });
function ids(list: unknown[]) {
  const parsed = parseFilterConditions(list, fields);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return rows.filter(compileFilterPredicate(parsed.tree)).map((r) => r.Id);
}

describe('andFilterLists', () => {
  it('returns the other list when one is empty', () => {
    const list = [c('name', 'eq', 'apple')];
    expect(andFilterLists([], list)).toEqual(list);
    expect(andFilterLists(list, [])).toEqual(list);
  });

  it('keeps an OR inside the second list from escaping the first', () => {
    const quick = [c('qty', 'le', 2)];
    const advanced = [c('name', 'eq', 'banana'), c('name', 'eq', 'cherry', { linkCondition: 'or' })];
    // Appended as they are, AND binds tighter: (qty <= 2 AND banana) OR cherry.
    expect(ids([...quick, { ...advanced[0], linkCondition: 'and' }, advanced[1]])).toEqual(['b', 'c']);
    expect(ids(andFilterLists(quick, advanced))).toEqual(['b']);
    expect(ids(andFilterLists(advanced, quick))).toEqual(['b']);
  });

  it('nests existing brackets and follows each list’s own sortNo', () => {
    const first = [c('qty', 'le', 2, { leftBracket: '(', rightBracket: ')' }), c('qty', 'eq', 3, { linkCondition: 'or' })];
    const second = [c('name', 'eq', 'cherry', { sortNo: 2, linkCondition: 'or' }), c('name', 'eq', 'banana', { sortNo: 1 })];
    const joined = andFilterLists(first, second);
    expect(joined.map((e) => [e.leftBracket ?? '', e.key, e.rightBracket ?? '', e.linkCondition ?? ''])).toEqual([
      ['((', 'qty', ')', ''],
      ['', 'qty', ')', 'or'],
      ['(', 'name', '', 'and'],
      ['', 'name', ')', 'or'],
    ]);
    expect(joined.some((e) => 'sortNo' in e)).toBe(false);
    expect(ids(joined)).toEqual(['b', 'c']);
  });
});
