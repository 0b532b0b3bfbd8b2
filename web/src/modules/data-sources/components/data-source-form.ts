import { DATA_SOURCE_LIMITS, DEFAULT_PORTS, type TCreateDataSourceInput, type TDataSource, type TDataSourceKind } from '@tessera/core/contracts/data-sources';

// The create/edit form's values and the settings it sends. The password is written only: the form
// starts it empty, an empty field keeps the stored one (the field is left out of the request), and
// "clear password" sends '' to remove it (contract: absent keeps, '' removes).

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
}

/** The fields a server's validation member may name (`body.port` → `port`). */
export const FORM_FIELDS = ['name', 'description', 'kind', 'host', 'port', 'database', 'user', 'password', 'ssl', 'readOnly', 'poolSize', 'statementTimeoutSeconds', 'rowCap'];

/** The fields a connection test needs filled. */
export const CONNECTION_FIELDS = ['kind', 'host', 'port', 'database', 'user', 'password', 'poolSize', 'statementTimeoutSeconds', 'rowCap'];

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
  };
}

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
