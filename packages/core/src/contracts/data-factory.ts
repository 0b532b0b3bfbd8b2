import { Cron } from 'croner';
import { z } from 'zod';
import { zJson, zText } from './text.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';
import { SQL_SOURCE_KINDS } from './data-sources.ts';

// The data factory (issue 16): PL/pgSQL functions in the product's own database, in schema
// `factory`, authored with declared parameters, versioned, run with typed values; and procedures
// and functions of external SQL sources (data sources of kind PostgreSQL, MySQL / MariaDB, SQL
// Server) registered with their parameters and called, every result set and OUT value answered
// (server/src/modules/data-factory). Routes, all under /api/app/data-factory:
//   GET    /                          ZProcedureQuery            → ZProcedureList
//   GET    /{id}                                                 → ZProcedure
//   POST   /                          ZProcedureInput            → ZProcedure (400 with PostgreSQL's message when the body does not compile; nothing saved)
//   PUT    /{id}                      ZUpdateProcedureInput      → ZProcedure (a new version; 409 on a stale stamp)
//   DELETE /{id}                                                 → 204 (drops the function)
//   GET    /{id}/versions                                        → ZProcedureVersionList
//   GET    /{id}/versions/diff        ZProcedureDiffQuery        → ZProcedureDiff (a line diff of two versions)
//   POST   /{id}/versions/{version}/rollback ZRollbackProcedureInput → ZProcedure (a new version with that version's content)
//   POST   /{id}/run                  ZRunProcedureInput         → ZProcedureRunResult (P.DataFactoryRun)
//   GET    /{id}/runs                 ZProcedureRunQuery         → ZProcedureRunList (P.DataFactoryRun)
//   GET    /{id}/schedules                                       → ZProcedureScheduleList
//   POST   /{id}/schedules            ZScheduleInput             → ZProcedureSchedule (its first run queued)
//   PUT    /{id}/schedules/{scheduleId} ZUpdateScheduleInput     → ZProcedureSchedule (409 on a stale stamp)
//   DELETE /{id}/schedules/{scheduleId}                          → 204 (its queued run removed)
//   GET    /runnable                                             → ZRunnableProcedureList (P.DataFactoryRun: the ones the caller may run, for a page button)
//   GET    /sources                                              → ZFactorySourceList (the SQL data sources a procedure may be registered on)
//   GET    /sources/{sourceId}/routines                          → ZSourceRoutineList (the source's procedures and functions with their parameters)
// Permission: P.DataFactory for every route but the two run routes (P.DataFactoryRun).
// A run that passes its timeout answers 504 (DataFactory.Timeout); an error the function raises, or
// a right its restricted role lacks, a 400 with PostgreSQL's message (DataFactory.RunFailed).

export const DATA_FACTORY_LIMITS = {
  code: 63,
  name: 100,
  description: 500,
  body: 50_000,
  parameters: 50,
  columns: 100,
  textValue: 10_000,
  timeoutSeconds: { min: 1, max: 300, default: 30 },
  rowCap: { min: 1, max: 100_000, default: 1_000 },
  schedules: 20,
  cron: 100,
  scheduleDescription: 200,
} as const;

/**
 * The PostgreSQL types a parameter or a returned column may have, and how each is spelled in SQL
 * (the only type text that reaches a statement: from this table, never from the caller).
 */
export const FACTORY_TYPES = {
  text: 'text',
  integer: 'integer',
  bigint: 'bigint',
  numeric: 'numeric',
  double: 'double precision',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
  uuid: 'uuid',
  jsonb: 'jsonb',
  /**
   * A PostgreSQL source's cursor (an OUT / INOUT parameter or a function's result): the run
   * fetches each cursor it answers as one more result set. Not for the factory's own functions.
   */
  refcursor: 'refcursor',
} as const;
export type TFactoryType = keyof typeof FACTORY_TYPES;
export const ZFactoryType = z.enum(Object.keys(FACTORY_TYPES) as [TFactoryType, ...TFactoryType[]]);

/** A name PostgreSQL keeps as written without quotes: lower-case letters, digits, _ (always quoted in SQL anyway). */
export const FACTORY_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
const identifier = (what: string) => z.string().regex(FACTORY_IDENTIFIER, `${what}: lower-case letters, digits and _, starting with a letter or _ (at most 63)`);
/** A parameter's name: an external routine's may have capitals (`pCustomer`); the factory's own are FACTORY_IDENTIFIER. */
export const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** A parameter's or OUT value: text, number, boolean, JSON (jsonb) or null; checked against the declared type. */
export const ZFactoryValue = zJson();
export type TFactoryValue = unknown;

export const ZProcedureParameter = z.object({
  name: z.string().regex(PARAMETER_NAME, 'a parameter name: letters, digits and _, starting with a letter or _ (at most 63)'),
  type: ZFactoryType,
  /**
   * IN: given by the caller; OUT: answered in `outParameters` (a factory function with OUT
   * parameters returns no table); INOUT (external routines only): given, and answered changed.
   */
  mode: z.enum(['in', 'out', 'inout']).default('in'),
  /** IN and INOUT: used when a run does not give the parameter (null: SQL NULL). */
  defaultValue: ZFactoryValue.default(null),
});
export type TProcedureParameter = z.infer<typeof ZProcedureParameter>;

export const ZProcedureColumn = z.object({ name: identifier('a column name'), type: ZFactoryType });
export type TProcedureColumn = z.infer<typeof ZProcedureColumn>;

/** What the function returns: rows of typed columns (`returns table (…)`), or nothing (`void`; OUT parameters, when declared). */
export const ZProcedureReturns = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('table'), columns: z.array(ZProcedureColumn).min(1).max(DATA_FACTORY_LIMITS.columns) }),
  z.object({ kind: z.literal('void') }),
]);
export type TProcedureReturns = z.infer<typeof ZProcedureReturns>;

/** A schema's or routine's name in an external source (quoted in the source's own way when called). */
const routineName = zText().min(1).max(128).regex(/^[^\u0000-\u001f\u007f]+$/, 'no control characters');
/** The external routine a procedure calls: `schema.name` of its source (the schema: a MySQL database, a PostgreSQL or SQL Server schema). */
export const ZRoutine = z.object({
  schema: routineName,
  name: routineName,
  kind: z.enum(['procedure', 'function']),
  /** A function answering rows (SQL Server's table-valued functions, PostgreSQL's `setof` / `table`): selected from, capped. */
  returnsTable: z.boolean().default(false),
});
export type TRoutine = z.infer<typeof ZRoutine>;

/** What a version holds: everything that makes the function, or names the external routine. */
export const ZProcedureDefinition = z.object({
  parameters: z.array(ZProcedureParameter).max(DATA_FACTORY_LIMITS.parameters).default([]),
  /** A factory function's result table; an external routine's results are what it answers (`void` here). */
  returns: ZProcedureReturns,
  /** The PL/pgSQL between `begin` and `end` included (the function's body, without `$$`); empty for an external routine. */
  body: zText().max(DATA_FACTORY_LIMITS.body).default(''),
  /** The external routine called (with `sourceId`); null for a function of the factory's own. */
  routine: ZRoutine.nullable().default(null),
});
export type TProcedureDefinition = z.infer<typeof ZProcedureDefinition>;

export const ZProcedureInput = ZProcedureDefinition.extend({
  /** The function's name in schema `factory`; unique. */
  code: identifier('a code'),
  /** The SQL data source the routine lives on; null: a PL/pgSQL function of the product's database. Fixed once created. */
  sourceId: z.uuid().nullable().default(null),
  name: text(DATA_FACTORY_LIMITS.name).min(1),
  description: text(DATA_FACTORY_LIMITS.description).default(''),
  timeoutSeconds: z.number().int().min(DATA_FACTORY_LIMITS.timeoutSeconds.min).max(DATA_FACTORY_LIMITS.timeoutSeconds.max).default(DATA_FACTORY_LIMITS.timeoutSeconds.default),
  rowCap: z.number().int().min(DATA_FACTORY_LIMITS.rowCap.min).max(DATA_FACTORY_LIMITS.rowCap.max).default(DATA_FACTORY_LIMITS.rowCap.default),
});
export type TProcedureInput = z.infer<typeof ZProcedureInput>;
export const ZUpdateProcedureInput = ZProcedureInput.extend({ concurrencyStamp: zText().min(1).max(64) });
export type TUpdateProcedureInput = z.infer<typeof ZUpdateProcedureInput>;

export const ZProcedure = z.object({
  id: z.uuid(),
  code: zText(),
  name: zText(),
  description: zText(),
  parameters: z.array(ZProcedureParameter),
  returns: ZProcedureReturns,
  body: zText(),
  sourceId: z.uuid().nullable(),
  /** The source's name, when it still exists. */
  sourceName: zText().nullable(),
  routine: ZRoutine.nullable(),
  /** The code that lets a user run it (granted on the role authorization screen), besides DataFactoryRun. */
  permissionCode: zText(),
  timeoutSeconds: z.number().int(),
  rowCap: z.number().int(),
  version: z.number().int(),
  concurrencyStamp: zText(),
  creationTime: zText(),
  creatorName: zText().nullable(),
  lastModificationTime: zText().nullable(),
  lastModifierName: zText().nullable(),
});
export type TProcedure = z.infer<typeof ZProcedure>;

export const ZProcedureQuery = ZPagedQuery;
export type TProcedureQuery = z.infer<typeof ZProcedureQuery>;
export const ZProcedureList = pagedResult(ZProcedure.omit({ body: true }));
export type TProcedureList = z.infer<typeof ZProcedureList>;

export const ZProcedureVersion = z.object({
  version: z.number().int(),
  parameters: z.array(ZProcedureParameter),
  returns: ZProcedureReturns,
  body: zText(),
  routine: ZRoutine.nullable(),
  creationTime: zText(),
  creatorName: zText().nullable(),
  /** The version this one restored (a rollback), else null. */
  restoredFrom: z.number().int().nullable(),
});
export type TProcedureVersion = z.infer<typeof ZProcedureVersion>;
export const ZProcedureVersionList = z.object({ items: z.array(ZProcedureVersion) });
export type TProcedureVersionList = z.infer<typeof ZProcedureVersionList>;

export const ZProcedureParams = z.object({ id: z.uuid() });
export const ZProcedureVersionParams = z.object({ id: z.uuid(), version: z.coerce.number().int().min(1).max(1_000_000) });
export const ZProcedureDiffQuery = z.object({ from: z.coerce.number().int().min(1).max(1_000_000), to: z.coerce.number().int().min(1).max(1_000_000) });
export const ZDiffLine = z.object({ kind: z.enum(['same', 'added', 'removed']), text: zText(), oldNumber: z.number().int().nullable(), newNumber: z.number().int().nullable() });
export const ZProcedureDiff = z.object({ from: z.number().int(), to: z.number().int(), lines: z.array(ZDiffLine), added: z.number().int(), removed: z.number().int() });
export type TProcedureDiff = z.infer<typeof ZProcedureDiff>;
export const ZRollbackProcedureInput = z.object({ concurrencyStamp: zText().min(1).max(64) });

/** IN parameters by name; a missing one takes its default. */
const ZRunParameters = z.record(z.string().regex(PARAMETER_NAME), ZFactoryValue).refine((p) => Object.keys(p).length <= DATA_FACTORY_LIMITS.parameters, `at most ${DATA_FACTORY_LIMITS.parameters} parameters`).default({});

export const ZRunProcedureInput = z.object({
  parameters: ZRunParameters,
  /** Lower than the procedure's own to shorten a test run; never higher. */
  rowCap: z.number().int().min(1).max(DATA_FACTORY_LIMITS.rowCap.max).optional(),
  timeoutSeconds: z.number().int().min(1).max(DATA_FACTORY_LIMITS.timeoutSeconds.max).optional(),
});
export type TRunProcedureInput = z.infer<typeof ZRunProcedureInput>;

/** One result set: its columns (the database's type names) and rows, capped at the procedure's row cap. */
export const ZProcedureResultSet = z.object({
  columns: z.array(z.object({ name: zText(), dataType: zText() })),
  /** Values as JSON: numbers, text (exact decimals, 64-bit integers and dates as text), ISO times, JSON. Keys: the columns' names. */
  rows: z.array(z.record(z.string(), z.unknown())),
  rowCount: z.number().int(),
  truncated: z.boolean(),
});
export type TProcedureResultSet = z.infer<typeof ZProcedureResultSet>;

export const ZProcedureRunResult = z.object({
  runId: z.uuid(),
  /** Every result set, in order: a factory function's table is one; a MySQL `CALL` may answer several; none when it answers no rows. */
  resultSets: z.array(ZProcedureResultSet),
  /** Rows of all result sets. */
  rowCount: z.number().int(),
  /** OUT and INOUT values by name. */
  outParameters: z.record(z.string(), z.unknown()),
  elapsedMs: z.number(),
});
export type TProcedureRunResult = z.infer<typeof ZProcedureRunResult>;

export const ZProcedureRunQuery = z.object({
  SkipCount: ZPagedQuery.shape.SkipCount,
  MaxResultCount: ZPagedQuery.shape.MaxResultCount,
});
/** What started a run: the test panel or the API, a schedule, a page button. */
export const RUN_TRIGGERS = ['manual', 'schedule', 'button'] as const;
export type TRunTrigger = (typeof RUN_TRIGGERS)[number];

export const ZProcedureRun = z.object({
  id: z.uuid(),
  trigger: z.enum(RUN_TRIGGERS),
  /** The schedule that ran it (null when it was not a schedule, or the schedule is deleted). */
  scheduleId: z.uuid().nullable(),
  version: z.number().int(),
  userName: zText().nullable(),
  startTime: zText(),
  durationMs: z.number().int(),
  parameters: z.record(z.string(), z.unknown()),
  rowCount: z.number().int().nullable(),
  error: zText().nullable(),
});
export type TProcedureRun = z.infer<typeof ZProcedureRun>;
export const ZProcedureRunList = pagedResult(ZProcedureRun);
export type TProcedureRunList = z.infer<typeof ZProcedureRunList>;

/** A procedure the caller may run, as the page designer's "run procedure" button picks it. */
export const ZRunnableProcedure = z.object({
  id: z.uuid(),
  code: zText(),
  name: zText(),
  /** IN and INOUT parameters (what a button gives values for). */
  parameters: z.array(ZProcedureParameter),
});
export type TRunnableProcedure = z.infer<typeof ZRunnableProcedure>;
export const ZRunnableProcedureList = z.object({ items: z.array(ZRunnableProcedure) });
export type TRunnableProcedureList = z.infer<typeof ZRunnableProcedureList>;

// ---------------------------------------------------------------- schedules

/** Whether the runtime knows an IANA time zone (`Asia/Shanghai`). */
export function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(zone);
  } catch {
    return false;
  }
}

/**
 * A schedule's next run times after `from` (at most `count`), or null when `cron` is not a cron
 * expression of five fields (minute hour day month weekday; `@daily` and the like too) in a known
 * time zone — or one that never comes again (`0 0 30 2 *`).
 */
export function cronRuns(cron: string, timeZone: string, count: number, from: Date = new Date()): Date[] | null {
  const expression = cron.trim();
  if (!knownTimeZone(timeZone) || expression.length > DATA_FACTORY_LIMITS.cron) return null;
  if (!expression.startsWith('@') && expression.split(/\s+/).length !== 5) return null;
  try {
    const runs = new Cron(expression, { timezone: timeZone, paused: true, mode: '5-part' }).nextRuns(count, from);
    return runs.length > 0 ? runs : null;
  } catch {
    return null;
  }
}

export const ZScheduleInput = z
  .object({
    /** Five fields: minute hour day-of-month month day-of-week (`0 2 * * 1-5`: 02:00 on weekdays). */
    cron: zText().min(1).max(DATA_FACTORY_LIMITS.cron),
    /** The IANA time zone the fields are read in. */
    timeZone: zText().min(1).max(64).refine(knownTimeZone, 'an IANA time zone, such as Asia/Shanghai'),
    /** The IN values of each run; a missing one takes the parameter's default. Checked when saved and when run. */
    parameters: ZRunParameters,
    enabled: z.boolean().default(true),
    description: text(DATA_FACTORY_LIMITS.scheduleDescription).default(''),
  })
  .refine((s) => !knownTimeZone(s.timeZone) || cronRuns(s.cron, s.timeZone, 1) !== null, { path: ['cron'], message: 'a cron expression of five fields (minute hour day month weekday) that has a next time' });
export type TScheduleInput = z.infer<typeof ZScheduleInput>;
export const ZUpdateScheduleInput = ZScheduleInput.safeExtend({ concurrencyStamp: zText().min(1).max(64) });
export type TUpdateScheduleInput = z.infer<typeof ZUpdateScheduleInput>;

export const ZProcedureSchedule = z.object({
  id: z.uuid(),
  procedureId: z.uuid(),
  cron: zText(),
  timeZone: zText(),
  parameters: z.record(z.string(), z.unknown()),
  enabled: z.boolean(),
  description: zText(),
  /** When it runs next (null: disabled). */
  nextRunTime: zText().nullable(),
  lastRunTime: zText().nullable(),
  /** The last run's error, null when it succeeded (or has not run). */
  lastError: zText().nullable(),
  concurrencyStamp: zText(),
  creationTime: zText(),
  creatorName: zText().nullable(),
  lastModificationTime: zText().nullable(),
  lastModifierName: zText().nullable(),
});
export type TProcedureSchedule = z.infer<typeof ZProcedureSchedule>;
export const ZProcedureScheduleList = z.object({ items: z.array(ZProcedureSchedule) });
export type TProcedureScheduleList = z.infer<typeof ZProcedureScheduleList>;
export const ZProcedureScheduleParams = z.object({ id: z.uuid(), scheduleId: z.uuid() });

// ---------------------------------------------------------------- values

const INT4 = 2_147_483_647;
const DECIMAL = /^-?\d{1,131072}(\.\d{1,16383})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A caller's value for a parameter of `type`, as it is bound (text for PostgreSQL to cast, which
 * it does exactly; JSON text for jsonb), or why it is not one. null is always SQL NULL.
 */
export function factoryValue(type: TFactoryType, value: unknown): { ok: true; bound: string | null } | { ok: false } {
  if (value === null || value === undefined) return { ok: true, bound: null };
  const fail = { ok: false } as const;
  switch (type) {
    case 'text':
      return typeof value === 'string' && value.length <= DATA_FACTORY_LIMITS.textValue ? { ok: true, bound: value } : fail;
    case 'integer':
    case 'bigint': {
      const n = typeof value === 'string' && /^-?\d{1,19}$/.test(value.trim()) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isSafeInteger(n)) return fail;
      if (type === 'integer' && Math.abs(n) > INT4 + (n < 0 ? 1 : 0)) return fail;
      return { ok: true, bound: String(n) };
    }
    case 'numeric':
    case 'double':
      if (typeof value === 'number') return Number.isFinite(value) ? { ok: true, bound: String(value) } : fail;
      return typeof value === 'string' && value.length <= 1000 && DECIMAL.test(value.trim()) ? { ok: true, bound: value.trim() } : fail;
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, bound: value ? 'true' : 'false' } : fail;
    case 'date':
      return typeof value === 'string' && DATE.test(value) && validDay(value) ? { ok: true, bound: value } : fail;
    case 'timestamp':
    case 'timestamptz':
      return typeof value === 'string' && TIME.test(value) && validDay(value.slice(0, 10)) ? { ok: true, bound: value } : fail;
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? { ok: true, bound: value.toLowerCase() } : fail;
    case 'jsonb':
      return { ok: true, bound: JSON.stringify(value) };
    case 'refcursor':
      // A cursor's name (PostgreSQL names one itself when given NULL).
      return typeof value === 'string' && value.length <= 63 ? { ok: true, bound: value } : fail;
  }
}

/** A real day of the years 1–9999 (2026-02-30 is not). */
function validDay(day: string): boolean {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A version as text, the lines the version diff compares: the signature, then the body (an external routine: its signature). */
export function procedureText(code: string, def: Pick<TProcedureDefinition, 'parameters' | 'returns' | 'body' | 'routine'>): string {
  const params = def.parameters.map((p) => `  ${p.mode} ${p.name} ${FACTORY_TYPES[p.type]}${p.mode !== 'out' && p.defaultValue !== null ? ` default ${JSON.stringify(p.defaultValue)}` : ''}`);
  if (def.routine) return [`${def.routine.kind} ${def.routine.schema}.${def.routine.name} (`, ...params.map((p, i) => (i < params.length - 1 ? `${p},` : p)), ')'].join('\n');
  const returns = def.returns.kind === 'void' ? (def.parameters.some((p) => p.mode === 'out') ? 'returns record' : 'returns void') : `returns table (${def.returns.columns.map((c) => `${c.name} ${FACTORY_TYPES[c.type]}`).join(', ')})`;
  return [`function factory.${code} (`, ...params.map((p, i) => (i < params.length - 1 ? `${p},` : p)), `) ${returns}`, ...def.body.split(/\r?\n/)].join('\n');
}

// ---------------------------------------------------------------- external routines

export const ZFactorySource = z.object({ id: z.uuid(), name: zText(), kind: z.enum(SQL_SOURCE_KINDS), readOnly: z.boolean() });
export type TFactorySource = z.infer<typeof ZFactorySource>;
export const ZFactorySourceList = z.object({ items: z.array(ZFactorySource) });
export type TFactorySourceList = z.infer<typeof ZFactorySourceList>;
export const ZFactorySourceParams = z.object({ sourceId: z.uuid() });

/** A procedure or function of a source, as its catalogue describes it; `type`: the nearest factory type to the source's own (`sourceType`). */
export const ZSourceRoutine = ZRoutine.extend({
  parameters: z.array(z.object({ name: zText(), mode: z.enum(['in', 'out', 'inout']), type: ZFactoryType, sourceType: zText() })),
});
export type TSourceRoutine = z.infer<typeof ZSourceRoutine>;
export const ZSourceRoutineList = z.object({ items: z.array(ZSourceRoutine) });
export type TSourceRoutineList = z.infer<typeof ZSourceRoutineList>;

/** The factory type nearest to a source's type name (MySQL, PostgreSQL or SQL Server spelling); text when none is nearer. */
export function factoryTypeOf(sourceType: string): TFactoryType {
  const t = sourceType.toLowerCase().replace(/\(.*$/, '').replace(/ unsigned$/, '').trim();
  if (/^(tinyint|smallint|mediumint|int|integer|int2|int4|smallserial|serial)$/.test(t)) return 'integer';
  if (/^(bigint|int8|bigserial)$/.test(t)) return 'bigint';
  if (/^(decimal|numeric|money|smallmoney|dec|fixed)$/.test(t)) return 'numeric';
  if (/^(float|double|double precision|real|float4|float8)$/.test(t)) return 'double';
  if (/^(bit|bool|boolean)$/.test(t)) return 'boolean';
  if (t === 'date') return 'date';
  if (/^(datetime|datetime2|smalldatetime|timestamp|timestamp without time zone)$/.test(t)) return 'timestamp';
  if (/^(timestamptz|timestamp with time zone|datetimeoffset)$/.test(t)) return 'timestamptz';
  if (/^(uuid|uniqueidentifier)$/.test(t)) return 'uuid';
  if (/^(json|jsonb)$/.test(t)) return 'jsonb';
  if (t === 'refcursor') return 'refcursor';
  return 'text';
}
