import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TPageRuntime, TRecordHistoryList } from '@tessera/core/contracts/business-data';
import { flattenViews } from '@tessera/core/page-definition';
import { requestTranslator } from './business-data.messages.ts';
import * as repo from './business-data.repository.ts';
import { scopeConditionFor } from './data-scope-sql.ts';
import { loadRuntimePage, PageAccess } from './runtime-page.ts';
import { bizNotFound } from './business-data.messages.ts';

/**
 * A record's change history, newest first. The record must be in the caller's scope (deleted
 * records included); fields the caller may not view are left out of every entry.
 */
export async function recordHistory(app: FastifyInstance, request: FastifyRequest, input: { pageId: string; id: string }): Promise<TRecordHistoryList> {
  const t = requestTranslator(request);
  const page = await loadRuntimePage(app.db, input.pageId, t);
  const access = PageAccess.of(page, request);
  access.requireOpen();
  const scope = await scopeConditionFor(app.db, request, page, 't');
  const [row] = await repo.rowsByIds(app.db, page.master, [input.id], [scope.where]);
  if (!row) throw bizNotFound(t, 'record.notFound', {}, { id: input.id });
  const rows = await repo.listHistory(app.db, page.pageId, input.id);
  const items = rows.map((r) => ({
    id: r.id,
    action: r.action,
    userId: r.user_id,
    userName: r.user_name,
    time: new Date(r.time).toISOString(),
    changes: (r.changes as { viewId: string; rowId: string; code: string; title: string; before: unknown; after: unknown }[]).filter((c) => access.canView(c.code)),
  }));
  return { items, totalCount: items.length };
}

export async function getViewPreferences(app: FastifyInstance, request: FastifyRequest, input: { pageId: string; viewId: string }) {
  const page = await loadRuntimePage(app.db, input.pageId, requestTranslator(request));
  PageAccess.of(page, request).requireOpen();
  const row = await repo.getPreferences(app.db, request.user!.id, page.pageId, input.viewId);
  return { value: (row?.value ?? null) as Record<string, unknown> | null };
}

export async function putViewPreferences(app: FastifyInstance, request: FastifyRequest, input: { pageId: string; viewId: string; value: Record<string, unknown> }) {
  const page = await loadRuntimePage(app.db, input.pageId, requestTranslator(request));
  PageAccess.of(page, request).requireOpen();
  await repo.putPreferences(app.db, request.user!.id, page.pageId, input.viewId, input.value);
  return { value: input.value };
}

/** The latest published definition for the runtime, with the caller's actions and field rights applied. */
export async function pageRuntime(app: FastifyInstance, request: FastifyRequest, input: { pageId: string }): Promise<TPageRuntime> {
  const page = await loadRuntimePage(app.db, input.pageId, requestTranslator(request));
  const access = PageAccess.of(page, request);
  access.requireOpen();
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
