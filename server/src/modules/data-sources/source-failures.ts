/*
 * What the data-sources services share about a stored source: its sealed password or secret, an
 * HTTP source's settings, and a source's failure as the API answers it (502 down or a bad answer,
 * 504 slow, 400 read-only or the caller's SQL).
 */
import { ZHttpSourceSettings, type THttpSourceSettings } from '@tessera/core/contracts/data-sources';
import type { Selectable } from 'kysely';
import type { DataSourcesTable } from '../../db/schema.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { openSecret } from '../../platform/secrets.ts';
import { sourceError, sourceInvalid } from './data-sources.messages.ts';
import { SourceError } from './source-clients.ts';

type SourceRow = Selectable<DataSourcesTable>;

/** The stored password or secret, opened (null: none). */
export function storedPassword(ctx: ServiceContext, row: SourceRow): string | null {
  if (row.sealed_password === null) return null;
  try {
    return openSecret(ctx.config, row.sealed_password, row.id);
  } catch {
    throw sourceInvalid(ctx, 'source.unreadablePassword', [row.kind === 'http' ? 'secret' : 'password']);
  }
}

/** An HTTP source's settings as stored (its base URL, headers, authentication, test path and timeout). */
export function httpSettingsOf(row: SourceRow): THttpSourceSettings {
  const stored = (typeof row.http_settings === 'string' ? JSON.parse(row.http_settings) : row.http_settings) as object;
  return ZHttpSourceSettings.parse({ ...stored, timeoutMs: row.timeout_ms });
}

/** A source's failure as the API answers it. */
export function failed(ctx: ServiceContext, row: Pick<SourceRow, 'name' | 'kind' | 'statement_timeout_seconds' | 'timeout_ms'>, error: unknown): Error {
  if (!(error instanceof SourceError)) return error as Error;
  const reason = error.message.slice(0, 500);
  switch (error.failure) {
    case 'unavailable':
      return sourceError(ctx, 502, 'DataSource.Unavailable', 'source.unavailable', { name: row.name, reason });
    case 'timeout':
      if (row.kind === 'http') return sourceError(ctx, 504, 'DataSource.Timeout', 'source.httpTimeout', { name: row.name, ms: row.timeout_ms ?? 0 });
      return sourceError(ctx, 504, 'DataSource.Timeout', 'source.timeout', { name: row.name, seconds: row.statement_timeout_seconds, reason });
    case 'response':
      return sourceError(ctx, 502, 'DataSource.BadResponse', 'source.badResponse', { name: row.name, reason });
    case 'readOnly':
      return sourceError(ctx, 400, 'DataSource.ReadOnly', 'source.readOnly', { name: row.name }, { members: ['sql'] });
    case 'query':
      return sourceError(ctx, 400, 'DataSource.QueryFailed', 'source.queryFailed', { reason }, { members: ['sql'] });
    case 'refused':
      return sourceError(ctx, 400, 'DataSource.Refused', `own.${error.refusal?.code ?? 'construct'}` as const, { subject: (error.refusal?.subject ?? reason).slice(0, 300) }, { members: ['sql'] });
  }
}
