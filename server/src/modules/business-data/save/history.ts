/**
 * Step 7, history: one row per save records who changed the record and each field's before → after
 * (a new record: "Created"; a save that changed nothing on a stored record: no row). A deletion
 * records the deleted record's values.
 */
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { uuidv7 } from '../../../platform/ids.ts';
import type { RequestUser } from '../../../platform/auth.ts';
import type { HistoryEntry } from '../business-data.repository.ts';
import { rowToRecord } from '../record-values.ts';
import type { RuntimePage } from '../runtime-page.ts';
import { isBlank, type FieldChange, type Rec } from './model.ts';

/** Who made a change, with the full name the history keeps (a reader sees the user's current name; this one stands in). */
export type Author = { readonly id: string; readonly name: string } | null;

/** The author of the caller's changes: their full name in the culture's order. */
export const authorOf = (user: Pick<RequestUser, 'id' | 'name' | 'surname' | 'userName'> | null, culture: string): Author =>
  user ? { id: user.id, name: personDisplayName(user, culture) } : null;

/** The history row of a save, or null when a stored record did not change. */
export function saveHistory(page: RuntimePage, masterId: string, isNew: boolean, changes: FieldChange[], user: Author, newId: () => string = uuidv7): HistoryEntry | null {
  if (!isNew && changes.length === 0) return null;
  return { id: newId(), page_id: page.pageId, master_record_id: masterId, action: isNew ? 'Created' : 'Updated', user_id: user?.id ?? null, user_name: user?.name ?? null, changes };
}

/** One "Deleted" history row per deleted master record (its table row), with the values it held. */
export function deletionHistory(page: RuntimePage, rows: Rec[], user: Author, newId: () => string = uuidv7): HistoryEntry[] {
  const master = page.master;
  return rows.map((r) => {
    const record = rowToRecord(r, master.controls);
    const changes = master.controls.filter((c) => !isBlank(record[c.code])).map((c) => ({ viewId: master.id, rowId: String(r.Id), code: c.code, title: c.control.title, before: record[c.code], after: null }));
    return { id: newId(), page_id: page.pageId, master_record_id: String(r.Id), action: 'Deleted' as const, user_id: user?.id ?? null, user_name: user?.name ?? null, changes };
  });
}
