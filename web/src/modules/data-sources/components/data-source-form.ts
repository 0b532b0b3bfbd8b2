import { DATA_SOURCE_LIMITS, DEFAULT_PORTS, HTTP_LIMITS, type TCreateDataSourceInput, type TDataSource, type TDataSourceKind, type THttpAuth } from '@tessera/core/contracts/data-sources';

// The create/edit form's values and the settings it sends. The password is written only: the form
// starts it empty, an empty field keeps the stored one (the field is left out of the request), and
// "clear password" sends '' to remove it (contract: absent keeps, '' removes). An HTTP source's
// secret (basic password, bearer token, API key) is the same field, sent as `secret`.

export interface DataSourceFormValues {
  name: string;
  description?: string;
  kind: TDataSourceKind;
  host: string;
  port: number | null;
  database: string;
  user: string;
  password?: string;
  clearPassword?: boolean;
  ssl: boolean;
  readOnly: boolean;
  poolSize: number | null;
  statementTimeoutSeconds: number | null;
  rowCap: number | null;
  // An HTTP source's settings.
  baseUrl: string;
  headers: { name: string; value: string }[];
  authKind: THttpAuth['kind'];
  authUsername: string;
  apiKeyName: string;
  apiKeyIn: THttpAuth['apiKeyIn'];
  testPath: string;
  timeoutMs: number | null;
}

/** The fields a server's validation member may name (`body.port` → `port`). */
export const FORM_FIELDS = ['name', 'description', 'kind', 'host', 'port', 'database', 'user', 'password', 'ssl', 'readOnly', 'poolSize', 'statementTimeoutSeconds', 'rowCap', 'baseUrl', 'headers', 'testPath', 'timeoutMs'];

/** The product's own database: no connection, only its limits. */
export const OWN_CONNECTION_FIELDS = ['kind', 'poolSize', 'statementTimeoutSeconds', 'rowCap'];
/** The fields a connection test needs filled. */
export const CONNECTION_FIELDS = ['kind', 'host', 'port', 'database', 'user', 'password', 'poolSize', 'statementTimeoutSeconds', 'rowCap'];
/** An HTTP source's: its URL, headers, authentication and timeout. */
export const HTTP_CONNECTION_FIELDS = ['kind', 'baseUrl', 'headers', 'authKind', 'authUsername', 'apiKeyName', 'apiKeyIn', 'password', 'testPath', 'timeoutMs', 'poolSize', 'rowCap'];

/** A server member of an HTTP source's settings as the form's field (`auth.username` → authUsername, `secret` → password). */
export function httpFormField(path: (string | number)[]): (string | number)[] | undefined {
  const [first, second] = path;
  if (first === 'secret') return ['password'];
  if (first === 'auth') return [second === 'username' ? 'authUsername' : second === 'apiKeyName' ? 'apiKeyName' : 'authKind'];
  if (first === 'headers') return ['headers', ...path.slice(1)];
  return typeof first === 'string' && FORM_FIELDS.includes(first) ? [first] : undefined;
}

export const HOST_PATTERN = /^[A-Za-z0-9._:-]+$/;

export function newFormValues(kind: TDataSourceKind = 'postgres'): DataSourceFormValues {
  return {
    name: '',
    description: '',
    kind,
    host: '',
    port: DEFAULT_PORTS[kind],
    database: '',
    user: '',
    password: '',
    clearPassword: false,
    ssl: false,
    readOnly: true,
    poolSize: DATA_SOURCE_LIMITS.poolSize.default,
    statementTimeoutSeconds: DATA_SOURCE_LIMITS.statementTimeoutSeconds.default,
    rowCap: DATA_SOURCE_LIMITS.rowCap.default,
    ...NO_HTTP,
  };
}

const NO_HTTP = { baseUrl: '', headers: [], authKind: 'none', authUsername: '', apiKeyName: '', apiKeyIn: 'header', testPath: '', timeoutMs: HTTP_LIMITS.timeoutMs.default } as const satisfies Partial<DataSourceFormValues>;

export function formValuesOf(s: TDataSource): DataSourceFormValues {
  return {
    name: s.name,
    description: s.description,
    kind: s.kind,
    host: s.host,
    port: s.port,
    database: s.database,
    user: s.user,
    password: '',
    clearPassword: false,
    ssl: s.ssl,
    readOnly: s.readOnly,
    poolSize: s.poolSize,
    statementTimeoutSeconds: s.statementTimeoutSeconds,
    rowCap: s.rowCap,
    ...NO_HTTP,
    headers: [],
    ...(s.http
      ? {
          baseUrl: s.http.baseUrl,
          headers: s.http.headers.map((h) => ({ ...h })),
          authKind: s.http.auth.kind,
          authUsername: s.http.auth.username,
          apiKeyName: s.http.auth.apiKeyName,
          apiKeyIn: s.http.auth.apiKeyIn,
          testPath: s.http.testPath,
          timeoutMs: s.http.timeoutMs,
        }
      : {}),
  };
}

/** A new kind brings its default port unless the port was set to something other than the old kind's default. */
export function portAfterKindChange(port: number | null | undefined, from: TDataSourceKind, to: TDataSourceKind): number | null {
  if (port === null || port === undefined || port === DEFAULT_PORTS[from]) return DEFAULT_PORTS[to];
  return port;
}

/** The settings to save or test; `password` only when one was typed or clearing was asked for. */
export function settingsInput(v: DataSourceFormValues): TCreateDataSourceInput {
  const password = v.clearPassword ? '' : v.password ? v.password : undefined;
  if (v.kind === 'own') {
    return {
      name: v.name.trim(),
      description: (v.description ?? '').trim(),
      kind: 'own',
      readOnly: true,
      poolSize: Number(v.poolSize ?? DATA_SOURCE_LIMITS.poolSize.default),
      statementTimeoutSeconds: Number(v.statementTimeoutSeconds ?? DATA_SOURCE_LIMITS.statementTimeoutSeconds.default),
      rowCap: Number(v.rowCap ?? DATA_SOURCE_LIMITS.rowCap.default),
    };
  }
  if (v.kind === 'http') {
    return {
      name: v.name.trim(),
      description: (v.description ?? '').trim(),
      kind: 'http',
      baseUrl: v.baseUrl.trim(),
      headers: (v.headers ?? []).filter((h) => h?.name?.trim()).map((h) => ({ name: h.name.trim(), value: h.value ?? '' })),
      auth: { kind: v.authKind, username: v.authKind === 'basic' ? v.authUsername.trim() : '', apiKeyName: v.authKind === 'apiKey' ? v.apiKeyName.trim() : '', apiKeyIn: v.apiKeyIn },
      testPath: (v.testPath ?? '').trim(),
      timeoutMs: Number(v.timeoutMs ?? HTTP_LIMITS.timeoutMs.default),
      poolSize: Number(v.poolSize ?? DATA_SOURCE_LIMITS.poolSize.default),
      rowCap: Number(v.rowCap ?? DATA_SOURCE_LIMITS.rowCap.default),
      readOnly: Boolean(v.readOnly),
      // No authentication keeps no secret.
      ...(v.authKind === 'none' ? { secret: '' } : password !== undefined ? { secret: password } : {}),
    };
  }
  return {
    name: v.name.trim(),
    description: (v.description ?? '').trim(),
    kind: v.kind,
    host: v.host.trim(),
    port: Number(v.port),
    database: v.database.trim(),
    user: v.user.trim(),
    ssl: Boolean(v.ssl),
    readOnly: Boolean(v.readOnly),
    poolSize: Number(v.poolSize ?? DATA_SOURCE_LIMITS.poolSize.default),
    statementTimeoutSeconds: Number(v.statementTimeoutSeconds ?? DATA_SOURCE_LIMITS.statementTimeoutSeconds.default),
    rowCap: Number(v.rowCap ?? DATA_SOURCE_LIMITS.rowCap.default),
    ...(password !== undefined ? { password } : {}),
  };
}
