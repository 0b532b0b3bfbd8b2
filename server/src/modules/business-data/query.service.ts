import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { EXACT_COUNT_THRESHOLD, type TPageDataResult, type TQueryViewDataResult } from '@tessera/core/contracts/business-data';
import { parseFilterConditions } from '@tessera/core/filters/index';
import type { Database } from '../../db/schema.ts';
import { requestCulture } from '../../platform/messages.ts';
import { ident } from '../pages/index.ts';
import { bizInvalid, bizNotFound, requestTranslator, type Translate } from './business-data.messages.ts';
import * as repo from './business-data.repository.ts';
import { scopeConditionFor } from './data-scope-sql.ts';
import { compileFilterSql, filterFieldsOf } from './filter-sql.ts';
import { recordDisplay, rowToRecord } from './record-values.ts';
import { loadRuntimePage, PageAccess, requireView, type RuntimeControl, type RuntimePage, type RuntimeView } from './runtime-page.ts';

type Db = Kysely<Database>;

export interface QueryViewInput {
  pageId: string;
  viewId: string;
  parentId?: string | null;
  filterConditions?: unknown[] | null;
  Sorting?: string | null;
  SkipCount: number;
  MaxResultCount: number;
  offsetMinutes?: number;
}

const SYSTEM_SORT = new Map([
  ['creationtime', 'CreationTime'],
  ['lastmodificationtime', 'LastModificationTime'],
]);

/** `code asc, other desc` over allow-listed columns; the id breaks ties so pages are stable. */
export function orderByOf(sorting: string | null | undefined, controls: readonly RuntimeControl[], t: Translate): RawBuilder<unknown> {
  const byCode = new Map(controls.map((c) => [c.code.toLowerCase(), c.code]));
  const parts: RawBuilder<unknown>[] = [];
  for (const piece of (sorting ?? '').split(',').map((s) => s.trim()).filter(Boolean).slice(0, 5)) {
    const [name, dir = 'asc', ...rest] = piece.split(/\s+/);
    const column = byCode.get(name.toLowerCase()) ?? SYSTEM_SORT.get(name.toLowerCase());
    const direction = dir.toLowerCase();
    if (!column || rest.length || (direction !== 'asc' && direction !== 'desc')) {
      throw bizInvalid(t, [{ message: t('sort.unknown', { field: piece.slice(0, 64) }), members: ['Sorting'] }]);
    }
    parts.push(sql`t.${ident(column)} ${sql.raw(direction)} nulls last`);
  }
  if (parts.length === 0) parts.push(sql`t."CreationTime" desc`);
  parts.push(sql`t."Id" desc`);
  return sql.join(parts);
}

/** Parses and compiles client filter conditions over the fields the caller may see (400 on any problem). */
export function compileClientFilter(list: unknown[] | null | undefined, controls: readonly RuntimeControl[], offsetMinutes: number, t: Translate, path = 'filterConditions'): RawBuilder<unknown> | null {
  if (!list || list.length === 0) return null;
  const fields = filterFieldsOf(controls);
  const parsed = parseFilterConditions(list, fields, { now: new Date(), offsetMinutes, path });
  if (!parsed.ok) throw bizInvalid(t, parsed.errors);
  return compileFilterSql(parsed.tree, fields, { alias: 't', offsetMinutes });
}

/**
 * The conditions that make a view's rows visible: not deleted, and — for the master view — in the
 * caller's data scope; for a child view, under `parentId` whose master record is in scope (404 otherwise).
 */
export async function visibilityOf(db: Db, request: FastifyRequest, page: RuntimePage, view: RuntimeView, parentId: string | null | undefined, t: Translate) {
  const conditions: (RawBuilder<unknown> | null)[] = [repo.notDeleted];
  if (!view.parent) {
    conditions.push((await scopeConditionFor(db, request, page, 't')).where);
    return conditions;
  }
  if (!parentId) throw bizInvalid(t, [{ message: t('view.needsParent'), members: ['parentId'] }]);
  await requireVisibleRow(db, request, page, view.parent, parentId, t);
  conditions.push(sql`t."ParentViewDataId" = ${parentId}::uuid`);
  return conditions;
}

/** A row of `view` the caller may see: walks up to the master record and checks its scope. */
export async function requireVisibleRow(db: Db, request: FastifyRequest, page: RuntimePage, view: RuntimeView, id: string, t: Translate): Promise<Record<string, unknown>> {
  const conditions: (RawBuilder<unknown> | null)[] = [repo.notDeleted];
  if (!view.parent) conditions.push((await scopeConditionFor(db, request, page, 't')).where);
  const [row] = await repo.rowsByIds(db, view, [id], conditions);
  if (!row) throw bizNotFound(t, 'record.notFound', {}, { id });
  if (view.parent) await requireVisibleRow(db, request, page, view.parent, String(row.ParentViewDataId), t);
  return row;
}

export async function queryViewData(app: FastifyInstance, request: FastifyRequest, input: QueryViewInput): Promise<TQueryViewDataResult> {
  const t = requestTranslator(request);
  const page = await loadRuntimePage(app.db, input.pageId, t);
  const access = PageAccess.of(page, request);
  access.requireOpen();
  const view = requireView(page, input.viewId, t);
  const visible = access.visibleControls(view);
  const offset = input.offsetMinutes ?? 0;
  const filter = compileClientFilter(input.filterConditions, visible, offset, t);
  const orderBy = orderByOf(input.Sorting, visible, t);
  const conditions = [...(await visibilityOf(app.db, request, page, view, input.parentId, t)), filter];
  const rows = await repo.selectRows(app.db, view, conditions, orderBy, { limit: input.MaxResultCount, offset: input.SkipCount });
  const { totalCount, totalCountIsEstimate } = await cheapCount(app.db, view, conditions, input.SkipCount, input.MaxResultCount, rows.length);
  return { items: rows.map((r) => rowToRecord(r, visible)), totalCount, totalCountIsEstimate };
}

/**
 * The total without a full count(*) on big tables: a short page tells it by itself; otherwise the
 * planner's estimate decides — far above the threshold it is returned (flagged) as it is; near or
 * below it an exact count reads at most threshold + 1 matching rows.
 */
export async function cheapCount(db: Db, view: RuntimeView, conditions: (RawBuilder<unknown> | null)[], skip: number, take: number, got: number) {
  if (got < take && (got > 0 || skip === 0)) return { totalCount: skip + got, totalCountIsEstimate: false };
  const estimate = await repo.estimateCount(db, view, conditions);
  if (estimate > EXACT_COUNT_THRESHOLD * 10) return { totalCount: Math.max(estimate, skip + got), totalCountIsEstimate: true };
  const capped = await repo.countCapped(db, view, conditions, EXACT_COUNT_THRESHOLD);
  if (capped <= EXACT_COUNT_THRESHOLD) return { totalCount: capped, totalCountIsEstimate: false };
  return { totalCount: Math.max(estimate, skip + got, EXACT_COUNT_THRESHOLD + 1), totalCountIsEstimate: true };
}

/** Loads a master record and every child row (one query per view, whatever the row count). */
export async function loadPageRows(db: Db, page: RuntimePage, masterRow: Record<string, unknown>) {
  const rows = new Map<string, Record<string, unknown>[]>([[page.master.id, [masterRow]]]);
  for (const view of page.order) {
    if (!view.parent) continue;
    const parentIds = (rows.get(view.parent.id) ?? []).map((r) => String(r.Id));
    rows.set(view.id, await repo.rowsByParents(db, view, parentIds));
  }
  return rows;
}

export function toPageData(request: FastifyRequest, page: RuntimePage, access: PageAccess, rows: Map<string, Record<string, unknown>[]>, offsetMinutes = 0): TPageDataResult {
  const locale = requestCulture(request);
  return {
    pageId: page.pageId,
    pageCode: page.pageCode,
    version: page.version,
    viewDataList: page.order.map((view) => {
      const visible = access.visibleControls(view);
      const dataList = (rows.get(view.id) ?? []).map((r) => rowToRecord(r, visible));
      return { viewId: view.id, dataList, businessDataList: dataList.map((r) => recordDisplay(r, visible, { locale, offsetMinutes })) };
    }),
  };
}

export async function queryPageData(app: FastifyInstance, request: FastifyRequest, input: { pageId: string; id: string; offsetMinutes?: number }): Promise<TPageDataResult> {
  const t = requestTranslator(request);
  const page = await loadRuntimePage(app.db, input.pageId, t);
  const access = PageAccess.of(page, request);
  access.requireOpen();
  const scope = await scopeConditionFor(app.db, request, page, 't');
  const [master] = await repo.rowsByIds(app.db, page.master, [input.id], [repo.notDeleted, scope.where]);
  if (!master) throw bizNotFound(t, 'record.notFound', {}, { id: input.id });
  return toPageData(request, page, access, await loadPageRows(app.db, page, master), input.offsetMinutes ?? 0);
}
