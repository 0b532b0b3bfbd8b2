import type { TPageDefinition } from '@tessera/core/page-definition';
import { create } from 'zustand';
import { indexDefinition, isDescendant, paste, removeElements, type Clipboard } from './tree-ops.ts';

// The designer's client state: the draft being edited, selection, clipboard and undo history.
// Every edit goes through `apply` so undo/redo and autosave see all of them.

const HISTORY_LIMIT = 200;
/** Edits of one property within this window are one undo step (typing a title). */
const COALESCE_MS = 1200;

export type SaveState = 'saved' | 'dirty' | 'saving' | 'error' | 'conflict';
export type SidePanel = 'properties' | 'linkages' | 'buttons' | 'checks';

export interface DesignerState {
  pageId: string | null;
  definition: TPageDefinition;
  /** Ids of the selected views, controls or buttons (first = primary). */
  selection: string[];
  clipboard: Clipboard | null;
  past: TPageDefinition[];
  future: TPageDefinition[];
  coalesce: { key: string; at: number } | null;
  /** Bumped on every change; the autosave compares it with `savedRevision`. */
  revision: number;
  savedRevision: number;
  saveState: SaveState;
  saveError: string | null;
  concurrencyStamp: string | null;
  panel: SidePanel;
  /** The linkage open in the linkage editor. */
  linkageId: string | null;

  load(pageId: string, definition: TPageDefinition, concurrencyStamp: string): void;
  apply(fn: (def: TPageDefinition) => TPageDefinition, coalesceKey?: string): void;
  undo(): void;
  redo(): void;
  select(id: string | null, mode?: 'replace' | 'toggle' | 'add'): void;
  setSelection(ids: string[]): void;
  copySelection(): number;
  cutSelection(): number;
  pasteClipboard(): number;
  deleteSelection(): number;
  markSaving(): void;
  markSaved(revision: number, concurrencyStamp: string): void;
  markSaveFailed(kind: 'error' | 'conflict', message: string): void;
  setPanel(panel: SidePanel): void;
  openLinkage(id: string | null): void;
}

const EMPTY: TPageDefinition = { viewControls: [], pageButtons: [], dataLinkages: [] };

export const useDesigner = create<DesignerState>((set, get) => ({
  pageId: null,
  definition: EMPTY,
  selection: [],
  clipboard: null,
  past: [],
  future: [],
  coalesce: null,
  revision: 0,
  savedRevision: 0,
  saveState: 'saved',
  saveError: null,
  concurrencyStamp: null,
  panel: 'properties',
  linkageId: null,

  load(pageId, definition, concurrencyStamp) {
    set({
      pageId,
      definition,
      concurrencyStamp,
      selection: [],
      past: [],
      future: [],
      coalesce: null,
      revision: 0,
      savedRevision: 0,
      saveState: 'saved',
      saveError: null,
      linkageId: null,
    });
  },

  apply(fn, coalesceKey) {
    const s = get();
    const next = fn(s.definition);
    if (next === s.definition) return;
    const now = Date.now();
    const merge = coalesceKey && s.coalesce?.key === coalesceKey && now - s.coalesce.at < COALESCE_MS;
    const past = merge ? s.past : [...s.past.slice(-(HISTORY_LIMIT - 1)), s.definition];
    // Drop selected ids that no longer exist (a deleted element, an undone add).
    const index = indexDefinition(next);
    set({
      definition: next,
      past,
      future: [],
      coalesce: coalesceKey ? { key: coalesceKey, at: now } : null,
      revision: s.revision + 1,
      saveState: s.saveState === 'conflict' ? 'conflict' : 'dirty',
      selection: s.selection.filter((id) => index.has(id)),
    });
  },

  undo() {
    const s = get();
    const previous = s.past[s.past.length - 1];
    if (!previous) return;
    const index = indexDefinition(previous);
    set({
      definition: previous,
      past: s.past.slice(0, -1),
      future: [s.definition, ...s.future],
      coalesce: null,
      revision: s.revision + 1,
      saveState: s.saveState === 'conflict' ? 'conflict' : 'dirty',
      selection: s.selection.filter((id) => index.has(id)),
    });
  },

  redo() {
    const s = get();
    const [next, ...rest] = s.future;
    if (!next) return;
    const index = indexDefinition(next);
    set({
      definition: next,
      past: [...s.past, s.definition],
      future: rest,
      coalesce: null,
      revision: s.revision + 1,
      saveState: s.saveState === 'conflict' ? 'conflict' : 'dirty',
      selection: s.selection.filter((id) => index.has(id)),
    });
  },

  select(id, mode = 'replace') {
    if (id === null) return set({ selection: [] });
    const current = get().selection;
    // Picking one element on the canvas shows its properties (the checks list keeps its result).
    if (mode === 'replace') return set({ selection: [id], panel: 'properties' });
    if (mode === 'add') return set({ selection: current.includes(id) ? current : [...current, id] });
    set({ selection: current.includes(id) ? current.filter((x) => x !== id) : [...current, id] });
  },

  setSelection(ids) {
    set({ selection: ids });
  },

  copySelection() {
    const s = get();
    const index = indexDefinition(s.definition);
    const picked = s.selection.map((id) => index.get(id)).filter(Boolean);
    const controls = picked.filter((l) => l!.kind === 'control').map((l) => l!.control!);
    // A view copied with its children; a child view inside another selected view is not copied twice.
    const viewIds = new Set(picked.filter((l) => l!.kind === 'view').map((l) => l!.view!.id));
    const views = picked
      .filter((l) => l!.kind === 'view')
      .map((l) => l!.view!)
      .filter((v) => ![...viewIds].some((other) => other !== v.id && isDescendant(s.definition, other, v.id)));
    if (!controls.length && !views.length) return 0;
    set({ clipboard: { controls: structuredClone(controls), views: structuredClone(views) } });
    return controls.length + views.length;
  },

  cutSelection() {
    const n = get().copySelection();
    if (n) get().deleteSelection();
    return n;
  },

  pasteClipboard() {
    const s = get();
    if (!s.clipboard) return 0;
    let ids: string[] = [];
    s.apply((def) => {
      const result = paste(def, s.clipboard!, s.selection[0] ?? null);
      ids = result.ids;
      return result.def;
    });
    set({ selection: ids });
    return ids.length;
  },

  deleteSelection() {
    const s = get();
    const ids = s.selection;
    if (!ids.length) return 0;
    s.apply((def) => removeElements(def, ids));
    set({ selection: [] });
    return ids.length;
  },

  markSaving() {
    set({ saveState: 'saving', saveError: null });
  },

  markSaved(revision, concurrencyStamp) {
    const s = get();
    set({ savedRevision: revision, concurrencyStamp, saveState: s.revision === revision ? 'saved' : 'dirty', saveError: null });
  },

  markSaveFailed(kind, message) {
    set({ saveState: kind, saveError: message });
  },

  setPanel(panel) {
    set({ panel });
  },

  openLinkage(id) {
    set({ linkageId: id, panel: 'linkages' });
  },
}));
