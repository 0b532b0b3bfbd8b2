/**
 * Step 6, write: what the save changes is planned first (pure: inserts, updates, deletions and the
 * field changes the history records), then written — per view, in page order: child rows no longer
 * in the final list are deleted, changed rows updated, new rows inserted in one statement. The
 * database returns the rows it wrote (RETURNING), so the answer is what is stored, not a copy.
 */
import type { RequestUser } from '../../../platform/auth.ts';
import type { Db } from '../../../platform/context.ts';
import { isUniqueViolation } from '../../../platform/sql-values.ts';
import { nextCreationTime } from '../../pages/index.ts';
import { bizInvalid, type Translate } from '../business-data.messages.ts';
import * as repo from '../business-data.repository.ts';
import { toColumnValue } from '../record-values.ts';
import type { RuntimePage, RuntimeView } from '../runtime-page.ts';
import { isBlank, type FieldChange, type PageRows, type Rec, type StoredPage } from './model.ts';

/** The writes of one view. */
export interface ViewWrite {
  view: RuntimeView;
  /** Child rows to delete: left out by the client, or replaced by a linkage. */
  deletedIds: string[];
  /** Changed rows: id → column values (system columns included). */
  updates: { id: string; values: Rec }[];
  /** Columns and values of the new rows, one multi-row insert. */
  insertColumns: string[];
  inserts: unknown[][];
  /** Stored table rows that stay as they are. */
  unchanged: Rec[];
}

export interface WritePlan {
  views: ViewWrite[];
  /** Every field change, in write order (the history's before → after). */
  changes: FieldChange[];
}

export interface WriteStamp {
  /** Who writes: creator / modifier and the owning unit of new rows. */
  user: Pick<RequestUser, 'id' | 'organizationUnitId'> | null;
  now: Date;
  /** The new ConcurrencyStamp of every row the save writes. */
  concurrencyStamp: string;
  /** Creation times of new rows (strictly increasing, so rows keep their order). */
  creationTime?: (now: Date) => Date;
}

/** The columns a new row of `view` is inserted with, in the order of `ViewWrite.inserts`' values. */
export const insertColumnsOf = (view: RuntimeView): string[] => ['Id', 'ParentViewDataId', 'DataStatus', 'CreatorId', 'CreationTime', 'ConcurrencyStamp', 'OwnerOrganizationUnitId', ...view.controls.map((c) => c.code)];

const statusOf = (record: Rec) => (Number(record.DataStatus) === 2 ? 2 : 0);

/** Row id → its 1-based position among the rows of the same parent, in the given order. */
function lineNumbers(rows: Rec[]): Map<string, number> {
  const next = new Map<unknown, number>();
  const out = new Map<string, number>();
  for (const r of rows) {
    const n = (next.get(r.ParentViewDataId ?? null) ?? 0) + 1;
    next.set(r.ParentViewDataId ?? null, n);
    out.set(String(r.Id), n);
  }
  return out;
}

/** Plans the writes of the final rows against the stored page. Pure. */
export function planWrites(page: RuntimePage, rows: PageRows, stored: StoredPage, stamp: WriteStamp): WritePlan {
  const creationTime = stamp.creationTime ?? nextCreationTime;
  const userId = stamp.user?.id ?? null;
  const storedRowById = new Map<string, Rec>();
  for (const list of stored.rows.values()) for (const r of list) storedRowById.set(String(r.Id), r);
  const changes: FieldChange[] = [];
  const views: ViewWrite[] = [];
  for (const view of page.order) {
    const final = rows.get(view.id) ?? [];
    const keep = new Set(final.map((r) => String(r.record.Id)));
    const storedRows = [...(stored.records.get(view.id)?.values() ?? [])];
    const removed = view.parent ? storedRows.filter((r) => !keep.has(String(r.Id))) : [];
    // Line numbers under each parent, as the user saw them: stored lines for removed ones, the saved order for the others.
    const lineOf = lineNumbers(view.parent ? storedRows : []);
    const savedLineOf = lineNumbers(view.parent ? final.map((p) => p.record) : []);
    for (const r of removed) {
      for (const c of view.controls) if (!isBlank(r[c.code])) changes.push({ viewId: view.id, rowId: String(r.Id), code: c.code, title: c.control.title, before: r[c.code], after: null, row: lineOf.get(String(r.Id)), line: 'removed' });
    }
    const write: ViewWrite = {
      view,
      deletedIds: removed.map((r) => String(r.Id)),
      updates: [],
      insertColumns: insertColumnsOf(view),
      inserts: [],
      unchanged: [],
    };
    for (const row of final) {
      const r = row.record;
      if (!row.stored) {
        const values = view.controls.map((c) => toColumnValue(c, r[c.code]));
        write.inserts.push([r.Id, r.ParentViewDataId ?? null, statusOf(r), userId, creationTime(stamp.now), stamp.concurrencyStamp, stamp.user?.organizationUnitId ?? null, ...values]);
        const line = view.parent ? ({ row: savedLineOf.get(String(r.Id)), line: 'added' } as const) : {};
        for (const c of view.controls) if (!isBlank(r[c.code])) changes.push({ viewId: view.id, rowId: String(r.Id), code: c.code, title: c.control.title, before: null, after: r[c.code], ...line });
        continue;
      }
      const set: Rec = {};
      for (const c of view.controls) {
        const before = toColumnValue(c, row.stored[c.code]);
        const after = toColumnValue(c, r[c.code]);
        if (JSON.stringify(before) === JSON.stringify(after)) continue;
        set[c.code] = after;
        changes.push({ viewId: view.id, rowId: String(r.Id), code: c.code, title: c.control.title, before: row.stored[c.code] ?? null, after: r[c.code] ?? null, ...(view.parent ? { row: savedLineOf.get(String(r.Id)) } : {}) });
      }
      const status = statusOf(r);
      // A child row without changes is left alone; the master always takes the new stamp.
      if (Object.keys(set).length === 0 && status === Number(row.stored.DataStatus) && view.parent) {
        const storedRow = storedRowById.get(String(r.Id));
        if (storedRow) write.unchanged.push(storedRow);
        continue;
      }
      write.updates.push({ id: String(r.Id), values: { ...set, DataStatus: status, LastModifierId: userId, LastModificationTime: stamp.now, ConcurrencyStamp: stamp.concurrencyStamp } });
    }
    views.push(write);
  }
  return { views, changes };
}

/**
 * Writes the plan inside the save's transaction; returns every row of the page as stored after the
 * save (per view id; unordered). A new row id another record already uses is the caller's mistake: 400.
 */
export async function applyWrites(trx: Db, plan: WritePlan, t: Translate): Promise<Map<string, Rec[]>> {
  const written = new Map<string, Rec[]>();
  for (const { view, deletedIds, updates, insertColumns, inserts, unchanged } of plan.views) {
    const out: Rec[] = [...unchanged];
    await repo.deleteRows(trx, view, deletedIds);
    for (const { id, values } of updates) {
      const row = await repo.updateRow(trx, view, id, values);
      if (row) out.push(row);
    }
    try {
      out.push(...(await repo.insertRows(trx, view, insertColumns, inserts)));
    } catch (err) {
      if (isUniqueViolation(err)) throw bizInvalid(t, [{ message: t('row.taken'), members: [`viewDataList`] }]);
      throw err;
    }
    written.set(view.id, out);
  }
  return written;
}
