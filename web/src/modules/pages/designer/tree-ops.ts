import { flattenViews, mapViews, type TButton, type TDataControl, type TPageDefinition, type TView } from '@tessera/core/page-definition';
import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import { newGuid } from '@tessera/core/helpers/guid';

// Pure edits of a page definition for the designer: every function returns a new document and
// never mutates its input (undo keeps the old ones). Views, controls and buttons are addressed by id.

export type ElementKind = 'view' | 'control' | 'button';

export interface Located {
  kind: ElementKind;
  /** View: the parent view id (null at the top); control / view button: the owning view; page button: null. */
  ownerId: string | null;
  index: number;
  view?: TView;
  control?: TDataControl;
  button?: TButton;
}

// Not crypto.randomUUID: browsers offer it only in secure contexts, and offices use plain http.
export const newId = newGuid;

export function allViews(def: Pick<TPageDefinition, 'viewControls'>): TView[] {
  return flattenViews(def).map(({ view }) => view);
}

export function allControls(def: Pick<TPageDefinition, 'viewControls'>): { control: TDataControl; view: TView }[] {
  return allViews(def).flatMap((view) => view.dataControls.map((control) => ({ control, view })));
}

const indexCache = new WeakMap<TPageDefinition, Map<string, Located>>();

/** Index of every element by id (documents are immutable: built once per document and cached). */
export function indexDefinition(def: TPageDefinition): Map<string, Located> {
  const cached = indexCache.get(def);
  if (cached) return cached;
  const map = new Map<string, Located>();
  indexCache.set(def, map);
  for (const { view, parent } of flattenViews(def)) {
    const index = (parent ? parent.viewControls : def.viewControls).indexOf(view);
    map.set(view.id, { kind: 'view', ownerId: parent?.id ?? null, index, view });
    view.dataControls.forEach((control, i) => map.set(control.id, { kind: 'control', ownerId: view.id, index: i, control }));
    view.viewButtons.forEach((button, i) => map.set(button.id, { kind: 'button', ownerId: view.id, index: i, button }));
  }
  def.pageButtons.forEach((button, index) => map.set(button.id, { kind: 'button', ownerId: null, index, button }));
  return map;
}

/** Applies `fn` to the view with `id` wherever it sits. */
export function mapView(def: TPageDefinition, id: string, fn: (view: TView) => TView): TPageDefinition {
  return { ...def, viewControls: mapViews(def.viewControls, (v) => (v.id === id ? fn(v) : v)) };
}

function updateViews(def: TPageDefinition, parentId: string | null, fn: (views: TView[]) => TView[]): TPageDefinition {
  if (parentId === null) return { ...def, viewControls: fn(def.viewControls) };
  return mapView(def, parentId, (v) => ({ ...v, viewControls: fn(v.viewControls ?? []) }));
}

const insertAt = <T,>(list: T[], index: number, items: T[]) => {
  const at = Math.max(0, Math.min(index, list.length));
  return [...list.slice(0, at), ...items, ...list.slice(at)];
};

export function isDescendant(def: TPageDefinition, ancestorId: string, id: string): boolean {
  const ancestor = allViews(def).find((v) => v.id === ancestorId);
  if (!ancestor) return false;
  return allViews({ viewControls: ancestor.viewControls ?? [] }).some((v) => v.id === id);
}

// ---------------------------------------------------------------- codes

/** Every code used by a control, view or button of the page (codes stay unique page-wide). */
export function usedCodes(def: TPageDefinition): Set<string> {
  const codes = new Set<string>();
  for (const view of allViews(def)) {
    codes.add(view.code.toLowerCase());
    view.dataControls.forEach((c) => codes.add(c.code.toLowerCase()));
    view.viewButtons.forEach((b) => b.code && codes.add(b.code.toLowerCase()));
  }
  def.pageButtons.forEach((b) => b.code && codes.add(b.code.toLowerCase()));
  return codes;
}

/** `base`, else `base2`, `base3`… not yet used (codes compare case-insensitively, like columns). */
export function uniqueCode(base: string, used: Set<string>): string {
  const clean = base.replace(/[^A-Za-z0-9_]/g, '').replace(/^[^A-Za-z]+/, '') || 'field';
  const stem = clean.slice(0, 36);
  for (let n = 1; ; n++) {
    const code = n === 1 && /\d$/.test(stem) ? stem : `${stem}${n === 1 ? '' : n}`;
    if (!used.has(code.toLowerCase())) {
      used.add(code.toLowerCase());
      return code;
    }
  }
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

// ---------------------------------------------------------------- adding

export function makeControl(controlType: number, typeName: string, title: string, used: Set<string>, defaults: Record<string, unknown> = {}): TDataControl {
  const control: TDataControl = {
    id: newId(),
    code: uniqueCode(camel(typeName), used),
    title,
    controlType,
    isDisplayed: true,
    isEdit: true,
    extraProperties: {},
  };
  return applyDefaults(control, defaults);
}

/** Palette defaults by property path (`extraProperties.accuracy` → 2). */
export function applyDefaults<T extends object>(target: T, defaults: Record<string, unknown>): T {
  let out = target;
  for (const [path, value] of Object.entries(defaults)) if (value !== undefined && getPath(out, path) === undefined) out = setPath(out, path, value);
  return out;
}

export function makeView(viewType: number, title: string, used: Set<string>, parent: TView | null): TView {
  const base = viewType === VIEW_TYPES.grid ? 'lines' : viewType === VIEW_TYPES.container ? 'group' : 'main';
  return {
    id: newId(),
    code: uniqueCode(base, used),
    title,
    viewType,
    parentViewControlId: parent && viewType !== VIEW_TYPES.container ? parent.id : null,
    associateForeignKeyCode: null,
    dataControls: [],
    viewButtons: [],
    viewControls: [],
  };
}

export function insertControls(def: TPageDefinition, viewId: string, index: number, controls: TDataControl[]): TPageDefinition {
  return mapView(def, viewId, (v) => ({ ...v, dataControls: insertAt(v.dataControls, index, controls) }));
}

export function insertView(def: TPageDefinition, parentId: string | null, index: number, view: TView): TPageDefinition {
  return normalizeParents(updateViews(def, parentId, (views) => insertAt(views, index, [view])));
}

// ---------------------------------------------------------------- moving

/** Moves controls (in the given order) into `viewId` before position `index` of the target list as it is now. */
export function moveControls(def: TPageDefinition, ids: string[], viewId: string, index: number): TPageDefinition {
  const idx = indexDefinition(def);
  const moving = ids.map((id) => idx.get(id)).filter((l): l is Located => l?.kind === 'control');
  if (!moving.length) return def;
  const target = idx.get(viewId)?.view;
  if (!target) return def;
  // Position in the target list after the moved controls leave it.
  const before = target.dataControls.slice(0, index).filter((c) => !ids.includes(c.id)).length;
  let next = def;
  for (const l of moving) next = mapView(next, l.ownerId!, (v) => ({ ...v, dataControls: v.dataControls.filter((c) => c.id !== l.control!.id) }));
  return insertControls(next, viewId, before, moving.map((l) => l.control!));
}

/** Moves a view under `parentId` (null: top level) before position `index`; refuses cycles. */
export function moveView(def: TPageDefinition, id: string, parentId: string | null, index: number): TPageDefinition {
  if (parentId === id || (parentId && isDescendant(def, id, parentId))) return def;
  const idx = indexDefinition(def);
  const at = idx.get(id);
  if (at?.kind !== 'view') return def;
  const siblings = parentId === null ? def.viewControls : (idx.get(parentId)?.view?.viewControls ?? []);
  const before = siblings.slice(0, index).filter((v) => v.id !== id).length;
  let next = updateViews(def, at.ownerId, (views) => views.filter((v) => v.id !== id));
  next = insertView(next, parentId, before, at.view!);
  return normalizeParents(next);
}

/**
 * spec §3 parentViewControlId: every data view points at the nearest ancestor that is not a
 * container (containers only group views on screen); top-level views and containers have none.
 */
export function normalizeParents(def: TPageDefinition): TPageDefinition {
  const walk = (views: TView[], dataParent: string | null): TView[] =>
    views.map((v) => {
      const container = Number(v.viewType) === VIEW_TYPES.container;
      const parentViewControlId = container ? null : dataParent;
      const children = walk(v.viewControls ?? [], container ? dataParent : v.id);
      const same = (v.parentViewControlId ?? null) === parentViewControlId && children.every((c, i) => c === v.viewControls[i]);
      return same ? v : { ...v, parentViewControlId, viewControls: children };
    });
  return { ...def, viewControls: walk(def.viewControls, null) };
}

export function moveButton(def: TPageDefinition, id: string, delta: -1 | 1): TPageDefinition {
  const at = indexDefinition(def).get(id);
  if (at?.kind !== 'button') return def;
  const swap = (list: TButton[]) => {
    const j = at.index + delta;
    if (j < 0 || j >= list.length) return list;
    const copy = [...list];
    [copy[at.index], copy[j]] = [copy[j]!, copy[at.index]!];
    return copy;
  };
  if (at.ownerId === null) return { ...def, pageButtons: swap(def.pageButtons) };
  return mapView(def, at.ownerId, (v) => ({ ...v, viewButtons: swap(v.viewButtons) }));
}

// ---------------------------------------------------------------- removing

export function removeElements(def: TPageDefinition, ids: Iterable<string>): TPageDefinition {
  const gone = new Set(ids);
  const keep = (views: TView[]) => views.filter((v) => !gone.has(v.id));
  const viewControls = mapViews(keep(def.viewControls), (v) => ({
    ...v,
    dataControls: v.dataControls.filter((c) => !gone.has(c.id)),
    viewButtons: v.viewButtons.filter((b) => !gone.has(b.id)),
    viewControls: keep(v.viewControls ?? []),
  }));
  return { ...def, viewControls, pageButtons: def.pageButtons.filter((b) => !gone.has(b.id)) };
}

// ---------------------------------------------------------------- updating

export function getPath(obj: unknown, path: string): unknown {
  let cur = obj as Record<string, unknown> | null | undefined;
  for (const key of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = cur[key] as Record<string, unknown> | undefined;
  }
  return cur;
}

export function setPath<T>(obj: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const base = (obj ?? {}) as Record<string, unknown>;
  if (!rest.length) {
    if (value === undefined) {
      const { [head!]: _gone, ...others } = base;
      return others as T;
    }
    return { ...base, [head!]: value } as T;
  }
  return { ...base, [head!]: setPath(base[head!] ?? {}, rest.join('.'), value) } as T;
}

export function updateControl(def: TPageDefinition, id: string, fn: (c: TDataControl) => TDataControl): TPageDefinition {
  const at = indexDefinition(def).get(id);
  if (at?.kind !== 'control') return def;
  return mapView(def, at.ownerId!, (v) => ({ ...v, dataControls: v.dataControls.map((c) => (c.id === id ? fn(c) : c)) }));
}

export function updateButton(def: TPageDefinition, id: string, fn: (b: TButton) => TButton): TPageDefinition {
  const at = indexDefinition(def).get(id);
  if (at?.kind !== 'button') return def;
  if (at.ownerId === null) return { ...def, pageButtons: def.pageButtons.map((b) => (b.id === id ? fn(b) : b)) };
  return mapView(def, at.ownerId, (v) => ({ ...v, viewButtons: v.viewButtons.map((b) => (b.id === id ? fn(b) : b)) }));
}

/** Sets a property (by path) on whatever element `id` is. */
export function setElementProperty(def: TPageDefinition, id: string, path: string, value: unknown): TPageDefinition {
  const at = indexDefinition(def).get(id);
  if (!at) return def;
  if (at.kind === 'control') return updateControl(def, id, (c) => setPath(c, path, value));
  if (at.kind === 'button') return updateButton(def, id, (b) => setPath(b, path, value));
  return mapView(def, id, (v) => setPath(v, path, value));
}

// ---------------------------------------------------------------- copy / paste

export interface Clipboard {
  controls: TDataControl[];
  views: TView[];
}

/** A deep copy of views with new ids and fresh codes (child links follow the new ids). */
function cloneView(view: TView, used: Set<string>, parentId: string | null): TView {
  const id = newId();
  return {
    ...structuredClone(view),
    id,
    code: uniqueCode(view.code, used),
    parentViewControlId: Number(view.viewType) === VIEW_TYPES.container ? null : parentId,
    dataControls: view.dataControls.map((c) => cloneControl(c, used)),
    viewButtons: view.viewButtons.map((b) => ({ ...structuredClone(b), id: newId() })),
    viewControls: (view.viewControls ?? []).map((child) => cloneView(child, used, Number(view.viewType) === VIEW_TYPES.container ? parentId : id)),
  };
}

export function cloneControl(control: TDataControl, used: Set<string>): TDataControl {
  return { ...structuredClone(control), id: newId(), code: uniqueCode(control.code, used) };
}

/** Pastes the clipboard after the selection (controls into the selected control's view or selected view). */
export function paste(def: TPageDefinition, clip: Clipboard, targetId: string | null): { def: TPageDefinition; ids: string[] } {
  const idx = indexDefinition(def);
  const used = usedCodes(def);
  const target = targetId ? idx.get(targetId) : undefined;
  let next = def;
  const ids: string[] = [];
  if (clip.controls.length) {
    const viewId = target?.kind === 'control' ? target.ownerId! : target?.kind === 'view' ? target.view!.id : (allViews(def).find((v) => Number(v.viewType) !== VIEW_TYPES.container)?.id ?? null);
    if (viewId) {
      const view = idx.get(viewId)!.view!;
      const at = target?.kind === 'control' ? target.index + 1 : view.dataControls.length;
      const copies = clip.controls.map((c) => cloneControl(c, used));
      next = insertControls(next, viewId, at, copies);
      ids.push(...copies.map((c) => c.id));
    }
  }
  for (const view of clip.views) {
    const parentId = target?.kind === 'view' ? target.ownerId : null;
    const copy = cloneView(view, used, null);
    const at = target?.kind === 'view' ? target.index + 1 : next.viewControls.length;
    next = insertView(next, parentId, at, copy);
    ids.push(copy.id);
  }
  return { def: normalizeParents(next), ids };
}
