import { z } from 'zod';
import type { TableFieldType } from '../page-definition.ts';
import { zText } from './text.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';

// Data sources (issue 16): external databases the product reads — browsed, queried with named
// parameters, later feeding drop-downs, charts and data transmission (server/src/modules/data-sources).
// Routes, all under /api/app/data-source:
//   GET    /                       ZDataSourceQuery         → ZDataSourceList
//   GET    /{id}                                            → ZDataSource
//   POST   /                       ZCreateDataSourceInput   → ZDataSource
//   PUT    /{id}                   ZUpdateDataSourceInput   → ZDataSource (409 on a stale stamp)
//   DELETE /{id}                                            → 204
//   POST   /test                   ZTestDataSourceInput     → ZDataSourceTestResult (settings not yet saved)
//   POST   /{id}/test                                       → ZDataSourceTestResult
//   GET    /{id}/objects                                    → ZDataSourceObjects (schemas with their tables and views)
//   GET    /{id}/columns           ZDataSourceColumnsQuery  → ZDataSourceColumns
//   POST   /{id}/query             ZDataSourceQueryInput    → ZDataSourceQueryResult
//   GET    /{id}/method                                     → ZDataSourceMethodList (saved queries)
//   POST   /{id}/method            ZDataSourceMethodInput   → ZDataSourceMethod (400 when the SQL's :names and the declared parameters differ)
//   PUT    /{id}/method/{methodId} ZUpdateDataSourceMethodInput → ZDataSourceMethod (409 on a stale stamp)
//   DELETE /{id}/method/{methodId}                          → 204
//   POST   /{id}/method/{methodId}/run ZRunDataSourceMethodInput → ZDataSourceQueryResult (defaults fill what is not given; cached cacheSeconds)
//   GET    /queries                                         → ZDataSourceQueryCatalog (P.PagesUpdate: the page designer picks a
//                                                             control's query from it; no SQL, no connection settings)
// Permission: P.DataSources on every other route. A password is written, never returned (`hasPassword`).
// A source that cannot be reached answers 502 (DataSource.Unavailable), one that does not answer
// in its statement timeout 504 (DataSource.Timeout); an SQL error of the caller's is a 400 with the
// database's message (DataSource.QueryFailed); a write on a read-only source a 400 (DataSource.ReadOnly).

export const DATA_SOURCE_LIMITS = {
  name: 100,
  description: 500,
  host: 255,
  database: 128,
  user: 128,
  password: 500,
  sql: 20_000,
  parameters: 50,
  parameterText: 4_000,
  poolSize: { min: 1, max: 20, default: 5 },
  statementTimeoutSeconds: { min: 1, max: 300, default: 15 },
  rowCap: { min: 1, max: 100_000, default: 1_000 },
  methodCode: 64,
  /** Seconds a saved query's answer may be served again without asking the source. */
  cacheSeconds: { min: 0, max: 3_600, default: 0 },
} as const;

/** What a source is. (HTTP/REST comes with a later slice of issue 16.) */
export const DATA_SOURCE_KINDS = ['postgres', 'mysql', 'mssql'] as const;
export const ZDataSourceKind = z.enum(DATA_SOURCE_KINDS);
export type TDataSourceKind = z.infer<typeof ZDataSourceKind>;
/** The port a kind listens on unless told otherwise. */
export const DEFAULT_PORTS: Record<TDataSourceKind, number> = { postgres: 5432, mysql: 3306, mssql: 1433 };

/** A host name or address: letters, digits, dots, hyphens, colons (IPv6), underscores. */
const ZHost = zText().trim().min(1).max(DATA_SOURCE_LIMITS.host).regex(/^[A-Za-z0-9._:-]+$/, 'a host name or address');

const ZSettingsBase = z.object({
  name: text(DATA_SOURCE_LIMITS.name).min(1),
  description: text(DATA_SOURCE_LIMITS.description).default(''),
  kind: ZDataSourceKind,
  host: ZHost,
  port: z.number().int().min(1).max(65_535),
  database: text(DATA_SOURCE_LIMITS.database).min(1),
  user: text(DATA_SOURCE_LIMITS.user).min(1),
  ssl: z.boolean().default(false),
  /** Connections this node keeps to the source at most. */
  poolSize: z.number().int().min(DATA_SOURCE_LIMITS.poolSize.min).max(DATA_SOURCE_LIMITS.poolSize.max).default(DATA_SOURCE_LIMITS.poolSize.default),
  /** A statement running longer is cancelled (504). */
  statementTimeoutSeconds: z
    .number()
    .int()
    .min(DATA_SOURCE_LIMITS.statementTimeoutSeconds.min)
    .max(DATA_SOURCE_LIMITS.statementTimeoutSeconds.max)
    .default(DATA_SOURCE_LIMITS.statementTimeoutSeconds.default),
  /** Rows a query returns at most (the answer says when more were there). */
  rowCap: z.number().int().min(DATA_SOURCE_LIMITS.rowCap.min).max(DATA_SOURCE_LIMITS.rowCap.max).default(DATA_SOURCE_LIMITS.rowCap.default),
  /** Reads only (the default): writes and DDL are refused, by the product and by the session. */
  readOnly: z.boolean().default(true),
});

/** The password is written only: absent keeps the stored one, '' removes it. */
const password = zText().max(DATA_SOURCE_LIMITS.password).optional();

export const ZCreateDataSourceInput = ZSettingsBase.extend({ password });
export type TCreateDataSourceInput = z.infer<typeof ZCreateDataSourceInput>;
export const ZUpdateDataSourceInput = ZSettingsBase.extend({ password, concurrencyStamp: zText().min(1).max(64) });
export type TUpdateDataSourceInput = z.infer<typeof ZUpdateDataSourceInput>;
/** Settings being edited, tried before they are saved; `sourceId` lends a stored password when none is given. */
export const ZTestDataSourceInput = ZSettingsBase.extend({ password, sourceId: z.uuid().optional() });
export type TTestDataSourceInput = z.infer<typeof ZTestDataSourceInput>;

export const ZDataSource = z.object({
  id: z.uuid(),
  name: zText(),
  description: zText(),
  kind: ZDataSourceKind,
  host: zText(),
  port: z.number().int(),
  database: zText(),
  user: zText(),
  ssl: z.boolean(),
  hasPassword: z.boolean(),
  poolSize: z.number().int(),
  statementTimeoutSeconds: z.number().int(),
  rowCap: z.number().int(),
  readOnly: z.boolean(),
  concurrencyStamp: zText(),
  creationTime: zText(),
  lastModificationTime: zText().nullable(),
});
export type TDataSource = z.infer<typeof ZDataSource>;

export const ZDataSourceQuery = ZPagedQuery.extend({ Kind: ZDataSourceKind.optional() });
export type TDataSourceQuery = z.infer<typeof ZDataSourceQuery>;
export const ZDataSourceList = pagedResult(ZDataSource);
export type TDataSourceList = z.infer<typeof ZDataSourceList>;

export const ZDataSourceTestResult = z.object({
  ok: z.boolean(),
  /** The server's own version text (e.g. "PostgreSQL 15.19 …", "10.11.19-MariaDB"). */
  version: zText().nullable(),
  elapsedMs: z.number(),
  /** Why it failed, in the caller's language with the driver's words. */
  message: zText().nullable(),
});
export type TDataSourceTestResult = z.infer<typeof ZDataSourceTestResult>;

export const ZDataSourceObjects = z.object({
  schemas: z.array(z.object({ name: zText(), tables: z.array(z.object({ name: zText(), kind: z.enum(['table', 'view']) })) })),
});
export type TDataSourceObjects = z.infer<typeof ZDataSourceObjects>;

export const ZDataSourceColumnsQuery = z.object({ schema: text(128).min(1), table: text(128).min(1) });
export const ZDataSourceColumns = z.object({
  columns: z.array(z.object({ name: zText(), dataType: zText(), nullable: z.boolean(), isPrimaryKey: z.boolean() })),
});
export type TDataSourceColumns = z.infer<typeof ZDataSourceColumns>;

/** A named parameter's value (`:name` in the SQL; always bound, never put into the text). */
export const ZQueryParameterValue = z.union([zText().max(DATA_SOURCE_LIMITS.parameterText), z.number(), z.boolean(), z.null()]);
export type TQueryParameterValue = z.infer<typeof ZQueryParameterValue>;
export const ZDataSourceQueryInput = z.object({
  sql: zText().trim().min(1).max(DATA_SOURCE_LIMITS.sql),
  parameters: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a parameter name: letters, digits, _'), ZQueryParameterValue)
    .refine((p) => Object.keys(p).length <= DATA_SOURCE_LIMITS.parameters, `at most ${DATA_SOURCE_LIMITS.parameters} parameters`)
    .default({}),
});
export type TDataSourceQueryInput = z.infer<typeof ZDataSourceQueryInput>;

export const ZDataSourceQueryResult = z.object({
  columns: z.array(z.object({ name: zText(), dataType: zText() })),
  /** Values as JSON: numbers, text (exact decimals and 64-bit integers as text), ISO times, base64 bytes. */
  rows: z.array(z.record(z.string(), z.unknown())),
  /** Rows returned (at most the source's row cap). */
  rowCount: z.number().int(),
  /** More rows were there than the cap. */
  truncated: z.boolean(),
  /** Rows a write changed (a source that is not read-only). */
  affectedRows: z.number().int().nullable(),
  elapsedMs: z.number(),
  /** A saved query's answer served from its cache (cacheSeconds), not asked of the source again. */
  cached: z.boolean().default(false),
});
export type TDataSourceQueryResult = z.infer<typeof ZDataSourceQueryResult>;

// ---------------------------------------------------------------- saved queries (methods)

/** How a saved query's parameter is typed (what its value is turned into before it is bound). */
export const ZMethodParameterType = z.enum(['text', 'number', 'boolean']);
export const ZDataSourceMethodParameter = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a parameter name: letters, digits, _'),
  type: ZMethodParameterType,
  /** Used when a run does not give the parameter (null: SQL NULL). */
  defaultValue: ZQueryParameterValue,
  /** A run must give it (its default is not used). */
  required: z.boolean().default(false),
});
export type TDataSourceMethodParameter = z.infer<typeof ZDataSourceMethodParameter>;

export const ZDataSourceMethodInput = z.object({
  /** What controls name the query by (their `dataSourceMethod`): letters, digits, _; unique per source. */
  code: z.string().trim().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a code: letters, digits, _').max(DATA_SOURCE_LIMITS.methodCode),
  name: text(DATA_SOURCE_LIMITS.name).min(1),
  description: text(DATA_SOURCE_LIMITS.description).default(''),
  sql: zText().trim().min(1).max(DATA_SOURCE_LIMITS.sql),
  parameters: z.array(ZDataSourceMethodParameter).max(DATA_SOURCE_LIMITS.parameters).default([]),
  cacheSeconds: z.number().int().min(DATA_SOURCE_LIMITS.cacheSeconds.min).max(DATA_SOURCE_LIMITS.cacheSeconds.max).default(DATA_SOURCE_LIMITS.cacheSeconds.default),
});
export type TDataSourceMethodInput = z.infer<typeof ZDataSourceMethodInput>;
export const ZUpdateDataSourceMethodInput = ZDataSourceMethodInput.extend({ concurrencyStamp: zText().min(1).max(64) });
export type TUpdateDataSourceMethodInput = z.infer<typeof ZUpdateDataSourceMethodInput>;

export const ZDataSourceMethod = z.object({
  id: z.uuid(),
  sourceId: z.uuid(),
  code: zText(),
  name: zText(),
  description: zText(),
  sql: zText(),
  parameters: z.array(ZDataSourceMethodParameter),
  /** The result's columns, read from the source when the query was saved (a reading query; none for a write). */
  columns: z.array(z.object({ name: zText(), dataType: zText() })),
  cacheSeconds: z.number().int(),
  concurrencyStamp: zText(),
  creationTime: zText(),
  lastModificationTime: zText().nullable(),
});
export type TDataSourceMethod = z.infer<typeof ZDataSourceMethod>;
export const ZDataSourceMethodList = z.object({ items: z.array(ZDataSourceMethod) });
export type TDataSourceMethodList = z.infer<typeof ZDataSourceMethodList>;

export const ZDataSourceMethodParams = z.object({ id: z.uuid(), methodId: z.uuid() });
export const ZRunDataSourceMethodInput = z.object({
  parameters: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/), ZQueryParameterValue)
    .refine((p) => Object.keys(p).length <= DATA_SOURCE_LIMITS.parameters, `at most ${DATA_SOURCE_LIMITS.parameters} parameters`)
    .default({}),
});
export type TRunDataSourceMethodInput = z.infer<typeof ZRunDataSourceMethodInput>;

/** The saved queries of every source as the page designer picks them for a control (`extraProperties.sourceQuery`). */
export const ZDataSourceQueryCatalog = z.object({
  items: z.array(
    z.object({
      sourceId: z.uuid(),
      sourceName: zText(),
      kind: ZDataSourceKind,
      methods: z.array(
        z.object({
          code: zText(),
          name: zText(),
          parameters: z.array(z.object({ name: zText(), type: ZMethodParameterType })),
          columns: z.array(z.object({ name: zText(), dataType: zText() })),
        }),
      ),
    }),
  ),
});
export type TDataSourceQueryCatalog = z.infer<typeof ZDataSourceQueryCatalog>;

/**
 * The table field type of a saved query's result column (spec §3: 2 whole numbers, 3 other
 * numbers, 4 dates and times, 5 booleans, 1 the rest), from PostgreSQL's or mysql2's type name.
 */
export function columnFieldType(dataType: string): TableFieldType {
  const type = dataType.toLowerCase();
  if (/^(smallint|integer|bigint|oid|tiny|short|long|longlong|int24|year)$/.test(type)) return 2;
  if (/^(numeric|real|double precision|decimal|newdecimal|float|double)$/.test(type)) return 3;
  if (/^(date|timestamp|timestamp with time zone|datetime|newdate)$/.test(type)) return 4;
  return type === 'boolean' ? 5 : 1;
}
