/**
 * Issue 13 on PostgreSQL: the to-do list of ONE user who has 1,000,000 historic tasks (completed:
 * approved, rejected, returned, transferred) and 50,000 open ones — `GET /api/app/workflow-task/todo`
 * (page of 20, newest first, with the exact totalCount) by 1 client, p95 target ≤ 50 ms; `/done` for
 * the same user. Next to them in the same run, before and after: the bare route (HTTP floor) and the
 * list's own two statements sent directly through `pg` (page + count). Prints EXPLAIN ANALYZE of
 * both statements for both lists.
 *
 * The rows are seeded set-based (INSERT … SELECT generate_series): 250,000 finished instances with
 * four of the user's tasks each, 50,000 running instances with one pending task each, one node
 * visit per instance.
 *
 * Run: `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/workflow/workflow-todo.bench.ts`
 * (`BENCH_HISTORIC`, `BENCH_OPEN`, `BENCH_REQUESTS` shrink it).
 */
import os from 'node:os';
import pg from 'pg';
import { startServer } from '../lib/run.ts';
import { createThrowawayDatabase, dropThrowawayDatabase } from '../lib/throwaway-database.ts';
import { percentile, seedUserTasks, workflowBenchSetup } from './wf-bench-setup.ts';

const HISTORIC = Number(process.env.BENCH_HISTORIC ?? 1_000_000);
const OPEN = Number(process.env.BENCH_OPEN ?? 50_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const PAGE = 20;
const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) {
  console.log('bench/workflow/workflow-todo measures PostgreSQL: set DATABASE_URL=postgres://user@host:5432/db');
  process.exit(0);
}

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
console.log(`load average before: ${load()}`);
const dbUrl = await createThrowawayDatabase(baseUrl, 'wftodo');
const server = await startServer('bench/workflow/wf-server.ts', { WF_DATABASE_URL: dbUrl });
const pool = new pg.Pool({ connectionString: dbUrl, max: 4 });

/** `n` sequential calls after 20 warm-ups: milliseconds p50 / p95 / p99 / max. */
async function oneClient(name: string, op: () => Promise<unknown>, n = REQUESTS) {
  for (let i = 0; i < 20; i++) await op();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await op();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const f = (p: number) => Math.round(percentile(times, p) * 10) / 10;
  return { name, n, p50: f(0.5), p95: f(0.95), p99: f(0.99), max: Math.round(times.at(-1)! * 10) / 10 };
}

try {
  const s = await workflowBenchSetup(server.url, pool);
  console.log(`seeding ${HISTORIC} historic and ${OPEN} open tasks of one user…`);
  const t0 = performance.now();
  await seedUserTasks(pool, s, HISTORIC, OPEN);
  console.log(`seeded in ${Math.round((performance.now() - t0) / 1000)} s`);

  const get = (path: string) => async () => {
    const res = await fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${s.tokens.a}` } });
    if (!res.ok) throw new Error(`${path} → ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ totalCount: number; items: unknown[] }>;
  };
  const todo = get(`/app/workflow-task/todo?MaxResultCount=${PAGE}`);
  const done = get(`/app/workflow-task/done?MaxResultCount=${PAGE}`);
  const first = await todo();
  const firstDone = await done();
  console.log(`todo: totalCount ${first.totalCount}, page ${first.items.length}; done: totalCount ${firstDone.totalCount}, page ${firstDone.items.length}`);

  // The list's statements as the repository sends them (workflow-engine.repository.ts: listTasks / countTasks).
  const statements = (state: 'todo' | 'done') => {
    const where = state === 'todo' ? `t.status = 'pending'` : `t.status in ('approved', 'rejected', 'returned', 'transferred') and t.completed_time is not null`;
    const order = state === 'todo' ? 't.creation_time' : 't.completed_time';
    const from = `from workflow_tasks as t where t.assignee_id = $1 and t.kind = 'approve' and ${where}`;
    return { page: `select t.* ${from} order by ${order} desc, t.id desc offset 0 limit ${PAGE}`, count: `select count(*) as n ${from}` };
  };
  for (const state of ['todo', 'done'] as const) {
    for (const [which, text] of Object.entries(statements(state))) {
      const plan = await pool.query(`explain (analyze, buffers, costs off) ${text}`, [s.users.a]);
      console.log(`\nEXPLAIN ANALYZE ${state} ${which}:\n${plan.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
    }
  }
  const direct = (state: 'todo' | 'done') => async () => {
    const q = statements(state);
    await Promise.all([pool.query(q.page, [s.users.a]), pool.query(q.count, [s.users.a])]);
  };
  const bare = async () => (await fetch(`${server.url}/api/bench/bare`)).json();

  const rows = [
    await oneClient('bare route (before)', bare),
    await oneClient('direct SQL: to-do page + count (before)', direct('todo')),
    await oneClient(`GET /todo (page of ${PAGE} of ${first.totalCount})`, todo),
    await oneClient('direct SQL: done page + count', direct('done')),
    await oneClient(`GET /done (page of ${PAGE} of ${firstDone.totalCount})`, done),
    await oneClient('direct SQL: to-do page + count (after)', direct('todo')),
    await oneClient('bare route (after)', bare),
  ];
  console.log(`\nload average after: ${load()}`);
  console.log('\n| case (1 client) | n | p50 ms | p95 ms | p99 ms | max ms |\n|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.n} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.max} |`);
  const api = rows[2]!;
  console.log(`\nto-do p95 ${api.p95} ms: target ≤ 50 ms ${api.p95 <= 50 ? 'met' : 'NOT met'}`);
} finally {
  await pool.end();
  await server.stop();
  await dropThrowawayDatabase(baseUrl, dbUrl);
}
