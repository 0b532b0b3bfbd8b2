/**
 * A bounded undo history of immutable values. `push` drops the redo branch; with `mergeKey` a
 * burst of edits of the same thing (typing a name, dragging a node) becomes one undo step.
 */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** The merge key of the last push, if any. */
  lastKey?: string;
}

export const HISTORY_LIMIT = 100;

export const createHistory = <T>(present: T): History<T> => ({ past: [], present, future: [] });

export function push<T>(h: History<T>, next: T, mergeKey?: string, limit = HISTORY_LIMIT): History<T> {
  if (next === h.present) return h;
  if (mergeKey && mergeKey === h.lastKey && h.future.length === 0) return { ...h, present: next };
  const past = [...h.past, h.present];
  return { past: past.length > limit ? past.slice(past.length - limit) : past, present: next, future: [], lastKey: mergeKey };
}

export function undo<T>(h: History<T>): History<T> {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1]!, future: [h.present, ...h.future] };
}

export function redo<T>(h: History<T>): History<T> {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0]!, future: h.future.slice(1) };
}

/** Replaces the present without an undo step (after a save, a reload). */
export const reset = <T>(present: T): History<T> => createHistory(present);
