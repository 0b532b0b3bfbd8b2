import { useEffect, useRef } from 'react';
import { getToken } from '../auth/session.ts';
import { API_BASE } from './client.ts';

/**
 * Live signals from the server (issue 14): `GET /api/app/notifications/live`, server-sent events
 * naming what changed for the signed-in user — `todo` (their to-do tasks), `notifications` — as
 * cues to read the counts again through the ordinary API. Read with `fetch` (it sends the bearer
 * token; `EventSource` cannot), one stream per tab, and only while the tab is visible: a hidden
 * tab closes its stream (browsers allow six connections per host over HTTP/1.1; ten hidden tabs
 * must not use them up) and, when shown again, reconnects and tells every listener to read again.
 *
 * A lost stream reconnects after 1 s, doubling to 30 s while it keeps failing; each (re)connection
 * starts with `ready`, passed on as `resync` (anything may have changed meanwhile).
 */
export type LiveTopic = 'todo' | 'notifications' | 'resync';
type Listener = (topic: LiveTopic) => void;

const listeners = new Set<Listener>();
let controller: AbortController | null = null;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let failures = 0;

const emit = (topic: LiveTopic) => {
  for (const listener of [...listeners]) listener(topic);
};

function wanted(): boolean {
  return listeners.size > 0 && document.visibilityState === 'visible' && getToken() !== null;
}

function disconnect() {
  controller?.abort();
  controller = null;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
}

function scheduleRetry() {
  if (retryTimer || !wanted()) return;
  const delay = Math.min(30_000, 1000 * 2 ** Math.min(failures, 5));
  failures += 1;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    connect();
  }, delay);
}

function connect() {
  if (controller || !wanted()) return;
  const own = new AbortController();
  controller = own;
  void (async () => {
    try {
      const response = await fetch(`${API_BASE}/app/notifications/live`, {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${getToken()}` },
        credentials: 'include',
        cache: 'no-store',
        signal: own.signal,
      });
      if (!response.ok || !response.body) throw new Error(`live ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, '\n');
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const name = /^event: ?(.*)$/m.exec(block)?.[1];
          if (name === 'ready') {
            failures = 0;
            emit('resync');
          } else if (name === 'todo' || name === 'notifications' || name === 'resync') emit(name);
        }
      }
    } catch {
      // Aborted by us, refused (signed out) or lost: the retry below decides.
    } finally {
      if (controller === own) {
        controller = null;
        scheduleRetry();
      }
    }
  })();
}

if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'visible' ? connect() : disconnect()));
}

/** Listens to live topics while mounted (the first listener opens the stream, the last closes it). */
export function useLiveTopics(topics: readonly LiveTopic[], onSignal: (topic: LiveTopic) => void): void {
  const latest = useRef(onSignal);
  latest.current = onSignal;
  const key = topics.join(',');
  useEffect(() => {
    const listener: Listener = (topic) => {
      if (topic === 'resync' || key.split(',').includes(topic)) latest.current(topic);
    };
    listeners.add(listener);
    connect();
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) disconnect();
    };
  }, [key]);
}
