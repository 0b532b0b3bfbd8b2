/**
 * Attachment (1013) and image (1014) controls hold references to files the files module keeps.
 * That module sits above this one (it asks this one who may read a record), so it registers the
 * binder a save calls here (`registerRecordFileBinder`), and calls the functions below to check
 * an upload's page and control and a download's record.
 */
import { readFileRefs, type FileRef } from '@tessera/core/controls/registry';
import type { Culture } from '../../platform/messages.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { forbidden, type ValidationErrorItem } from '../../platform/errors.ts';
import { bizInvalid, bizNotFound } from './business-data.messages.ts';
import * as repo from './business-data.repository.ts';
import { scopeConditionFor } from './data-scope.ts';
import { FILE_TYPES } from './record-values.ts';
import { openPage, type RuntimeControl } from './runtime-page.ts';
import type { PageRows, SaveSession, StoredPage } from './save/model.ts';

/** The files a save writes into one field, with where a problem is reported. */
export interface RecordFileUse {
  controlCode: string;
  title: string;
  /** `viewDataList.<i>.dataList.<j>.<code>` (or `rows.<id>.<code>` for rows not submitted). */
  member: string;
  /** The files the field now holds that the stored row did not hold as they are (as the client sent them). */
  added: FileRef[];
}

export interface RecordFileBinding {
  pageId: string;
  recordId: string;
  /** Who saves (null: the system, which may bind any unbound file of the page). */
  userId: string | null;
  culture: Culture;
  uses: RecordFileUse[];
  /** File ids the stored record held and the saved one no longer holds. */
  dropped: string[];
}

/** Checks and binds a save's new file ids inside the save's transaction; answers the problems (nothing bound then). */
export type RecordFileBinder = (trx: Db, binding: RecordFileBinding) => Promise<ValidationErrorItem[]>;

let binder: RecordFileBinder | null = null;

export function registerRecordFileBinder(bind: RecordFileBinder): void {
  binder = bind;
}

const refKey = (f: FileRef) => JSON.stringify([f.id.toLowerCase(), f.name, f.size, f.type]);
const idsOf = (c: RuntimeControl, record: Record<string, unknown> | null | undefined) => (record ? readFileRefs(record[c.code]).map((f) => f.id.toLowerCase()) : []);

/** Save step between validation and writing: the file ids the page's rows gained are checked and bound, those it lost dropped. */
export async function bindRecordFiles(trx: Db, session: SaveSession, recordId: string, rows: PageRows, stored: StoredPage): Promise<void> {
  const { page, t } = session;
  const before = new Set<string>();
  const after = new Set<string>();
  const uses: RecordFileUse[] = [];
  for (const view of page.order) {
    const controls = view.controls.filter((c) => FILE_TYPES.has(c.controlType));
    if (!controls.length) continue;
    for (const record of stored.records.get(view.id)?.values() ?? []) for (const c of controls) idsOf(c, record).forEach((id) => before.add(id));
    for (const row of rows.get(view.id) ?? []) {
      for (const c of controls) {
        const files = readFileRefs(row.record[c.code]);
        files.forEach((f) => after.add(f.id.toLowerCase()));
        // A file the stored row holds with the same name, size and type needs no check; anything else does.
        const held = new Set(readFileRefs(row.stored?.[c.code]).map(refKey));
        const added = files.filter((f) => !held.has(refKey(f)));
        if (added.length) uses.push({ controlCode: c.code, title: c.control.title || c.code, member: `${row.member}.${c.code}`, added });
      }
    }
  }
  const dropped = [...before].filter((id) => !after.has(id));
  if (!uses.length && !dropped.length) return;
  // Without the files module nothing can vouch for a new file id: refuse rather than store it.
  const problems = binder
    ? await binder(trx, { pageId: page.pageId, recordId, userId: session.isSystem ? null : (session.user?.id ?? ''), culture: session.culture, uses, dropped })
    : uses.map((u) => ({ message: t('field.fileUnknown', { title: u.title }), members: [u.member] }));
  if (problems.length) throw bizInvalid(t, problems);
}

/**
 * An upload's target: a published page on which the caller may add or edit records, and an
 * attachment or image control on it they may edit. 404 for an unknown page or control, 403 otherwise.
 */
export async function requireFileControl(ctx: ServiceContext, input: { pageCode: string; controlCode: string }) {
  const { t, page, access } = await openPage(ctx, input.pageCode);
  // Neither action: the 403 names the code of "add" (a file is uploaded for a record being added or edited).
  if (!access.mayDo('add') && !access.mayDo('edit')) access.requireAction('add');
  const control = page.order.flatMap((v) => v.controls).find((c) => c.code === input.controlCode && FILE_TYPES.has(c.controlType));
  if (!control) throw bizNotFound(t, 'control.notFound', { control: input.controlCode.slice(0, 64) });
  if (!access.canEdit(control.code)) throw forbidden({ control: control.code });
  return { pageId: page.pageId, pageCode: page.pageCode, controlCode: control.code, controlType: control.controlType, control: control.control };
}

/**
 * Whether the caller may read a field of a saved record: they open the page, may view the field,
 * and the master record is not deleted and lies inside their data scope (the list's rule).
 */
export async function mayReadRecordField(ctx: ServiceContext, input: { pageId: string; recordId: string; controlCode: string }): Promise<boolean> {
  const { page, access } = await openPage(ctx, input.pageId, { requireOpen: false });
  if (!access.canOpen || !access.canView(input.controlCode)) return false;
  const scope = await scopeConditionFor(ctx, ctx.db, page, 't');
  const rows = await repo.rowsByIds(ctx.db, page.master, [input.recordId], [repo.notDeleted, scope.where]);
  return rows.length > 0;
}
