import { addLog } from './log-store.ts';

let installed = false;

/** spec §8: the global error handler logs an entry of type error (uncaught errors and rejections). */
export function installGlobalErrorLogging() {
  if (installed) return;
  installed = true;
  window.addEventListener('error', (event) => {
    // Resource load failures (img, script) carry no message; the lazy-chunk loader reports those.
    if (!event.message) return;
    addLog({
      type: 'error',
      message: event.message,
      meta: { source: event.filename, line: event.lineno, column: event.colno, stack: (event.error as Error | undefined)?.stack },
    });
  });
  window.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason as { message?: string; stack?: string; status?: number; url?: string } | undefined;
    // API failures are logged once by the API client already (数据请求异常).
    if (reason && typeof reason === 'object' && 'status' in reason && 'url' in reason) return;
    addLog({ type: 'error', message: reason?.message ?? String(event.reason), meta: { stack: reason?.stack } });
  });
}
