import type { TErrorResponse } from '@tessera/core/contracts/common';
import { ApiError } from '../../../shared/api/client.ts';
import { dataSourceErrorKind, type DataSourceErrorKind } from './error-kind.ts';

export interface ServerError {
  kind: DataSourceErrorKind;
  /** The server's code (`DataSource.ReadOnly`), when it sent one. */
  code?: string;
  /** The server's own words: the client puts a fixed text in place of a 502's or 504's message, this keeps the database's. */
  message: string;
  /** The validation messages of a 400 beyond the message itself. */
  details: string[];
}

/** A failed call as the data source screens show it. */
export function serverError(err: unknown): ServerError {
  if (!(err instanceof ApiError)) return { kind: 'failed', message: err instanceof Error ? err.message : String(err), details: [] };
  const body = (err.body as TErrorResponse | undefined)?.error;
  const message = body?.message || err.message;
  const details = err.validationErrors.map((v) => v.message).filter((m) => m !== message);
  return { kind: dataSourceErrorKind(err.status, body?.code), code: body?.code, message, details };
}

/** One line for a toast: the first validation message, else the server's message. */
export const errorText = (err: unknown) => {
  const e = serverError(err);
  return e.details[0] ?? e.message;
};
