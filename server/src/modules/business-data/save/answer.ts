/**
 * Step 8, answer: save-page answers with the page as the database now holds it — the rows the write
 * step got back, in the order a read gives them (creation time, then id), as query-page-data would.
 */
import type { TPageDataResult } from '@tessera/core/contracts/business-data';
import { toPageData } from '../record-values.ts';
import type { Rec, SaveSession } from './model.ts';

const timeOf = (v: unknown) => (v instanceof Date ? v.getTime() : new Date(String(v)).getTime());

/** The read order of rows (`rowsByParents`): creation time, then id. */
export function creationOrder(a: Rec, b: Rec): number {
  const d = timeOf(a.CreationTime) - timeOf(b.CreationTime);
  if (d !== 0) return d;
  const x = String(a.Id).toLowerCase();
  const y = String(b.Id).toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The answer of a save: every view's written rows in read order, the fields the caller may see. */
export function answerOf(session: SaveSession, written: Map<string, Rec[]>): TPageDataResult {
  const ordered = new Map([...written].map(([viewId, rows]) => [viewId, [...rows].sort(creationOrder)]));
  return toPageData(session.culture, session.page, session.access, ordered, session.offsetMinutes);
}
