/**
 * Saving business records (spec §4): save-page (one master record with its child rows), save-view
 * (rows of one view) and delete-data. Each call is one transaction and goes through the save
 * pipeline (`save/`, described in docs/architecture.md "The save pipeline"): all or nothing,
 * concurrency stamps, data scopes, document numbers, linkages, validation and history.
 *
 * For other modules (a workflow step, a data-transmission worker): call these with a
 * `systemContext` (every permission and every row) or a `userContext`; nothing here needs a request.
 */
import { uuidv7 } from '../../platform/ids.ts';
import type { TPageDataResult, TSavePageInput, TSaveViewInput } from '@tessera/core/contracts/business-data';
import type { ServiceContext } from '../../platform/context.ts';
import type { ValidationErrorItem } from '../../platform/errors.ts';
import { bizInvalid, bizNotFound } from './business-data.messages.ts';
import * as repo from './business-data.repository.ts';
import { scopeConditionFor } from './data-scope.ts';
import { labelPageDisplay } from './labels.ts';
import { rowToRecord } from './record-values.ts';
import { requireView, type PageAccess } from './runtime-page.ts';
import { answerOf, authorOf, deletionHistory, entriesOf, inApprovalError, isInApproval, primeQueryChoices, savePageInTrx, saveSession, UUID, type Rec } from './save/index.ts';

/** Saves one master record with its child lists; answers with the page as stored (no re-read). */
export async function savePage(ctx: ServiceContext, input: TSavePageInput & { offsetMinutes?: number }): Promise<TPageDataResult> {
  const session = await saveSession(ctx, input.pageId, input.offsetMinutes);
  const entries = entriesOf(session.page, input.viewDataList, session.t);
  await primeQueryChoices(session, entries.values());
  const { written, readAccess } = await ctx.db.transaction().execute((trx) => savePageInTrx(ctx, trx, session, entries));
  return labelPageDisplay(ctx, ctx.db, session.t, session.page, readAccess, answerOf({ ...session, access: readAccess }, written));
}

/**
 * Rows of one view in one transaction. Master-view rows are records (each saved with its stored
 * children); rows of a child of the master are merged into their master's stored rows (by Id;
 * `deletedIds` removed) and saved through the same path as save-page.
 */
export async function saveView(ctx: ServiceContext, input: TSaveViewInput & { offsetMinutes?: number }): Promise<{ items: Rec[] }> {
  const session = await saveSession(ctx, input.pageId, input.offsetMinutes);
  const { page, t } = session;
  const view = requireView(page, input.viewId, t);
  if (view.parent && view.parent.id !== page.master.id) throw bizInvalid(t, [{ message: t('view.notChild'), members: ['viewId'] }]);
  // What the caller reads of each master record saved (an approver: without their node's hidden fields).
  const readAccess = new Map<string, PageAccess>();
  await primeQueryChoices(session, [{ view, entryIndex: 0, rows: input.dataList }]);
  const savedIds = await ctx.db.transaction().execute(async (trx) => {
    const ids: string[] = [];
    if (!view.parent) {
      if (input.deletedIds.length) throw bizInvalid(t, [{ message: t('view.notChild'), members: ['deletedIds'] }]);
      for (const row of input.dataList) {
        const saved = await savePageInTrx(ctx, trx, session, new Map([[view.id, { view, entryIndex: 0, rows: [row] }]]));
        readAccess.set(saved.masterId, saved.readAccess);
        ids.push(saved.masterId);
      }
      return ids;
    }
    // Group the rows (and deletions) by their master record.
    const byMaster = new Map<string, Rec[]>();
    const errors: ValidationErrorItem[] = [];
    input.dataList.forEach((row, i) => {
      const parent = String(row.ParentViewDataId ?? '').toLowerCase();
      if (!UUID.test(parent)) errors.push({ message: t('row.parent'), members: [`dataList.${i}.ParentViewDataId`] });
      else byMaster.set(parent, [...(byMaster.get(parent) ?? []), row]);
    });
    if (errors.length) throw bizInvalid(t, errors);
    const deleted = new Set(input.deletedIds.map((id) => id.toLowerCase()));
    if (deleted.size) {
      const rows = await repo.rowsByIds(trx, view, [...deleted], [repo.notDeleted]);
      if (rows.length !== deleted.size) throw bizNotFound(t, 'record.notFound');
      for (const r of rows) if (!byMaster.has(String(r.ParentViewDataId))) byMaster.set(String(r.ParentViewDataId), []);
    }
    const scope = await scopeConditionFor(ctx, trx, page, 't');
    for (const [masterId, rows] of byMaster) {
      const [masterRow] = await repo.rowsByIds(trx, page.master, [masterId], [repo.notDeleted, scope.where]);
      if (!masterRow) throw bizNotFound(t, 'record.notFound', {}, { id: masterId });
      const master = rowToRecord(masterRow, []);
      const stored = (await repo.rowsByParents(trx, view, [masterId])).map((r) => rowToRecord(r, view.controls));
      const incoming = new Map(rows.map((r) => [String(r.Id ?? '').toLowerCase(), r]));
      const merged: Rec[] = stored.filter((r) => !deleted.has(String(r.Id))).map((r) => incoming.get(String(r.Id)) ?? r);
      for (const r of rows) if (!stored.some((s) => s.Id === String(r.Id ?? '').toLowerCase())) merged.push(r);
      const saved = await savePageInTrx(ctx, trx, session, new Map([
        [page.master.id, { view: page.master, entryIndex: 0, rows: [{ Id: masterId, ConcurrencyStamp: master.ConcurrencyStamp }] }],
        [view.id, { view, entryIndex: 1, rows: merged }],
      ]));
      readAccess.set(masterId, saved.readAccess);
      ids.push(...rows.map((r) => String(r.Id ?? '')).filter(Boolean));
    }
    return ids;
  });
  // Master ids come from masterOf (always GUIDs); a child row may have been sent without one.
  const rows = await repo.rowsByIds(ctx.db, view, savedIds.filter((id) => UUID.test(id)), [repo.notDeleted]);
  const accessOf = (r: Rec) => readAccess.get(String(view.parent ? r.ParentViewDataId : r.Id)) ?? session.access;
  return { items: rows.map((r) => rowToRecord(r, accessOf(r).visibleControls(view))) };
}

/** Soft-deletes master records in the caller's scope (404 if any is not); one history row each. */
export async function deleteData(ctx: ServiceContext, input: { pageId: string; ids: string[] }): Promise<{ deleted: number }> {
  const { page, t, access, user } = await saveSession(ctx, input.pageId, 0);
  access.requireAction('delete');
  const ids = [...new Set(input.ids.map((id) => id.toLowerCase()))];
  await ctx.db.transaction().execute(async (trx) => {
    const scope = await scopeConditionFor(ctx, trx, page, 't');
    const rows = await repo.rowsByIds(trx, page.master, ids, [repo.notDeleted, scope.where], true);
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((r) => String(r.Id)));
      throw bizNotFound(t, 'record.notFound', {}, { ids: ids.filter((id) => !found.has(id)) });
    }
    const inApproval = rows.find(isInApproval);
    if (inApproval) throw inApprovalError(t, inApproval);
    await repo.softDeleteRows(trx, page.master, ids, user?.id ?? null, uuidv7());
    await repo.insertHistory(trx, deletionHistory(page, rows, authorOf(user, ctx.culture)));
  });
  return { deleted: ids.length };
}
