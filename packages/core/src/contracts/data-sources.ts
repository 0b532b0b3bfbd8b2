import { z } from 'zod';
import type { TableFieldType } from '../page-definition.ts';
import { zText } from './text.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';
import { parseJsonPath } from '../helpers/json-path.ts';

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
//   POST   /{id}/query             ZDataSourceQueryInput    → ZDataSourceQueryResult (sql for a database, request for an HTTP source)
//   GET    /{id}/method                                     → ZDataSourceMethodList (saved queries)
//   POST   /{id}/method            ZDataSourceMethodInput   → ZDataSourceMethod (400 when the SQL's :names and the declared parameters differ)
//   PUT    /{id}/method/{methodId} ZUpdateDataSourceMethodInput → ZDataSourceMethod (409 on a stale stamp)
//   DELETE /{id}/method/{methodId}                          → 204
//   POST   /{id}/method/{methodId}/run ZRunDataSourceMethodInput → ZDataSourceQueryResult (defaults fill what is not given; cached cacheSeconds)
//   GET    /queries                                         → ZDataSourceQueryCatalog (P.PagesUpdate: the page designer picks a
//                                                             control's query from it; no SQL, no connection settings)
// Permission: P.DataSources on every other route. A password is written, never returned (`hasPassword`).
// An HTTP source answering a non-2xx status, no JSON, more than 5 MB or a redirect answers 502
// (DataSource.BadResponse). A source that cannot be reached answers 502 (DataSource.Unavailable), one that does not answer
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

/** What a source is: a database spoken to in SQL, or an HTTP/REST API (http). */
export const SQL_SOURCE_KINDS = ['postgres', 'mysql', 'mssql'] as const;
/**
 * `own`: the product's own database, read through read-only views of the published pages (schema
 * `biz_views`, one view per data view, named `<page code>__<view code>`), in PostgreSQL's SQL.
 */
export const DATA_SOURCE_KINDS = [...SQL_SOURCE_KINDS, 'http', 'own'] as const;
export const ZDataSourceKind = z.enum(DATA_SOURCE_KINDS);
export type TDataSourceKind = z.infer<typeof ZDataSourceKind>;
export type TSqlSourceKind = (typeof SQL_SOURCE_KINDS)[number];
/** How each database kind is named on screen and in messages (product names: the same in every language). */
export const SQL_SOURCE_KIND_NAMES = { postgres: 'PostgreSQL', mysql: 'MySQL / MariaDB', mssql: 'SQL Server' } as const satisfies Record<TSqlSourceKind, string>;
/** The port a kind listens on unless told otherwise (an HTTP source's is its base URL's). */
export const DEFAULT_PORTS: Record<TDataSourceKind, number> = { postgres: 5432, mysql: 3306, mssql: 1433, http: 443, own: 0 };
/** The SQL a source speaks (the product's own database: PostgreSQL's); null for an HTTP source. */
export const sqlDialectOf = (kind: TDataSourceKind): TSqlSourceKind | null => (kind === 'http' ? null : kind === 'own' ? 'postgres' : kind);
/** The schema of the views of published pages that an `own` source reads. */
export const OWN_VIEWS_SCHEMA = 'biz_views';
/** A view's comment starts `tessera:page:<page id>` on a line of its own; the next line says what it shows. */
export const OWN_VIEW_OWNER_PREFIX = 'tessera:page:';

/** A host name or address: letters, digits, dots, hyphens, colons (IPv6), underscores. */
const ZHost = zText().trim().min(1).max(DATA_SOURCE_LIMITS.host).regex(/^[A-Za-z0-9._:-]+$/, 'a host name or address');

/** A database source's connections, an HTTP source's requests under way: at most this many per node. */
const ZPoolSize = z.number().int().min(DATA_SOURCE_LIMITS.poolSize.min).max(DATA_SOURCE_LIMITS.poolSize.max).default(DATA_SOURCE_LIMITS.poolSize.default);

const ZSettingsBase = z.object({
  name: text(DATA_SOURCE_LIMITS.name).min(1),
  description: text(DATA_SOURCE_LIMITS.description).default(''),
  kind: z.enum(SQL_SOURCE_KINDS),
  host: ZHost,
  port: z.number().int().min(1).max(65_535),
  database: text(DATA_SOURCE_LIMITS.database).min(1),
  user: text(DATA_SOURCE_LIMITS.user).min(1),
  ssl: z.boolean().default(false),
  /** Connections this node keeps to the source at most. */
  poolSize: ZPoolSize,
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

// ---------------------------------------------------------------- HTTP/REST sources

export const HTTP_LIMITS = {
  url: 2_000,
  headers: 30,
  headerValue: 4_000,
  query: 50,
  body: 20_000,
  rowsPath: 200,
  secret: 4_000,
  timeoutMs: { min: 100, max: 300_000, default: 15_000 },
  /** An answer larger than this is refused (502), read no further. */
  responseBytes: 5 * 1024 * 1024,
} as const;

/** Methods a request may use; a read-only source sends only GET and HEAD (HTTP's safe methods). */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const HTTP_READ_METHODS: readonly string[] = ['GET', 'HEAD'];
export const HTTP_AUTH_KINDS = ['none', 'basic', 'bearer', 'apiKey'] as const;

/** A header name (RFC 9110 token); the ones the transport owns are refused. */
const ZHeaderName = zText()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name: letters, digits and !#$%&\'*+.^_`|~-')
  .refine((n) => !['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade'].includes(n.toLowerCase()), 'a header the product sets itself');
/** A header's value (a template in a request: `{{name}}`); no line breaks. */
const ZHeaderValue = zText().max(HTTP_LIMITS.headerValue).regex(/^[^\r\n]*$/, 'no line breaks');
export const ZHttpHeader = z.object({ name: ZHeaderName, value: ZHeaderValue });
export type THttpHeader = z.infer<typeof ZHttpHeader>;

/** An http(s) URL without credentials, query or fragment: requests go to paths under it, never to another origin. */
export function isHttpBaseUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.search && !url.hash && !text.includes('#') && !text.includes('?');
}

export const ZHttpAuth = z
  .object({
    kind: z.enum(HTTP_AUTH_KINDS).default('none'),
    /** basic: the user name (the password is the source's secret). */
    username: text(DATA_SOURCE_LIMITS.user).default(''),
    /** apiKey: the header or query parameter carrying the key (the key is the source's secret). */
    apiKeyName: zText().trim().max(100).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]*$/, 'a header or parameter name').default(''),
    apiKeyIn: z.enum(['header', 'query']).default('header'),
  })
  .superRefine((a, ctx) => {
    if (a.kind === 'basic' && !a.username) ctx.addIssue({ code: 'custom', path: ['username'], message: 'basic authentication needs a user name' });
    if (a.kind === 'apiKey' && !a.apiKeyName) ctx.addIssue({ code: 'custom', path: ['apiKeyName'], message: 'an API key needs the name of its header or parameter' });
  });
export type THttpAuth = z.infer<typeof ZHttpAuth>;

const ZHttpSettingsBase = z.object({
  name: text(DATA_SOURCE_LIMITS.name).min(1),
  description: text(DATA_SOURCE_LIMITS.description).default(''),
  kind: z.literal('http'),
  /** Every request goes to this origin, under this path. */
  baseUrl: zText().trim().min(1).max(HTTP_LIMITS.url).refine(isHttpBaseUrl, 'an http:// or https:// URL without credentials, query or fragment'),
  /** Sent with every request (a request's own headers and the authentication win). Not secret: a key belongs in `auth`. */
  headers: z.array(ZHttpHeader).max(HTTP_LIMITS.headers).default([]),
  auth: ZHttpAuth.default({ kind: 'none', username: '', apiKeyName: '', apiKeyIn: 'header' }),
  /** The connection test's GET: a path under the base URL ('' the base URL itself). */
  testPath: zText().trim().max(HTTP_LIMITS.url).regex(/^[^?#]*$/, 'a path without ? or #').default(''),
  /** A request without an answer in this time is abandoned (504). */
  timeoutMs: z.number().int().min(HTTP_LIMITS.timeoutMs.min).max(HTTP_LIMITS.timeoutMs.max).default(HTTP_LIMITS.timeoutMs.default),
  /** Requests this node has under way to the source at most; more wait for one of them, within their timeout. */
  poolSize: ZPoolSize,
  rowCap: z.number().int().min(DATA_SOURCE_LIMITS.rowCap.min).max(DATA_SOURCE_LIMITS.rowCap.max).default(DATA_SOURCE_LIMITS.rowCap.default),
  /** GET and HEAD only (the default): a request with another method is refused. */
  readOnly: z.boolean().default(true),
});
/** The basic password, bearer token or API key, sealed at rest; written only: absent keeps the stored one, '' removes it. */
const secret = zText().max(HTTP_LIMITS.secret).optional();

/** An HTTP source's settings as answered (never its secret: `hasPassword` says whether one is stored). */
export const ZHttpSourceSettings = z.object({
  baseUrl: zText(),
  headers: z.array(ZHttpHeader),
  auth: z.object({ kind: z.enum(HTTP_AUTH_KINDS), username: zText(), apiKeyName: zText(), apiKeyIn: z.enum(['header', 'query']) }),
  testPath: zText(),
  timeoutMs: z.number().int(),
});
export type THttpSourceSettings = z.infer<typeof ZHttpSourceSettings>;

/**
 * A request of an HTTP source (ad hoc or saved as a query). Parameters: `{{name}}` in the path,
 * query values, header values and the body, and `:name` in the path too. Path values are
 * URL-encoded; body values go in as JSON values (a whole string, number, boolean or null where
 * `{{name}}` stands alone, escaped text inside a JSON string). `rowsPath` picks the rows of the
 * JSON answer: `$`, `data.items`, `$.data.items[*]`, `results[0].rows`, `$['odd key']`.
 */
export const ZHttpRequest = z
  .object({
    method: z.enum(HTTP_METHODS).default('GET'),
    /** Under the base URL's path ('' the base URL itself). */
    path: zText().trim().max(HTTP_LIMITS.url).regex(/^[^?#\s]*$/, 'a path without ?, # or spaces (the query string has its own list)').default(''),
    query: z.array(z.object({ name: zText().trim().min(1).max(200), value: zText().max(HTTP_LIMITS.headerValue) })).max(HTTP_LIMITS.query).default([]),
    headers: z.array(ZHttpHeader).max(HTTP_LIMITS.headers).default([]),
    /** A JSON template ('' sends no body). */
    body: zText().max(HTTP_LIMITS.body).default(''),
    rowsPath: zText()
      .trim()
      .max(HTTP_LIMITS.rowsPath)
      .refine((p) => parseJsonPath(p) !== null, "a rows path: $, .key, ['key'], [n] or [*] (no filters)")
      .default(''),
  })
  .superRefine((r, ctx) => {
    if (r.body.trim() && (r.method === 'GET' || r.method === 'HEAD')) ctx.addIssue({ code: 'custom', path: ['body'], message: 'GET and HEAD requests have no body' });
  });
export type THttpRequest = z.infer<typeof ZHttpRequest>;
export type THttpRequestInput = z.input<typeof ZHttpRequest>;

/** The product's own database: no connection settings; always read-only (a sent `readOnly` must be true). */
const ZOwnSettingsBase = ZSettingsBase.pick({ name: true, description: true, poolSize: true, statementTimeoutSeconds: true, rowCap: true }).extend({
  kind: z.literal('own'),
  readOnly: z.literal(true, 'the product\'s own database is read only').default(true),
});

const stamp = zText().min(1).max(64);
const ZSqlCreate = ZSettingsBase.extend({ password });
const ZHttpCreate = ZHttpSettingsBase.extend({ secret });
const ZOwnCreate = ZOwnSettingsBase;
/** A database source's settings, an HTTP source's or the product's own database's (by `kind`). */
export const ZCreateDataSourceInput = z.discriminatedUnion('kind', [ZSqlCreate, ZHttpCreate, ZOwnCreate]);
export type TCreateDataSourceInput = z.infer<typeof ZCreateDataSourceInput>;
export type TCreateSqlSourceInput = z.infer<typeof ZSqlCreate>;
export type TCreateHttpSourceInput = z.infer<typeof ZHttpCreate>;
export type TCreateOwnSourceInput = z.infer<typeof ZOwnCreate>;
export const ZUpdateDataSourceInput = z.discriminatedUnion('kind', [
  ZSqlCreate.extend({ concurrencyStamp: stamp }),
  ZHttpCreate.extend({ concurrencyStamp: stamp }),
  ZOwnCreate.extend({ concurrencyStamp: stamp }),
]);
export type TUpdateDataSourceInput = z.infer<typeof ZUpdateDataSourceInput>;
/** Settings being edited, tried before they are saved; `sourceId` lends a stored password or secret when none is given. */
export const ZTestDataSourceInput = z.discriminatedUnion('kind', [
  ZSqlCreate.extend({ sourceId: z.uuid().optional() }),
  ZHttpCreate.extend({ sourceId: z.uuid().optional() }),
  ZOwnCreate.extend({ sourceId: z.uuid().optional() }),
]);
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
  /** A stored password (an HTTP source: its basic password, bearer token or API key). */
  hasPassword: z.boolean(),
  /** An HTTP source's settings (host and port are then its base URL's, database and user empty or the basic user). */
  http: ZHttpSourceSettings.nullable(),
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
  schemas: z.array(
    z.object({
      name: zText(),
      /** `comment`: what the object is (the product's own database: the page and view it shows). */
      tables: z.array(z.object({ name: zText(), kind: z.enum(['table', 'view']), comment: zText().nullish() })),
    }),
  ),
});
export type TDataSourceObjects = z.infer<typeof ZDataSourceObjects>;

export const ZDataSourceColumnsQuery = z.object({ schema: text(128).min(1), table: text(128).min(1) });
export const ZDataSourceColumns = z.object({
  /** `comment`: what the column holds (the product's own database: the control's title). */
  columns: z.array(z.object({ name: zText(), dataType: zText(), nullable: z.boolean(), isPrimaryKey: z.boolean(), comment: zText().nullish() })),
});
export type TDataSourceColumns = z.infer<typeof ZDataSourceColumns>;

/** A named parameter's value (`:name` in the SQL; always bound, never put into the text). */
export const ZQueryParameterValue = z.union([zText().max(DATA_SOURCE_LIMITS.parameterText), z.number(), z.boolean(), z.null()]);
export type TQueryParameterValue = z.infer<typeof ZQueryParameterValue>;
/** SQL for a database source, or a request for an HTTP source: one of the two. */
const oneOfSqlOrRequest = (v: { sql: string; request?: unknown }, ctx: z.RefinementCtx) => {
  if (!v.sql && v.request == null) ctx.addIssue({ code: 'custom', path: ['sql'], message: 'SQL, or an HTTP request' });
  if (v.sql && v.request != null) ctx.addIssue({ code: 'custom', path: ['request'], message: 'SQL or an HTTP request, not both' });
};
export const ZDataSourceQueryInput = z
  .object({
    sql: zText().trim().max(DATA_SOURCE_LIMITS.sql).default(''),
    request: ZHttpRequest.nullish(),
    parameters: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a parameter name: letters, digits, _'), ZQueryParameterValue)
      .refine((p) => Object.keys(p).length <= DATA_SOURCE_LIMITS.parameters, `at most ${DATA_SOURCE_LIMITS.parameters} parameters`)
      .default({}),
  })
  .superRefine(oneOfSqlOrRequest);
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

const ZMethodShape = z.object({
  /** What controls name the query by (their `dataSourceMethod`): letters, digits, _; unique per source. */
  code: z.string().trim().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a code: letters, digits, _').max(DATA_SOURCE_LIMITS.methodCode),
  name: text(DATA_SOURCE_LIMITS.name).min(1),
  description: text(DATA_SOURCE_LIMITS.description).default(''),
  /** A database source's query. */
  sql: zText().trim().max(DATA_SOURCE_LIMITS.sql).default(''),
  /** An HTTP source's request (null or absent for a database's: a saved query sent back as read stays valid). */
  request: ZHttpRequest.nullish(),
  parameters: z.array(ZDataSourceMethodParameter).max(DATA_SOURCE_LIMITS.parameters).default([]),
  cacheSeconds: z.number().int().min(DATA_SOURCE_LIMITS.cacheSeconds.min).max(DATA_SOURCE_LIMITS.cacheSeconds.max).default(DATA_SOURCE_LIMITS.cacheSeconds.default),
});
export const ZDataSourceMethodInput = ZMethodShape.superRefine(oneOfSqlOrRequest);
export type TDataSourceMethodInput = z.infer<typeof ZDataSourceMethodInput>;
export const ZUpdateDataSourceMethodInput = ZMethodShape.extend({ concurrencyStamp: zText().min(1).max(64) }).superRefine(oneOfSqlOrRequest);
export type TUpdateDataSourceMethodInput = z.infer<typeof ZUpdateDataSourceMethodInput>;

export const ZDataSourceMethod = z.object({
  id: z.uuid(),
  sourceId: z.uuid(),
  code: zText(),
  name: zText(),
  description: zText(),
  /** '' for an HTTP source's query (its `request`). */
  sql: zText(),
  request: ZHttpRequest.nullable(),
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
 * numbers, 4 dates and times, 5 booleans, 1 the rest), from PostgreSQL's or mysql2's type name, or
 * the type an HTTP source's rows showed (integer, number, boolean, date, timestamp, text, json).
 */
export function columnFieldType(dataType: string): TableFieldType {
  const type = dataType.toLowerCase();
  if (/^(smallint|integer|bigint|oid|tiny|short|long|longlong|int24|year)$/.test(type)) return 2;
  if (/^(numeric|real|double precision|decimal|newdecimal|float|double|number)$/.test(type)) return 3;
  if (/^(date|timestamp|timestamp with time zone|datetime|newdate)$/.test(type)) return 4;
  return type === 'boolean' ? 5 : 1;
}
