/**
 * A server process's job worker, for the crash test (platform/jobs.test.ts): claims the one due job
 * of `test.crash`, does half its work, says so on stdout and waits to be killed with SIGKILL. On
 * PostgreSQL it shares the test's database (`CHILD_DATABASE_URL`); on the embedded database it
 * prepares its own data folder (`CHILD_PGLITE_DIR`: migrated, one job enqueued), which the test
 * opens after the kill, as the next server start would.
 */
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import type { ContextHost } from '../src/platform/context.ts';
import { enqueueJob, JobWorker, registerJobHandler } from '../src/platform/jobs.ts';

const pgliteDir = process.env.CHILD_PGLITE_DIR;
const database = await openDatabase({ databaseUrl: pgliteDir ? undefined : process.env.CHILD_DATABASE_URL, pgliteDataDir: pgliteDir ?? '' });
if (pgliteDir) {
  await migrateToLatest(database.db);
  await sql`create table job_test_marks (job_id uuid primary key, note text not null)`.execute(database.db);
  await enqueueJob(database.db, { queue: 'test.crash' });
}
registerJobHandler('test.crash', async (ctx, job) => {
  await sql`insert into job_test_marks (job_id, note) values (${job.id}, 'child')`.execute(ctx.db);
  process.stdout.write(`claimed ${job.id}\n`);
  await new Promise(() => undefined);
});
const log = { error: () => undefined, warn: () => undefined, info: () => undefined };
const host = { db: database.db, log, config: {}, authCache: {} } as unknown as ContextHost;
await new JobWorker(host, { pollMs: 0 }).runOne();
