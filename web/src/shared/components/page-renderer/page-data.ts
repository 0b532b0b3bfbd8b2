import { createNewRecord, type NewRecordContext, type PendingValueRequest } from '@tessera/core/controls/registry';
import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import { flattenViews, type TBusinessRecord, type TPageData, type TPageDefinition, type TView } from '@tessera/core/page-definition';

// Pure helpers over runtime page data (spec §3: viewDataList entries with viewId and dataList).
// Master views hold one record; child views hold rows tied to the parent record by ParentViewDataId.

export const EMPTY_PAGE_DATA: TPageData = { viewDataList: [] };

export function rowsOf(data: TPageData, viewId: string): TBusinessRecord[] {
  return data.viewDataList.find((v) => v.viewId === viewId)?.dataList ?? [];
}

export function withRows(data: TPageData, viewId: string, rows: TBusinessRecord[]): TPageData {
  const has = data.viewDataList.some((v) => v.viewId === viewId);
  return {
    ...data,
    viewDataList: has
      ? data.viewDataList.map((v) => (v.viewId === viewId ? { ...v, dataList: rows } : v))
      : [...data.viewDataList, { viewId, dataList: rows }],
  };
}

/** The rows of a child view that belong to one parent record. */
export function childRowsOf(data: TPageData, view: TView, parentRecordId: string | null | undefined): TBusinessRecord[] {
  const rows = rowsOf(data, view.id);
  return parentRecordId ? rows.filter((r) => (r.ParentViewDataId ?? null) === parentRecordId) : rows;
}

export function patchRecord(data: TPageData, viewId: string, recordId: string, patch: Record<string, unknown>): TPageData {
  return withRows(
    data,
    viewId,
    rowsOf(data, viewId).map((r) => (r.Id === recordId ? { ...r, ...patch } : r)),
  );
}

/** A value a new record waits for (a document number, a default from a data source), with where it goes. */
export type PendingValue = PendingValueRequest & {
  viewId: string;
  recordId: string;
  /** The record's value meanwhile: a fetched default replaces it only while the user has not changed it. */
  initial: unknown;
};

/** A new row of `view` with spec §4 defaults; the values to fetch are returned beside it. */
export function newRow(view: TView, ctx: NewRecordContext): { record: TBusinessRecord; pending: PendingValue[] } {
  const { record, pending } = createNewRecord(view, ctx);
  return { record, pending: pending.map((d) => ({ ...d, viewId: view.id, recordId: record.Id, initial: record[d.code] })) };
}

/**
 * Page data for a new page: one record per top-level view (and per container's form views);
 * child grids start empty.
 */
export function initialPageData(definition: TPageDefinition, ctx: NewRecordContext): { data: TPageData; pending: PendingValue[] } {
  let data: TPageData = EMPTY_PAGE_DATA;
  const pending: PendingValue[] = [];
  for (const { view, parent } of dataViews(definition)) {
    if (!isSingleRecordView(view, parent)) continue;
    const parentRecord = parent ? rowsOf(data, parent.id)[0] : undefined;
    const made = newRow(view, { ...ctx, parentRecordId: parentRecord?.Id ?? null });
    data = withRows(data, view.id, [made.record]);
    pending.push(...made.pending);
  }
  return { data, pending };
}

/** Fills in a missing master record for every single-record view (data loaded from older designs). */
export function ensureRecords(definition: TPageDefinition, data: TPageData, ctx: NewRecordContext): { data: TPageData; pending: PendingValue[] } {
  let next = data;
  const pending: PendingValue[] = [];
  for (const { view, parent } of dataViews(definition)) {
    if (!isSingleRecordView(view, parent) || rowsOf(next, view.id).length) continue;
    const parentRecord = parent ? rowsOf(next, parent.id)[0] : undefined;
    const made = newRow(view, { ...ctx, parentRecordId: parentRecord?.Id ?? null });
    next = withRows(next, view.id, [made.record]);
    pending.push(...made.pending);
  }
  return { data: next, pending };
}

// ---------------------------------------------------------------- view kinds

/** spec §3 viewType (contracts/pages VIEW_TYPES): form (one record), grid (child rows), container (tabs/group). */
export function viewKind(view: Pick<TView, 'viewType' | 'parentViewControlId'>): 'form' | 'grid' | 'container' {
  const type = Number(view.viewType);
  if (type === VIEW_TYPES.container) return 'container';
  if (type === VIEW_TYPES.grid) return 'grid';
  if (type === VIEW_TYPES.form) return 'form';
  return view.parentViewControlId ? 'grid' : 'form';
}

/** Form views keep one record, unless they sit under a grid (then they edit the grid's rows). */
function isSingleRecordView(view: TView, parent: TView | null): boolean {
  if (viewKind(view) !== 'form') return false;
  return !parent || viewKind(parent) !== 'grid';
}

/**
 * Every view that holds data, depth first, with its data parent: the nearest ancestor that is not a
 * layout container (containers only group views on screen).
 */
export function dataViews(definition: Pick<TPageDefinition, 'viewControls'>): { view: TView; parent: TView | null }[] {
  const byId = new Map<string, { view: TView; parent: TView | null }>();
  for (const entry of flattenViews(definition)) byId.set(entry.view.id, entry);
  const dataParent = (parent: TView | null): TView | null => {
    let p = parent;
    while (p && viewKind(p) === 'container') p = byId.get(p.id)?.parent ?? null;
    return p;
  };
  return flattenViews(definition)
    .filter(({ view }) => viewKind(view) !== 'container')
    .map(({ view, parent }) => ({ view, parent: dataParent(parent) }));
}
