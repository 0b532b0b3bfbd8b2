/**
 * What a page asks the network for, through the Chrome DevTools Protocol: per request its URL,
 * resource type, start and end (Node's clock when the event arrived), the bytes that travelled
 * (`Network.loadingFinished` encodedDataLength: compressed body plus headers) and the body after
 * decoding (sum of `Network.dataReceived` dataLength).
 */
import type { CDPSession, Page } from 'playwright-core';

export interface RequestEntry {
  url: string;
  type: string;
  start: number;
  end?: number;
  transferred: number;
  decoded: number;
  encoding?: string;
  failed?: boolean;
  fromCache?: boolean;
}

export class NetworkLog {
  readonly entries = new Map<string, RequestEntry>();
  private constructor(readonly cdp: CDPSession) {}

  static async attach(page: Page): Promise<NetworkLog> {
    const cdp = await page.context().newCDPSession(page);
    const log = new NetworkLog(cdp);
    cdp.on('Network.requestWillBeSent', (e) => {
      // A redirect reuses the id: keep the last hop.
      log.entries.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other', start: performance.now(), transferred: 0, decoded: 0 });
    });
    cdp.on('Network.responseReceived', (e) => {
      const entry = log.entries.get(e.requestId);
      if (!entry) return;
      const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      entry.encoding = headers['content-encoding'];
      entry.fromCache = Boolean(e.response.fromDiskCache || e.response.fromServiceWorker || e.response.fromPrefetchCache);
    });
    cdp.on('Network.requestServedFromCache', (e) => {
      const entry = log.entries.get(e.requestId);
      if (entry) entry.fromCache = true;
    });
    cdp.on('Network.dataReceived', (e) => {
      const entry = log.entries.get(e.requestId);
      if (entry) entry.decoded += e.dataLength;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const entry = log.entries.get(e.requestId);
      if (!entry) return;
      entry.end = performance.now();
      entry.transferred = e.encodedDataLength;
    });
    cdp.on('Network.loadingFailed', (e) => {
      const entry = log.entries.get(e.requestId);
      if (!entry) return;
      entry.end = performance.now();
      entry.failed = true;
    });
    await cdp.send('Network.enable');
    return log;
  }

  reset() {
    this.entries.clear();
  }

  list(filter: (e: RequestEntry) => boolean = () => true): RequestEntry[] {
    return [...this.entries.values()].filter(filter);
  }

  /** API requests (`/api/`) not answered yet — but the live stream, which stays open by design. */
  pendingApi(): RequestEntry[] {
    return this.list((e) => isApi(e) && !isLiveStream(e) && e.end === undefined);
  }

  /**
   * Waits until no API request has been in flight for `quietMs`, then returns the end of the last
   * API request that started after `since` (or `since` when there was none).
   */
  async apiSettled(since: number, quietMs = 300, timeoutMs = 30_000): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    let quietFrom = performance.now();
    for (;;) {
      const now = performance.now();
      if (this.pendingApi().length) quietFrom = now;
      else if (now - quietFrom >= quietMs) break;
      if (now > deadline) throw new Error(`API requests still pending: ${this.pendingApi().map((e) => e.url).join(', ')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const ends = this.list((e) => isApi(e) && e.start >= since && e.end !== undefined).map((e) => e.end!);
    return ends.length ? Math.max(...ends) : since;
  }

  async detach() {
    await this.cdp.detach().catch(() => undefined);
  }
}

export const isApi = (e: RequestEntry) => new URL(e.url).pathname.includes('/api/');
/** The server-sent events stream of live signals (open while the tab is visible): never "settled". */
export const isLiveStream = (e: RequestEntry) => new URL(e.url).pathname.endsWith('/api/app/notifications/live');

/** Totals by kind: what travelled and what it decoded to. */
export function byKind(entries: RequestEntry[]) {
  const kinds = new Map<string, { count: number; transferred: number; decoded: number }>();
  for (const e of entries) {
    if (e.url.startsWith('data:')) continue;
    const kind = isApi(e) ? 'API' : e.type;
    const k = kinds.get(kind) ?? { count: 0, transferred: 0, decoded: 0 };
    k.count++;
    k.transferred += e.transferred;
    k.decoded += e.decoded;
    kinds.set(kind, k);
  }
  const total = [...kinds.values()].reduce((t, k) => ({ count: t.count + k.count, transferred: t.transferred + k.transferred, decoded: t.decoded + k.decoded }), {
    count: 0,
    transferred: 0,
    decoded: 0,
  });
  return { kinds, total };
}
