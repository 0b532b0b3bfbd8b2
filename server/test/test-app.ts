import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { createThrowawayDatabase } from './throwaway-database.ts';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { BuildAppOptions } from '../src/app.ts';
import type { AppConfig } from '../src/config.ts';
import { prepareServer, type RunningServer } from '../src/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated PGlite data dir (`dumpDataDir`). */
    pgliteSnapshot: string;
    /** A migrated database on the DATABASE_URL server to create test databases from. */
    postgresTemplate: string;
  }
}

export const TEST_ADMIN_PASSWORD = 'Admin#12345';
/** Argon2id at a low cost keeps suites fast; production cost is ARGON2_PRODUCTION. */
const TEST_HASH_COST = { memoryCost: 1024, timeCost: 1 };

export interface TestApp extends RunningServer {
  /** Signs in and returns the bearer token. */
  login(userName?: string, password?: string): Promise<string>;
  /** `app.inject` with a bearer token and JSON body. */
  call(token: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** What the global setup provided (nothing when run outside Vitest, e.g. by a benchmark). */
function provided<K extends 'pgliteSnapshot' | 'postgresTemplate'>(key: K): string | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

let snapshot: Promise<Blob> | undefined;
/** The migrated embedded database every file starts from, read once per worker. */
function pgliteSnapshot(): Promise<Blob> | undefined {
  const file = provided('pgliteSnapshot');
  if (!file) return undefined;
  return (snapshot ??= readFile(file).then((bytes) => new Blob([bytes])));
}

/**
 * A fresh database per test file: embedded PGlite in memory, or — when DATABASE_URL is set — a
 * throwaway database on that PostgreSQL server, dropped afterwards.
 */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  extend?: BuildAppOptions['extend'],
): Promise<TestApp> {
  const baseUrl = process.env.DATABASE_URL;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (baseUrl) {
    const database = await createThrowawayDatabase(baseUrl, undefined, provided('postgresTemplate'));
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
  const config: AppConfig = {
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    dataDir: '/tmp',
    jwtSecret: new TextEncoder().encode(randomBytes(32).toString('hex')),
    adminPassword: TEST_ADMIN_PASSWORD,
    logLevel: 'silent',
    bodyLimit: 1024 * 1024,
    loginRateLimit: 1000,
    captchaMaxCounter: 2000,
    webDist: undefined,
    pgliteDataDir: 'memory://',
    argon2: TEST_HASH_COST,
    trustProxy: false,
    basePath: '',
    ...overrides,
  };
  const server = await prepareServer(config, { logger: false, extend, pgliteSnapshot: baseUrl ? undefined : await pgliteSnapshot() });
  const call: TestApp['call'] = (token, options) =>
    server.app.inject({
      ...options,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(options.headers ?? {}) },
    });
  return {
    ...server,
    call,
    async login(userName = 'admin', password = TEST_ADMIN_PASSWORD) {
      const res = await server.app.inject({ method: 'POST', url: '/api/Auth/Login', payload: { username: userName, password } });
      const body = res.json();
      if (body.code !== 0) throw new Error(`login failed for ${userName}: ${res.body}`);
      return body.data.accessToken as string;
    },
    async close() {
      await server.stop();
      await dropDatabase();
    },
  };
}
