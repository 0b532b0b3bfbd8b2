import type { TPagedQuery } from '@tessera/core/contracts/common';

/** Maps `Sorting` ("name desc") to an allow-listed column; anything else falls back. */
export function parseSorting<C extends string>(
  sorting: string | undefined,
  columns: Record<string, C>,
  fallback: { column: C; direction: 'asc' | 'desc' },
): { column: C; direction: 'asc' | 'desc' } {
  if (!sorting) return fallback;
  const [field, dir] = sorting.trim().split(/\s+/);
  const key = field?.toLowerCase();
  const column = key && Object.hasOwn(columns, key) ? columns[key] : undefined;
  if (!column) return fallback;
  return { column, direction: dir?.toLowerCase() === 'desc' ? 'desc' : 'asc' };
}

export const pageWindow = (q: TPagedQuery) => ({ offset: q.SkipCount, limit: q.MaxResultCount });
