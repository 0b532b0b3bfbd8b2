/*
 * Connections to external databases: one pool per source and node (its own size and timeouts, so
 * one slow source cannot take the others' connections), kept while the source's settings stay the
 * same (its concurrency stamp), closed when they change or it is deleted. PostgreSQL through `pg`,
 * MySQL / MariaDB through `mysql2`, SQL Server through `tedious` (in a `tarn` pool). Every
 * statement has a time limit on the server (PostgreSQL's statement_timeout, MariaDB's
 * max_statement_time, MySQL's max_execution_time; SQL Server has none per session: tedious cancels
 * the request) and in the client (the limit plus a grace period), and a read-only source's sessions
 * are read-only on the server too (PostgreSQL, MySQL). Values come back as JSON: exact decimals,
 * 64-bit integers and dates as the server writes them (SQL Server's decimals as tedious reads them:
 * JavaScript numbers), bytes as base64.
 */
import mysql, { type FieldPacket, type Pool as MysqlPool, type ResultSetHeader } from 'mysql2/promise';
import pg from 'pg';
import { Pool as TarnPool } from 'tarn';
import { Connection, Request, TYPES } from 'tedious';
import { sql, type Kysely } from 'kysely';
import { OWN_VIEWS_SCHEMA, type TSqlSourceKind } from '@tessera/core/contracts/data-sources';
import type { Database } from '../../db/schema.ts';
import { arrayRowsQuery, type ArrayRowsResult } from '../../db/pglite-dialect.ts';
import { ownViews } from './data-sources.repository.ts';
import { loadSqlParser, ownSqlRefusal, type OwnSqlRefusal } from './own-sql-guard.ts';
import { mssqlCall, mssqlParameter, mysqlCall, postgresCall, type RoutineCall } from './source-routines.ts';

type TDataSourceKind = TSqlSourceKind | 'own';

export interface SourceSettings {
  kind: TDataSourceKind;
  host: string;
  port: number;
  database: string;
  user: string;
  password: string | null;
  ssl: boolean;
  poolSize: number;
  statementTimeoutSeconds: number;
  readOnly: boolean;
  /** PostgreSQL: connect by this URL instead (the product's own database on a server). */
  connectionString?: string;
  /** PostgreSQL: the sessions' search path. */
  searchPath?: string;
  /** The product's own database (kind `own`): its handle, and its server's URL (none: embedded). */
  own?: { db: Kysely<Database>; databaseUrl: string | null };
}

export interface SourceResult {
  columns: { name: string; dataType: string }[];
  /** Rows as arrays, in the order of `columns`. */
  rows: unknown[][];
  affectedRows: number | null;
}

/** A routine's answer: each result set it returned, in order, and its OUT / INOUT values by name. */
export interface RoutineAnswer {
  resultSets: SourceResult[];
  outs: Record<string, unknown>;
}

export interface SourceClient {
  query(sql: string, parameters: unknown[]): Promise<SourceResult>;
  /** Calls a stored procedure or function (source-routines.ts): on one connection, under the same limits as a query. */
  call(routine: RoutineCall): Promise<RoutineAnswer>;
  close(): Promise<void>;
}

/** What went wrong, as the API tells it. */
/** `response`: an HTTP source answered, but not with JSON of a 2xx status (or too much of it). */
/** `refused`: the product's own database does not run that query (own-sql-guard.ts; `refusal` says why). */
export type SourceFailure = 'unavailable' | 'timeout' | 'readOnly' | 'query' | 'response' | 'refused';
export class SourceError extends Error {
  constructor(
    readonly failure: SourceFailure,
    message: string,
    readonly refusal: OwnSqlRefusal | null = null,
  ) {
    super(message);
  }
}

/** The client waits this much longer than the server's own limit before giving up on an answer. */
const GRACE_MS = 2_000;
/** A connection attempt gives up after this long (a source that is down answers quickly, never hangs a request). */
const CONNECT_TIMEOUT_MS = 5_000;

// ---------------------------------------------------------------- PostgreSQL

// Types pg would turn into JavaScript Dates (shifted into this server's zone): kept as the server's text.
const PG_TEXT_TYPES = new Set([1082, 1083, 1114, 1184, 1266]);
/** The type of a cursor's name (`refcursor`). */
const PG_REFCURSOR = 1790;
const PG_TYPE_NAMES: Record<number, string> = {
  16: 'boolean', 17: 'bytea', 18: 'char', 19: 'name', 20: 'bigint', 21: 'smallint', 23: 'integer', 25: 'text', 26: 'oid', 114: 'json',
  700: 'real', 701: 'double precision', 1042: 'character', 1043: 'character varying', 1082: 'date', 1083: 'time', 1114: 'timestamp',
  1184: 'timestamp with time zone', 1266: 'time with time zone', 1700: 'numeric', 1790: 'refcursor', 2950: 'uuid', 3802: 'jsonb',
};

const PG_FAILURES: [RegExp, SourceFailure][] = [
  [/^(08|28|3D|53|57P0[1-3])/, 'unavailable'], // connection, authentication, unknown database, resources, shutting down
  [/^57014$/, 'timeout'], // query_canceled (statement_timeout)
  [/^25006$/, 'readOnly'], // read_only_sql_transaction
];

function pgFailure(error: unknown): SourceError {
  const e = error as { code?: string; message?: string };
  const message = e.message ?? String(error);
  const code = e.code ?? '';
  for (const [pattern, failure] of PG_FAILURES) if (pattern.test(code)) return new SourceError(failure, message);
  if (/^[0-9A-Z]{5}$/.test(code)) return new SourceError('query', message);
  if (/Query read timeout/i.test(message)) return new SourceError('timeout', message);
  return new SourceError('unavailable', message); // ECONNREFUSED, ENOTFOUND, "timeout exceeded when trying to connect", a reset
}

function postgresClient(s: SourceSettings): SourceClient {
  const timeoutMs = s.statementTimeoutSeconds * 1000;
  const options = [s.readOnly ? '-c default_transaction_read_only=on' : '', s.searchPath ? `-c search_path=${s.searchPath}` : ''].filter(Boolean).join(' ');
  const pool = new pg.Pool({
    ...(s.connectionString ? { connectionString: s.connectionString } : {}),
    host: s.host,
    port: s.port,
    database: s.database,
    user: s.user,
    password: s.password ?? undefined,
    ssl: s.ssl ? { rejectUnauthorized: false } : undefined,
    max: s.poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + GRACE_MS,
    application_name: 'tessera',
    options: options || undefined,
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (PG_TEXT_TYPES.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser },
  });
  // An idle connection the source drops must not bring the process down.
  pool.on('error', () => undefined);
  /** A statement on `on` (the pool, or the one connection of a call's transaction). */
  const run = async (on: pg.Pool | pg.PoolClient, sql: string, parameters: unknown[]): Promise<SourceResult & { typeIds: number[] }> => {
    try {
      const result = await on.query({ text: sql, values: parameters, rowMode: 'array' });
      const writes = /^(INSERT|UPDATE|DELETE|MERGE)$/.test(result.command ?? '');
      return {
        columns: (result.fields ?? []).map((f) => ({ name: f.name, dataType: PG_TYPE_NAMES[f.dataTypeID] ?? `oid ${f.dataTypeID}` })),
        rows: (result.rows as unknown[][]) ?? [],
        affectedRows: writes ? (result.rowCount ?? 0) : null,
        typeIds: (result.fields ?? []).map((f) => f.dataTypeID),
      };
    } catch (error) {
      throw pgFailure(error);
    }
  };
  const query = async (sql: string, parameters: unknown[]): Promise<SourceResult> => {
    const { typeIds: _, ...result } = await run(pool, sql, parameters);
    return result;
  };
  return {
    query,
    /**
     * One transaction on one connection, so the cursors the routine opens (refcursor OUT values, a
     * function's `setof refcursor`) are still open to be fetched — each one more result set,
     * capped — before it ends.
     */
    async call(routine) {
      const statement = postgresCall(routine);
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw pgFailure(error);
      }
      try {
        await run(client, 'begin', []);
        const { typeIds, ...result } = await run(client, statement.sql, statement.values);
        const cursors = async (names: unknown[]) => {
          const sets: SourceResult[] = [];
          for (const name of names) {
            if (typeof name !== 'string') continue;
            const { typeIds: _, ...set } = await run(client, `fetch forward ${Math.max(0, Math.trunc(routine.limit))} from "${name.replace(/"/g, '""')}"`, []);
            sets.push(set);
          }
          return sets;
        };
        // A procedure's one row, or a function's with OUT parameters, holds their values in their order; else its rows are the result.
        const outNames = routine.parameters.filter((p) => p.mode !== 'in').map((p) => p.name);
        let answer: RoutineAnswer;
        if (routine.routine.kind === 'procedure' || outNames.length > 0) {
          const first = result.rows[0] ?? [];
          answer = { resultSets: await cursors(typeIds.flatMap((id, i) => (id === PG_REFCURSOR ? [first[i]] : []))), outs: Object.fromEntries(outNames.map((name, i) => [name, first[i] ?? null])) };
        } else if (typeIds.length === 1 && typeIds[0] === PG_REFCURSOR) {
          answer = { resultSets: await cursors(result.rows.map((r) => r[0])), outs: {} };
        } else {
          answer = { resultSets: [result], outs: {} };
        }
        await run(client, 'commit', []);
        client.release();
        return answer;
      } catch (error) {
        // A connection whose transaction failed is not put back as it is.
        client.release(true);
        throw error;
      }
    },
    close: () => pool.end(),
  };
}

// ---------------------------------------------------------------- MySQL / MariaDB

const MYSQL_TYPE_NAMES = Object.fromEntries(Object.entries(mysql.Types).map(([name, code]) => [code, name.toLowerCase()])) as Record<number, string>;

const MYSQL_FAILURES: [(e: { code?: string; errno?: number }) => boolean, SourceFailure][] = [
  [(e) => e.errno === 1969 || e.errno === 3024 || e.code === 'PROTOCOL_SEQUENCE_TIMEOUT', 'timeout'], // max_statement_time, max_execution_time, the client's limit
  [(e) => e.errno === 1792 || e.errno === 1290, 'readOnly'], // read-only transaction, --read-only server
  [(e) => e.errno === 1045 || e.errno === 1044 || e.errno === 1049 || e.errno === 1040 || e.errno === 1129 || e.errno === 1130, 'unavailable'], // access, unknown database, too many connections, host blocked
  [(e) => typeof e.errno === 'number' && e.errno >= 1000 && e.errno < 5000, 'query'],
];

function mysqlFailure(error: unknown): SourceError {
  const e = error as { code?: string; errno?: number; message?: string; sqlMessage?: string };
  const message = e.sqlMessage ?? e.message ?? String(error);
  for (const [test, failure] of MYSQL_FAILURES) if (test(e)) return new SourceError(failure, message);
  return new SourceError('unavailable', message); // ECONNREFUSED, ETIMEDOUT, a lost connection
}

function mysqlClient(s: SourceSettings): SourceClient {
  const timeoutMs = s.statementTimeoutSeconds * 1000;
  const pool: MysqlPool = mysql.createPool({
    host: s.host,
    port: s.port,
    database: s.database,
    user: s.user,
    password: s.password ?? undefined,
    ssl: s.ssl ? { rejectUnauthorized: false } : undefined,
    connectionLimit: s.poolSize,
    // Idle connections stay up to 30 s (mysql2 closes every idle one past maxIdle each second).
    maxIdle: s.poolSize,
    idleTimeout: 30_000,
    connectTimeout: CONNECT_TIMEOUT_MS,
    multipleStatements: false,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    charset: 'utf8mb4',
  });
  // Each new session: the statement limit (MariaDB's variable or MySQL's: one of the two fails and
  // is ignored) and, for a read-only source, read-only transactions. They run before any query.
  pool.pool.on('connection', (connection) => {
    const ignore = () => undefined;
    connection.query(`set session max_statement_time = ${s.statementTimeoutSeconds}`, ignore);
    connection.query(`set session max_execution_time = ${timeoutMs}`, ignore);
    if (s.readOnly) connection.query('set session transaction read only', ignore);
  });
  const columnsOf = (fields: FieldPacket[] | undefined) => (fields ?? []).map((f) => ({ name: f.name, dataType: MYSQL_TYPE_NAMES[f.columnType ?? f.type ?? -1] ?? 'unknown' }));
  return {
    async query(sql, parameters) {
      try {
        const [result, fields] = await pool.query({ sql, values: parameters, rowsAsArray: true, timeout: timeoutMs + GRACE_MS });
        if (!Array.isArray(result)) return { columns: [], rows: [], affectedRows: (result as ResultSetHeader).affectedRows };
        return { columns: columnsOf(fields as FieldPacket[]), rows: result as unknown[][], affectedRows: null };
      } catch (error) {
        throw mysqlFailure(error);
      }
    },
    async call(routine) {
      const statements = mysqlCall(routine);
      let connection;
      try {
        connection = await pool.getConnection();
      } catch (error) {
        throw mysqlFailure(error);
      }
      try {
        const run = (sql: string, values: unknown[]) => connection.query({ sql, values, rowsAsArray: true, timeout: timeoutMs + GRACE_MS });
        for (const s of statements.setup) await run(s.sql, s.values);
        const [result, fields] = await run(statements.call.sql, statements.call.values);
        // A CALL answers each result set with its fields, then a header of what it changed; a function's select, one set.
        const resultSets: SourceResult[] = [];
        if (routine.routine.kind === 'function') resultSets.push({ columns: columnsOf(fields as FieldPacket[]), rows: result as unknown[][], affectedRows: null });
        else if (Array.isArray(result)) {
          (result as unknown[]).forEach((set, i) => {
            if (Array.isArray(set)) resultSets.push({ columns: columnsOf((fields as unknown as (FieldPacket[] | undefined)[])[i]), rows: set as unknown[][], affectedRows: null });
          });
        }
        let outs: Record<string, unknown> = {};
        if (statements.outs) {
          const [values, outFields] = await run(statements.outs.sql, statements.outs.values);
          const row = ((values as unknown[][])[0] ?? []) as unknown[];
          outs = Object.fromEntries(columnsOf(outFields as FieldPacket[]).map((c, i) => [c.name, row[i] ?? null]));
        }
        return { resultSets, outs };
      } catch (error) {
        throw mysqlFailure(error);
      } finally {
        connection.release();
      }
    },
    close: () => pool.end(),
  };
}

// ---------------------------------------------------------------- SQL Server

// SQL Server through tedious, with a tarn pool of connections (what Kysely's MSSQL dialect uses).
// There is no SQL Server on the build machine: this client is exercised against a port nobody
// listens on (it must answer "unavailable" quickly); its SQL is tested as text (source-sql.test.ts).

/** A value's type for tedious: whole numbers as BigInt, other numbers as Float, booleans as Bit, the rest NVarChar. */
function mssqlType(value: unknown) {
  if (typeof value === 'number') return Number.isInteger(value) ? TYPES.BigInt : TYPES.Float;
  if (typeof value === 'boolean') return TYPES.Bit;
  return TYPES.NVarChar;
}

function mssqlFailure(error: unknown): SourceError {
  const e = error as { code?: string; number?: number; message?: string };
  const message = e.message ?? String(error);
  if (e.code === 'ETIMEOUT' && e.number === undefined && /request|timeout: request/i.test(message)) return new SourceError('timeout', message);
  if (e.number === 3906 || e.number === 3908) return new SourceError('readOnly', message); // a read-only database
  if (typeof e.number === 'number' && e.number !== 18456 && e.number !== 4060) return new SourceError('query', message); // not a login or database refusal
  return new SourceError('unavailable', message); // ESOCKET, ELOGIN, a connection timeout
}

function mssqlClient(s: SourceSettings): SourceClient {
  const timeoutMs = s.statementTimeoutSeconds * 1000;
  const pool = new TarnPool<Connection>({
    create: () =>
      new Promise<Connection>((resolve, reject) => {
        const connection = new Connection({
          server: s.host,
          authentication: { type: 'default', options: { userName: s.user, password: s.password ?? '' } },
          options: {
            port: s.port,
            database: s.database,
            encrypt: s.ssl,
            trustServerCertificate: true,
            connectTimeout: CONNECT_TIMEOUT_MS,
            requestTimeout: timeoutMs,
            appName: 'tessera',
            // A read-only source asks for a read-only replica where there is one; the product runs only reading statements on it.
            readOnlyIntent: s.readOnly,
          },
        });
        // A connection the source drops must not bring the process down.
        connection.on('error', () => undefined);
        connection.connect((error) => (error ? reject(error) : resolve(connection)));
      }),
    destroy: (connection) => connection.close(),
    validate: (connection) => !(connection as unknown as { closed?: boolean }).closed,
    min: 0,
    max: s.poolSize,
    createTimeoutMillis: CONNECT_TIMEOUT_MS,
    acquireTimeoutMillis: CONNECT_TIMEOUT_MS + timeoutMs,
    idleTimeoutMillis: 30_000,
    propagateCreateError: true,
  });
  /** Runs one request on a pooled connection: every result set, and the OUTPUT values by their bound names. */
  const execute = async (sql: string, bind: (request: Request) => void): Promise<{ sets: SourceResult[]; outputs: Record<string, unknown>; rowCount: number }> => {
    let connection: Connection;
    try {
      connection = await pool.acquire().promise;
    } catch (error) {
      throw mssqlFailure(error);
    }
    try {
      return await new Promise((resolve, reject) => {
        const sets: SourceResult[] = [];
        const outputs: Record<string, unknown> = {};
        const request = new Request(sql, (error, rowCount) => (error ? reject(mssqlFailure(error)) : resolve({ sets, outputs, rowCount: rowCount ?? 0 })));
        bind(request);
        request.on('columnMetadata', (meta) => {
          const list = Array.isArray(meta) ? meta : Object.values(meta);
          sets.push({ columns: list.map((c) => ({ name: c.colName, dataType: c.type.name.toLowerCase() })), rows: [], affectedRows: null });
        });
        request.on('row', (values) => sets.at(-1)?.rows.push((Array.isArray(values) ? values : Object.values(values)).map((v) => v.value)));
        request.on('returnValue', (name, value) => {
          outputs[name] = value;
        });
        connection.execSql(request);
      });
    } finally {
      pool.release(connection);
    }
  };
  return {
    async query(sql, parameters) {
      const answer = await execute(sql, (request) => parameters.forEach((value, i) => request.addParameter(`p${i + 1}`, mssqlType(value), value)));
      return answer.sets[0] ?? { columns: [], rows: [], affectedRows: answer.rowCount };
    },
    async call(routine) {
      const statement = mssqlCall(routine);
      const answer = await execute(statement.sql, (request) =>
        routine.parameters.forEach((p, i) => {
          const value = statement.values[i];
          // OUTPUT parameters as text: SQL Server converts the routine's own type to it on return.
          if (p.mode === 'in') request.addParameter(mssqlParameter(i), mssqlType(value), value);
          else request.addOutputParameter(mssqlParameter(i), TYPES.NVarChar, value === null || value === undefined ? null : String(value), { length: 4000 });
        }),
      );
      const outs = Object.fromEntries(routine.parameters.flatMap((p, i) => (p.mode === 'in' ? [] : [[p.name, answer.outputs[mssqlParameter(i)] ?? null]])));
      return { resultSets: answer.sets, outs };
    },
    close: () => pool.destroy().then(() => undefined),
  };
}

// ---------------------------------------------------------------- clients by source

/**
 * A request never waits longer than a connection attempt plus the statement's limit plus the grace,
 * even when every connection of the source is busy with slow statements (mysql2's pool would queue
 * it without a limit): then it answers a timeout and the queued statement's answer is dropped.
 */
function bounded(client: SourceClient, s: SourceSettings): SourceClient {
  const limitMs = CONNECT_TIMEOUT_MS + s.statementTimeoutSeconds * 1000 + GRACE_MS;
  const within = <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SourceError('timeout', `no answer within ${Math.round(limitMs / 1000)} s`)), limitMs);
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  };
  return {
    query: (sql, parameters) => within(client.query(sql, parameters)),
    call: (routine) => within(client.call(routine)),
    close: () => client.close(),
  };
}

// ---------------------------------------------------------------- the product's own database

/**
 * The product's own database (kind `own`): every statement is first checked by the guard
 * (own-sql-guard.ts), then run read-only with the views schema as its search path — on a
 * PostgreSQL server through a pool of its own (its size, statement timeout, read-only sessions), on
 * the embedded database in a read-only transaction of the product's one connection. The embedded
 * database has no statement timer: a statement that took longer than the limit is answered a
 * timeout only when it ends.
 */
function ownClient(s: SourceSettings): SourceClient {
  const { db, databaseUrl } = s.own!;
  const server = databaseUrl ? postgresClient({ ...s, kind: 'postgres', connectionString: databaseUrl, readOnly: true, searchPath: OWN_VIEWS_SCHEMA }) : null;
  const limitMs = s.statementTimeoutSeconds * 1000;
  const embedded = (text: string, parameters: unknown[]) =>
    db.transaction().execute(async (trx) => {
      await sql`set transaction read only`.execute(trx);
      await sql`select set_config('search_path', ${OWN_VIEWS_SCHEMA}, true)`.execute(trx);
      const started = performance.now();
      let result: ArrayRowsResult;
      try {
        result = (await trx.executeQuery(arrayRowsQuery(text, parameters, [...PG_TEXT_TYPES, 20, 1700]))) as unknown as ArrayRowsResult;
      } catch (error) {
        throw pgFailure(error);
      }
      if (performance.now() - started > limitMs) throw new SourceError('timeout', `the statement took longer than ${s.statementTimeoutSeconds} s`);
      return { columns: result.fields.map((f) => ({ name: f.name, dataType: PG_TYPE_NAMES[f.dataTypeID] ?? `oid ${f.dataTypeID}` })), rows: result.rows, affectedRows: null };
    });
  return {
    async query(text, parameters) {
      await loadSqlParser();
      // The views of published pages are the only relations a query of the own database reads.
      const refusal = ownSqlRefusal(text, new Set((await ownViews(db)).map((v) => v.name)));
      if (refusal) throw new SourceError('refused', refusal.subject, refusal);
      return server ? server.query(text, parameters) : embedded(text, parameters);
    },
    call: () => Promise.reject(new SourceError('query', 'the product\'s own database calls no routines as a source: use the data factory')),
    close: () => server?.close() ?? Promise.resolve(),
  };
}

const CLIENTS: Record<TDataSourceKind, (settings: SourceSettings) => SourceClient> = { postgres: postgresClient, mysql: mysqlClient, mssql: mssqlClient, own: ownClient };

export function openSourceClient(settings: SourceSettings): SourceClient {
  return bounded(CLIENTS[settings.kind](settings), settings);
}

const clients = new Map<string, { stamp: string; client: SourceClient }>();

/** The pool of a stored source, made on first use and again when its settings changed. */
export function sourceClient(id: string, stamp: string, settings: () => SourceSettings): SourceClient {
  const held = clients.get(id);
  if (held?.stamp === stamp) return held.client;
  if (held) void held.client.close().catch(() => undefined);
  const client = openSourceClient(settings());
  clients.set(id, { stamp, client });
  return client;
}

/** Closes a source's pool (its settings changed or it was deleted). */
export async function dropSourceClient(id: string): Promise<void> {
  const held = clients.get(id);
  clients.delete(id);
  await held?.client.close().catch(() => undefined);
}

export async function closeSourceClients(): Promise<void> {
  await Promise.all([...clients.keys()].map(dropSourceClient));
}

/** A value as JSON: bytes as base64, 64-bit integers and other big numbers as text. */
export function jsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}
