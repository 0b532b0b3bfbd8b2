import type { FlatCondition } from './index.ts';

// Joins two flat condition lists (e.g. a list's quick-search row and its advanced filter) so that
// both must hold. Each list is kept whole: AND binds tighter than OR, so `q AND a1 OR a2` would
// read `(q AND a1) OR a2` — the lists are bracketed first, and the second one's first entry is
// linked with AND. Entries are put in their own sortNo order and the sortNo dropped, since the
// parser orders entries by it across the whole list.

const bracketDepth = (raw: unknown): number => (typeof raw === 'number' && Number.isInteger(raw) && raw > 0 ? raw : typeof raw === 'string' ? raw.trim().length : 0);

function ordered<T extends FlatCondition>(list: readonly T[]): T[] {
  const sortNo = (e: T) => (typeof e.sortNo === 'number' ? e.sortNo : Number.MAX_SAFE_INTEGER);
  return list
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => sortNo(a.entry) - sortNo(b.entry) || a.index - b.index)
    .map(({ entry }) => {
      const { sortNo: _dropped, ...rest } = entry;
      return rest as T;
    });
}

function bracketed<T extends FlatCondition>(list: readonly T[]): T[] {
  const entries = ordered(list);
  if (entries.length < 2) return entries;
  const last = entries.length - 1;
  return entries.map((e, i) => ({
    ...e,
    ...(i === 0 ? { leftBracket: '('.repeat(bracketDepth(e.leftBracket) + 1) } : {}),
    ...(i === last ? { rightBracket: ')'.repeat(bracketDepth(e.rightBracket) + 1) } : {}),
  }));
}

/** Both lists must hold (an empty list holds for every row). */
export function andFilterLists<T extends FlatCondition>(first: readonly T[], second: readonly T[]): T[] {
  if (!first.length) return [...second];
  if (!second.length) return [...first];
  const [head, ...tail] = bracketed(second);
  return [...bracketed(first), { ...head!, linkCondition: 'and' }, ...tail];
}
