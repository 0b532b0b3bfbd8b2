/**
 * Issue 13 on PostgreSQL: the engine under 50 concurrent clients against the real server process —
 * `POST /api/app/workflow-instance` (start a one-approval definition on a fresh record) and
 * `POST /api/app/workflow-task/{id}/approve` (the instance ends approved) — next to the limit: a
 * bare insert of the same rows (instance, two node visits, the start action, two outbox events, the
 * task and the record's FlowStatus; for approve the task, action, visit, instance, two events and
 * FlowStatus) in one transaction each, sent straight through `pg` by 50 clients. The bare case runs
 * before and after the API case; the ratio is to their mean.
 *
 * Run: `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/workflow/workflow-load.bench.ts`
 * (`BENCH_SECONDS`, `BENCH_CLIENTS`).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { startServer } from '../lib/run.ts';
import { createThrowawayDatabase, dropThrowawayDatabase } from '../lib/throwaway-database.ts';
import { percentile, workflowBenchSetup } from './wf-bench-setup.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) {
  console.log('bench/workflow/workflow-load measures PostgreSQL: set DATABASE_URL=postgres://user@host:5432/db');
  process.exit(0);
}

interface Result {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  done: number;
}

/** CLIENTS concurrent loops of `op` for SECONDS (or until `op` answers false: no work left). */
async function loops(name: string, op: () => Promise<boolean>): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError = '';
  const end = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          if (!(await op())) break;
          latencies.push(performance.now() - t0);
        } catch (err) {
          errors++;
          firstError ||= String(err).slice(0, 300);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  if (firstError) console.log(`${name}: ${errors} errors, first: ${firstError}`);
  latencies.sort((a, b) => a - b);
  return { name, requestsPerSecond: Math.round(latencies.length / elapsed), p50: Math.round(percentile(latencies, 0.5)), p99: Math.round(percentile(latencies, 0.99)), errors, done: latencies.length };
}

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
console.log(`load average before: ${load()}`);
const dbUrl = await createThrowawayDatabase(baseUrl, 'wfload');
const server = await startServer('bench/workflow/wf-server.ts', { WF_DATABASE_URL: dbUrl });
const pool = new pg.Pool({ connectionString: dbUrl, max: CLIENTS });

try {
  const s = await workflowBenchSetup(server.url, pool);
  await pool.query(`
    insert into ${s.masterTable} ("Id", "ConcurrencyStamp", "CreationTime", "CreatorId", "Title", "Amount")
    select gen_random_uuid(), 's', now() - g * interval '1 second', $1, 'Expense ' || g, g % 5000
    from generate_series(1, ${Math.trunc(RECORDS)}) as g`, [s.users.ini]);
  await pool.query(`vacuum analyze ${s.masterTable}`);
  const records = (await pool.query<{ Id: string }>(`select "Id" from ${s.masterTable} order by "CreationTime" desc`)).rows.map((r) => r.Id);
  let nextRecord = 0;
  const takeRecord = () => records[nextRecord++];

  const post = async (token: string, path: string, body: object) => {
    const res = await fetch(`${server.url}/api${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} → ${res.status} ${text}`);
  };
  const apiStart = async () => {
    const recordId = takeRecord();
    if (!recordId) return false;
    await post(s.tokens.ini, '/app/workflow-instance', { pageId: s.pageId, recordId, definitionId: s.definitionId, clientRequestId: randomUUID() });
    return true;
  };

  /** The rows a start writes, bare: one transaction; answers the task id. */
  const bareStarted: string[][] = [[], []];
  const bareStart = (into: string[]) => async () => {
    const recordId = takeRecord();
    if (!recordId) return false;
    const c = await pool.connect();
    try {
      const [instance, startState, nodeState, task] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await c.query('begin');
      await c.query(`insert into workflow_instances (id, definition_id, version, page_id, record_id, record_title, initiator_id, status, chosen_assignees, started_time) values ($1, $2, 1, $3, $4, 'Expense', $5, 'running', '{}', now())`, [instance, s.definitionId, s.pageId, recordId, s.users.ini]);
      await c.query(`insert into workflow_node_states (id, instance_id, node_id, node_type, status, entered_time, completed_time) values ($1, $2, 'start', 'start', 'completed', now(), now()), ($3, $2, 'n1', 'approval', 'active', now(), null)`, [startState, instance, nodeState]);
      await c.query(`insert into workflow_actions (id, instance_id, node_id, actor_id, action, client_request_id, creation_time) values ($1, $2, 'start', $3, 'start', $4, now())`, [randomUUID(), instance, s.users.ini, randomUUID()]);
      await c.query(`insert into workflow_outbox (id, instance_id, event, payload) values ($1, $2, 'instance.started', '{}'), ($3, $2, 'node.entered', '{}')`, [randomUUID(), instance, randomUUID()]);
      await c.query(`insert into workflow_tasks (id, instance_id, node_state_id, node_id, kind, assignee_id, status, seq, creation_time) values ($1, $2, $3, 'n1', 'approve', $4, 'pending', 0, now())`, [task, instance, nodeState, s.users.a]);
      await c.query(`update ${s.masterTable} set "FlowStatus" = 1 where "Id" = $1`, [recordId]);
      await c.query('commit');
      into.push(task);
    } catch (err) {
      await c.query('rollback');
      throw err;
    } finally {
      c.release();
    }
    return true;
  };
  /** The rows an approval that ends the instance writes, bare. */
  const bareApprove = (tasks: string[]) => async () => {
    const task = tasks.pop();
    if (!task) return false;
    const c = await pool.connect();
    try {
      await c.query('begin');
      const { rows } = await c.query<{ instance_id: string; node_state_id: string; record_id: string }>(
        `update workflow_tasks t set status = 'approved', completed_time = now() from workflow_instances i where t.id = $1 and i.id = t.instance_id returning t.instance_id, t.node_state_id, i.record_id`, [task]);
      const row = rows[0]!;
      await c.query(`insert into workflow_actions (id, instance_id, task_id, node_id, actor_id, action, client_request_id, creation_time) values ($1, $2, $3, 'n1', $4, 'approve', $5, now())`, [randomUUID(), row.instance_id, task, s.users.a, randomUUID()]);
      await c.query(`update workflow_node_states set status = 'completed', completed_time = now() where id = $1`, [row.node_state_id]);
      await c.query(`update workflow_instances set status = 'approved', ended_time = now() where id = $1`, [row.instance_id]);
      await c.query(`insert into workflow_outbox (id, instance_id, event, payload) values ($1, $2, 'task.completed', '{}'), ($3, $2, 'instance.ended', '{}')`, [randomUUID(), row.instance_id, randomUUID()]);
      await c.query(`update ${s.masterTable} set "FlowStatus" = 2 where "Id" = $1`, [row.record_id]);
      await c.query('commit');
    } catch (err) {
      await c.query('rollback');
      throw err;
    } finally {
      c.release();
    }
    return true;
  };

  const startBefore = await loops('bare insert of a start\'s rows (before)', bareStart(bareStarted[0]!));
  const startApi = await loops('POST /workflow-instance (start)', apiStart);
  const startAfter = await loops('bare insert of a start\'s rows (after)', bareStart(bareStarted[1]!));
  const apiTasks = (await pool.query<{ id: string }>(`select id from workflow_tasks where status = 'pending' and id <> all($1::uuid[]) order by creation_time`, [[...bareStarted[0]!, ...bareStarted[1]!]])).rows.map((r) => r.id);
  const apiApprove = async () => {
    const task = apiTasks.pop();
    if (!task) return false;
    await post(s.tokens.a, `/app/workflow-task/${task}/approve`, { clientRequestId: randomUUID() });
    return true;
  };
  const approveBefore = await loops('bare writes of an approval (before)', bareApprove(bareStarted[0]!));
  const approveApi = await loops('POST /workflow-task/{id}/approve (ends the instance)', apiApprove);
  const approveAfter = await loops('bare writes of an approval (after)', bareApprove(bareStarted[1]!));
  console.log(`load average after: ${load()}`);

  console.log(`\n| case (${CLIENTS} clients, ${SECONDS} s) | done | req/s | p50 ms | p99 ms | errors | vs bare (mean of before/after) |\n|---|---|---|---|---|---|---|`);
  for (const [rows, api] of [[[startBefore, startApi, startAfter], startApi], [[approveBefore, approveApi, approveAfter], approveApi]] as const) {
    const bare = (rows[0].requestsPerSecond + rows[2].requestsPerSecond) / 2;
    for (const r of rows) console.log(`| ${r.name} | ${r.done} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.errors} | ${r === api ? `${((r.requestsPerSecond / bare) * 100).toFixed(1)}%` : ''} |`);
  }
  const flows = await pool.query(`select "FlowStatus" as f, count(*)::int as n from ${s.masterTable} group by 1 order by 1`);
  console.log(`\nrecords by FlowStatus: ${flows.rows.map((r) => `${r.f}: ${r.n}`).join(', ')}`);
} finally {
  await pool.end();
  await server.stop();
  await dropThrowawayDatabase(baseUrl, dbUrl);
}
