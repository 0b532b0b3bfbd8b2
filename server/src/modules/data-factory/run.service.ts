/*
 * Running a data factory function: typed values bound, in a transaction of its own with a
 * statement timeout and (where the database lets the product's user SET it) the restricted role
 * `tessera_factory`; rows capped in the database. An external routine is called on its source
 * (data-sources' pool, statement timeout and read-only mode), every result set and OUT value
 * answered. Every run is logged (who, when, values, duration, rows, error) and audited, a failed
 * one too.
 */
import { factoryValue, FACTORY_TYPES, type TFactoryType, type TProcedureDefinition, type TProcedureResultSet, type TProcedureRunList, type TProcedureRunResult, type TRunnableProcedureList, type TRunProcedureInput, type TRunTrigger } from '@tessera/core/contracts/data-factory';
import { factoryProcedurePermission, P } from '@tessera/core/contracts/permissions';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { actorHolds, type ServiceContext } from '../../platform/context.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { callSourceRoutine } from '../data-sources/index.ts';
import { iso } from '../../platform/sql-values.ts';
import { factoryError, factoryInvalid } from './data-factory.messages.ts';
import * as repo from './data-factory.repository.ts';
import { actorName, definitionOf, ENTITY_TYPE, requireProcedure, type ProcedureRow } from './data-factory.service.ts';
import { callSql, FACTORY_ROLE } from './factory-sql.ts';

/** Asked once per database handle: whether runs can switch to the restricted role. */
const roleUsable = new WeakMap<Kysely<Database>, Promise<boolean>>();
const restrictedRole = (db: Kysely<Database>) => {
  let known = roleUsable.get(db);
  if (!known) roleUsable.set(db, (known = repo.restrictedRoleUsable(db, FACTORY_ROLE)));
  return known;
};

const QUERY_CANCELED = '57014';

/** A value as JSON: times as ISO text; numbers, text, booleans and JSON as they came. */
const jsonValue = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/** A value bound for an external source: the checked text, but booleans as booleans (MySQL reads 'true' as 0). */
const externalValue = (type: TFactoryType, bound: string | null) => (type === 'boolean' && bound !== null ? bound === 'true' : bound);

/**
 * An OUT value as its declared type where the source's spelling differs: MariaDB answers a session
 * variable's integer as 64-bit (text here) and a boolean as 0 or 1.
 */
function typedOut(type: TFactoryType, value: unknown): unknown {
  if (type === 'integer' && typeof value === 'string' && /^-?\d{1,10}$/.test(value)) return Number(value);
  if (type === 'boolean' && (typeof value === 'number' || value === '0' || value === '1')) return Number(value) !== 0;
  return value;
}

type Answer = { resultSets: TProcedureResultSet[]; outParameters: Record<string, unknown> };

/**
 * Runs `work` as a unit of its own: its own transaction, or — when `db` is already one (a job's
 * claim, a save) — a savepoint in it, so the run's failure undoes the run alone and its settings
 * (timeout, role) do not outlive it.
 */
async function ownUnit<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (!db.isTransaction) return db.transaction().execute(work);
  const before = await sql<{ timeout: string }>`select current_setting('statement_timeout') as timeout`.execute(db);
  await sql`savepoint factory_run`.execute(db);
  let answer: T;
  try {
    answer = await work(db);
  } catch (err) {
    await sql`rollback to savepoint factory_run`.execute(db);
    throw err;
  }
  await sql`release savepoint factory_run`.execute(db);
  await sql`select set_config('statement_timeout', ${before.rows[0]!.timeout}, true)`.execute(db);
  await sql`reset role`.execute(db);
  return answer;
}

/** A factory function in the product's database, in a unit of its own under the restricted role. */
async function runFunction(ctx: ServiceContext, row: ProcedureRow, def: TProcedureDefinition, values: Record<string, string | null>, rowCap: number, timeoutSeconds: number, asRole: boolean, elapsed: () => number): Promise<Answer> {
  const rows = await ownUnit(ctx.db, async (trx) => {
    await sql`select set_config('statement_timeout', ${String(timeoutSeconds * 1000)}, true)`.execute(trx);
    if (asRole) await sql`set local role ${sql.id(FACTORY_ROLE)}`.execute(trx);
    const answer = await callSql(row.code, def, values, rowCap + 1).execute(trx);
    // The embedded database has no timer to cancel a statement: a run that took longer is
    // undone and answered as timed out, once it has ended (README "Data factory").
    if (elapsed() > timeoutSeconds * 1000) throw Object.assign(new Error('statement timeout'), { code: QUERY_CANCELED });
    return answer.rows as Record<string, unknown>[];
  });
  const outs = def.parameters.filter((p) => p.mode === 'out');
  if (def.returns.kind !== 'table') return { resultSets: [], outParameters: Object.fromEntries(outs.map((p) => [p.name, jsonValue(rows[0]?.[p.name] ?? null)])) };
  const table = def.returns.columns;
  const kept = rows.slice(0, rowCap);
  return {
    resultSets: [
      {
        columns: table.map((c) => ({ name: c.name, dataType: FACTORY_TYPES[c.type] })),
        rows: kept.map((r) => Object.fromEntries(table.map((c) => [c.name, jsonValue(r[c.name])]))),
        rowCount: kept.length,
        truncated: rows.length > rowCap,
      },
    ],
    outParameters: {},
  };
}

/** Who or what started a run, as the run log shows it. */
export interface RunOrigin {
  trigger: TRunTrigger;
  scheduleId?: string;
  /** The user named in the log when it is not the actor (a schedule: whoever last saved it). */
  user?: { id: string | null; name: string | null };
  /**
   * The run is inside a caller's transaction that its failure will roll back (a page button run
   * in the save's transaction): a failed run is not logged there but handed back on the error, for
   * `logDeferredRun` once that transaction has ended.
   */
  deferFailureLog?: boolean;
}

/** The log entries of failed runs whose caller's transaction was rolled back, by their error. */
const deferredLogs = new WeakMap<object, (ctx: ServiceContext) => Promise<void>>();

/** Writes the log entry and audit of a failed run handed back on `err` (see `RunOrigin.deferFailureLog`); nothing for other errors. */
export async function logDeferredRun(ctx: ServiceContext, err: unknown): Promise<void> {
  const write = err && typeof err === 'object' ? deferredLogs.get(err) : undefined;
  if (write) await write(ctx);
}

/** The IN values checked against their declared types (defaults for the missing ones): bound texts, and the values as given for the log. */
function boundValues(ctx: ServiceContext, def: TProcedureDefinition, parameters: Record<string, unknown>) {
  const ins = def.parameters.filter((p) => p.mode !== 'out');
  for (const name of Object.keys(parameters)) {
    if (!ins.some((p) => p.name === name)) throw factoryInvalid(ctx, 'run.unknownParameter', [`parameters.${name}`], { name });
  }
  const values: Record<string, string | null> = {};
  const given: Record<string, unknown> = {};
  for (const p of ins) {
    const value = Object.hasOwn(parameters, p.name) ? parameters[p.name] : p.defaultValue;
    const parsed = factoryValue(p.type, value);
    if (!parsed.ok) throw factoryInvalid(ctx, 'run.parameterType', [`parameters.${p.name}`], { name: p.name, type: FACTORY_TYPES[p.type] });
    values[p.name] = parsed.bound;
    given[p.name] = value ?? null;
  }
  return { values, given };
}

/** Checks IN values against a procedure's parameters without running it (a schedule's, when saved). */
export function checkRunValues(ctx: ServiceContext, row: ProcedureRow, parameters: Record<string, unknown>): void {
  boundValues(ctx, definitionOf(row), parameters);
}

export async function runProcedure(ctx: ServiceContext, id: string, input: TRunProcedureInput): Promise<TProcedureRunResult> {
  const row = await requireProcedure(ctx, id);
  // Its managers run any procedure; anyone else needs the procedure's own code.
  if (!actorHolds(ctx, P.DataFactory) && !actorHolds(ctx, factoryProcedurePermission(id))) throw factoryError(ctx, 403, 'Forbidden', 'run.noPermission', { code: row.code });
  return runChecked(ctx, row, input, { trigger: 'manual' });
}

/**
 * Runs a procedure the caller may run; logs and audits the run (a failed one too) in `ctx.db` —
 * inside the caller's transaction when it is one, where a failed run is undone alone. Values
 * that do not fit the parameters are a 400, logged only when a schedule gave them (a caller sees
 * the 400; a schedule's log is where its owner looks).
 */
export async function runChecked(ctx: ServiceContext, row: ProcedureRow, input: TRunProcedureInput, origin: RunOrigin): Promise<TProcedureRunResult> {
  const def = definitionOf(row);
  const runId = uuidv7();
  const startTime = ctx.now();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const rowCap = Math.min(input.rowCap ?? row.row_cap, row.row_cap);
  const timeoutSeconds = Math.min(input.timeoutSeconds ?? row.timeout_seconds, row.timeout_seconds);
  let result: TProcedureRunResult | undefined;
  let failure: AppError | undefined;
  let bound: ReturnType<typeof boundValues> | undefined;
  try {
    bound = boundValues(ctx, def, input.parameters);
  } catch (err) {
    if (origin.trigger !== 'schedule' || !(err instanceof AppError)) throw err;
    failure = err;
  }
  const given = bound?.given ?? input.parameters;
  let asRole = false;
  if (bound) {
    try {
      let answer: Answer;
      if (row.source_id && def.routine) {
        const parameters = def.parameters.map((p) => ({ name: p.name, mode: p.mode, type: p.type, value: p.mode === 'out' ? null : externalValue(p.type, bound.values[p.name] ?? null) }));
        const called = await callSourceRoutine(ctx, row.source_id, { routine: def.routine, parameters, limit: rowCap });
        const outs = def.parameters.filter((p) => p.mode !== 'in');
        answer = { resultSets: called.resultSets, outParameters: Object.fromEntries(outs.map((p) => [p.name, typedOut(p.type, called.outs[p.name] ?? null)])) };
      } else {
        asRole = await restrictedRole(ctx.db);
        answer = await runFunction(ctx, row, def, bound.values, rowCap, timeoutSeconds, asRole, elapsed);
      }
      result = { runId, ...answer, rowCount: answer.resultSets.reduce((n, set) => n + set.rowCount, 0), elapsedMs: elapsed() };
    } catch (err) {
      // An external source's failure (down, slow, read-only, the routine's error) as data sources answer it.
      const code = (err as { code?: unknown } | null)?.code;
      if (err instanceof AppError && row.source_id) failure = err;
      else if (code === QUERY_CANCELED) failure = factoryError(ctx, 504, 'DataFactory.Timeout', 'run.timeout', { code: row.code, seconds: timeoutSeconds });
      else if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) failure = factoryError(ctx, 400, 'DataFactory.RunFailed', 'run.failed', { code: row.code, reason: String((err as Error).message).slice(0, 1_000) }, { members: ['body'] });
      else throw err;
    }
  }
  const durationMs = result?.elapsedMs ?? elapsed();
  const user = origin.user ?? { id: ctx.user?.id ?? null, name: actorName(ctx) };
  const log = async (on: ServiceContext) => {
    await repo.insertRun(on.db, {
      id: runId,
      procedure_id: row.id,
      version: row.version,
      user_id: user.id,
      user_name: user.name,
      start_time: startTime,
      duration_ms: durationMs,
      parameters: JSON.stringify(given),
      row_count: result ? result.rowCount : null,
      error: failure ? failure.message : null,
      trigger: origin.trigger,
      schedule_id: origin.scheduleId ?? null,
    });
    await recordAudit(on, 'Ran', {
      entityType: ENTITY_TYPE,
      entityId: row.id,
      details: { runId, code: row.code, version: row.version, trigger: origin.trigger, scheduleId: origin.scheduleId ?? null, parameters: given, durationMs, rows: result?.rowCount ?? null, error: failure?.message ?? null, asRole: asRole ? FACTORY_ROLE : null },
    });
  };
  if (failure && origin.deferFailureLog) deferredLogs.set(failure, log);
  else await log(ctx);
  if (failure) throw failure;
  return result!;
}

export async function listProcedureRuns(ctx: ServiceContext, id: string, window: { SkipCount: number; MaxResultCount: number }): Promise<TProcedureRunList> {
  await requireProcedure(ctx, id);
  const page = { offset: window.SkipCount, limit: window.MaxResultCount };
  const [totalCount, rows] = await Promise.all([repo.countRuns(ctx.db, id), repo.listRuns(ctx.db, id, page)]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      trigger: r.trigger,
      scheduleId: r.schedule_id,
      version: r.version,
      userName: r.user_name,
      startTime: iso(r.start_time)!,
      durationMs: r.duration_ms,
      parameters: (r.parameters ?? {}) as Record<string, unknown>,
      rowCount: r.row_count,
      error: r.error,
    })),
    totalCount,
  };
}

/**
 * Runs a procedure for a page button (business-data's `runProcedure` action): the button's
 * permission is the caller's check, made there; here the procedure must exist. `ctx.db` may be the
 * save's transaction (see `RunOrigin.deferFailureLog`).
 */
export async function runForButton(ctx: ServiceContext, procedureId: string, parameters: Record<string, unknown>, options: { inCallerTransaction: boolean }): Promise<TProcedureRunResult> {
  const row = await requireProcedure(ctx, procedureId);
  return runChecked(ctx, row, { parameters }, { trigger: 'button', deferFailureLog: options.inCallerTransaction });
}

/** A procedure as a page button's design names it: its IN parameters, and whether `ctx`'s actor may run it (null: there is none). */
export async function procedureForButton(ctx: ServiceContext, procedureId: string): Promise<{ code: string; name: string; inParameters: string[]; mayRun: boolean } | null> {
  const row = await repo.findProcedure(ctx.db, procedureId);
  if (!row) return null;
  const def = definitionOf(row);
  return { code: row.code, name: row.name, inParameters: def.parameters.filter((p) => p.mode !== 'out').map((p) => p.name), mayRun: actorHolds(ctx, P.DataFactory) || actorHolds(ctx, factoryProcedurePermission(row.id)) };
}

/** The procedures the caller may run (all of them for its managers), by name; at most 1,000. */
export async function listRunnableProcedures(ctx: ServiceContext): Promise<TRunnableProcedureList> {
  const rows = await repo.listProcedures(ctx.db, undefined, { column: 'name', direction: 'asc' }, { offset: 0, limit: 1_000 });
  return {
    items: rows
      .filter((r) => actorHolds(ctx, P.DataFactory) || actorHolds(ctx, factoryProcedurePermission(r.id)))
      .map((r) => ({ id: r.id, code: r.code, name: r.name, parameters: definitionOf(r).parameters.filter((p) => p.mode !== 'out') })),
  };
}
