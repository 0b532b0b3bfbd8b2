import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from './app.ts';
import type { AppConfig } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { seed, type SeedResult } from './db/seed.ts';
import { JobWorker } from './platform/jobs.ts';
import { LiveSignals } from './platform/live-signals.ts';

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  seedResult: SeedResult;
  /** Runs due jobs; polling only when `config.jobPollMs` > 0 (tests call `jobs.runDue()`). */
  jobs: JobWorker;
  stop(): Promise<void>;
}

/** Opens the database, migrates, seeds and builds the app (without listening). */
export async function prepareServer(
  config: AppConfig,
  options: { logger?: boolean; extend?: BuildAppOptions['extend']; pgliteSnapshot?: Blob } = {},
): Promise<RunningServer> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDataDir: config.pgliteDataDir, pgliteSnapshot: options.pgliteSnapshot });
  await migrateToLatest(database.db);
  // Listening starts before the first request (on PGlite it shares the one connection).
  const live = new LiveSignals();
  await live.start(database);
  const app = await buildApp({
    live,
    config,
    db: database.db,
    dbKind: database.kind,
    extend: options.extend,
    ...(options.logger === false ? { logger: false } : {}),
  });
  // Modules register their permission codes while the app is built; the seed stores them.
  await app.ready();
  const seedResult = await seed(database.db, { adminPassword: config.adminPassword, hashCost: config.argon2 });
  const jobs = new JobWorker(app, { pollMs: config.jobPollMs ?? 0 });
  if (config.jobPollMs) jobs.start();
  let stopped: Promise<void> | null = null;
  return {
    app,
    database,
    seedResult,
    jobs,
    // The job in hand finishes, then the server (in-flight requests finish), then the database (pending writes land).
    stop: () => (stopped ??= jobs.stop().then(() => app.close()).then(() => live.close()).then(() => database.close())),
  };
}
