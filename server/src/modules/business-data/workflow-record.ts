/**
 * What the workflow engine needs of one business record (through business-data's index): the
 * caller's rights on it, its values (master and child rows) for conditions and assignee fields,
 * its FlowStatus, and automatic assignments through the save pipeline. Each takes the engine's
 * transaction so the record and the instance change together.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import { bizTable } from '../pages/index.ts';
import { bizNotFound } from './business-data.messages.ts';
import * as repo from './business-data.repository.ts';
import { scopeConditionFor } from './data-scope.ts';
import { rowToRecord } from './record-values.ts';
import { openPage } from './runtime-page.ts';
import { entriesOf, savePageInTrx, sessionOf } from './save/index.ts';

export interface WorkflowRecord {
  pageId: string;
  pageCode: string;
  /** The master record's values by control code (and the system fields). */
  master: Record<string, unknown>;
  /** Child views' rows by view code (what `{lines.amount}` reads). */
  views: Record<string, Record<string, unknown>[]>;
  /** The first text control's value, else the id. */
  title: string;
  flowStatus: number;
  /** The caller may edit the record (the page's edit action and the record in their scope). */
  mayEdit: boolean;
}

/**
 * One record with every child row, read in `db` (the engine's transaction; `forUpdate` locks the
 * master row). `need: 'read'` refuses (403/404) a caller who may not open the page or see the
 * record, `'edit'` also one without the edit action; the system may do everything.
 */
export async function readWorkflowRecord(caller: ServiceContext, db: Db, pageId: string, recordId: string, need: 'read' | 'edit' | 'none', forUpdate = false): Promise<WorkflowRecord> {
  // Every read on the caller's transaction: the embedded database has one connection.
  const ctx = { ...caller, db };
  const { t, page, access } = await openPage(ctx, pageId, { requireOpen: need !== 'none' });
  const scope = need === 'none' ? null : (await scopeConditionFor(ctx, db, page, 't')).where;
  const [row] = await repo.rowsByIds(db, page.master, [recordId], [repo.notDeleted, scope], forUpdate);
  if (!row) throw bizNotFound(t, 'record.notFound', {}, { id: recordId });
  const mayEdit = access.mayDo('edit');
  if (need === 'edit' && !mayEdit) access.requireAction('edit');
  const rows = await repo.pageRows(db, page, row);
  const master = rowToRecord(row, page.master.controls);
  const views: Record<string, Record<string, unknown>[]> = {};
  for (const view of page.order) if (view.parent) views[view.code] = (rows.get(view.id) ?? []).map((r) => rowToRecord(r, view.controls));
  const titleControl = page.master.controls.find((c) => c.tableFieldType === 1 && typeof master[c.code] === 'string' && master[c.code] !== '');
  return {
    pageId: page.pageId,
    pageCode: page.pageCode,
    master,
    views,
    title: titleControl ? String(master[titleControl.code]).slice(0, 200) : recordId,
    flowStatus: Number(master.FlowStatus ?? 0),
    mayEdit,
  };
}

/** Sets the record's FlowStatus (0 draft, 1 in approval, 2 approved, 3 rejected, 4 withdrawn) in the caller's transaction. */
export async function setRecordFlowStatus(ctx: ServiceContext, trx: Db, pageId: string, recordId: string, flowStatus: number): Promise<void> {
  const { page } = await openPage({ ...ctx, db: trx }, pageId, { requireOpen: false });
  await sql`update ${bizTable(page.master.table)} set "FlowStatus" = ${flowStatus} where "Id" = ${recordId}::uuid`.execute(trx);
}

/**
 * An automatic node's field assignments, saved through the save pipeline as the system (linkages
 * recompute, values are validated, history records them) in the caller's transaction.
 */
export async function applyWorkflowAssignments(caller: ServiceContext, trx: Db, pageId: string, recordId: string, values: Record<string, unknown>): Promise<void> {
  const ctx = { ...caller, db: trx };
  if (!ctx.isSystem) throw forbidden({ reason: 'SystemOnly' });
  if (Object.keys(values).length === 0) return;
  const opened = await openPage(ctx, pageId, { requireOpen: false });
  const session = sessionOf(ctx, opened, 0);
  const [row] = await repo.rowsByIds(trx, opened.page.master, [recordId], [repo.notDeleted]);
  if (!row) throw bizNotFound(opened.t, 'record.notFound', {}, { id: recordId });
  const entries = entriesOf(opened.page, [{ viewId: opened.page.master.id, dataList: [{ ...values, Id: recordId, ConcurrencyStamp: row.ConcurrencyStamp }] }], opened.t);
  await savePageInTrx(ctx, trx, session, entries);
}

/**
 * The records of a page the caller may see, for lists kept by other modules (the workflow's
 * instance lists): `all`, `none` (the page does not open for them, or it is gone), or a subquery
 * of the visible records' ids (their data scope on the page).
 */
export async function visibleRecordIds(caller: ServiceContext, pageId: string): Promise<'all' | 'none' | RawBuilder<unknown>> {
  let page;
  try {
    page = (await openPage(caller, pageId)).page;
  } catch (err) {
    if (err instanceof AppError && (err.statusCode === 403 || err.statusCode === 404)) return 'none';
    throw err;
  }
  const scope = await scopeConditionFor(caller, caller.db, page, 't');
  if (!scope.where) return 'all';
  return sql`select t."Id" from ${bizTable(page.master.table)} as t where ${scope.where}`;
}
