import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely dialect over the embedded PGlite database.
 *
 * PGlite is a single connection. Kysely asks a driver for a connection per query and keeps one for
 * the whole of a transaction, so the driver hands out that one connection under a FIFO lock: a
 * request that runs a long transaction makes the others wait their turn instead of interleaving
 * their statements into its transaction (which would corrupt it) or deadlocking.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}

class FifoLock {
  private tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

class PGliteDriver implements Driver {
  private readonly lock = new FifoLock();
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  private readonly connection: PGliteConnection;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }
  async init() {
    await this.pglite.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    // PGlite runs in this thread and answers through promises alone: a loop of queries (500 records
    // read for a print) would be one chain of microtasks that never lets the event loop read a
    // socket. A turn of the loop before each query (or transaction) lets waiting requests in.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const release = await this.lock.acquire();
    // One physical connection: wrap it so each holder has its own release handle.
    const handle = Object.create(this.connection) as PGliteConnection;
    this.releases.set(handle, release);
    return handle;
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${level}`));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async savepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${name}`));
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${name}`));
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${name}`));
  }
  async releaseConnection(connection: DatabaseConnection) {
    this.releases.get(connection)?.();
    this.releases.delete(connection);
  }
  async destroy() {
    // Wait for whoever holds the connection so that no write is cut off, then close.
    const release = await this.lock.acquire();
    if (!this.pglite.closed) await this.pglite.close();
    release();
  }
}

/**
 * A statement whose rows come back as arrays with the result's fields (names may repeat), values
 * of the types in `textTypes` as the database writes them: what the product's own database as a
 * data source answers (embedded only; on a server that source has a pool of its own).
 */
export interface ArrayRowsQuery extends CompiledQuery {
  arrayRows: { textTypes: readonly number[] };
}
export interface ArrayRowsResult extends QueryResult<unknown[]> {
  fields: { name: string; dataTypeID: number }[];
}
export const arrayRowsQuery = (text: string, parameters: readonly unknown[], textTypes: readonly number[]): ArrayRowsQuery => ({
  ...CompiledQuery.raw(text, [...parameters]),
  arrayRows: { textTypes },
});

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}
  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const arrayRows = (compiledQuery as Partial<ArrayRowsQuery>).arrayRows;
    if (arrayRows) {
      const asText = (v: string) => v;
      const result = await this.pglite.query<R>(compiledQuery.sql, compiledQuery.parameters as unknown[], {
        rowMode: 'array',
        parsers: Object.fromEntries(arrayRows.textTypes.map((oid) => [oid, asText])),
      });
      return { rows: result.rows, fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) } as QueryResult<R>;
    }
    if (compiledQuery.parameters.length === 0 && /;\s*\S/.test(compiledQuery.sql)) {
      // A parameterless script (migrations): the simple protocol runs several statements at once.
      const results = await this.pglite.exec(compiledQuery.sql);
      return { rows: (results.at(-1)?.rows ?? []) as R[] };
    }
    const result = await this.pglite.query<R>(compiledQuery.sql, compiledQuery.parameters as unknown[], {
      rowMode: 'object',
    });
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(compiledQuery.sql)
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported on the embedded database');
  }
}
