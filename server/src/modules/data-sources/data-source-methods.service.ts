/*
 * Saved queries of a data source ("methods"): SQL (a database) or a request (an HTTP source) with
 * declared, typed parameters, named by a code that controls refer to (`dataSourceMethod`). Saving
 * checks that the SQL's `:names` (the request's `{{name}}` and path `:name`) and the declared
 * parameters are the same, and reads the result's columns from the source (a reading query runs
 * with `limit 0`; a GET request is sent and its first rows typed). A run fills what it is not given from the defaults, turns each value into its
 * declared type, and may be answered from a per-node cache for `cacheSeconds`.
 */
import {
  sqlDialectOf,
  ZDataSourceMethodParameter,
  ZHttpRequest,
  type TDataSourceMethod,
  type TDataSourceMethodInput,
  type TDataSourceMethodList,
  type TDataSourceMethodParameter,
  type TDataSourceQueryCatalog,
  type TDataSourceQueryResult,
  type TQueryParameterValue,
  type TRunDataSourceMethodInput,
  type TUpdateDataSourceMethodInput,
} from '@tessera/core/contracts/data-sources';
import { httpParameterNames } from '@tessera/core/helpers/http-request';
import { sqlParameterNames } from '@tessera/core/helpers/sql-parameters';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { DataSourceMethodsTable } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { conflict } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { iso, isUniqueViolation } from '../../platform/sql-values.ts';
import { executeStatement, requireSource, type SourceRow } from './data-sources.service.ts';
import { sourceError, sourceInvalid } from './data-sources.messages.ts';
import { forgetSourceAnswers, keepAnswer, keptAnswer } from './source-answers.ts';
import { executeHttpRequest } from './source-http-run.ts';
import * as repo from './data-sources.repository.ts';

const ENTITY_TYPE = 'DataSourceMethod';
type MethodRow = Selectable<DataSourceMethodsTable>;

const ZStoredColumns = z.array(z.object({ name: z.string(), dataType: z.string() }));

export function toMethod(r: MethodRow): TDataSourceMethod {
  return {
    id: r.id,
    sourceId: r.source_id,
    code: r.code,
    name: r.name,
    description: r.description,
    sql: r.sql,
    request: r.request === null ? null : ZHttpRequest.parse(typeof r.request === 'string' ? JSON.parse(r.request) : r.request),
    parameters: z.array(ZDataSourceMethodParameter).parse(r.parameters),
    columns: ZStoredColumns.parse(r.columns),
    cacheSeconds: r.cache_seconds,
    concurrencyStamp: r.concurrency_stamp,
    creationTime: iso(r.creation_time)!,
    lastModificationTime: iso(r.last_modification_time),
  };
}

export async function listDataSourceMethods(ctx: ServiceContext, sourceId: string): Promise<TDataSourceMethodList> {
  await requireSource(ctx, sourceId);
  return { items: (await repo.listMethods(ctx.db, sourceId)).map(toMethod) };
}

async function requireMethod(ctx: ServiceContext, sourceId: string, id: string): Promise<MethodRow> {
  const row = await repo.findMethod(ctx.db, sourceId, id);
  if (!row) throw sourceError(ctx, 404, 'NotFound', 'method.notFound', {}, { details: { id } });
  return row;
}

/** Every source's saved queries that return rows, for the page designer (no SQL, no connection settings). */
export async function dataSourceQueryCatalog(ctx: ServiceContext): Promise<TDataSourceQueryCatalog> {
  const [sources, methods] = await Promise.all([repo.allSources(ctx.db), repo.allMethods(ctx.db)]);
  return {
    items: sources.map((source) => ({
      sourceId: source.id,
      sourceName: source.name,
      kind: source.kind,
      methods: methods
        .filter((m) => m.source_id === source.id)
        .map(toMethod)
        .filter((m) => m.columns.length > 0)
        .map((m) => ({ code: m.code, name: m.name, parameters: m.parameters.map((p) => ({ name: p.name, type: p.type })), columns: m.columns })),
    })),
  };
}

// ---------------------------------------------------------------- values

/** A value as its parameter's type; undefined when it cannot be one. */
function typed(value: TQueryParameterValue, type: TDataSourceMethodParameter['type']): TQueryParameterValue | undefined {
  if (value === null) return null;
  switch (type) {
    case 'text':
      return String(value);
    case 'number': {
      if (typeof value === 'boolean' || (typeof value === 'string' && value.trim() === '')) return undefined;
      const n = Number(value);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === 'true' || value === '1') return true;
      if (value === 0 || value === 'false' || value === '0') return false;
      return undefined;
  }
}

/** The values a run binds: given ones typed, the rest from the defaults; a required one must be given. */
export function runValues(ctx: ServiceContext, parameters: TDataSourceMethodParameter[], given: Record<string, TQueryParameterValue>): Record<string, TQueryParameterValue> {
  const values: Record<string, TQueryParameterValue> = {};
  for (const p of parameters) {
    if (!Object.hasOwn(given, p.name) && p.required) throw sourceInvalid(ctx, 'method.parameterRequired', [`parameters.${p.name}`], { name: p.name });
    const value = typed(Object.hasOwn(given, p.name) ? given[p.name]! : p.defaultValue, p.type);
    if (value === undefined) throw sourceInvalid(ctx, 'method.parameterType', [`parameters.${p.name}`], { name: p.name, type: p.type });
    values[p.name] = value;
  }
  return values;
}

// ---------------------------------------------------------------- saving

/** The SQL's (request's) parameters and the declared ones are the same names; defaults fit their types; SQL for a database, a request for an HTTP source. */
function checkParameters(ctx: ServiceContext, source: SourceRow, input: TDataSourceMethodInput) {
  if (source.kind === 'http' && !input.request) throw sourceInvalid(ctx, 'method.requestMissing', ['request']);
  if (source.kind !== 'http' && !input.sql) throw sourceInvalid(ctx, 'method.sqlMissing', ['sql']);
  if (source.kind !== 'http' && input.request) throw sourceInvalid(ctx, 'source.notHttp', ['request'], { name: source.name });
  const used = source.kind === 'http' ? httpParameterNames(input.request!) : sqlParameterNames(input.sql, sqlDialectOf(source.kind)!);
  const declared = input.parameters.map((p) => p.name);
  const twice = declared.find((name, i) => declared.indexOf(name) !== i);
  if (twice) throw sourceInvalid(ctx, 'method.parameterTwice', ['parameters'], { name: twice });
  const undeclared = used.filter((name) => !declared.includes(name));
  if (undeclared.length > 0) throw sourceInvalid(ctx, 'method.parameterUndeclared', ['parameters'], { names: undeclared.map((n) => `:${n}`).join(', ') });
  const unused = declared.filter((name) => !used.includes(name));
  if (unused.length > 0) throw sourceInvalid(ctx, 'method.parameterUnused', ['parameters'], { names: unused.map((n) => `:${n}`).join(', ') });
  input.parameters.forEach((p, i) => {
    if (typed(p.defaultValue, p.type) === undefined) throw sourceInvalid(ctx, 'method.parameterType', [`parameters.${i}.defaultValue`], { name: p.name, type: p.type });
  });
}

/** The result's columns: the query run with its defaults and no rows (a write has none). */
async function columnsOf(ctx: ServiceContext, source: SourceRow, input: TDataSourceMethodInput) {
  const defaults = Object.fromEntries(input.parameters.map((p) => [p.name, typed(p.defaultValue, p.type) ?? null]));
  if (source.kind === 'http') return (await executeHttpRequest(ctx, source, input.request!, defaults, { columnsOnly: true })).columns;
  return (await executeStatement(ctx, source, input.sql, defaults, { columnsOnly: true })).columns;
}

/** A saved query's stored columns from what was sent and the result's columns; a new stamp. */
const methodColumns = (input: TDataSourceMethodInput, columns: TDataSourceMethod['columns']) => ({
  code: input.code,
  name: input.name,
  description: input.description,
  sql: input.request ? '' : input.sql,
  request: input.request ? JSON.stringify(input.request) : null,
  parameters: JSON.stringify(input.parameters),
  columns: JSON.stringify(columns),
  cache_seconds: input.cacheSeconds,
  concurrency_stamp: uuidv7(),
});

const codeTaken = (ctx: ServiceContext, code: string) => sourceInvalid(ctx, 'method.codeTaken', ['code'], { code });

export async function createDataSourceMethod(ctx: ServiceContext, sourceId: string, input: TDataSourceMethodInput): Promise<TDataSourceMethod> {
  const source = await requireSource(ctx, sourceId);
  checkParameters(ctx, source, input);
  const columns = await columnsOf(ctx, source, input);
  const id = uuidv7();
  try {
    await ctx.db.transaction().execute((trx) =>
      repo.insertMethod(trx, {
        id,
        source_id: sourceId,
        ...methodColumns(input, columns),
        creator_id: ctx.user?.id ?? null,
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(ctx, input.code);
    throw error;
  }
  const created = toMethod(await requireMethod(ctx, sourceId, id));
  await recordAudit(ctx, 'Created', { entityType: ENTITY_TYPE, entityId: id, details: { sourceId, code: created.code, name: created.name, sql: created.sql.slice(0, 2_000), request: created.request } });
  return created;
}

export async function updateDataSourceMethod(ctx: ServiceContext, sourceId: string, id: string, input: TUpdateDataSourceMethodInput): Promise<TDataSourceMethod> {
  const source = await requireSource(ctx, sourceId);
  const existing = await requireMethod(ctx, sourceId, id);
  checkParameters(ctx, source, input);
  const columns = await columnsOf(ctx, source, input);
  let ok: boolean;
  try {
    ok = await ctx.db.transaction().execute((trx) =>
      repo.updateMethodIfStamp(trx, id, input.concurrencyStamp, {
        ...methodColumns(input, columns),
        last_modification_time: new Date(),
        last_modifier_id: ctx.user?.id ?? null,
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(ctx, input.code);
    throw error;
  }
  if (!ok) throw conflict({ id, concurrencyStamp: (await requireMethod(ctx, sourceId, id)).concurrency_stamp });
  forgetSourceAnswers(sourceId);
  const updated = toMethod(await requireMethod(ctx, sourceId, id));
  await recordAudit(ctx, 'Updated', { entityType: ENTITY_TYPE, entityId: id, details: { sourceId, before: { code: existing.code, sql: existing.sql.slice(0, 2_000), request: existing.request }, after: { code: updated.code, sql: updated.sql.slice(0, 2_000), request: updated.request } } });
  return updated;
}

export async function deleteDataSourceMethod(ctx: ServiceContext, sourceId: string, id: string): Promise<void> {
  const existing = await requireMethod(ctx, sourceId, id);
  await ctx.db.transaction().execute((trx) => repo.deleteMethod(trx, id));
  forgetSourceAnswers(sourceId);
  await recordAudit(ctx, 'Deleted', { entityType: ENTITY_TYPE, entityId: id, details: { sourceId, code: existing.code, name: existing.name } });
}

// ---------------------------------------------------------------- running

export async function runDataSourceMethod(ctx: ServiceContext, sourceId: string, id: string, input: TRunDataSourceMethodInput): Promise<TDataSourceQueryResult> {
  const source = await requireSource(ctx, sourceId);
  const method = toMethod(await requireMethod(ctx, sourceId, id));
  const values = runValues(ctx, method.parameters, input.parameters);
  // The stamps too: a query or source saved on another node answers anew here.
  const key = `${sourceId}/run:${method.id}:${method.concurrencyStamp}:${source.concurrency_stamp}:${JSON.stringify(method.parameters.map((p) => values[p.name]))}`;
  const now = Date.now();
  const held = keptAnswer<TDataSourceQueryResult>(key, now);
  if (held) return { ...held, cached: true };
  const result = method.request ? await executeHttpRequest(ctx, source, method.request, values) : await executeStatement(ctx, source, method.sql, values);
  // An HTTP query's answer is kept when it only reads (GET / HEAD); a database's when it changed no rows.
  const reads = method.request ? method.request.method === 'GET' || method.request.method === 'HEAD' : result.affectedRows === null;
  if (method.cacheSeconds > 0 && reads) keepAnswer(key, result, now + method.cacheSeconds * 1000);
  return result;
}
