/**
 * The real server on the database a workflow bench prepared (WF_DATABASE_URL), with the bare route
 * `GET /api/bench/bare` (the HTTP floor), so the bench can seed the engine's tables and run the same
 * statements directly. Prints `READY <url>`.
 */
import { startBenchApp } from '../lib/bench-app.ts';
import { WF_BENCH_PASSWORD } from '../lib/constants.ts';

const app = await startBenchApp({
  adminPassword: WF_BENCH_PASSWORD,
  databaseUrl: process.env.WF_DATABASE_URL,
  bare: { items: [], totalCount: 0 },
  argon2: { memoryCost: 1024, timeCost: 1 },
});
await app.ready();
