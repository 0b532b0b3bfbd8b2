/**
 * The real server on the database bench/business-data prepared (BD_DATABASE_URL), so the bench can
 * seed the business table and run the same SQL directly. Prints `READY <url>`.
 */
import { startBenchApp } from '../lib/bench-app.ts';
import { BD_BENCH_PASSWORD } from '../lib/constants.ts';

const app = await startBenchApp({
  adminPassword: BD_BENCH_PASSWORD,
  databaseUrl: process.env.BD_DATABASE_URL,
  argon2: { memoryCost: 1024, timeCost: 1 },
});
await app.ready();
