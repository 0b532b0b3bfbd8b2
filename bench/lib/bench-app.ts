/**
 * Starts the real Tessera server for a benchmark: a fresh embedded database, or a throwaway database
 * on `databaseUrl` (dropped again on SIGTERM when `dropOnStop`), optionally with the public bare
 * route `GET /api/bench/bare` answering `bare` — the baseline API figures are compared with in the
 * same run. `ready(...extra)` listens and prints `READY <url> <extra…>` for the parent process.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ARGON2_PRODUCTION } from '../../server/src/config.ts';
import { publicRoute } from '../../server/src/platform/route-access.ts';
import { prepareServer } from '../../server/src/server.ts';
import { createThrowawayDatabase, dropThrowawayDatabase } from './throwaway-database.ts';

export interface BenchAppOptions {
  adminPassword: string;
  /** A PostgreSQL server to create a throwaway database on; the embedded database when unset. */
  createDatabaseOn?: string;
  /** An existing database to use as it is (the bench seeds it itself). */
  databaseUrl?: string;
  /** Body of the bare baseline route; no such route when unset. */
  bare?: unknown;
  /** argon2 cost: production by default (sign-in benchmarks measure it). */
  argon2?: { memoryCost: number; timeCost: number };
}

export async function startBenchApp(options: BenchAppOptions) {
  const created = options.createDatabaseOn ? await createThrowawayDatabase(options.createDatabaseOn) : undefined;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-bench-'));
  const { bare } = options;
  const server = await prepareServer(
    {
      port: 0,
      host: '127.0.0.1',
      databaseUrl: created ?? options.databaseUrl,
      dataDir,
      jwtSecret: new TextEncoder().encode(randomBytes(32).toString('hex')),
      adminPassword: options.adminPassword,
      logLevel: 'silent',
      bodyLimit: 1024 * 1024,
      loginRateLimit: 1_000_000,
      captchaMaxCounter: 2000,
      webDist: undefined,
      pgliteDataDir: path.join(dataDir, 'db'),
      argon2: options.argon2 ?? ARGON2_PRODUCTION,
      trustProxy: false,
      basePath: '',
    },
    {
      logger: false,
      extend:
        bare === undefined
          ? undefined
          : (app) => {
              app.get('/api/bench/bare', { config: publicRoute(), handler: async () => bare });
            },
    },
  );
  const ready = async (...extra: string[]) => {
    const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
    console.log(['READY', url, ...extra].join(' '));
    process.once('SIGTERM', () =>
      void server
        .stop()
        .then(() => (created && options.createDatabaseOn ? dropThrowawayDatabase(options.createDatabaseOn, created) : undefined))
        .finally(() => process.exit(0)),
    );
  };
  return { server, db: server.database.db, ready };
}
