/*
 * The job queue of scheduled runs: one pending job per enabled schedule (key: its id), due at the
 * schedule's next time.
 */
import { cronRuns } from '@tessera/core/contracts/data-factory';
import type { Kysely, Selectable } from 'kysely';
import type { Database, DataFactorySchedulesTable } from '../../db/schema.ts';
import { cancelJobs, enqueueJob } from '../../platform/jobs.ts';
import * as repo from './data-factory.repository.ts';

export const SCHEDULE_QUEUE = 'data-factory.schedule';

/**
 * Queues the schedule's next run after `from` (replacing a pending one) or, disabled or never due
 * again, removes it. Returns the time queued.
 */
export async function queueNextRun(db: Kysely<Database>, s: Pick<Selectable<DataFactorySchedulesTable>, 'id' | 'cron' | 'time_zone' | 'enabled'>, from: Date): Promise<Date | null> {
  const next = s.enabled ? (cronRuns(s.cron, s.time_zone, 1, from)?.[0] ?? null) : null;
  if (next) await enqueueJob(db, { queue: SCHEDULE_QUEUE, key: s.id, runAt: next, payload: { scheduleId: s.id } });
  else await cancelJobs(db, SCHEDULE_QUEUE, s.id);
  return next;
}

/**
 * Notes a run's outcome on the schedule (time, error or null) and queues its next time after it.
 */
export async function noteRunAndQueueNext(db: Kysely<Database>, s: Pick<Selectable<DataFactorySchedulesTable>, 'id' | 'cron' | 'time_zone' | 'enabled'>, at: Date, error: string | null): Promise<void> {
  const next = await queueNextRun(db, s, at);
  await repo.updateSchedule(db, s.id, null, { last_run_time: at, last_error: error, next_run_time: next });
}

/** Removes the queued runs of a procedure's schedules (the procedure is being deleted, in `db`'s transaction). */
export async function cancelProcedureSchedules(db: Kysely<Database>, procedureId: string): Promise<void> {
  const ids = (await repo.listSchedules(db, procedureId)).map((s) => s.id);
  if (ids.length) await db.deleteFrom('jobs').where('queue', '=', SCHEDULE_QUEUE).where('state', '=', 'pending').where('key', 'in', ids).execute();
}

