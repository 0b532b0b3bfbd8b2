/**
 * Where a lookup (1010, "open data") control takes its rows from: a view of another published
 * page, read in the caller's data scope on that page. The lookup window (lookup.service.ts), the
 * labels of stored lookup values (labels.ts) and the save's check that a lookup value is a row the
 * caller may see (save/choices.ts) all read the source here.
 */
import type { RawBuilder } from 'kysely';
import { formatControlValue } from '@tessera/core/controls/registry';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { findPublishedPagesWithView } from '../pages/index.ts';
import type { Translate } from './business-data.messages.ts';
import * as repo from './business-data.repository.ts';
import { scopeConditionFor } from './data-scope.ts';
import { fromColumnValue } from './record-values.ts';
import { loadRuntimePage, type RuntimeControl, type RuntimePage, type RuntimeView } from './runtime-page.ts';

const sourcePageOfView = new WeakMap<Db, Map<string, string>>();

/** The published page holding a view (the lookup's data source), cached by view id. */
export async function sourcePageOf(db: Db, viewId: string, t: Translate): Promise<{ page: RuntimePage; view: RuntimeView } | null> {
  let known = sourcePageOfView.get(db);
  if (!known) sourcePageOfView.set(db, (known = new Map()));
  const cachedPage = known.get(viewId);
  if (cachedPage) {
    const page = await loadRuntimePage(db, cachedPage, t).catch(() => null);
    const view = page?.views.get(viewId);
    if (page && view) return { page, view };
  }
  for (const pageId of await findPublishedPagesWithView(db, viewId)) {
    const page = await loadRuntimePage(db, pageId, t).catch(() => null);
    const view = page?.views.get(viewId);
    if (page && view) {
      known.set(viewId, page.pageId);
      return { page, view };
    }
  }
  return null;
}

const extraOf = (c: RuntimeControl) => (c.control.extraProperties ?? {}) as Record<string, unknown>;

export type Actor = Pick<ServiceContext, 'user' | 'isSystem' | 'now'>;

/** Conditions restricting a source view to the caller's scope on its page (read on `db`). */
export async function sourceVisibility(ctx: Actor, page: RuntimePage, view: RuntimeView, db: Db): Promise<(RawBuilder<unknown> | null)[]> {
  if (!view.parent) return [repo.notDeleted, (await scopeConditionFor(ctx, db, page, 't')).where];
  if (view.parent.id !== page.master.id) return [repo.noRows];
  const scope = await scopeConditionFor(ctx, db, page, 'm');
  return [repo.notDeleted, repo.underVisibleMaster(page.master, scope.where)];
}

/** A lookup's source view and the column that names one of its rows (the display field, else the first text column). */
export interface LookupSource {
  page: RuntimePage;
  view: RuntimeView;
  title: RuntimeControl | null;
  /** The source view reduced to the title column (what label queries read). */
  titleView: RuntimeView;
}

/** The source of a lookup control (1010), or null when the design names none that is published. */
export async function lookupSourceOf(db: Db, control: RuntimeControl, t: Translate): Promise<LookupSource | null> {
  const sourceId = extraOf(control).dataSourceId;
  const source = typeof sourceId === 'string' && sourceId ? await sourcePageOf(db, sourceId, t) : null;
  if (!source) return null;
  const code = extraOf(control).dataSourceTitle;
  const named = typeof code === 'string' && code ? source.view.controls.find((c) => c.code.toLowerCase() === code.toLowerCase()) : undefined;
  const title = named ?? source.view.controls.find((c) => c.tableFieldType === 1) ?? null;
  return { ...source, title, titleView: { ...source.view, controls: title ? [title] : [] } };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Of `ids`, the source rows the caller may see (not deleted, inside their data scope on the source
 * page), each with its title as text: one query, whatever the number of ids. Anything that is not
 * an id is simply not found.
 */
export async function visibleLookupTitles(ctx: Actor, db: Db, source: LookupSource, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  const out = new Map<string, string>();
  if (wanted.length === 0) return out;
  const rows = await repo.rowsByIds(db, source.titleView, wanted, await sourceVisibility(ctx, source.page, source.view, db));
  for (const row of rows) out.set(String(row.Id), source.title ? formatControlValue(source.title.control, fromColumnValue(source.title, row[source.title.code])) : String(row.Id));
  return out;
}

/** Source rows the caller may see whose title (a text column) is one of `titles`: title → their ids. */
export async function visibleLookupIdsByTitle(ctx: Actor, db: Db, source: LookupSource, titles: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const title = source.title;
  if (!title || title.tableFieldType !== 1 || titles.length === 0) return out;
  const conditions = [...(await sourceVisibility(ctx, source.page, source.view, db)), repo.columnIn(title.code, [...new Set(titles)])];
  const rows = await repo.selectRows(db, source.titleView, conditions, repo.orderBy([]), null);
  for (const row of rows) {
    const text = String(row[title.code] ?? '');
    out.set(text, [...(out.get(text) ?? []), String(row.Id)]);
  }
  return out;
}

