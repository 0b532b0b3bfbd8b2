/**
 * The workflow engine's crash run (issue 13), shared by the CI test (test/workflow-crash.test.ts)
 * and the long benchmark (bench/workflow/workflow-crash.bench.ts).
 *
 * 1. Setup (test/workflow-crash-setup.ts), in this process on the run's database (a PGlite folder,
 *    or a throwaway PostgreSQL database): migrate and seed, an Expense page, users, four published
 *    definitions — or-sign with a reminder and a timeout, countersign, sequential, vote, a condition
 *    on the amount, a parallel split and join — and records.
 * 2. A server process (test/workflow-crash-child.ts) on that database. A script drawn from a seeded
 *    PRNG (print the seed to reproduce) sends real HTTP requests: start, approve, reject, return,
 *    transfer, withdraw, terminate (each with a fresh clientRequestId), some stale ones (a closed
 *    task), some sent twice on purpose, and now and then "run the timers due in N minutes". At
 *    `kills` points chosen up front, the server is killed with SIGKILL a random moment after the
 *    request left (often mid-transaction), then started again on the same data; a request whose
 *    answer did not arrive is sent again with the SAME clientRequestId, as a client retries.
 * 3. The timed definition started on two more records and the reminders due in 30 minutes run (so
 *    tasks reminded once are among those checked), a last kill, the database opened again in this
 *    process (the next start's recovery), and the invariants of test/workflow-crash-invariants.ts
 *    checked against what the client heard.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createThrowawayDatabase } from './throwaway-database.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TWorkflowInstanceDetail } from '@tessera/core/contracts/workflow-runtime';
import { openDatabase } from '../src/db/database.ts';
import { FIXTURE_PASSWORD } from './access-fixtures.ts';
import { APPROVERS, setUpCrashWorld } from './workflow-crash-setup.ts';
import { workflowInvariantViolations, type SentRequest } from './workflow-crash-invariants.ts';

export interface CrashRunOptions {
  seed: number;
  /** Client actions to send (retries and reads not counted). */
  actions: number;
  /** SIGKILLs of the server process during the script (a last one follows it). */
  kills: number;
  /** A PostgreSQL server to make the run's database on; the embedded database (a temporary folder) when unset. */
  postgresUrl?: string;
  /** Records to act on (default: one per 6 actions, at least 12). */
  records?: number;
  log?: (line: string) => void;
}

export interface CrashRunResult {
  seed: number;
  database: 'PGlite' | 'PostgreSQL';
  actions: number;
  /** Of the actions: acknowledged (200) and refused (4xx). */
  applied: number;
  refused: number;
  byKind: Record<string, number>;
  kills: number;
  /** Requests sent again after a kill took their answer, with the same clientRequestId. */
  retries: number;
  /** Acknowledged requests sent a second time on purpose (a double click). */
  duplicates: number;
  timerRuns: number;
  /** Server starts: from "go" (or the spawn, when the spare was not loaded yet) to the READY line. */
  meanStartMs: number;
  maxStartMs: number;
  seconds: number;
  violations: string[];
}

const ADMIN_PASSWORD = 'Crash#Admin2026';
const CHILD = path.join(import.meta.dirname, 'workflow-crash-child.ts');

/** mulberry32: a small seeded PRNG, so a failing run is repeated by its seed. */
export function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
}

/** The run's server process, and a spare one loading the code ahead for the next start. */
class ServerProcess {
  child: ChildProcess | null = null;
  private spare: ChildProcess | null = null;
  url = '';
  starts = 0;
  startMs = 0;
  maxStartMs = 0;
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private spawnSpare(): ChildProcess {
    return spawn(process.execPath, ['--import', 'tsx', CHILD], { env: { ...process.env, ...this.env, CRASH_SPARE: '1' }, stdio: ['pipe', 'pipe', 'inherit'] });
  }

  /** Starts a server on the run's data (the spare, when one is loaded) and loads the next spare. */
  async start(): Promise<void> {
    const t0 = performance.now();
    const child = this.spare ?? this.spawnSpare();
    this.spare = null;
    this.child = child;
    this.url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const onData = (d: Buffer) => {
        out += d;
        const m = /READY (\S+)/.exec(out);
        if (m) {
          child.stdout!.off('data', onData);
          resolve(m[1]!);
        }
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code, signal) => reject(new Error(`the server process ended while starting (${code ?? signal}): ${out}`)));
      child.stdin!.write('go\n');
    });
    this.starts++;
    this.startMs += performance.now() - t0;
    this.maxStartMs = Math.max(this.maxStartMs, performance.now() - t0);
    this.spare = this.spawnSpare();
  }

  /** SIGKILL, and wait until the process is gone. */
  async kill(): Promise<void> {
    await killProcess(this.child);
  }

  /** The server and the spare. */
  async killAll(): Promise<void> {
    await Promise.all([killProcess(this.child), killProcess(this.spare)]);
    this.spare = null;
  }

  get alive() {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }
}

async function killProcess(child: ChildProcess | null) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** No answer arrived: the server died under the request. */
class NoAnswer extends Error {}

export async function runWorkflowCrash(options: CrashRunOptions): Promise<CrashRunResult> {
  const log = options.log ?? (() => undefined);
  const rnd = prng(options.seed);
  const t0 = performance.now();
  const onPostgres = !!options.postgresUrl;
  const database = options.postgresUrl ? await createThrowawayDatabase(options.postgresUrl, 'tessera_test_wfcrash') : null;
  const databaseUrl = database?.url;
  const pgliteDir = database ? undefined : await mkdtemp(path.join(tmpdir(), 'tessera-wf-crash-'));
  const jwtSecret = randomBytes(32).toString('hex');
  const recordCount = options.records ?? Math.max(12, Math.ceil(options.actions / 6));
  const server = new ServerProcess({ CRASH_JWT_SECRET: jwtSecret, CRASH_ADMIN_PASSWORD: ADMIN_PASSWORD, ...(pgliteDir ? { CRASH_PGLITE_DIR: pgliteDir } : { CRASH_DATABASE_URL: databaseUrl }) });
  try {
    const world = await setUpCrashWorld({ databaseUrl, pgliteDir, jwtSecret, adminPassword: ADMIN_PASSWORD, records: recordCount, rnd });
    log(`setup done in ${Math.round(performance.now() - t0)} ms (${recordCount} records, ${world.definitions.length} definitions)`);
    await server.start();

    const tokens: Record<string, string> = {};
    for (const name of ['admin', 'ini', ...APPROVERS]) tokens[name] = await login(server.url, name, name === 'admin' ? ADMIN_PASSWORD : FIXTURE_PASSWORD);
    const nameOf = Object.fromEntries(Object.entries(world.users).map(([k, v]) => [v, k]));

    const sent = new Map<string, SentRequest>();
    const byKind: Record<string, number> = {};
    let actions = 0;
    /** Requests that change something: the actions and the timer runs (the kill points count them). */
    let mutations = 0;
    let kills = 0;
    let retries = 0;
    let duplicates = 0;
    let timerRuns = 0;
    let latencyMs = 50;
    // The kill points, drawn up front among the first `actions` changing requests (all are reached).
    const killAt = new Set<number>();
    while (killAt.size < Math.min(options.kills, options.actions)) killAt.add(1 + rnd.int(options.actions - 1));
    const violations: string[] = [];

    /** Sends a request; with `killAfter`, kills the server that long after it left. 5xx is a violation. */
    const send = async (as: string | null, method: string, url: string, body?: unknown, killAfter?: number): Promise<{ status: number; json: any }> => {
      const started = performance.now();
      const request = fetch(`${server.url}/api${url}`, {
        method,
        headers: { ...(as ? { authorization: `Bearer ${tokens[as]}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(
        async (res) => ({ status: res.status, json: await res.json().catch(() => null) }),
        () => null,
      );
      if (killAfter !== undefined) {
        await Promise.race([request, sleep(killAfter)]);
        await server.kill();
        kills++;
      }
      const answer = await request;
      if (!answer) throw new NoAnswer(`${method} ${url}`);
      if (method !== 'GET') latencyMs = 0.8 * latencyMs + 0.2 * (performance.now() - started);
      if (answer.status >= 500) violations.push(`${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
      return answer;
    };
    const restartIfDead = async () => {
      if (!server.alive) await server.start();
    };
    /** An action: maybe killed; retried with the same body (and clientRequestId) until it is answered. */
    const act = async (what: string, as: string, method: string, url: string, body: { clientRequestId: string } & Record<string, unknown>) => {
      if (++actions % 1000 === 0) log(`${actions} actions, ${kills} kills, ${Math.round((performance.now() - t0) / 1000)} s`);
      byKind[what] = (byKind[what] ?? 0) + 1;
      const killAfter = killAt.has(++mutations) ? rnd.next() * latencyMs : undefined;
      let answer: { status: number; json: any } | null = null;
      for (let attempt = 0; !answer; attempt++) {
        if (attempt > 0) retries++;
        try {
          answer = await send(as, method, url, body, attempt === 0 ? killAfter : undefined);
        } catch (err) {
          if (!(err instanceof NoAnswer) || attempt > 3) throw err;
        }
        await restartIfDead();
      }
      sent.set(`${as}/${body.clientRequestId}`, { actorId: world.users[as]!, clientRequestId: body.clientRequestId, what, status: answer.status });
      if (answer.status === 200 && rnd.next() < 0.08) {
        // A double click: the same request again changes nothing and answers 200.
        duplicates++;
        const again = await send(as, method, url, body);
        if (again.status !== 200) violations.push(`${what} ${body.clientRequestId} sent again answered ${again.status}, first 200`);
      }
      return answer;
    };

    const startable = () => world.records.filter((r) => r.status === null || r.status === 'withdrawn' || r.status === 'rejected' || r.status === 'terminated');
    const running = () => world.records.filter((r) => r.status === 'running');
    const admin = async (url: string) => {
      const res = await send('admin', 'GET', url);
      if (res.status !== 200) throw new Error(`GET ${url} → ${res.status} ${JSON.stringify(res.json)}`);
      return res.json;
    };

    while (actions < options.actions) {
      const r = rnd.next();
      if (r < 0.06) {
        // Timers: the jobs due at now + 10…130 minutes run (reminders, timeouts; a kill may hit one).
        const clockMinutes = 10 + rnd.int(120);
        timerRuns++;
        const killAfter = killAt.has(++mutations) ? rnd.next() * latencyMs : undefined;
        for (let attempt = 0; ; attempt++) {
          if (attempt > 0) retries++;
          try {
            await send(null, 'POST', '/crash-test/run-jobs', { offsetMinutes: clockMinutes }, attempt === 0 ? killAfter : undefined);
            break;
          } catch (err) {
            if (!(err instanceof NoAnswer) || attempt > 3) throw err;
            await restartIfDead();
          }
        }
        await restartIfDead();
        for (const rec of running()) rec.status = 'unknown';
        continue;
      }
      const live = running().concat(world.records.filter((x) => x.status === 'unknown'));
      if ((r < 0.32 || live.length === 0) && startable().length > 0) {
        const rec = rnd.pick(startable());
        const definition = rnd.pick(world.definitions);
        const res = await act('start', 'ini', 'POST', '/app/workflow-instance', { pageId: world.pageId, recordId: rec.id, definitionId: definition, clientRequestId: randomUUID() });
        if (res.status === 200) Object.assign(rec, { instanceId: res.json.id, status: res.json.status });
        continue;
      }
      if (live.length === 0) {
        // Nothing left to act on: a start on a finished record (refused).
        const rec = rnd.pick(world.records);
        await act('start', 'ini', 'POST', '/app/workflow-instance', { pageId: world.pageId, recordId: rec.id, clientRequestId: randomUUID() });
        continue;
      }
      const rec = rnd.pick(live);
      const detail = (await admin(`/app/workflow-instance/${rec.instanceId}`)) as TWorkflowInstanceDetail;
      rec.status = detail.status;
      if (detail.status !== 'running') continue;
      const pending = detail.tasks.filter((t) => t.kind === 'approve' && t.status === 'pending');
      const closed = detail.tasks.filter((t) => t.kind === 'approve' && t.status !== 'pending' && t.status !== 'waiting');
      const k = rnd.next();
      const afterInstance = (res: { status: number; json: any }) => {
        if (res.status === 200) rec.status = res.json.instance?.status ?? res.json.status ?? 'unknown';
      };
      if (k < 0.07) {
        afterInstance(await act('withdraw', 'ini', 'POST', `/app/workflow-instance/${detail.id}/withdraw`, { clientRequestId: randomUUID() }));
      } else if (k < 0.1) {
        afterInstance(await act('terminate', 'admin', 'POST', `/app/workflow-instance/${detail.id}/terminate`, { clientRequestId: randomUUID(), comment: 'crash test' }));
      } else if (k < 0.14 && closed.length) {
        // Stale: the assignee acts on a task that closed (409 / 403), which must write nothing.
        const task = rnd.pick(closed);
        await act('stale approve', nameOf[task.assigneeId]!, 'POST', `/app/workflow-task/${task.id}/approve`, { clientRequestId: randomUUID() });
      } else if (pending.length) {
        const task = rnd.pick(pending);
        const as = nameOf[task.assigneeId]!;
        const base = `/app/workflow-task/${task.id}`;
        const a = rnd.next();
        let res;
        if (a < 0.62) res = await act('approve', as, 'POST', `${base}/approve`, { clientRequestId: randomUUID(), ...(rnd.next() < 0.3 ? { comment: '同意' } : {}) });
        else if (a < 0.72) res = await act('reject', as, 'POST', `${base}/reject`, { clientRequestId: randomUUID(), ...(rnd.next() < 0.6 ? { comment: '不同意' } : {}) });
        else if (a < 0.86) {
          const target = task.returnTargets.length && rnd.next() < 0.7 ? { targetNodeId: rnd.pick(task.returnTargets).nodeId } : rnd.next() < 0.2 ? { targetNodeId: 'nowhere' } : {};
          res = await act('return', as, 'POST', `${base}/return`, { clientRequestId: randomUUID(), ...target });
        } else {
          const to = rnd.pick(APPROVERS.filter((n) => n !== as));
          res = await act('transfer', as, 'POST', `${base}/transfer`, { clientRequestId: randomUUID(), userIds: [world.users[to]!] });
        }
        afterInstance(res);
      }
    }

    // Last, the timed definition starts on two more records and the reminders due in 30 minutes
    // run, so tasks reminded once (of twice) are among those checked.
    for (const rec of startable().slice(0, 2)) {
      const res = await act('start', 'ini', 'POST', '/app/workflow-instance', { pageId: world.pageId, recordId: rec.id, definitionId: world.definitions[0]!, clientRequestId: randomUUID() });
      if (res.status === 200) Object.assign(rec, { instanceId: res.json.id, status: res.json.status });
    }
    timerRuns++;
    await send(null, 'POST', '/crash-test/run-jobs', { offsetMinutes: 30 });
    // The last kill; then the database opens again, as the next start would (PGlite: recovery).
    await server.kill();
    kills++;
    const reopened = await openDatabase({ databaseUrl, pgliteDataDir: pgliteDir ?? 'memory://' });
    try {
      violations.push(...(await workflowInvariantViolations(reopened.db, { masterViewId: world.masterViewId, sent: [...sent.values()] })));
    } finally {
      await reopened.close();
    }
    const all = [...sent.values()];
    return {
      seed: options.seed,
      database: onPostgres ? 'PostgreSQL' : 'PGlite',
      actions,
      applied: all.filter((s) => s.status === 200).length,
      refused: all.filter((s) => s.status !== 200).length,
      byKind,
      kills,
      retries,
      duplicates,
      timerRuns,
      meanStartMs: Math.round(server.startMs / Math.max(server.starts, 1)),
      maxStartMs: Math.round(server.maxStartMs),
      seconds: Math.round((performance.now() - t0) / 100) / 10,
      violations,
    };
  } finally {
    await server.killAll();
    if (pgliteDir) await rm(pgliteDir, { recursive: true, force: true });
    await database?.drop();
  }
}

// ---------------------------------------------------------------- helpers

async function login(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/Auth/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const body = (await res.json()) as { code: number; data: { accessToken: string } };
  if (body.code !== 0) throw new Error(`login ${username} failed: ${JSON.stringify(body)}`);
  return body.data.accessToken;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

