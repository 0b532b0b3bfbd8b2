/**
 * Issue 13: the workflow engine's long crash run — the CI test's script (server/test/workflow-crash-run.ts)
 * with 10,000 actions and SIGKILLs of the server process, on the embedded database and (with
 * DATABASE_URL) on PostgreSQL; reports actions, kills, retries, time and the invariants' result.
 *
 * Run: `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/workflow/workflow-crash.bench.ts`
 * (`CRASH_ACTIONS`, `CRASH_KILLS`, `CRASH_SEED`, `CRASH_DATABASES=pglite,postgres` change the run).
 */
import os from 'node:os';
import { runWorkflowCrash, type CrashRunResult } from '../../server/test/workflow-crash-run.ts';

const ACTIONS = Number(process.env.CRASH_ACTIONS ?? 10_000);
const KILLS = Number(process.env.CRASH_KILLS ?? 100);
const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const databases = (process.env.CRASH_DATABASES ?? (process.env.DATABASE_URL ? 'postgres,pglite' : 'pglite')).split(',');

console.log(`workflow crash run: ${ACTIONS} actions, ${KILLS} kills, seed ${seed}; load average before ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const results: CrashRunResult[] = [];
for (const which of databases) {
  const postgresUrl = which === 'postgres' ? process.env.DATABASE_URL : undefined;
  if (which === 'postgres' && !postgresUrl) continue;
  const result = await runWorkflowCrash({ seed, actions: ACTIONS, kills: KILLS, postgresUrl, log: (line) => console.log(`  ${which}: ${line}`) });
  console.log(JSON.stringify(result));
  results.push(result);
}
console.log(`load average after ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log('\n| database | actions | applied | refused | kills | retries (same id) | double sends | timer runs | mean / max restart ms | seconds | invariants |\n|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.database} | ${r.actions} | ${r.applied} | ${r.refused} | ${r.kills} | ${r.retries} | ${r.duplicates} | ${r.timerRuns} | ${r.meanStartMs} / ${r.maxStartMs} | ${r.seconds} | ${r.violations.length === 0 ? 'all hold' : `${r.violations.length} violated`} |`);
}
for (const r of results) for (const v of r.violations.slice(0, 20)) console.log(`${r.database}: ${v}`);
if (results.some((r) => r.violations.length)) process.exitCode = 1;
