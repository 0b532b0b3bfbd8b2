/**
 * A record's change history, the caller's view preferences and the page as the runtime draws it.
 */
import type { TPageRuntime, TRecordHistoryList } from '@tessera/core/contracts/business-data';
import { formatControlValue, getControlType, readFileRefs } from '@tessera/core/controls/registry';
import { flattenViews } from '@tessera/core/page-definition';
import type { ServiceContext } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';
import { userDisplayNames } from '../identity/index.ts';
import { approverGrantOf, approverPermissionOf } from './approver-grants.ts';
import { bizNotFound, type Translate } from './business-data.messages.ts';
import { showsLabels, ValueLabels } from './labels.ts';
import { FILE_TYPES } from './record-values.ts';
import * as repo from './business-data.repository.ts';
import { scopeConditionFor } from './data-scope.ts';
import { openPage, type RuntimeControl, type RuntimePage } from './runtime-page.ts';
import { isInApproval } from './save/index.ts';

/**
 * A record's change history, newest first. The record must be in the caller's scope (deleted
 * records included); fields the caller may not view are left out of every entry, and so are the
 * hidden fields of the node of the caller's pending approval task on it (issue 13).
 */
export async function recordHistory(ctx: ServiceContext, input: { pageId: string; id: string }): Promise<TRecordHistoryList> {
  const { t, page, access } = await openPage(ctx, input.pageId);
  const scope = await scopeConditionFor(ctx, ctx.db, page, 't');
  const [row] = await repo.rowsByIds(ctx.db, page.master, [input.id], [scope.where]);
  if (!row) throw bizNotFound(t, 'record.notFound', {}, { id: input.id });
  const grant = isInApproval(row) ? await approverGrantOf(ctx, ctx.db, page.pageId, String(row.Id)) : null;
  const shown = (c: StoredChange) => access.canView(c.code) && !(grant && approverPermissionOf(page, grant, page.views.get(c.viewId) ?? page.master, c.code) === 'hidden');
  const rows = await repo.listHistory(ctx.db, page.pageId, input.id);
  // Authors by their full name in the reader's culture; the name kept at the change stands in.
  const names = await userDisplayNames(ctx.db, rows.map((r) => r.user_id ?? ''), ctx.culture);
  const items = rows.map((r) => ({
    id: r.id,
    action: r.action,
    userId: r.user_id,
    userName: (r.user_id ? names.get(r.user_id) : undefined) ?? r.user_name,
    time: new Date(r.time).toISOString(),
    changes: (r.changes as StoredChange[]).filter(shown).map((c) => withView(page, c)),
  }));
  await withLabels(ctx, page, items.flatMap((e) => e.changes), t);
  return { items, totalCount: items.length };
}

type StoredChange = { viewId: string; rowId: string; code: string; title: string; before: unknown; after: unknown; beforeText?: string; afterText?: string; viewTitle?: string; row?: number; line?: 'added' | 'removed' };

/** A change of a child view's line names the view ("明细 第3行 数量"). */
function withView(page: RuntimePage, c: StoredChange): StoredChange {
  const view = page.views.get(c.viewId);
  if (!view?.parent) return c;
  return { ...c, viewTitle: view.view.title || view.code };
}

/**
 * Adds what a person reads (`beforeText`, `afterText`) to the changes of fields that show labels:
 * the labels of all changes are read together (dictionaries once, lookups in one query per column).
 */
async function withLabels(ctx: ServiceContext, page: RuntimePage, changes: StoredChange[], t: Translate): Promise<void> {
  const controlOf = (c: StoredChange) => page.views.get(c.viewId)?.byCode.get(c.code);
  // Attachments and images read as their files' names, not the stored JSON.
  for (const c of changes) {
    if (!FILE_TYPES.has(controlOf(c)?.controlType ?? 0)) continue;
    c.beforeText = readFileRefs(c.before).map((f) => f.name).join(', ');
    c.afterText = readFileRefs(c.after).map((f) => f.name).join(', ');
  }
  // Rich text reads as its plain text (never as markup), numbers as everywhere else (1,234.50).
  const text = (control: RuntimeControl, value: unknown) => (value === null || value === undefined ? undefined : formatControlValue(control.control, value));
  for (const c of changes) {
    const control = controlOf(c);
    if (!control || !(getControlType(control.controlType).html || control.tableFieldType === 2 || control.tableFieldType === 3)) continue;
    c.beforeText = text(control, c.before);
    c.afterText = text(control, c.after);
  }
  const labelled = changes.filter((c) => {
    const control = controlOf(c);
    return control !== undefined && showsLabels(control);
  });
  if (labelled.length === 0) return;
  const labels = new ValueLabels(ctx, ctx.db, t);
  const byControl = new Map<RuntimeControl, Record<string, unknown>[]>();
  for (const c of labelled) {
    const control = controlOf(c)!;
    byControl.set(control, [...(byControl.get(control) ?? []), { [control.code]: c.before }, { [control.code]: c.after }]);
  }
  for (const [control, records] of byControl) await labels.load([control], records);
  for (const c of labelled) {
    const control = controlOf(c)!;
    c.beforeText = labels.text(control, c.before) ?? undefined;
    c.afterText = labels.text(control, c.after) ?? undefined;
  }
}

/** Preferences are a signed-in user's own; the system has none. */
function userIdOf(ctx: ServiceContext): string {
  if (!ctx.user) throw forbidden({ reason: 'PreferencesNeedAUser' });
  return ctx.user.id;
}

export async function getViewPreferences(ctx: ServiceContext, input: { pageId: string; viewId: string }) {
  const { page } = await openPage(ctx, input.pageId);
  const row = await repo.getPreferences(ctx.db, userIdOf(ctx), page.pageId, input.viewId);
  return { value: (row?.value ?? null) as Record<string, unknown> | null };
}

export async function putViewPreferences(ctx: ServiceContext, input: { pageId: string; viewId: string; value: Record<string, unknown> }) {
  const { page } = await openPage(ctx, input.pageId);
  await repo.putPreferences(ctx.db, userIdOf(ctx), page.pageId, input.viewId, input.value);
  return { value: input.value };
}

/** The latest published definition for the runtime, with the caller's actions and field rights applied. */
export async function pageRuntime(ctx: ServiceContext, input: { pageId: string }): Promise<TPageRuntime> {
  const { page, access } = await openPage(ctx, input.pageId);
  const definition = structuredClone(page.definition);
  const fields: TPageRuntime['fields'] = {};
  for (const { view } of flattenViews(definition)) {
    for (const control of view.dataControls) {
      const rights = { view: access.canView(control.code), edit: access.canEdit(control.code) };
      fields[control.code] = rights;
      if (!rights.edit) control.isEdit = false;
      if (!rights.view) control.isDisplayed = false;
    }
  }
  return {
    pageId: page.pageId,
    pageCode: page.pageCode,
    version: page.version,
    title: page.title,
    masterViewId: page.master.id,
    definition,
    actions: { add: access.mayDo('add'), edit: access.mayDo('edit'), delete: access.mayDo('delete'), import: access.mayDo('import'), export: access.mayDo('export') },
    fields,
  };
}
