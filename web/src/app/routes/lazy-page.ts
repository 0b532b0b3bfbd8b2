import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** spec §8: loading a page chunk gives up after 120 s. */
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkTimeoutError extends Error {
  readonly isChunkTimeout = true;
  constructor() {
    super('chunk load timed out');
  }
}

/** `React.lazy` whose loading fails with ChunkTimeoutError after 120 s (the page's error boundary shows it). */
export function lazyWithTimeout<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
  timeoutMs = CHUNK_TIMEOUT_MS,
): LazyExoticComponent<T> {
  return lazy(
    () =>
      new Promise<{ default: T }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ChunkTimeoutError()), timeoutMs);
        load().then(
          (module) => {
            clearTimeout(timer);
            resolve(module);
          },
          (err: unknown) => {
            clearTimeout(timer);
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      }),
  );
}
