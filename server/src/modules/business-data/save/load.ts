/**
 * Step 1, load and lock: the master row is locked (FOR UPDATE) inside the caller's data scope, and
 * the page's stored rows are read — one query per view.
 */
import { FLOW_STATUS } from '@tessera/core/contracts/workflow-runtime';
import type { Db, ServiceContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { bizNotFound, type Translate } from '../business-data.messages.ts';
import * as repo from '../business-data.repository.ts';
import { userDisplayNames } from '../../identity/index.ts';
import { approverGrantOf } from '../approver-grants.ts';
import { scopeConditionFor } from '../data-scope.ts';
import { rowToRecord } from '../record-values.ts';
import type { RuntimePage } from '../runtime-page.ts';
import type { Rec, SaveSession, StoredPage } from './model.ts';
import type { MasterInput } from './parse.ts';

/**
 * Locks the master record and reads the page as stored. A row outside the caller's scope (or
 * deleted) is a 404, told apart from a new id in the same query; the caller needs the page's "add"
 * or "edit" action; a stale ConcurrencyStamp is a 409 naming who changed the record and when.
 * A record in approval is a 409 (`BusinessData.InApproval`) except for the holder of a pending
 * approval task on it: that task stands in for the edit action (issue 13, approver-grants.ts).
 */
export async function loadAndLock(ctx: ServiceContext, trx: Db, session: SaveSession, master: MasterInput): Promise<StoredPage> {
  const { page, t } = session;
  const scope = await scopeConditionFor(ctx, trx, page, 't');
  const locked = await repo.lockRow(trx, page.master, master.id, scope.where);
  if (locked && !locked.visible) throw bizNotFound(t, 'record.notFound', {}, { id: master.id });
  const storedMaster = locked?.row;
  // In approval: only the flow itself (automatic nodes, with the system's context) and the holders
  // of its pending approval tasks (in their node's editable fields) change it.
  const inApproval = Boolean(storedMaster && isInApproval(storedMaster) && !ctx.isSystem);
  const approval = inApproval ? await approverGrantOf(ctx, trx, page.pageId, master.id) : null;
  if (!approval) session.access.requireAction(storedMaster ? 'edit' : 'add');
  if (!storedMaster) return { isNew: true, rows: new Map(), records: storedRecordsOf(page, new Map()) };
  if (master.input.ConcurrencyStamp !== storedMaster.ConcurrencyStamp) throw await conflictError(trx, t, storedMaster, session.culture);
  if (inApproval && !approval) throw inApprovalError(t, storedMaster);
  const rows = await repo.pageRows(trx, page, storedMaster);
  return { isNew: false, rows, records: storedRecordsOf(page, rows), approval };
}

export const isInApproval = (row: Rec) => Number(row.FlowStatus ?? 0) === FLOW_STATUS.inApproval;

/** The 409 of a write to a record whose approval runs. */
export const inApprovalError = (t: Translate, row: Rec) => new AppError(409, 'BusinessData.InApproval', null, { message: t('record.inApproval'), details: { id: row.Id } });

/** Stored table rows → records by id, for every view of the page (an empty map for views without rows). */
export function storedRecordsOf(page: RuntimePage, rows: Map<string, Rec[]>): Map<string, Map<string, Rec>> {
  const records = new Map<string, Map<string, Rec>>();
  for (const view of page.order) records.set(view.id, new Map((rows.get(view.id) ?? []).map((r) => [String(r.Id), rowToRecord(r, view.controls)])));
  return records;
}

/** The 409 of a stale stamp: who changed the record last, and when. */
async function conflictError(db: Db, t: Translate, stored: Rec, culture: string): Promise<AppError> {
  const modifier = (stored.LastModifierId ?? stored.CreatorId ?? null) as string | null;
  const names = await userDisplayNames(db, modifier ? [modifier] : [], culture);
  const time = (stored.LastModificationTime ?? stored.CreationTime) as Date | string | null;
  const iso = time ? new Date(time).toISOString() : null;
  const name = modifier ? (names.get(modifier) ?? null) : null;
  return new AppError(409, 'Conflict', null, {
    message: t('record.conflict', { user: name ?? '?', time: iso ?? '?' }),
    details: { id: stored.Id, concurrencyStamp: stored.ConcurrencyStamp, lastModifierId: modifier, lastModifierName: name, lastModificationTime: iso },
  });
}
