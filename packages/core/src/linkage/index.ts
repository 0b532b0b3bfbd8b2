import { parseControlValue } from '../controls/registry.ts';
import { affectedBy } from '../formula/dependencies.ts';
import type { FormulaContext } from '../formula/eval-state.ts';
import { isFormulaError, toRecordValue, type CompiledFormula } from '../formula/index.ts';
import type { UserFunctionSet } from '../formula/udf.ts';
import { newGuid } from '../helpers/guid.ts';
import type { TBusinessRecord, TDataControl, TPageData, TPageDefinition } from '../page-definition.ts';
import { controlKey, linkageIndexOf, type CompiledLinkage, type LinkageIndex } from './linkage-index.ts';

// Data linkages (spec §3, §4) as a pure function: (definition, page state, changed control, ctx)
// → effects plus the page state with the effects applied. The browser runs it while the user
// edits; the server runs `recomputeLinkages` on save and keeps its own results, never the
// values the browser computed.
//
// - Type 1 (assignment): when every trigger formula is true, each assignment formula's value is
//   written to its target control: in the same row, in the parent (master) row, or — when the
//   target is in a child view of the context view — as linked child rows (DataStatus 2, isLink)
//   that replace the rows the linkage created before. A list value gives one row per element.
// - Type 2 (page state): isDisplayed = !isHide, isEdit = !isReadOnly (spec §4).
// - Page events are returned as data for the page to run.
// Only linkages that read the changed control (directly or through another linkage's output)
// run, in dependency order. A linkage reads its trigger controls and every control its formulas
// reference. One that writes only to the master record runs once per master record.

export type LinkageEffect =
  | { type: 'setValue'; linkageId: string; viewId: string; rowId: string; code: string; value: unknown; error?: string }
  | { type: 'replaceLinkedRows'; linkageId: string; viewId: string; parentRowId: string; removedRowIds: string[]; rows: TBusinessRecord[] }
  | { type: 'controlState'; linkageId: string; controlObjectId: string; controlObjectType: unknown; isDisplayed: boolean; isEdit: boolean }
  | { type: 'pageEvent'; linkageId: string; triggerOperationType: unknown; assignmentType: unknown; bingDataControlId: string | null };

export interface ChangedControl {
  viewId: string;
  /** Row whose control changed (the master row for single-record views). */
  rowId?: string | null;
  /** Control code, or give `dataControlId`. */
  code?: string;
  dataControlId?: string;
}

export type LinkageContext = Omit<FormulaContext, 'row' | 'master' | 'views'> & {
  userFunctions?: UserFunctionSet;
  /** Ids for linked rows (default: random GUID). */
  newId?: () => string;
};

export interface LinkageResult {
  effects: LinkageEffect[];
  /** The page state with every effect applied (the input is not modified). */
  state: TPageData;
}

/** Working copy: rows copied once so effects can be applied as they happen. */
class Working {
  readonly lists = new Map<string, TBusinessRecord[]>();
  private viewsCache = new Map<string, Record<string, TBusinessRecord[] | TBusinessRecord>>();
  readonly formulaContext: FormulaContext;
  constructor(
    readonly index: LinkageIndex,
    state: TPageData,
    ctx: LinkageContext,
  ) {
    this.formulaContext = { ...ctx, row: null, master: null, views: null };
    for (const entry of state.viewDataList ?? []) this.lists.set(entry.viewId, entry.dataList.map((r) => ({ ...r })));
  }
  rows(viewId: string): TBusinessRecord[] {
    let list = this.lists.get(viewId);
    if (!list) this.lists.set(viewId, (list = []));
    return list;
  }
  find(viewId: string, rowId: string | null | undefined): TBusinessRecord | undefined {
    const list = this.rows(viewId);
    return rowId ? list.find((r) => r.Id === rowId) : list[0];
  }
  parentOf(viewId: string, row: TBusinessRecord): TBusinessRecord | null {
    const parent = this.index.views.get(viewId)?.parent;
    return parent ? (this.find(parent.id, row.ParentViewDataId ?? null) ?? null) : null;
  }
  childRows(childViewId: string, parentRowId: string): TBusinessRecord[] {
    return this.rows(childViewId).filter((r) => r.ParentViewDataId === parentRowId);
  }
  /** `{viewCode.code}` data: top-level views as their record, child views as rows of `masterId`. */
  viewsFor(masterId: string | null): Record<string, TBusinessRecord[] | TBusinessRecord> {
    const key = masterId ?? '';
    let views = this.viewsCache.get(key);
    if (views) return views;
    views = Object.create(null) as Record<string, TBusinessRecord[] | TBusinessRecord>;
    for (const [viewId, info] of this.index.views) {
      const rows = this.rows(viewId);
      if (!info.parent) views[info.view.code] = rows[0] ?? {};
      else views[info.view.code] = masterId && info.parent.id !== viewId ? rows.filter((r) => r.ParentViewDataId === masterId || !r.ParentViewDataId) : rows;
    }
    this.viewsCache.set(key, views);
    return views;
  }
  invalidate() {
    this.viewsCache.clear();
  }
  toState(): TPageData {
    return { viewDataList: [...this.lists].map(([viewId, dataList]) => ({ viewId, dataList })) };
  }
}

function evaluateIn(f: CompiledFormula, w: Working, viewId: string, row: TBusinessRecord) {
  const master = w.parentOf(viewId, row);
  // One context object per run, re-pointed at each row: evaluation is synchronous.
  const c = w.formulaContext;
  c.row = row;
  c.master = master;
  c.views = w.viewsFor(master ? master.Id : row.Id);
  return f.evaluate(c);
}

function storeValue(control: TDataControl, value: unknown, offset: number): { value: unknown; error?: string } {
  const parsed = parseControlValue(control, value, { offsetMinutes: offset });
  return parsed.ok ? { value: parsed.value } : { value: null, error: parsed.message };
}

function fire(l: CompiledLinkage, w: Working, row: TBusinessRecord, ctx: LinkageContext, effects: LinkageEffect[], stateEffects: boolean) {
  const viewId = l.contextViewId;
  for (const t of l.triggers) if (evaluateIn(t, w, viewId, row) !== true) return;
  if (stateEffects) {
    for (const p of l.linkage.pageEvents) {
      effects.push({ type: 'pageEvent', linkageId: l.id, triggerOperationType: p.triggerOperationType ?? null, assignmentType: p.assignmentType ?? null, bingDataControlId: p.bingDataControlId ?? null });
    }
  }
  if (l.linkage.dataLinkType === 2) {
    if (!stateEffects) return;
    for (const c of l.linkage.pageStateControls) {
      effects.push({ type: 'controlState', linkageId: l.id, controlObjectId: c.controlObjectId, controlObjectType: c.controlObjectType ?? null, isDisplayed: !c.isHide, isEdit: !c.isReadOnly });
    }
    return;
  }
  const offset = ctx.offsetMinutes ?? 0;
  let linked: Map<string, { control: TDataControl; value: unknown }[]> | null = null;
  for (const a of l.assignments) {
    const result = evaluateIn(a.formula, w, viewId, row);
    const targetInfo = w.index.views.get(a.viewId);
    if (a.viewId !== viewId && targetInfo?.parent?.id === viewId) {
      linked ??= new Map();
      linked.set(a.viewId, [...(linked.get(a.viewId) ?? []), { control: a.control, value: result }]);
      continue;
    }
    const target = a.viewId === viewId ? row : a.viewId === w.index.views.get(viewId)?.parent?.id ? w.parentOf(viewId, row) : w.find(a.viewId, null);
    if (!target) continue;
    const stored = isFormulaError(result) ? { value: null, error: `${result.code} ${result.message}` } : storeValue(a.control, toRecordValue(result, offset), offset);
    target[a.control.code] = stored.value;
    const effect: LinkageEffect = { type: 'setValue', linkageId: l.id, viewId: a.viewId, rowId: target.Id, code: a.control.code, value: stored.value };
    if (stored.error) effect.error = stored.error;
    effects.push(effect);
  }
  if (linked) for (const [childViewId, values] of linked) replaceLinkedRows(l, w, childViewId, row, values, ctx, effects);
}

/** spec §4: rows a linkage created (DataStatus 2, isLink) are removed and replaced when it fires again. */
function replaceLinkedRows(l: CompiledLinkage, w: Working, childViewId: string, parent: TBusinessRecord, values: { control: TDataControl; value: unknown }[], ctx: LinkageContext, effects: LinkageEffect[]) {
  const offset = ctx.offsetMinutes ?? 0;
  const all = w.rows(childViewId);
  const removed = all.filter((r) => r.ParentViewDataId === parent.Id && r.DataStatus === 2 && r.isLink === true);
  const count = Math.max(0, ...values.map((v) => (Array.isArray(v.value) ? v.value.length : 1)));
  const foreignKey = w.index.views.get(childViewId)?.view.associateForeignKeyCode;
  const rows: TBusinessRecord[] = [];
  for (let i = 0; i < count; i++) {
    // Reuse the replaced rows' ids so re-firing (and the server's recompute) keeps ids stable.
    const newRow: TBusinessRecord = { Id: removed[i]?.Id ?? (ctx.newId ?? newGuid)(), ParentViewDataId: parent.Id, DataStatus: 2, isLink: true };
    if (foreignKey) newRow[foreignKey] = parent.Id;
    for (const { control, value } of values) {
      const v = Array.isArray(value) ? value[i] : value;
      newRow[control.code] = v === undefined || isFormulaError(v) ? null : storeValue(control, toRecordValue(v, offset), offset).value;
    }
    rows.push(newRow);
  }
  const kept = all.filter((r) => !removed.includes(r));
  w.lists.set(childViewId, kept.concat(rows));
  w.invalidate();
  effects.push({ type: 'replaceLinkedRows', linkageId: l.id, viewId: childViewId, parentRowId: parent.Id, removedRowIds: removed.map((r) => r.Id), rows });
}

/**
 * A linkage that only writes to the master record runs once per master record (in its last
 * child row) rather than once per child row: the later runs would overwrite the earlier ones.
 */
function oncePerMaster(l: CompiledLinkage, w: Working, rows: TBusinessRecord[]): TBusinessRecord[] {
  const parentId = w.index.views.get(l.contextViewId)?.parent?.id;
  if (rows.length < 2 || !parentId || l.assignments.length === 0 || !l.assignments.every((a) => a.viewId === parentId)) return rows;
  const last = new Map<unknown, TBusinessRecord>();
  for (const r of rows) last.set(r.ParentViewDataId ?? null, r);
  return [...last.values()];
}

/** Rows of the linkage's context view affected by a change in `changed`'s row. */
function contextRows(l: CompiledLinkage, w: Working, changed: ChangedControl): TBusinessRecord[] {
  const changedRow = w.find(changed.viewId, changed.rowId);
  if (!changedRow) return [];
  if (l.contextViewId === changed.viewId) return [changedRow];
  const info = w.index.views.get(l.contextViewId);
  if (info?.parent?.id === changed.viewId) return w.childRows(l.contextViewId, changedRow.Id);
  if (w.index.views.get(changed.viewId)?.parent?.id === l.contextViewId) {
    const parent = w.parentOf(changed.viewId, changedRow);
    return parent ? [parent] : [];
  }
  return w.rows(l.contextViewId);
}

/** Runs the linkages that depend on the changed control. Pure: the input state is not modified. */
export function runLinkages(definition: TPageDefinition, state: TPageData, changed: ChangedControl, ctx: LinkageContext = {}): LinkageResult {
  const index = linkageIndexOf(definition, ctx.userFunctions);
  const code = changed.code ?? (changed.dataControlId ? index.controlsById.get(changed.dataControlId)?.control.code : undefined);
  if (!code) return { effects: [], state };
  const w = new Working(index, state, ctx);
  const effects: LinkageEffect[] = [];
  const byId = new Map(index.linkages.map((l) => [l.id, l]));
  // In dependency order: a linkage runs after those that write what it reads, whatever the design's order.
  for (const id of affectedBy(index.graph, [controlKey(changed.viewId, code)], index.analysis)) {
    const l = byId.get(id);
    if (!l) continue;
    for (const row of oncePerMaster(l, w, contextRows(l, w, changed))) fire(l, w, row, ctx, effects, true);
  }
  return { effects, state: w.toState() };
}

/**
 * Server-side recompute on save: re-runs type 1 linkages over every row of their context view,
 * in dependency order — all of them, or only the dependents of `changed` controls when given.
 */
export function recomputeLinkages(definition: TPageDefinition, state: TPageData, ctx: LinkageContext = {}, changed?: readonly { viewId: string; code: string }[]): LinkageResult {
  const index = linkageIndexOf(definition, ctx.userFunctions);
  const order = changed ? affectedBy(index.graph, changed.map((c) => controlKey(c.viewId, c.code)), index.analysis) : index.analysis.order;
  const byId = new Map(index.linkages.map((l) => [l.id, l]));
  const w = new Working(index, state, ctx);
  const effects: LinkageEffect[] = [];
  for (const id of order) {
    const l = byId.get(id)!;
    if (l.linkage.dataLinkType !== 1) continue;
    for (const row of oncePerMaster(l, w, [...w.rows(l.contextViewId)])) fire(l, w, row, ctx, effects, false);
  }
  return { effects, state: w.toState() };
}

/** Design-time report: formula problems per linkage and cycles between linkages. */
export function analyzeLinkages(definition: TPageDefinition, userFunctions?: UserFunctionSet): { errors: { linkageId: string; formula: string; message: string }[]; cycles: string[][] } {
  const index = linkageIndexOf(definition, userFunctions);
  return {
    errors: index.linkages.flatMap((l) => l.errors.map((e) => ({ linkageId: l.id, ...e }))),
    cycles: index.analysis.cycles,
  };
}

/**
 * Controls whose value is always computed, which a person never types (issue 12): those marked
 * calculated (valueTakingType 2) and the targets of assignment linkages that fire on every change
 * (no trigger formula, or TRUE) — the server recomputes both on every save, so what is typed there would be
 * overwritten. Targets of conditional assignments stay editable. Control ids.
 */
export function computedControlIds(definition: TPageDefinition): ReadonlySet<string> {
  const index = linkageIndexOf(definition);
  const out = new Set<string>();
  for (const { control } of index.controlsById.values()) if (Number(control.valueTakingType) === 2) out.add(control.id);
  const always = (formula: string | null | undefined) => /^\s*(true\s*(\(\s*\))?)?\s*$/i.test(formula ?? '');
  for (const l of index.linkages) {
    if (Number(l.linkage.dataLinkType) !== 1 || !l.linkage.triggerConditions.every((c) => always(c.triggerFormula))) continue;
    for (const a of l.assignments) out.add(a.control.id);
  }
  return out;
}
