/*
 * The data factory (issue 16). Owns `data_factory_procedures`, `data_factory_versions`,
 * `data_factory_runs`, `data_factory_schedules` and the functions of schema `factory`; runs them
 * as role `tessera_factory` (migration 1000). Registers the job handler of scheduled runs
 * (`data-factory.schedule`). Calls data sources' stored routines through their public entry.
 * Runs procedures for business-data's "run procedure" page buttons (`runForButton`); the pages
 * designer's check asks `procedureForButton`.
 */
import { registerJobHandler } from '../../platform/jobs.ts';
import { SCHEDULE_QUEUE } from './schedule-queue.ts';
import { runScheduled, scheduledRunGaveUp } from './schedules.service.ts';

export { dataFactoryRoutes } from './data-factory.routes.ts';
export { logDeferredRun, procedureForButton, runForButton } from './run.service.ts';
export { registerProcedureUsage } from './procedure-usage.ts';

// A run that fails is logged and the schedule goes on; only an unexpected error (the database
// itself) retries the job, twice at most, then the schedule notes it and waits for its next time.
registerJobHandler(SCHEDULE_QUEUE, runScheduled, { maxAttempts: 3, retrySeconds: 60, onGiveUp: scheduledRunGaveUp });
