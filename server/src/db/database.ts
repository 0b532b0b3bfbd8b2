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
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL server; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Folder for the embedded database files; `memory://` keeps it in memory (tests). */
  pgliteDataDir: string;
  poolSize?: number;
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
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const dataDir = options.pgliteDataDir;
  if (!dataDir.startsWith('memory://')) await mkdir(path.resolve(dataDir), { recursive: true });
  const pglite = await PGlite.create(dataDir, {
    parsers: {
      [INT8]: (v: string) => Number(v),
      [NUMERIC]: (v: string) => v,
      // Not `new Date(v)` alone: it reads the years 1–99 of PostgreSQL's text as 2001–2099 (and
      // 1900s); ISO parsing takes the year as written. Outside the years 1–9999: as before.
      [pgliteTypes.TIMESTAMPTZ]: (v: string) => tryParseIsoDate(v) ?? new Date(v),
    },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
