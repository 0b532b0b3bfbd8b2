/**
 * Long loops on the event loop (an import validating 100,000 records, planning their writes) give
 * it back every few milliseconds, so the requests that arrive meanwhile are served between two
 * slices instead of after the loop.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Milliseconds of work between two turns of the event loop. */
export const SLICE_MS = 0.5;

/** `await pause()` in a loop: resolves at once while the slice lasts, after a turn of the event loop when it is used up. */
export function breather(sliceMs = SLICE_MS): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await nextTurn();
    sliceStart = performance.now();
  };
}
