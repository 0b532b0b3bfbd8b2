import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { openDatabase } from '../db/database.ts';
import type { ContextHost } from './context.ts';
import { cancelJobs, enqueueJob, JobWorker, pendingJobs, registerJobHandler } from './jobs.ts';

const onPostgres = !!process.env.DATABASE_URL;

let t: TestApp;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  await sql`create table job_test_marks (job_id uuid primary key, note text not null)`.execute(db());
});
afterAll(() => t?.close());
beforeEach(async () => {
  await db().deleteFrom('jobs').execute();
  await sql`delete from job_test_marks`.execute(db());
});

const marks = async () => (await sql<{ job_id: string; note: string }>`select job_id, note from job_test_marks order by note`.execute(db())).rows;
const at = (iso: string) => new Date(iso);
const worker = (now: Date) => new JobWorker(t.app, { pollMs: 0, now: () => now });

registerJobHandler('test.mark', async (ctx, job) => {
  await sql`insert into job_test_marks (job_id, note) values (${job.id}, ${String(job.payload.note)})`.execute(ctx.db);
});
registerJobHandler('test.crash', async (ctx, job) => {
  await sql`insert into job_test_marks (job_id, note) values (${job.id}, 'parent')`.execute(ctx.db);
});
registerJobHandler('test.again', async (ctx, job) => {
  // A reminder's way: the handler sets the next run under its own key.
  const n = Number(job.payload.n);
  await sql`insert into job_test_marks (job_id, note) values (${job.id}, ${`run ${n}`})`.execute(ctx.db);
  if (n < 2) await enqueueJob(ctx.db, { queue: 'test.again', key: 'task-1', payload: { n: n + 1 }, runAt: new Date(job.runAt.getTime() + 60_000) });
});
registerJobHandler(
  'test.flaky',
  async (ctx, job) => {
    // Writes, then fails: the write must not survive.
    await sql`insert into job_test_marks (job_id, note) values (${job.id}, 'half-done')`.execute(ctx.db);
    throw new Error(`attempt ${job.attempts + 1} failed`);
  },
  {
    maxAttempts: 3,
    retrySeconds: 10,
    // Told once, when the job is given up, in a transaction of its own.
    onGiveUp: async (ctx, job, err) => {
      await sql`insert into job_test_marks (job_id, note) values (${job.id}, ${`gave up: ${(err as Error).message}`})`.execute(ctx.db);
    },
  },
);

describe('the job queue', () => {
  it('runs a job when it is due, once, in the transaction of its work', async () => {
    await enqueueJob(db(), { queue: 'test.mark', payload: { note: 'later' }, runAt: at('2030-01-01T10:00:00Z') });
    expect(await worker(at('2030-01-01T09:59:59Z')).runDue()).toBe(0);
    expect(await marks()).toEqual([]);
    expect(await worker(at('2030-01-01T10:00:00Z')).runDue()).toBe(1);
    expect((await marks()).map((m) => m.note)).toEqual(['later']);
    // Done: never again.
    expect(await worker(at('2030-01-02T00:00:00Z')).runDue()).toBe(0);
    const [row] = await db().selectFrom('jobs').selectAll().execute();
    expect(row).toMatchObject({ state: 'done', attempts: 1 });
  });

  it('exists only when the transaction that enqueued it commits', async () => {
    await db()
      .transaction()
      .execute(async (trx) => {
        await enqueueJob(trx, { queue: 'test.mark', payload: { note: 'x' } });
        throw new Error('the caller changed its mind');
      })
      .catch(() => undefined);
    expect(await pendingJobs(db(), 'test.mark')).toEqual([]);
  });

  it('rolls back a failed attempt, retries with back-off, then gives up', async () => {
    const id = await enqueueJob(db(), { queue: 'test.flaky', runAt: at('2030-01-01T00:00:00Z') });
    expect(await worker(at('2030-01-01T00:00:00Z')).runDue()).toBe(1);
    expect(await marks()).toEqual([]);
    let row = await db().selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'pending', attempts: 1, last_error: 'Error: attempt 1 failed' });
    expect(new Date(row.run_at).toISOString()).toBe('2030-01-01T00:00:10.000Z');
    // Not before its retry time; then 20 s later the third and last attempt.
    expect(await worker(at('2030-01-01T00:00:09Z')).runDue()).toBe(0);
    expect(await worker(at('2030-01-01T00:00:10Z')).runDue()).toBe(1);
    row = await db().selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(new Date(row.run_at).toISOString()).toBe('2030-01-01T00:00:30.000Z');
    expect(await worker(at('2030-01-01T00:00:30Z')).runDue()).toBe(1);
    row = await db().selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'failed', attempts: 3, last_error: 'Error: attempt 3 failed' });
    expect((await marks()).map((m) => m.note)).toEqual(['gave up: attempt 3 failed']);
  });

  it('keeps one pending job per queue and key: setting it again moves it, cancelling removes it', async () => {
    await enqueueJob(db(), { queue: 'test.mark', key: 'node-1', payload: { note: 'first' }, runAt: at('2030-01-01T00:00:00Z') });
    await enqueueJob(db(), { queue: 'test.mark', key: 'node-1', payload: { note: 'second' }, runAt: at('2030-01-02T00:00:00Z') });
    await enqueueJob(db(), { queue: 'test.mark', key: 'node-2', payload: { note: 'other' }, runAt: at('2030-01-01T00:00:00Z') });
    const pending = await pendingJobs(db(), 'test.mark');
    expect(pending.map((j) => [j.key, j.payload.note])).toEqual([
      ['node-2', 'other'],
      ['node-1', 'second'],
    ]);
    expect(await cancelJobs(db(), 'test.mark', 'node-2')).toBe(1);
    expect(await worker(at('2030-01-03T00:00:00Z')).runDue()).toBe(1);
    expect((await marks()).map((m) => m.note)).toEqual(['second']);
    // Done, the key is free again.
    await enqueueJob(db(), { queue: 'test.mark', key: 'node-1', payload: { note: 'third' } });
    expect((await pendingJobs(db(), 'test.mark')).length).toBe(1);
  });

  it('lets a handler set its own key again: the next run is a new pending job', async () => {
    await enqueueJob(db(), { queue: 'test.again', key: 'task-1', payload: { n: 1 }, runAt: at('2030-01-01T00:00:00Z') });
    expect(await worker(at('2030-01-01T00:00:00Z')).runDue()).toBe(1);
    const pending = await pendingJobs(db(), 'test.again');
    expect(pending.map((j) => [j.key, j.payload.n, new Date(j.run_at).toISOString()])).toEqual([['task-1', 2, '2030-01-01T00:01:00.000Z']]);
    expect(await worker(at('2030-01-01T00:01:00Z')).runDue()).toBe(1);
    expect((await marks()).map((m) => m.note)).toEqual(['run 1', 'run 2']);
    expect(await pendingJobs(db(), 'test.again')).toEqual([]);
    expect(await db().selectFrom('jobs').select(['state', 'attempts']).execute()).toEqual([
      { state: 'done', attempts: 1 },
      { state: 'done', attempts: 1 },
    ]);
  });

  it('marks a job of a queue nobody handles as failed instead of looping on it', async () => {
    await enqueueJob(db(), { queue: 'test.nobody' });
    expect(await worker(new Date()).runDue()).toBe(1);
    expect(await db().selectFrom('jobs').select(['state', 'last_error']).executeTakeFirst()).toEqual({ state: 'failed', last_error: 'no handler for queue test.nobody' });
  });

  it('runs each job exactly once with two workers side by side', async () => {
    const ids = await Promise.all(Array.from({ length: 120 }, (_, i) => enqueueJob(db(), { queue: 'test.mark', payload: { note: `n${String(i).padStart(3, '0')}` }, runAt: at('2030-01-01T00:00:00Z') })));
    const now = at('2030-01-01T00:00:01Z');
    const one = new JobWorker(t.app, { pollMs: 0, batch: 1000, now: () => now });
    const two = new JobWorker(t.app, { pollMs: 0, batch: 1000, now: () => now });
    const [a, b] = await Promise.all([one.runDue(), two.runDue()]);
    expect(a + b).toBe(120);
    const done = await marks();
    expect(done.length).toBe(120);
    expect(new Set(done.map((m) => m.job_id))).toEqual(new Set(ids));
    const states = await db().selectFrom('jobs').select(['state', 'attempts']).execute();
    expect(states.every((s) => s.state === 'done' && s.attempts === 1)).toBe(true);
  });

  it('polls once started, and runs what fell due while it was stopped at once', async () => {
    await enqueueJob(db(), { queue: 'test.mark', payload: { note: 'overdue' }, runAt: new Date(Date.now() - 3_600_000) });
    const polling = new JobWorker(t.app, { pollMs: 20 });
    polling.start();
    await expect.poll(async () => (await marks()).map((m) => m.note), { timeout: 5000 }).toEqual(['overdue']);
    await enqueueJob(db(), { queue: 'test.mark', payload: { note: 'fresh' } });
    await expect.poll(async () => (await marks()).length, { timeout: 5000 }).toBe(2);
    await polling.stop();
  });

  // A server process killed with SIGKILL in the middle of a job: on PostgreSQL a second process
  // shares the database meanwhile; on the embedded database the next start opens the data folder.
  it(`loses nothing and repeats nothing when a worker is killed mid-job (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, async () => {
    const dataDir = onPostgres ? null : await mkdtemp(path.join(tmpdir(), 'tessera-jobs-crash-'));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../../test/job-crash-child.ts')], {
      env: { ...process.env, ...(dataDir ? { CHILD_PGLITE_DIR: dataDir } : { CHILD_DATABASE_URL: t.app.config.databaseUrl }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (onPostgres) await enqueueJob(db(), { queue: 'test.crash' });
    const id = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const claimed = /claimed ([0-9a-f-]{36})/.exec(chunk.toString());
        if (claimed) resolve(claimed[1]!);
      });
      child.on('exit', (code) => reject(new Error(`the child ended first (${code})`)));
    });
    // Claimed and half done by the child: another worker skips it rather than running it twice.
    if (onPostgres) expect(await worker(new Date()).runDue()).toBe(0);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const after = dataDir ? await openDatabase({ pgliteDataDir: dataDir }) : null;
    try {
      const target = after?.db ?? db();
      const host = { ...t.app, db: target } as unknown as ContextHost;
      // PostgreSQL sees the connection go and rolls its transaction back; the job is due again.
      await expect.poll(async () => new JobWorker(host, { pollMs: 0 }).runDue(), { timeout: 10_000, interval: 100 }).toBe(1);
      expect((await sql<{ job_id: string; note: string }>`select job_id, note from job_test_marks`.execute(target)).rows).toEqual([{ job_id: id, note: 'parent' }]);
      expect(await target.selectFrom('jobs').select(['state', 'attempts']).where('id', '=', id).executeTakeFirst()).toEqual({ state: 'done', attempts: 1 });
    } finally {
      await after?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    }
  });
});
