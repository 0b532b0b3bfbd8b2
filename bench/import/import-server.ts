/**
 * The real server for bench/import: a throwaway PostgreSQL database when IMPORT_DATABASE_URL is
 * set (created by the parent), the embedded database otherwise. Prints `READY <url>`; on exit it
 * prints the event loop's longest delays and garbage-collection pauses to stderr.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { startBenchApp } from '../lib/bench-app.ts';
import { BD_BENCH_PASSWORD } from '../lib/constants.ts';

const app = await startBenchApp({
  adminPassword: BD_BENCH_PASSWORD,
  databaseUrl: process.env.IMPORT_DATABASE_URL || undefined,
  argon2: { memoryCost: 1024, timeCost: 1 },
});
const gcPauses: number[] = [];
const gcKinds = new Map<number, { n: number; ms: number; max: number }>();
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcPauses.push(entry.duration);
    const kind = ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind ?? 0;
    const k = gcKinds.get(kind) ?? { n: 0, ms: 0, max: 0 };
    k.n++;
    k.ms += entry.duration;
    k.max = Math.max(k.max, entry.duration);
    gcKinds.set(kind, k);
  }
}).observe({ entryTypes: ['gc'] });
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
process.on('exit', () => {
  gcPauses.sort((a, b) => b - a);
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.error(`event loop delay: p50 ${ms(loop.percentile(50))} ms, p99 ${ms(loop.percentile(99))} ms, max ${ms(loop.max)} ms; gc by kind (1 minor, 2 major, 4 incremental, 8 weak callbacks): ${JSON.stringify(Object.fromEntries([...gcKinds].map(([k, v]) => [k, { n: v.n, ms: Math.round(v.ms), max: Math.round(v.max) }])))}; gc pauses: ${gcPauses.length}, total ${gcPauses.reduce((s, v) => s + v, 0).toFixed(0)} ms, longest ${gcPauses.slice(0, 8).map((p) => p.toFixed(1)).join(', ')} ms`);
});
await app.ready();
