/**
 * The real server for bench/import: a throwaway PostgreSQL database when IMPORT_DATABASE_URL is
 * set (created by the parent), the embedded database otherwise. Prints `READY <url>`.
 */
import { startBenchApp } from '../lib/bench-app.ts';
import { BD_BENCH_PASSWORD } from '../lib/constants.ts';

const app = await startBenchApp({
  adminPassword: BD_BENCH_PASSWORD,
  databaseUrl: process.env.IMPORT_DATABASE_URL || undefined,
  argon2: { memoryCost: 1024, timeCost: 1 },
});
await app.ready();
