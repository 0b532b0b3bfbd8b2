import { flattenViews, type TButton, type TDataControl, type TPageDefinition } from '@tessera/core/page-definition';
import type { TDesignChanges } from '@tessera/core/contracts/pages';

// The design diff shown in the version history: what a version changed against the one before it.
// Elements are matched by id (a renamed control keeps its id), so a rename is a rename.

const stable = (value: unknown) => JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));

function controlsOf(definition: TPageDefinition) {
  const out = new Map<string, { name: string; control: TDataControl }>();
  for (const { view } of flattenViews(definition)) for (const c of view.dataControls) out.set(c.id, { name: `${view.code}.${c.code}`, control: c });
  return out;
}

function buttonsOf(definition: TPageDefinition) {
  const out = new Map<string, TButton>();
  for (const b of definition.pageButtons) out.set(b.id, b);
  for (const { view } of flattenViews(definition)) for (const b of view.viewButtons) out.set(b.id, b);
  return out;
}

function compareMaps<T>(before: Map<string, T>, after: Map<string, T>) {
  let added = 0;
  let removed = 0;
  let changed = 0;
  for (const [id, value] of after) {
    if (!before.has(id)) added++;
    else if (stable(before.get(id)) !== stable(value)) changed++;
  }
  for (const id of before.keys()) if (!after.has(id)) removed++;
  return { added, removed, changed };
}

/** The changes from `before` (null: nothing published yet) to `after`. */
export function designChanges(before: TPageDefinition | null, after: TPageDefinition): TDesignChanges {
  const prev = before ?? { viewControls: [], pageButtons: [], dataLinkages: [] };
  const viewsBefore = new Map(flattenViews(prev).map(({ view }) => [view.id, view.code]));
  const viewsAfter = new Map(flattenViews(after).map(({ view }) => [view.id, view.code]));
  const cBefore = controlsOf(prev);
  const cAfter = controlsOf(after);
  const out: TDesignChanges = {
    viewsAdded: [...viewsAfter].filter(([id]) => !viewsBefore.has(id)).map(([, code]) => code),
    viewsRemoved: [...viewsBefore].filter(([id]) => !viewsAfter.has(id)).map(([, code]) => code),
    controlsAdded: [],
    controlsRemoved: [],
    controlsRenamed: [],
    controlsRetyped: [],
    controlsChanged: [],
    buttons: compareMaps(buttonsOf(prev), buttonsOf(after)),
    linkages: compareMaps(
      new Map(prev.dataLinkages.map((l, i) => [l.id ?? `#${i}`, l])),
      new Map(after.dataLinkages.map((l, i) => [l.id ?? `#${i}`, l])),
    ),
  };
  for (const [id, { name, control }] of cAfter) {
    const old = cBefore.get(id);
    if (!old) {
      out.controlsAdded.push(name);
      continue;
    }
    if (old.control.code !== control.code) out.controlsRenamed.push({ from: old.name, to: name });
    if (Number(old.control.controlType) !== Number(control.controlType)) {
      out.controlsRetyped.push({ control: name, from: Number(old.control.controlType), to: Number(control.controlType) });
    }
    const { code: _a, controlType: _b, ...restOld } = old.control;
    const { code: _c, controlType: _d, ...restNew } = control;
    if (stable(restOld) !== stable(restNew)) out.controlsChanged.push(name);
  }
  for (const [id, { name }] of cBefore) if (!cAfter.has(id)) out.controlsRemoved.push(name);
  return out;
}
