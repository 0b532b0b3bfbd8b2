import type { TPrintElement, TPrintLayout } from '@tessera/core/contracts/print-templates';
import { useCallback, useMemo, useState } from 'react';
import { createHistory, push, redo, reset, undo, type History } from '../../../shared/ui/undo-history.ts';
import { addElement, findElement, removeElement, replaceElement } from './layout-ops.ts';

/**
 * The layout being edited with its undo history and the selected element. `saved` is the layout
 * last saved (or loaded): the editor is dirty while the present differs from it.
 */
export function useLayoutEditor(initial: TPrintLayout) {
  const [history, setHistory] = useState<History<TPrintLayout>>(() => createHistory(initial));
  const [saved, setSaved] = useState<TPrintLayout>(initial);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const layout = history.present;

  /** A new layout as one undo step; edits with the same `mergeKey` in a row (a drag, typing) merge. */
  const change = useCallback((next: (current: TPrintLayout) => TPrintLayout, mergeKey?: string) => setHistory((h) => push(h, next(h.present), mergeKey)), []);

  return useMemo(
    () => ({
      layout,
      selected: findElement(layout, selectedId),
      selectedId,
      select: setSelectedId,
      dirty: layout !== saved,
      canUndo: history.past.length > 0,
      canRedo: history.future.length > 0,
      change,
      add: (element: TPrintElement) => {
        change((l) => addElement(l, element));
        setSelectedId(element.id);
      },
      update: (element: TPrintElement, mergeKey?: string) => change((l) => replaceElement(l, element), mergeKey),
      remove: (id: string) => {
        change((l) => removeElement(l, id));
        setSelectedId((s) => (s === id ? null : s));
      },
      undo: () => setHistory(undo),
      redo: () => setHistory(redo),
      /** After a save: this layout is the saved one (the history stays). */
      markSaved: (l: TPrintLayout) => setSaved(l),
      /** After a reload: a fresh history. */
      load: (l: TPrintLayout) => {
        setHistory(reset(l));
        setSaved(l);
        setSelectedId(null);
      },
    }),
    [layout, selectedId, saved, history.past.length, history.future.length, change],
  );
}
export type LayoutEditor = ReturnType<typeof useLayoutEditor>;
