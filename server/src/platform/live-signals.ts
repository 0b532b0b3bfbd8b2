import type { DatabaseHandle } from '../db/database.ts';

/**
 * Live signals: which signed-in user's badges changed (issue 14: the to-do count reaches an open
 * browser within 2 s of the task's creation, in every server process).
 *
 * The database sends them: triggers (migration 0904) NOTIFY `tessera_signal` with `{u, t}` when a
 * transaction that changed a user's tasks or notifications commits. Each server process LISTENs
 * once and hands a signal to the streams of that user it holds (the notifications module's
 * `GET /api/app/notifications/live`). A signal names a topic only — the browser reads the count
 * again through the ordinary, permission-checked API — so nothing is sent that the user could not
 * already read, and a lost signal costs a stale badge until the next one, never wrong data.
 */
export const LIVE_CHANNEL = 'tessera_signal';
export const LIVE_TOPICS = ['todo', 'notifications'] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];
/** Sent to every stream when signals may have been missed (the listening connection was lost): read everything again. */
export const RESYNC = 'resync' as const;
/** The server is shutting down: a stream ends (the browser connects again, to another process or later). */
export const BYE = 'bye' as const;

type Subscriber = (topic: LiveTopic | typeof RESYNC | typeof BYE) => void;

export class LiveSignals {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private stop: (() => Promise<void>) | null = null;

  /** Listens on the database (`null`: no database signals — a stream still opens, and stays quiet). */
  async start(database: Pick<DatabaseHandle, 'listen'> | null): Promise<void> {
    if (!database || this.stop) return;
    this.stop = await database.listen(LIVE_CHANNEL, (payload) => this.dispatch(payload), () => this.broadcast(RESYNC));
  }

  /** A stream of `userId` (lower-case uuid); answers its unsubscribe. */
  subscribe(userId: string, subscriber: Subscriber): () => void {
    const key = userId.toLowerCase();
    let set = this.subscribers.get(key);
    if (!set) this.subscribers.set(key, (set = new Set()));
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(key) === set) this.subscribers.delete(key);
    };
  }

  /** Open streams (tests, diagnostics). */
  get streamCount(): number {
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }

  /** Ends every stream (before the HTTP server closes: an open stream would hold it open). */
  endStreams(): void {
    this.broadcast(BYE);
  }

  async close(): Promise<void> {
    const stop = this.stop;
    this.stop = null;
    this.subscribers.clear();
    await stop?.();
  }

  private dispatch(payload: string) {
    let signal: { u?: unknown; t?: unknown };
    try {
      signal = JSON.parse(payload) as { u?: unknown; t?: unknown };
    } catch {
      return;
    }
    if (typeof signal.u !== 'string' || !LIVE_TOPICS.includes(signal.t as LiveTopic)) return;
    for (const subscriber of this.subscribers.get(signal.u.toLowerCase()) ?? []) subscriber(signal.t as LiveTopic);
  }

  private broadcast(topic: typeof RESYNC | typeof BYE) {
    for (const set of [...this.subscribers.values()]) for (const subscriber of [...set]) subscriber(topic);
  }
}
