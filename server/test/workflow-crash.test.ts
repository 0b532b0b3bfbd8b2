import { describe, expect, it } from 'vitest';
import { runWorkflowCrash } from './workflow-crash-run.ts';

// The workflow engine under SIGKILL (issue 13): random approval actions by real clients against a
// real server process, killed at random moments and started again on the same data (PGlite: the
// same folder; PostgreSQL with DATABASE_URL: the same database); unanswered requests are retried
// with the same clientRequestId. Afterwards the engine's invariants must hold in the database
// (test/workflow-crash-invariants.ts). WORKFLOW_CRASH_SEED repeats a run; the seed is printed.
// The long run (10,000 actions) is bench/workflow/workflow-crash.bench.ts.

const seed = Number(process.env.WORKFLOW_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const onPostgres = !!process.env.DATABASE_URL;

describe('workflow engine: crash run', () => {
  it(`keeps its invariants through 200 actions and 10 kills (${onPostgres ? 'PostgreSQL' : 'PGlite'}, seed ${seed})`, { timeout: 300_000 }, async () => {
    console.log(`workflow crash run: WORKFLOW_CRASH_SEED=${seed}`);
    const result = await runWorkflowCrash({ seed, actions: 200, kills: 10, postgresUrl: process.env.DATABASE_URL });
    console.log(`workflow crash run (${result.database}, seed ${seed}): ${JSON.stringify({ ...result, violations: result.violations.length })}`);
    expect(result.violations, `seed ${seed}`).toEqual([]);
    expect(result.actions).toBeGreaterThanOrEqual(200);
    expect(result.kills).toBeGreaterThanOrEqual(10);
    // The script reached every kind of action, and both outcomes.
    for (const kind of ['start', 'approve', 'reject', 'return', 'transfer', 'withdraw', 'terminate']) expect(result.byKind[kind], kind).toBeGreaterThan(0);
    expect(result.applied).toBeGreaterThan(100);
    expect(result.refused).toBeGreaterThan(0);
  });
});
