/*
 * Data sources (`/dataSet/source`): external databases — list, read, create, save, delete, test a
 * connection, browse schemas, tables, views and columns, and run a query with named parameters.
 * Passwords are sealed with the installation's key and never answered; a read-only source runs
 * only reading statements (checked here, and its sessions are read-only on the server too).
 */
import type { TCreateDataSourceInput, TDataSource, THttpSourceSettings, TDataSourceColumns, TDataSourceList, TDataSourceObjects, TDataSourceQuery, TDataSourceQueryInput, TDataSourceQueryResult, TDataSourceTestResult, TQueryParameterValue, TTestDataSourceInput, TUpdateDataSourceInput } from '@tessera/core/contracts/data-sources';
import { bindSqlParameters, sqlStatements, type SqlDialect } from '@tessera/core/helpers/sql-parameters';
import type { Selectable } from 'kysely';
import type { DataSourcesTable } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { conflict } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { pageWindow, parseSorting } from '../../platform/paging.ts';
import { sealSecret } from '../../platform/secrets.ts';
import { iso } from '../../platform/sql-values.ts';
import { sourceError, sourceInvalid } from './data-sources.messages.ts';
import { failed, httpSettingsOf, storedPassword } from './source-failures.ts';
import { executeHttpRequest, testHttpSettings } from './source-http-run.ts';
import { forgetSourceAnswers } from './source-answers.ts';
import * as repo from './data-sources.repository.ts';
import { cappedSql, columnsSql, objectsSql, SYSTEM_SCHEMAS, versionSql } from './source-sql.ts';
import { dropSourceClient, jsonValue, openSourceClient, SourceError, sourceClient, type SourceClient, type SourceSettings } from './source-clients.ts';
import { OWN_VIEW_OWNER_PREFIX, OWN_VIEWS_SCHEMA, sqlDialectOf, type TSqlSourceKind } from '@tessera/core/contracts/data-sources';

const ENTITY_TYPE = 'DataSource';
export type SourceRow = Selectable<DataSourcesTable>;

// ---------------------------------------------------------------- reading

function toSource(r: SourceRow): TDataSource {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    kind: r.kind,
    host: r.host,
    port: r.port,
    database: r.database_name,
    user: r.user_name,
    ssl: r.ssl,
    hasPassword: r.sealed_password !== null,
    http: r.kind === 'http' ? httpSettingsOf(r) : null,
    poolSize: r.pool_size,
    statementTimeoutSeconds: r.statement_timeout_seconds,
    rowCap: r.row_cap,
    readOnly: r.read_only,
    concurrencyStamp: r.concurrency_stamp,
    creationTime: iso(r.creation_time)!,
    lastModificationTime: iso(r.last_modification_time),
  };
}

const SORTING = { name: 'name', kind: 'kind', host: 'host', creationtime: 'creation_time', lastmodificationtime: 'last_modification_time' } as const satisfies Record<string, repo.SourceSortColumn>;

export async function listDataSources(ctx: ServiceContext, query: TDataSourceQuery): Promise<TDataSourceList> {
  const filter: repo.SourceFilter = { text: query.Filter?.trim() || undefined, kind: query.Kind };
  const sort = parseSorting<repo.SourceSortColumn>(query.Sorting, SORTING, { column: 'creation_time', direction: 'desc' });
  const [totalCount, rows] = await Promise.all([repo.countSources(ctx.db, filter), repo.listSources(ctx.db, filter, sort, pageWindow(query))]);
  return { items: rows.map(toSource), totalCount };
}

export async function requireSource(ctx: ServiceContext, id: string): Promise<SourceRow> {
  const row = await repo.findSource(ctx.db, id);
  if (!row) throw sourceError(ctx, 404, 'NotFound', 'source.notFound', {}, { details: { id } });
  return row;
}

export async function getDataSource(ctx: ServiceContext, id: string): Promise<TDataSource> {
  return toSource(await requireSource(ctx, id));
}

// ---------------------------------------------------------------- writing

function columnsOf(input: TCreateDataSourceInput | TUpdateDataSourceInput) {
  const common = { name: input.name, description: input.description, kind: input.kind, row_cap: input.rowCap, read_only: input.readOnly };
  if (input.kind === 'own') {
    return {
      ...common,
      read_only: true,
      host: '',
      port: 0,
      database_name: '',
      user_name: '',
      ssl: false,
      pool_size: input.poolSize,
      statement_timeout_seconds: input.statementTimeoutSeconds,
      http_settings: null,
      timeout_ms: null,
    };
  }
  if (input.kind !== 'http') {
    return {
      ...common,
      host: input.host,
      port: input.port,
      database_name: input.database,
      user_name: input.user,
      ssl: input.ssl,
      pool_size: input.poolSize,
      statement_timeout_seconds: input.statementTimeoutSeconds,
      http_settings: null,
      timeout_ms: null,
    };
  }
  // host, port and ssl are the base URL's (the list shows and searches them); the timeout in whole seconds too.
  const url = new URL(input.baseUrl);
  const settings: Omit<THttpSourceSettings, 'timeoutMs'> = { baseUrl: input.baseUrl, headers: input.headers, auth: input.auth, testPath: input.testPath };
  return {
    ...common,
    host: url.hostname,
    port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
    database_name: '',
    user_name: input.auth.kind === 'basic' ? input.auth.username : '',
    ssl: url.protocol === 'https:',
    pool_size: input.poolSize,
    statement_timeout_seconds: Math.min(300, Math.max(1, Math.ceil(input.timeoutMs / 1000))),
    http_settings: JSON.stringify(settings),
    timeout_ms: input.timeoutMs,
  };
}

/** The password or, for an HTTP source, the secret of its authentication (absent keeps, '' removes). */
const secretOf = (input: TCreateDataSourceInput | TUpdateDataSourceInput) => (input.kind === 'http' ? input.secret : input.kind === 'own' ? undefined : input.password);

const auditOf = (s: TDataSource) => ({ name: s.name, kind: s.kind, host: s.host, port: s.port, database: s.database, user: s.user, readOnly: s.readOnly, hasPassword: s.hasPassword });

export async function createDataSource(ctx: ServiceContext, input: TCreateDataSourceInput): Promise<TDataSource> {
  const id = uuidv7();
  await ctx.db.transaction().execute((trx) =>
    repo.insertSource(trx, {
      id,
      ...columnsOf(input),
      sealed_password: secretOf(input) ? sealSecret(ctx.config, secretOf(input)!, id) : null,
      concurrency_stamp: uuidv7(),
      creator_id: ctx.user?.id ?? null,
    }),
  );
  const created = await getDataSource(ctx, id);
  await recordAudit(ctx, 'Created', { entityType: ENTITY_TYPE, entityId: id, details: { after: auditOf(created) } });
  return created;
}

export async function updateDataSource(ctx: ServiceContext, id: string, input: TUpdateDataSourceInput): Promise<TDataSource> {
  const existing = await requireSource(ctx, id);
  const secret = secretOf(input);
  const password = secret === undefined ? {} : { sealed_password: secret === '' ? null : sealSecret(ctx.config, secret, id) };
  const ok = await ctx.db.transaction().execute((trx) =>
    repo.updateSourceIfStamp(trx, id, input.concurrencyStamp, {
      ...columnsOf(input),
      ...password,
      concurrency_stamp: uuidv7(),
      last_modification_time: new Date(),
      last_modifier_id: ctx.user?.id ?? null,
    }),
  );
  if (!ok) throw conflict({ id, concurrencyStamp: (await requireSource(ctx, id)).concurrency_stamp });
  await dropSourceClient(id);
  forgetSourceAnswers(id);
  const updated = await getDataSource(ctx, id);
  await recordAudit(ctx, 'Updated', { entityType: ENTITY_TYPE, entityId: id, details: { before: auditOf(toSource(existing)), after: auditOf(updated), passwordChanged: secret !== undefined } });
  return updated;
}

export async function deleteDataSource(ctx: ServiceContext, id: string): Promise<void> {
  const existing = await requireSource(ctx, id);
  await ctx.db.transaction().execute((trx) => repo.deleteSource(trx, id));
  await dropSourceClient(id);
  forgetSourceAnswers(id);
  await recordAudit(ctx, 'Deleted', { entityType: ENTITY_TYPE, entityId: id, details: { before: auditOf(toSource(existing)) } });
}

// ---------------------------------------------------------------- connecting

const settingsOf = (ctx: ServiceContext, row: Pick<SourceRow, 'kind' | 'host' | 'port' | 'database_name' | 'user_name' | 'ssl' | 'pool_size' | 'statement_timeout_seconds' | 'read_only'>, password: string | null): SourceSettings => ({
  kind: row.kind as TSqlSourceKind | 'own',
  ...(row.kind === 'own' ? { own: { db: ctx.db, databaseUrl: ctx.config.databaseUrl ?? null } } : {}),
  host: row.host,
  port: row.port,
  database: row.database_name,
  user: row.user_name,
  password,
  ssl: row.ssl,
  poolSize: row.pool_size,
  statementTimeoutSeconds: row.statement_timeout_seconds,
  readOnly: row.read_only,
});

/** The pool of a database source; an HTTP source has none (its routes that take SQL answer 400). */
export function clientOf(ctx: ServiceContext, row: SourceRow): SourceClient {
  if (row.kind === 'http') throw sourceInvalid(ctx, 'source.notSql', ['sql'], { name: row.name });
  return sourceClient(row.id, row.concurrency_stamp, () => settingsOf(ctx, row, row.kind === 'own' ? null : storedPassword(ctx, row)));
}

async function versionOf(client: SourceClient, kind: TSqlSourceKind): Promise<TDataSourceTestResult> {
  const started = performance.now();
  try {
    const result = await client.query(versionSql(kind), []);
    return { ok: true, version: String(result.rows[0]?.[0] ?? ''), elapsedMs: Math.round(performance.now() - started), message: null };
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    return { ok: false, version: null, elapsedMs: Math.round(performance.now() - started), message: error.message.slice(0, 500) };
  }
}

/** Settings being edited: a connection of their own, closed after the answer. */
export async function testDataSourceSettings(ctx: ServiceContext, input: TTestDataSourceInput): Promise<TDataSourceTestResult> {
  if (input.kind === 'own') return versionOfOpened(openSourceClient(settingsOf(ctx, { ...columnsOf(input), pool_size: 1 }, null)), 'postgres');
  const given = input.kind === 'http' ? input.secret : input.password;
  let password = given ?? null;
  if (given === undefined && input.sourceId) password = storedPassword(ctx, await requireSource(ctx, input.sourceId));
  if (input.kind === 'http') return testHttpSettings(input, password || null);
  return versionOfOpened(openSourceClient({ ...input, password: password || null, poolSize: 1 }), input.kind);
}

/** The version through a connection of its own, closed after the answer. */
async function versionOfOpened(client: SourceClient, kind: TSqlSourceKind): Promise<TDataSourceTestResult> {
  try {
    return await versionOf(client, kind);
  } finally {
    await client.close().catch(() => undefined);
  }
}

export async function testDataSource(ctx: ServiceContext, id: string): Promise<TDataSourceTestResult> {
  const row = await requireSource(ctx, id);
  if (row.kind === 'http') return testHttpSettings(httpSettingsOf(row), storedPassword(ctx, row));
  return versionOf(clientOf(ctx, row), sqlDialectOf(row.kind)!);
}

// ---------------------------------------------------------------- browsing

const MAX_OBJECTS = 5_000;

/** What a view of a published page shows: its comment after the line that names its page. */
const ownComment = (comment: string | null) => (comment?.startsWith(OWN_VIEW_OWNER_PREFIX) ? comment.split('\n').slice(1).join(' ') || null : comment);

export async function listDataSourceObjects(ctx: ServiceContext, id: string): Promise<TDataSourceObjects> {
  const row = await requireSource(ctx, id);
  if (row.kind === 'own') {
    const views = await repo.ownViews(ctx.db);
    return { schemas: [{ name: OWN_VIEWS_SCHEMA, tables: views.map((v) => ({ name: v.name, kind: 'view' as const, comment: ownComment(v.comment) })) }] };
  }
  const client = clientOf(ctx, row);
  const kind = row.kind as TSqlSourceKind;
  let result;
  try {
    result = await client.query(objectsSql(kind, MAX_OBJECTS), SYSTEM_SCHEMAS[kind]);
  } catch (error) {
    throw failed(ctx, row, error);
  }
  const schemas = new Map<string, TDataSourceObjects['schemas'][number]>();
  for (const [schema, table, type] of result.rows as [string, string, string][]) {
    if (row.kind === 'postgres' && schema.startsWith('pg_temp')) continue;
    let entry = schemas.get(schema);
    if (!entry) schemas.set(schema, (entry = { name: schema, tables: [] }));
    entry.tables.push({ name: table, kind: /VIEW/i.test(type) ? 'view' : 'table' });
  }
  return { schemas: [...schemas.values()] };
}

export async function listDataSourceColumns(ctx: ServiceContext, id: string, schema: string, table: string): Promise<TDataSourceColumns> {
  const row = await requireSource(ctx, id);
  if (row.kind === 'own') {
    const columns = schema === OWN_VIEWS_SCHEMA ? await repo.ownViewColumns(ctx.db, table) : [];
    return { columns: columns.map((c) => ({ name: c.name, dataType: c.type, nullable: c.name !== 'Id', isPrimaryKey: c.name === 'Id', comment: c.comment })) };
  }
  const client = clientOf(ctx, row);
  const sql = columnsSql(row.kind as TSqlSourceKind);
  try {
    const result = await client.query(sql, [schema, table]);
    return { columns: (result.rows as [string, string, unknown, unknown][]).map(([name, dataType, nullable, key]) => ({ name, dataType, nullable: truthy(nullable), isPrimaryKey: truthy(key) })) };
  } catch (error) {
    throw failed(ctx, row, error);
  }
}

/** MySQL and SQL Server answer comparisons as 0 / 1 (MySQL's as text with bigNumberStrings off for small ints: numbers). */
const truthy = (v: unknown) => v === true || v === 1 || v === '1';

// ---------------------------------------------------------------- querying

/** Statements a read-only source runs; the first three are capped in the database (a wrapping select with a limit). */
const CAPPED_READS = new Set(['select', 'with', 'values']);
const OTHER_READS = new Set(['show', 'describe', 'desc', 'explain', 'table']);

/**
 * Runs one statement of a source with named parameters (bound, never in the text): refused when it
 * is several statements, a write on a read-only source, or lacks a parameter's value. Reads are
 * capped in the database at the source's row cap (`columnsOnly`: no rows at all, for a saved
 * query's columns).
 */
export async function executeStatement(ctx: ServiceContext, row: SourceRow, sql: string, values: Record<string, TQueryParameterValue>, options: { columnsOnly?: boolean } = {}): Promise<TDataSourceQueryResult> {
  if (row.kind === 'http') throw sourceInvalid(ctx, 'source.notSql', ['sql'], { name: row.name });
  const dialect: SqlDialect = sqlDialectOf(row.kind)!;
  const statements = sqlStatements(sql, dialect);
  if (statements.count !== 1) throw sourceInvalid(ctx, 'source.oneStatement', ['sql']);
  const keyword = statements.keywords[0]!;
  if (row.read_only && !CAPPED_READS.has(keyword) && !OTHER_READS.has(keyword)) throw sourceError(ctx, 400, 'DataSource.ReadOnly', 'source.readOnly', { name: row.name }, { members: ['sql'] });
  const capped = CAPPED_READS.has(keyword);
  if (options.columnsOnly && !capped) return { columns: [], rows: [], rowCount: 0, truncated: false, affectedRows: null, elapsedMs: 0, cached: false };
  const bound = bindSqlParameters(sql.replace(/;\s*$/, ''), dialect, values);
  if (bound.missing.length > 0) throw sourceInvalid(ctx, 'source.missingParameters', ['parameters'], { names: bound.missing.join(', ') });
  // One more row than the cap tells whether there were more.
  const limit = options.columnsOnly ? 0 : row.row_cap + 1;
  const text = capped ? cappedSql(dialect, bound.sql, limit) : bound.sql;
  const started = performance.now();
  let result;
  try {
    result = await clientOf(ctx, row).query(text, bound.parameters);
  } catch (error) {
    throw failed(ctx, row, error);
  }
  const elapsedMs = Math.round(performance.now() - started);
  const truncated = !options.columnsOnly && result.rows.length > row.row_cap;
  const names = uniqueNames(result.columns.map((c) => c.name));
  const rows = result.rows.slice(0, options.columnsOnly ? 0 : row.row_cap).map((values) => Object.fromEntries(names.map((name, i) => [name, jsonValue(values[i])])));
  return { columns: result.columns.map((c, i) => ({ name: names[i]!, dataType: c.dataType })), rows, rowCount: rows.length, truncated, affectedRows: result.affectedRows, elapsedMs, cached: false };
}

export async function runDataSourceQuery(ctx: ServiceContext, id: string, input: TDataSourceQueryInput): Promise<TDataSourceQueryResult> {
  const row = await requireSource(ctx, id);
  if (input.request) {
    if (row.kind !== 'http') throw sourceInvalid(ctx, 'source.notHttp', ['request'], { name: row.name });
    const answer = await executeHttpRequest(ctx, row, input.request, input.parameters, { checkParameters: true });
    await recordAudit(ctx, 'Queried', { entityType: ENTITY_TYPE, entityId: id, details: { request: { method: input.request.method, path: input.request.path.slice(0, 2_000) }, parameters: Object.keys(input.parameters), rows: answer.rowCount, elapsedMs: answer.elapsedMs } });
    return answer;
  }
  const result = await executeStatement(ctx, row, input.sql, input.parameters);
  await recordAudit(ctx, 'Queried', { entityType: ENTITY_TYPE, entityId: id, details: { sql: input.sql.slice(0, 2_000), parameters: Object.keys(input.parameters), rows: result.rowCount, affectedRows: result.affectedRows, elapsedMs: result.elapsedMs } });
  return result;
}

/** Column names made unique (`select 1 as a, 2 as a` → a, a_2), so no value hides another. */
export function uniqueNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    let unique = name || '?column?';
    for (let n = 2; seen.has(unique); n++) unique = `${name}_${n}`;
    seen.add(unique);
    return unique;
  });
}
