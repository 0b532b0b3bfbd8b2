/**
 * Reading business records: a view's rows (filtered, sorted, paged, in the caller's data scope), one
 * record with every child view, and the visibility rules the other services share (lookups, export).
 * Every function takes the service context first; a worker reads with `systemContext` (every row,
 * every field).
 */
import type { RawBuilder } from 'kysely';
import { EXACT_COUNT_THRESHOLD, LIST_SYSTEM_COLUMNS, type TPageDataResult, type TQueryViewDataResult, type TValueLabels } from '@tessera/core/contracts/business-data';
import { summaryOf } from '@tessera/core/page-definition';
import { userDisplayNames } from '../identity/index.ts';
import { parseFilterConditions } from '@tessera/core/filters/index';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { bizInvalid, bizNotFound, coreMessage, type Translate } from './business-data.messages.ts';
import * as repo from './business-data.repository.ts';
import { scopeConditionFor } from './data-scope.ts';
import { belowFilterFields, compileFilterSql, filterFieldsOf, SYSTEM_FILTER_FIELDS, type SqlField } from './filter-sql.ts';
import { approverGrantOf, approverReadAccess } from './approver-grants.ts';
import { labelPageDisplay, ValueLabels } from './labels.ts';
import { rowToRecord, toPageData } from './record-values.ts';
import { openPage, requireView, type RuntimeControl, type RuntimePage, type RuntimeView } from './runtime-page.ts';
import { isInApproval } from './save/index.ts';

export interface QueryViewInput {
  pageId: string;
  viewId: string;
  parentId?: string | null;
  filterConditions?: unknown[] | null;
  Sorting?: string | null;
  SkipCount: number;
  MaxResultCount: number;
  offsetMinutes?: number;
  namesOfUsers?: boolean;
}

/** The system columns a list sorts by: the times (the users are ids). */
const SYSTEM_SORT = new Map(LIST_SYSTEM_COLUMNS.filter((c) => c.kind === 'time').map((c) => [c.code.toLowerCase(), c.code]));

/** `code asc, other desc` over allow-listed columns; the id breaks ties so pages are stable. */
export function orderByOf(sorting: string | null | undefined, controls: readonly RuntimeControl[], t: Translate): RawBuilder<unknown> {
  const byCode = new Map(controls.map((c) => [c.code.toLowerCase(), c.code]));
  const keys: repo.SortKey[] = [];
  for (const piece of (sorting ?? '').split(',').map((s) => s.trim()).filter(Boolean).slice(0, 5)) {
    const [name, dir = 'asc', ...rest] = piece.split(/\s+/);
    const column = byCode.get(name.toLowerCase()) ?? SYSTEM_SORT.get(name.toLowerCase());
    const direction = dir.toLowerCase();
    if (!column || rest.length || (direction !== 'asc' && direction !== 'desc')) {
      throw bizInvalid(t, [{ message: t('sort.unknown', { field: piece.slice(0, 64) }), members: ['Sorting'] }]);
    }
    keys.push({ column, direction });
  }
  return repo.orderBy(keys);
}

/** Parses and compiles client filter conditions over the fields the caller may see (400 on any problem). */
export function compileClientFilter(
  list: unknown[] | null | undefined,
  controls: readonly RuntimeControl[],
  offsetMinutes: number,
  t: Translate,
  path = 'filterConditions',
  now: Date = new Date(),
  below: readonly SqlField[] = [],
): RawBuilder<unknown> | null {
  if (!list || list.length === 0) return null;
  // The design's fields the caller may see, the system columns (who and when), and the fields of
  // the views below ("having a line with …").
  const fields = [...filterFieldsOf(controls), ...SYSTEM_FILTER_FIELDS, ...below];
  const parsed = parseFilterConditions(list, fields, { now, offsetMinutes, path });
  if (!parsed.ok) throw bizInvalid(t, parsed.errors.map((e) => ({ ...e, message: coreMessage(t, e.message) })));
  return compileFilterSql(parsed.tree, fields, { alias: 't', offsetMinutes });
}

/**
 * The conditions that make a view's rows visible: not deleted, and — for the master view — in the
 * caller's data scope; for a child view, under `parentId` whose master record is in scope (404 otherwise).
 */
export async function visibilityOf(ctx: ServiceContext, page: RuntimePage, view: RuntimeView, parentId: string | null | undefined, t: Translate) {
  const conditions: (RawBuilder<unknown> | null)[] = [repo.notDeleted];
  if (!view.parent) {
    conditions.push((await scopeConditionFor(ctx, ctx.db, page, 't')).where);
    return conditions;
  }
  if (!parentId) throw bizInvalid(t, [{ message: t('view.needsParent'), members: ['parentId'] }]);
  await requireVisibleRow(ctx, page, view.parent, parentId, t);
  conditions.push(repo.underParent(parentId));
  return conditions;
}

/** A row of `view` the caller may see: walks up to the master record and checks its scope. */
export async function requireVisibleRow(ctx: ServiceContext, page: RuntimePage, view: RuntimeView, id: string, t: Translate): Promise<Record<string, unknown>> {
  const conditions: (RawBuilder<unknown> | null)[] = [repo.notDeleted];
  if (!view.parent) conditions.push((await scopeConditionFor(ctx, ctx.db, page, 't')).where);
  const [row] = await repo.rowsByIds(ctx.db, view, [id], conditions);
  if (!row) throw bizNotFound(t, 'record.notFound', {}, { id });
  if (view.parent) await requireVisibleRow(ctx, page, view.parent, String(row.ParentViewDataId), t);
  return row;
}

/** Rows of one view: the caller's filter and sorting over the fields they may see, one page of them. */
export async function queryViewData(ctx: ServiceContext, input: QueryViewInput): Promise<TQueryViewDataResult> {
  const { t, page, access } = await openPage(ctx, input.pageId);
  const view = requireView(page, input.viewId, t);
  const visible = access.visibleControls(view);
  const offset = input.offsetMinutes ?? 0;
  const below = belowFilterFields(view, (v) => access.visibleControls(v));
  const filter = compileClientFilter(input.filterConditions, visible, offset, t, 'filterConditions', ctx.now(), below);
  const orderBy = orderByOf(input.Sorting, visible, t);
  const conditions = [...(await visibilityOf(ctx, page, view, input.parentId, t)), filter];
  const rows = await repo.selectRows(ctx.db, view, conditions, orderBy, { limit: input.MaxResultCount, offset: input.SkipCount });
  const { totalCount, totalCountIsEstimate } = await cheapCount(ctx.db, view, conditions, input.SkipCount, input.MaxResultCount, rows.length);
  const items = rows.map((r) => rowToRecord(r, visible));
  const labels = new ValueLabels(ctx, ctx.db, t);
  await labels.load(visible, items);
  // Totals of the number columns the designer marked, over every filtered row (not only this page).
  const summaries = visible.flatMap((c) => {
    const kind = summaryOf(c.control);
    return kind ? [{ code: c.code, kind }] : [];
  });
  const summary = summaries.length ? await repo.summarizeRows(ctx.db, view, conditions, summaries) : undefined;
  return { items, labels: { ...labels.labelsOf(visible, items), ...(input.namesOfUsers ? await systemColumnLabels(ctx.db, items, ctx.culture) : {}) }, totalCount, totalCountIsEstimate, ...(summary ? { summary } : {}) };
}

/** The names of the users who created and last changed the rows (one query for the page's rows). */
async function systemColumnLabels(db: Db, items: Record<string, unknown>[], culture: string): Promise<TValueLabels> {
  const users = LIST_SYSTEM_COLUMNS.filter((c) => c.kind === 'user').map((c) => c.code);
  const names = await userDisplayNames(db, items.flatMap((r) => users.map((code) => r[code])).filter((v): v is string => typeof v === 'string'), culture);
  const out: TValueLabels = {};
  for (const code of users) {
    const labels: Record<string, string> = {};
    for (const r of items) {
      const id = r[code];
      if (typeof id === 'string' && names.has(id)) labels[id] = names.get(id)!;
    }
    out[code] = labels;
  }
  return out;
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

/** One master record in the caller's scope with every child row (one query per view). */
export async function queryPageData(ctx: ServiceContext, input: { pageId: string; id: string; offsetMinutes?: number }): Promise<TPageDataResult> {
  const { t, page, access: pageAccess } = await openPage(ctx, input.pageId);
  const scope = await scopeConditionFor(ctx, ctx.db, page, 't');
  const [master] = await repo.rowsByIds(ctx.db, page.master, [input.id], [repo.notDeleted, scope.where]);
  if (!master) throw bizNotFound(t, 'record.notFound', {}, { id: input.id });
  // The holder of a pending approval task reads the record without their node's hidden fields (issue 13).
  const grant = isInApproval(master) ? await approverGrantOf(ctx, ctx.db, page.pageId, String(master.Id)) : null;
  const access = grant ? approverReadAccess(page, pageAccess, grant) : pageAccess;
  return labelPageDisplay(ctx, ctx.db, t, page, access, toPageData(ctx.culture, page, access, await repo.pageRows(ctx.db, page, master), input.offsetMinutes ?? 0));
}
