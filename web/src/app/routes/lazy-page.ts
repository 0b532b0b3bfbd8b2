import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** spec §8: loading a page chunk gives up after 120 s. */
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkTimeoutError extends Error {
  readonly isChunkTimeout = true;
  constructor() {
    super('chunk load timed out');
  }
}

export type PreloadableLazy<T extends ComponentType<any>> = LazyExoticComponent<T> & {
  /** Starts loading the chunk now (before React renders the component); the browser keeps the module. */
  preload(): Promise<unknown>;
};

/**
 * `React.lazy` whose loading fails with ChunkTimeoutError after 120 s (the page's error boundary
 * shows it), with `preload()` to fetch the chunk ahead of rendering — e.g. while the password is
 * being checked — so chunks that would load one after another (frame → page) load side by side.
 */
export function lazyWithTimeout<T extends ComponentType<any>>(load: () => Promise<{ default: T }>, timeoutMs = CHUNK_TIMEOUT_MS): PreloadableLazy<T> {
  let loading: Promise<{ default: T }> | null = null;
  const once = () => {
    // A failed load may be retried (a flaky network); a successful one is shared.
    loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
  const component = lazy(
    () =>
      new Promise<{ default: T }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ChunkTimeoutError()), timeoutMs);
        once().then(
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
  return Object.assign(component, { preload: () => once().catch(() => undefined) });
}
