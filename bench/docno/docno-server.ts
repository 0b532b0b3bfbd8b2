/**
 * The real server on the database bench/docno/docno.bench.ts prepared (DOCNO_DATABASE_URL), so the
 * bench can run its bare SQL loop against the same counter table. Prints `READY <url>`.
 */
import { startBenchApp } from '../lib/bench-app.ts';
import { DOCNO_BENCH_PASSWORD } from '../lib/constants.ts';

const app = await startBenchApp({
  adminPassword: DOCNO_BENCH_PASSWORD,
  databaseUrl: process.env.DOCNO_DATABASE_URL,
  argon2: { memoryCost: 1024, timeCost: 1 },
});
await app.ready();
