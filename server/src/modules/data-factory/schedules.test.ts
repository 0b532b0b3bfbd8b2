import { P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { systemContext } from '../../platform/context.ts';
import { JobWorker } from '../../platform/jobs.ts';
import { scheduledRunGaveUp } from './schedules.service.ts';

// Scheduled runs of data factory procedures (issue 16), on the embedded database and on
// PostgreSQL with DATABASE_URL: a schedule queues its next run in the durable job queue; the
// worker runs it once at its time with the schedule's values, logs it as a scheduled run, and
// queues the following one; failures are logged and the schedule goes on; disabling and deleting
// remove the queued run; bad cron, zones and values are 400s and nothing is saved.

let t: TestApp;
let admin: string;
const URL = '/api/app/data-factory';
const QUEUE = 'data-factory.schedule';
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, token = admin) => t.call(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
const ok = async (method: Method, url: string, payload?: unknown, token = admin) => {
  const res = await call(method, url, payload, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** The worker of a server whose clock reads `at`. */
const runDueAt = (at: Date | string) => new JobWorker(t.app, { pollMs: 0, now: () => new Date(at) }).runDue();
const queued = (scheduleId: string) => t.app.db.selectFrom('jobs').select(['run_at', 'state']).where('queue', '=', QUEUE).where('key', '=', scheduleId).where('state', '=', 'pending').execute();
const runsOf = async (procedureId: string) => (await ok('GET', `${URL}/${procedureId}/runs`)).items as { trigger: string; scheduleId: string | null; userName: string; parameters: object; rowCount: number | null; error: string | null }[];
const scheduleOf = async (procedureId: string, id: string) => (await ok('GET', `${URL}/${procedureId}/schedules`)).items.find((s: { id: string }) => s.id === id);

const counter = (code: string) => ({
  code,
  name: `计数 ${code}`,
  parameters: [{ name: 'p_count', type: 'integer', defaultValue: 1 }],
  returns: { kind: 'table', columns: [{ name: 'n', type: 'integer' }] },
  body: 'begin return query select g from generate_series(1, p_count) g; end',
});

describe('data factory schedules', () => {
  it('queues the next run; at its time the worker runs it once with its values as a scheduled run, and queues the following one', async () => {
    const proc = await ok('POST', URL, counter('sched_counter'));
    const schedule = await ok('POST', `${URL}/${proc.id}/schedules`, { cron: '0 2 * * *', timeZone: 'asia/shanghai', parameters: { p_count: 2 }, description: '每晚汇总' });
    // 02:00 in Shanghai is 18:00 UTC; the next one is within a day.
    expect(schedule).toMatchObject({ cron: '0 2 * * *', timeZone: 'Asia/Shanghai', enabled: true, parameters: { p_count: 2 }, description: '每晚汇总', lastRunTime: null, creatorName: 'admin' });
    const due = new Date(schedule.nextRunTime);
    expect([due.getUTCHours(), due.getUTCMinutes(), due.getUTCSeconds()]).toEqual([18, 0, 0]);
    expect(due.getTime() - Date.now()).toBeGreaterThan(0);
    expect(due.getTime() - Date.now()).toBeLessThanOrEqual(24 * HOUR);
    expect((await queued(schedule.id)).map((j) => new Date(j.run_at).toISOString())).toEqual([due.toISOString()]);

    // Not before its time.
    await runDueAt(new Date(due.getTime() - 60_000));
    expect(await runsOf(proc.id)).toEqual([]);

    await runDueAt(new Date(due.getTime() + 1_000));
    const [ran] = await runsOf(proc.id);
    expect(await runsOf(proc.id)).toHaveLength(1);
    expect(ran).toMatchObject({ trigger: 'schedule', scheduleId: schedule.id, userName: 'admin', parameters: { p_count: 2 }, rowCount: 2, error: null });
    const after = await scheduleOf(proc.id, schedule.id);
    expect(after).toMatchObject({ lastRunTime: new Date(due.getTime() + 1_000).toISOString(), lastError: null, nextRunTime: new Date(due.getTime() + 24 * HOUR).toISOString() });
    // The run does not change the stamp an open editor holds.
    expect(after.concurrencyStamp).toBe(schedule.concurrencyStamp);
    expect((await queued(schedule.id)).map((j) => new Date(j.run_at).toISOString())).toEqual([after.nextRunTime]);

    // Once per due time, however many workers look.
    await Promise.all([runDueAt(new Date(due.getTime() + 2_000)), runDueAt(new Date(due.getTime() + 2_000))]);
    expect(await runsOf(proc.id)).toHaveLength(1);

    // Three days without a server: one run at the next start, then the next time after it — no backlog.
    const later = new Date(due.getTime() + 3 * 24 * HOUR + 5 * HOUR);
    await runDueAt(later);
    expect(await runsOf(proc.id)).toHaveLength(2);
    expect((await scheduleOf(proc.id, schedule.id)).nextRunTime).toBe(new Date(due.getTime() + 4 * 24 * HOUR).toISOString());

    const audit = await t.app.db.selectFrom('audit_logs').select(['details', 'entity_type']).where('action', '=', 'Ran').where('entity_id', '=', proc.id).execute();
    expect(audit.map((a) => (typeof a.details === 'string' ? JSON.parse(a.details) : a.details))).toEqual([
      expect.objectContaining({ trigger: 'schedule', scheduleId: schedule.id, rows: 2 }),
      expect.objectContaining({ trigger: 'schedule', scheduleId: schedule.id, rows: 2 }),
    ]);
    // A manual run says so.
    await ok('POST', `${URL}/${proc.id}/run`, { parameters: {} });
    expect((await runsOf(proc.id)).filter((r) => r.trigger === 'manual')).toEqual([expect.objectContaining({ scheduleId: null, rowCount: 1 })]);
  });

  it('logs a failing run, notes it on the schedule and goes on; so too values the procedure no longer takes', async () => {
    const raiser = await ok('POST', URL, { code: 'sched_raiser', name: '出错', parameters: [{ name: 'p_amount', type: 'integer', defaultValue: -1 }], returns: { kind: 'void' }, body: "begin if p_amount < 0 then raise exception '金额不能为负'; end if; end" });
    const schedule = await ok('POST', `${URL}/${raiser.id}/schedules`, { cron: '*/15 * * * *', timeZone: 'UTC' });
    const due = new Date(schedule.nextRunTime);
    expect(due.getUTCMinutes() % 15).toBe(0);
    await runDueAt(due);
    const [failed] = await runsOf(raiser.id);
    expect(failed).toMatchObject({ trigger: 'schedule', rowCount: null, error: expect.stringContaining('金额不能为负') });
    const noted = await scheduleOf(raiser.id, schedule.id);
    expect(noted).toMatchObject({ lastError: expect.stringContaining('金额不能为负'), nextRunTime: new Date(due.getTime() + 15 * 60_000).toISOString() });
    // The job itself succeeded: it is done, not retried.
    const jobs = await t.app.db.selectFrom('jobs').select(['state', 'attempts']).where('queue', '=', QUEUE).where('key', '=', schedule.id).orderBy('run_at').execute();
    expect(jobs).toEqual([
      { state: 'done', attempts: 1 },
      { state: 'pending', attempts: 0 },
    ]);

    // Fixed: the next run succeeds and clears the note.
    await ok('PUT', `${URL}/${raiser.id}/schedules/${schedule.id}`, { cron: '*/15 * * * *', timeZone: 'UTC', parameters: { p_amount: 5 }, concurrencyStamp: noted.concurrencyStamp });
    const next = new Date((await scheduleOf(raiser.id, schedule.id)).nextRunTime);
    await runDueAt(next);
    expect((await runsOf(raiser.id))[0]).toMatchObject({ parameters: { p_amount: 5 }, error: null });
    expect((await scheduleOf(raiser.id, schedule.id)).lastError).toBeNull();

    // The procedure loses its parameter: the schedule's value no longer fits, which its log says.
    const current = await ok('GET', `${URL}/${raiser.id}`);
    await ok('PUT', `${URL}/${raiser.id}`, { code: 'sched_raiser', name: '出错', parameters: [], returns: { kind: 'void' }, body: 'begin end', concurrencyStamp: current.concurrencyStamp });
    await runDueAt(new Date(next.getTime() + 15 * 60_000));
    expect((await runsOf(raiser.id))[0]).toMatchObject({ trigger: 'schedule', parameters: { p_amount: 5 }, error: '过程没有 IN 参数 p_amount' });
    expect((await scheduleOf(raiser.id, schedule.id)).lastError).toBe('过程没有 IN 参数 p_amount');
  });

  it('cancels a scheduled run past its timeout inside the job, logs it, and the job still commits the next run', async () => {
    const slow = await ok('POST', URL, { code: 'sched_slow', name: '慢', timeoutSeconds: 1, returns: { kind: 'table', columns: [{ name: 'done', type: 'boolean' }] }, body: 'begin perform pg_sleep(1.5); return query select true; end' });
    const schedule = await ok('POST', `${URL}/${slow.id}/schedules`, { cron: '0 * * * *', timeZone: 'UTC' });
    const due = new Date(schedule.nextRunTime);
    await runDueAt(due);
    expect((await runsOf(slow.id))[0]).toMatchObject({ trigger: 'schedule', error: '过程“sched_slow”在 1 秒内没有完成，已取消' });
    expect(await scheduleOf(slow.id, schedule.id)).toMatchObject({ lastError: expect.stringContaining('sched_slow'), nextRunTime: new Date(due.getTime() + HOUR).toISOString() });
  });

  it('a run whose job fails for good (the database, not the procedure) is noted on the schedule, and the next time is queued', async () => {
    const proc = await ok('POST', URL, counter('sched_gave_up'));
    const s = await ok('POST', `${URL}/${proc.id}/schedules`, { cron: '0 3 * * *', timeZone: 'UTC' });
    const due = new Date(s.nextRunTime);
    const [job] = await t.app.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE).where('key', '=', s.id).where('state', '=', 'pending').execute();
    // What the queue does once the job's last attempt failed: the module's give-up hook, in a transaction of its own.
    await t.app.db.updateTable('jobs').set({ state: 'failed' }).where('id', '=', job!.id).execute();
    await t.app.db.transaction().execute((trx) => scheduledRunGaveUp({ ...systemContext(t.app, { now: () => due }), db: trx }, { id: job!.id, queue: QUEUE, key: s.id, payload: { scheduleId: s.id }, runAt: due, attempts: 2 }, new Error('connection terminated')));
    expect(await scheduleOf(proc.id, s.id)).toMatchObject({ lastRunTime: due.toISOString(), lastError: 'connection terminated', nextRunTime: new Date(due.getTime() + 24 * HOUR).toISOString() });
    expect((await queued(s.id)).map((j) => new Date(j.run_at).toISOString())).toEqual([new Date(due.getTime() + 24 * HOUR).toISOString()]);
  });

  it('removes the queued run when disabled, queues it again when enabled; deleting the schedule or the procedure removes it; a stale stamp is a 409', async () => {
    const proc = await ok('POST', URL, counter('sched_toggle'));
    const s = await ok('POST', `${URL}/${proc.id}/schedules`, { cron: '30 8 * * 1-5', timeZone: 'Europe/Berlin' });
    expect(await queued(s.id)).toHaveLength(1);
    const off = await ok('PUT', `${URL}/${proc.id}/schedules/${s.id}`, { cron: '30 8 * * 1-5', timeZone: 'Europe/Berlin', enabled: false, concurrencyStamp: s.concurrencyStamp });
    expect(off).toMatchObject({ enabled: false, nextRunTime: null, lastModifierName: 'admin' });
    expect(await queued(s.id)).toHaveLength(0);
    const stale = await call('PUT', `${URL}/${proc.id}/schedules/${s.id}`, { cron: '30 8 * * 1-5', timeZone: 'Europe/Berlin', concurrencyStamp: s.concurrencyStamp });
    expect(stale.statusCode).toBe(409);
    const on = await ok('PUT', `${URL}/${proc.id}/schedules/${s.id}`, { cron: '30 8 * * 1-5', timeZone: 'Europe/Berlin', enabled: true, concurrencyStamp: off.concurrencyStamp });
    const day = new Date(on.nextRunTime).getUTCDay();
    expect(day >= 1 && day <= 5).toBe(true);
    expect(await queued(s.id)).toHaveLength(1);

    expect((await call('DELETE', `${URL}/${proc.id}/schedules/${s.id}`)).statusCode).toBe(204);
    expect(await queued(s.id)).toHaveLength(0);
    expect((await call('DELETE', `${URL}/${proc.id}/schedules/${s.id}`)).statusCode).toBe(404);

    const kept = await ok('POST', `${URL}/${proc.id}/schedules`, { cron: '@daily', timeZone: 'UTC' });
    expect(await queued(kept.id)).toHaveLength(1);
    expect((await call('DELETE', `${URL}/${proc.id}`)).statusCode).toBe(204);
    expect(await queued(kept.id)).toHaveLength(0);
    expect(await t.app.db.selectFrom('data_factory_schedules').select('id').where('id', '=', kept.id).executeTakeFirst()).toBeUndefined();
  });

  it('answers 400 for a bad cron, time zone or values and saves nothing; 404 for an unknown procedure; 403 without Tessera.DataFactory', async () => {
    const proc = await ok('POST', URL, counter('sched_refusals'));
    const refused = async (body: object, member: string) => {
      const res = await call('POST', `${URL}/${proc.id}/schedules`, body);
      expect(res.statusCode, res.body).toBe(400);
      // The body's members (`body.cron`), or the values the service checks (`parameters.p_count`).
      expect(res.json().error.validationErrors.flatMap((v: { members: string[] }) => v.members)).toContainEqual(expect.stringMatching(new RegExp(`(^|\\.)${member.replace('.', '\\.')}$`)));
    };
    await refused({ cron: '61 * * * *', timeZone: 'UTC' }, 'cron');
    await refused({ cron: '* * * * * *', timeZone: 'UTC' }, 'cron');
    await refused({ cron: '0 0 30 2 *', timeZone: 'UTC' }, 'cron');
    await refused({ cron: "0 2 * * *; drop table jobs", timeZone: 'UTC' }, 'cron');
    await refused({ cron: '0 2 * * *', timeZone: 'Mars/Olympus' }, 'timeZone');
    await refused({ cron: '0 2 * * *', timeZone: 'UTC', parameters: { p_count: 'many' } }, 'parameters.p_count');
    await refused({ cron: '0 2 * * *', timeZone: 'UTC', parameters: { p_other: 1 } }, 'parameters.p_other');
    await refused({ cron: '0 2 * * *', timeZone: 'UTC', description: 'x'.repeat(201) }, 'description');
    expect((await ok('GET', `${URL}/${proc.id}/schedules`)).items).toEqual([]);
    expect((await call('POST', `${URL}/00000000-0000-7000-8000-000000000000/schedules`, { cron: '0 2 * * *', timeZone: 'UTC' })).statusCode).toBe(404);

    const runners = await createRole(t.app.db, 'schedule-runners');
    await grant(t.app.db, 'R', runners, [P.DataFactoryRun, proc.permissionCode]);
    await createUser(t.app.db, 'schedule-runner', { roles: [runners] });
    const runner = await t.login('schedule-runner', FIXTURE_PASSWORD);
    expect((await call('GET', `${URL}/${proc.id}/schedules`, undefined, runner)).statusCode).toBe(403);
    expect((await call('POST', `${URL}/${proc.id}/schedules`, { cron: '0 2 * * *', timeZone: 'UTC' }, runner)).statusCode).toBe(403);
  });
});
