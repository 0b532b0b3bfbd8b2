/*
 * Scheduled runs of a data factory procedure: a cron expression read in a time zone, with the IN
 * values of each run. The next run of an enabled schedule is one pending job (queue
 * `data-factory.schedule`, key: the schedule's id) saved in the same transaction as the schedule;
 * the job runs the procedure inside its claim (a savepoint: a failed run is undone alone and
 * logged), notes the outcome on the schedule and queues the following run — so a run happens once
 * per due time, on one server, and a time that fell while no server ran is run once at the next
 * start (no backlog of missed runs).
 */
import { DATA_FACTORY_LIMITS, type TProcedureSchedule, type TProcedureScheduleList, type TScheduleInput, type TUpdateScheduleInput } from '@tessera/core/contracts/data-factory';
import type { Kysely, Selectable } from 'kysely';
import type { Database, DataFactorySchedulesTable } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { AppError, conflict } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { cancelJobs, type JobRow } from '../../platform/jobs.ts';
import { iso } from '../../platform/sql-values.ts';
import { factoryError, factoryInvalid } from './data-factory.messages.ts';
import * as repo from './data-factory.repository.ts';
import { actorName, requireProcedure } from './data-factory.service.ts';
import { checkRunValues, runChecked } from './run.service.ts';
import { noteRunAndQueueNext, queueNextRun, SCHEDULE_QUEUE } from './schedule-queue.ts';

const ENTITY_TYPE = 'DataFactorySchedule';

type ScheduleRow = Selectable<DataFactorySchedulesTable>;

const toSchedule = (r: ScheduleRow): TProcedureSchedule => ({
  id: r.id,
  procedureId: r.procedure_id,
  cron: r.cron,
  timeZone: r.time_zone,
  parameters: r.parameters ?? {},
  enabled: r.enabled,
  description: r.description,
  nextRunTime: iso(r.next_run_time),
  lastRunTime: iso(r.last_run_time),
  lastError: r.last_error,
  concurrencyStamp: r.concurrency_stamp,
  creationTime: iso(r.creation_time)!,
  creatorName: r.creator_name,
  lastModificationTime: iso(r.last_modification_time),
  lastModifierName: r.last_modifier_name,
});

/** The zone's canonical name (`asia/shanghai` → `Asia/Shanghai`). */
const canonicalZone = (zone: string) => new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;

export async function listSchedules(ctx: ServiceContext, procedureId: string): Promise<TProcedureScheduleList> {
  await requireProcedure(ctx, procedureId);
  return { items: (await repo.listSchedules(ctx.db, procedureId)).map(toSchedule) };
}

async function requireSchedule(ctx: ServiceContext, db: Kysely<Database>, procedureId: string, id: string): Promise<ScheduleRow> {
  const row = await repo.findSchedule(db, id, { forUpdate: true });
  if (!row || row.procedure_id !== procedureId) throw factoryError(ctx, 404, 'NotFound', 'schedule.notFound', {}, { details: { id } });
  return row;
}

/** A schedule's values checked against the procedure's parameters, its fields as stored, and its next run queued (or removed). */
async function checkedAndQueued(ctx: ServiceContext, trx: Kysely<Database>, procedure: Parameters<typeof checkRunValues>[1], id: string, input: TScheduleInput, now: Date) {
  checkRunValues(ctx, procedure, input.parameters);
  const row = { id, cron: input.cron.trim(), time_zone: canonicalZone(input.timeZone), enabled: input.enabled };
  return { row, next: await queueNextRun(trx, row, now) };
}

const auditOf = (s: TProcedureSchedule) => ({ cron: s.cron, timeZone: s.timeZone, parameters: s.parameters, enabled: s.enabled, description: s.description });

export async function createSchedule(ctx: ServiceContext, procedureId: string, input: TScheduleInput): Promise<TProcedureSchedule> {
  const id = uuidv7();
  const saved = await ctx.db.transaction().execute(async (trx) => {
    const procedure = await requireProcedure(ctx, procedureId, trx, { forUpdate: true });
    if ((await repo.countSchedules(trx, procedureId)) >= DATA_FACTORY_LIMITS.schedules) throw factoryInvalid(ctx, 'schedule.tooMany', ['cron'], { count: DATA_FACTORY_LIMITS.schedules });
    const now = ctx.now();
    const { row, next } = await checkedAndQueued(ctx, trx, procedure, id, input, now);
    await repo.insertSchedule(trx, {
      ...row,
      procedure_id: procedureId,
      parameters: JSON.stringify(input.parameters),
      description: input.description,
      next_run_time: next,
      concurrency_stamp: uuidv7(),
      creation_time: now,
      creator_id: ctx.user?.id ?? null,
      creator_name: actorName(ctx),
    });
    return toSchedule((await repo.findSchedule(trx, id))!);
  });
  await recordAudit(ctx, 'Created', { entityType: ENTITY_TYPE, entityId: id, details: { procedureId, after: auditOf(saved) } });
  return saved;
}

export async function updateSchedule(ctx: ServiceContext, procedureId: string, id: string, input: TUpdateScheduleInput): Promise<TProcedureSchedule> {
  let before: TProcedureSchedule | undefined;
  const saved = await ctx.db.transaction().execute(async (trx) => {
    const procedure = await requireProcedure(ctx, procedureId, trx);
    const existing = await requireSchedule(ctx, trx, procedureId, id);
    if (existing.concurrency_stamp !== input.concurrencyStamp) throw conflict({ id, concurrencyStamp: existing.concurrency_stamp });
    before = toSchedule(existing);
    const now = ctx.now();
    const { row, next } = await checkedAndQueued(ctx, trx, procedure, id, input, now);
    await repo.updateSchedule(trx, id, null, {
      cron: row.cron,
      time_zone: row.time_zone,
      enabled: row.enabled,
      parameters: JSON.stringify(input.parameters),
      description: input.description,
      next_run_time: next,
      concurrency_stamp: uuidv7(),
      last_modification_time: now,
      last_modifier_id: ctx.user?.id ?? null,
      last_modifier_name: actorName(ctx),
    });
    return toSchedule((await repo.findSchedule(trx, id))!);
  });
  await recordAudit(ctx, 'Updated', { entityType: ENTITY_TYPE, entityId: id, details: { procedureId, before: auditOf(before!), after: auditOf(saved) } });
  return saved;
}

export async function deleteSchedule(ctx: ServiceContext, procedureId: string, id: string): Promise<void> {
  const existing = await ctx.db.transaction().execute(async (trx) => {
    const row = await requireSchedule(ctx, trx, procedureId, id);
    await cancelJobs(trx, SCHEDULE_QUEUE, id);
    await repo.deleteSchedule(trx, id);
    return toSchedule(row);
  });
  await recordAudit(ctx, 'Deleted', { entityType: ENTITY_TYPE, entityId: id, details: { procedureId, before: auditOf(existing) } });
}

/**
 * The job of a due run (`ctx.db`: the job's claim). Runs the procedure with the schedule's values
 * as whoever last saved the schedule; a run that fails (its error, a timeout, values that no
 * longer fit the parameters) is logged and noted on the schedule, and the schedule goes on.
 */
export async function runScheduled(ctx: ServiceContext, job: JobRow): Promise<void> {
  const schedule = await repo.findSchedule(ctx.db, String(job.payload.scheduleId), { forUpdate: true });
  if (!schedule?.enabled) return;
  const procedure = await requireProcedure(ctx, schedule.procedure_id);
  const user = { id: schedule.last_modifier_id ?? schedule.creator_id, name: schedule.last_modifier_name ?? schedule.creator_name };
  let error: string | null = null;
  try {
    await runChecked(ctx, procedure, { parameters: schedule.parameters ?? {} }, { trigger: 'schedule', scheduleId: schedule.id, user });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    error = err.message;
  }
  await noteRunAndQueueNext(ctx.db, schedule, ctx.now(), error);
}

/**
 * A due run's job failed for good (the database itself, not the procedure: those are logged runs):
 * the schedule notes it and its next time is queued, so a schedule never stops by itself.
 */
export async function scheduledRunGaveUp(ctx: ServiceContext, job: JobRow, err: unknown): Promise<void> {
  const schedule = await repo.findSchedule(ctx.db, String(job.payload.scheduleId), { forUpdate: true });
  if (!schedule?.enabled) return;
  await noteRunAndQueueNext(ctx.db, schedule, ctx.now(), (err instanceof Error ? err.message : String(err)).slice(0, 2_000));
}
