import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { systemContext, type ContextHost, type ServiceContext } from './context.ts';
import { uuidv7 } from './ids.ts';

/**
 * The durable job queue: timers and background work of every module (workflow timeouts and
 * reminders first), in the `jobs` table of the product's own database — PGlite or PostgreSQL alike.
 *
 * A job runs **exactly once**: the worker claims it with `select … for update skip locked` inside a
 * transaction, runs its handler in that same transaction (the handler's `ctx.db` is it) and marks it
 * done there. Either the handler's writes and the mark commit together, or neither does: a crash or
 * a `kill -9` mid-job leaves it pending for the next claim, and a second server process skips the
 * row another one holds. A job due while no server ran is due at the next start.
 *
 * Chosen over pg-boss, which completes a job in a transaction of its own after the handler (at least
 * once: every handler would have to be idempotent) and keeps a schema of its own to migrate.
 */

export type JobPayload = Record<string, unknown>;

export interface JobRow {
  id: string;
  queue: string;
  key: string | null;
  payload: JobPayload;
  runAt: Date;
  attempts: number;
}

/** Does the job's work with `ctx.db` = the claiming transaction. Throwing retries it later. */
export type JobHandler = (ctx: ServiceContext, job: JobRow) => Promise<void>;

interface QueueOptions {
  /** Attempts before the job is marked failed (default 5). */
  maxAttempts: number;
  /** The wait before attempt n + 1 is `retrySeconds × 2^(n−1)` (default 30 s). */
  retrySeconds: number;
  /**
   * Called once the job is marked failed for good (its own transaction): a module whose jobs
   * chain (a schedule's next run) starts the chain again here. Its own failure is only logged.
   */
  onGiveUp?: (ctx: ServiceContext, job: JobRow, err: unknown) => Promise<void>;
}

const handlers = new Map<string, { handle: JobHandler; options: QueueOptions }>();
const DEFAULT_OPTIONS: QueueOptions = { maxAttempts: 5, retrySeconds: 30 };

/** A module registers the handler of its queue once, from its `index.ts` (registering again replaces it). */
export function registerJobHandler(queue: string, handle: JobHandler, options: Partial<QueueOptions> = {}): void {
  handlers.set(queue, { handle, options: { ...DEFAULT_OPTIONS, ...options } });
}

export interface EnqueueJob {
  queue: string;
  payload?: JobPayload;
  /** When the job is due (default: now). */
  runAt?: Date;
  /** At most one pending job per queue and key: setting it again replaces the pending one's time and payload. */
  key?: string;
}

/**
 * Adds a job — in the caller's transaction, so it exists exactly when the caller's writes do.
 * Returns the pending job's id.
 */
export async function enqueueJob(db: Kysely<Database>, job: EnqueueJob): Promise<string> {
  const values = {
    id: uuidv7(),
    queue: job.queue,
    key: job.key ?? null,
    payload: JSON.stringify(job.payload ?? {}),
    run_at: job.runAt ?? new Date(),
  };
  const row = job.key
    ? await db
        .insertInto('jobs')
        .values(values)
        .onConflict((oc) =>
          oc
            .columns(['queue', 'key'])
            .where('state', '=', 'pending')
            .where('key', 'is not', null)
            .doUpdateSet({ payload: values.payload, run_at: values.run_at, attempts: 0, last_error: null }),
        )
        .returning('id')
        .executeTakeFirstOrThrow()
    : await db.insertInto('jobs').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Removes pending jobs of a queue by key (a timer whose node was left). Returns how many. */
export async function cancelJobs(db: Kysely<Database>, queue: string, key: string): Promise<number> {
  const result = await db.deleteFrom('jobs').where('queue', '=', queue).where('key', '=', key).where('state', '=', 'pending').executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Pending jobs of a queue (tests, diagnostics). */
export function pendingJobs(db: Kysely<Database>, queue: string) {
  return db.selectFrom('jobs').selectAll().where('queue', '=', queue).where('state', '=', 'pending').orderBy('run_at').execute();
}

const errorText = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 2000);

/** Claims and runs due jobs one transaction each; `runDue` is what the timer calls (tests call it too). */
export class JobWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly host: ContextHost,
    private readonly options: { pollMs: number; batch?: number; now?: () => Date } = { pollMs: 1000 },
  ) {}

  start(): void {
    this.stopped = false;
    // Due while no server ran: at once.
    this.schedule(0);
  }

  /** Stops polling and waits for the job in hand. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => 0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runDue().catch((err) => {
        this.host.log.error({ err }, 'job worker tick failed');
        return 0;
      });
      void this.running.finally(() => this.schedule(this.options.pollMs));
    }, ms);
    this.timer.unref?.();
  }

  /** Runs the jobs due now (up to `batch`, default 50); returns how many ran (done or retried). */
  async runDue(): Promise<number> {
    let ran = 0;
    const batch = this.options.batch ?? 50;
    while (ran < batch && !this.stopped) {
      if (!(await this.runOne())) break;
      ran++;
    }
    return ran;
  }

  /** One due job in one transaction; false when none is due (or the others hold them). */
  async runOne(): Promise<boolean> {
    const now = this.options.now?.() ?? new Date();
    let failed = null as { job: JobRow; err: unknown } | null;
    let claimed = false;
    try {
      await this.host.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('jobs')
          .selectAll()
          .where('state', '=', 'pending')
          .where('run_at', '<=', now)
          .orderBy('run_at')
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!row) return;
        claimed = true;
        const job: JobRow = { id: row.id, queue: row.queue, key: row.key, payload: row.payload, runAt: new Date(row.run_at), attempts: row.attempts };
        const registered = handlers.get(row.queue);
        if (!registered) {
          await trx.updateTable('jobs').set({ state: 'failed', last_error: `no handler for queue ${row.queue}`, finished_at: now }).where('id', '=', row.id).execute();
          return;
        }
        // Marked done before the handler runs (same transaction: a failure rolls the mark back), so a
        // handler that sets its own queue and key again (the next reminder) makes a new pending job
        // instead of rewriting the row being run, which the mark would then close.
        await trx.updateTable('jobs').set({ state: 'done', attempts: row.attempts + 1, finished_at: now }).where('id', '=', row.id).execute();
        try {
          await registered.handle({ ...systemContext(this.host, { now: () => now }), db: trx }, job);
        } catch (err) {
          failed = { job, err };
          throw err;
        }
      });
    } catch (err) {
      if (!failed) throw err;
    }
    if (failed) await this.recordFailure(failed, now);
    return claimed;
  }

  /** The handler's work rolled back: count the attempt and retry later, or give up. */
  private async recordFailure({ job, err }: { job: JobRow; err: unknown }, now: Date) {
    const options = handlers.get(job.queue)?.options ?? DEFAULT_OPTIONS;
    const attempts = job.attempts + 1;
    const giveUp = attempts >= options.maxAttempts;
    this.host.log.warn({ err, jobId: job.id, queue: job.queue, attempts, giveUp }, 'job failed');
    await this.host.db
      .updateTable('jobs')
      .set({
        attempts,
        last_error: errorText(err),
        ...(giveUp ? { state: 'failed' as const, finished_at: now } : { run_at: new Date(now.getTime() + options.retrySeconds * 1000 * 2 ** (attempts - 1)) }),
      })
      .where('id', '=', job.id)
      .where('state', '=', 'pending')
      .execute();
    if (giveUp && options.onGiveUp) {
      await this.host.db
        .transaction()
        .execute((trx) => options.onGiveUp!({ ...systemContext(this.host, { now: () => now }), db: trx }, job, err))
        .catch((hookErr: unknown) => this.host.log.error({ err: hookErr, jobId: job.id, queue: job.queue }, 'job give-up hook failed'));
    }
  }
}
