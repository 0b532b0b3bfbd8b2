/**
 * The real Tessera server (fresh embedded database, or a throwaway database on DATABASE_URL) with
 * the public bare route `GET /api/bench/bare`, the baseline every API figure is compared with in the
 * same run. Prints `READY <url>` when listening.
 */
import { startBenchApp } from './bench-app.ts';
import { BENCH_ADMIN_PASSWORD } from './constants.ts';

const app = await startBenchApp({
  adminPassword: BENCH_ADMIN_PASSWORD,
  createDatabaseOn: process.env.DATABASE_URL,
  bare: { userName: 'bare', access: [] as string[] },
});
await app.ready();
