import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { tryParseIsoDate } from '@tessera/core/helpers/iso-date';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /**
   * Receives the payloads NOTIFY sends on `channel` (LISTEN on a connection of its own; on PGlite
   * the one connection — call it before the server takes requests). `onReconnect` runs when a lost
   * PostgreSQL listening connection is back (signals in between were missed). Answers the stop.
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Embedded only: the data dir as a tarball (`pgliteSnapshot` opens it again). */
  dumpDataDir?(): Promise<Blob>;
}

export interface DatabaseOptions {
  /** A PostgreSQL server; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Folder for the embedded database files; `memory://` keeps it in memory (tests). */
  pgliteDataDir: string;
  poolSize?: number;
  /**
   * An embedded database to start from (`PGlite.dumpDataDir`), instead of an empty one: tests
   * start from one migrated copy rather than running initdb and every migration per file.
   */
  pgliteSnapshot?: Blob;
}

// Both back ends return the same JavaScript values: bigint columns as numbers (ids are UUIDs, so
// bigints are counters and integer controls, validated to the safe-integer range), numeric as
// strings (exact decimals, never floats), timestamps as Date.
const INT8 = 20;
const NUMERIC = 1700;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === INT8) return (v: string) => Number(v);
          if (oid === NUMERIC) return (v: string) => v;
          return pg.types.getTypeParser(oid, format);
        }) as typeof pg.types.getTypeParser,
      },
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const connectionString = options.databaseUrl;
    return { db, kind: 'postgres', listen: (channel, onPayload, onReconnect) => listenOnServer(connectionString, channel, onPayload, onReconnect), close: () => db.destroy() };
  }
  const dataDir = options.pgliteDataDir;
  if (!dataDir.startsWith('memory://')) await mkdir(path.resolve(dataDir), { recursive: true });
  const pglite = await PGlite.create(dataDir, {
    ...(options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {}),
    parsers: {
      [INT8]: (v: string) => Number(v),
      [NUMERIC]: (v: string) => v,
      // Not `new Date(v)` alone: it reads the years 1–99 of PostgreSQL's text as 2001–2099 (and
      // 1900s); ISO parsing takes the year as written. Outside the years 1–9999: as before.
      [pgliteTypes.TIMESTAMPTZ]: (v: string) => tryParseIsoDate(v) ?? new Date(v),
    },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    listen: async (channel, onPayload) => {
      const stop = await pglite.listen(channel, onPayload);
      return async () => {
        if (!pglite.closed) await stop();
      };
    },
    close: () => db.destroy(),
    dumpDataDir: () => pglite.dumpDataDir('none'),
  };
}

/**
 * A listening connection to a PostgreSQL server, outside the pool (a pooled connection would be
 * handed to queries). When it drops (server restart, network), it connects again after a second
 * and says so (`onReconnect`), until stopped.
 */
async function listenOnServer(connectionString: string, channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (again: boolean): Promise<void> => {
    const c = new pg.Client({ connectionString });
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) onPayload(msg.payload);
    });
    const lost = () => {
      if (stopped || client !== c) return;
      client = null;
      c.removeAllListeners('end');
      void c.end().catch(() => {});
      retry = setTimeout(() => void connect(true).catch(() => {}), 1000);
    };
    c.on('error', lost);
    c.on('end', lost);
    client = c;
    try {
      await c.connect();
      await c.query(`listen ${pg.escapeIdentifier(channel)}`);
      if (again) onReconnect?.();
    } catch (err) {
      if (again) return lost();
      stopped = true;
      await c.end().catch(() => {});
      throw err;
    }
  };
  await connect(false);
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const c = client;
    client = null;
    await c?.end().catch(() => {});
  };
}
