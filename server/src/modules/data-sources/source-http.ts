/*
 * Requests to HTTP/REST sources: the URL built from the base URL and the request's templates (path
 * values URL-encoded; the final URL must keep the base URL's origin and stay under its path), the
 * default headers, the request's headers and the authentication (auth last: it wins), a JSON body
 * whose parameters are JSON values, and Node's fetch with an AbortSignal timeout. Redirects are not
 * followed (a 3xx is an answer that cannot be used: a redirect must not carry the key elsewhere).
 * The answer is read up to HTTP_LIMITS.responseBytes, parsed as JSON and turned into rows by the
 * request's rows path; the columns' types are read from the rows.
 */
import { HTTP_LIMITS, type THttpAuth, type THttpHeader, type THttpRequest } from '@tessera/core/contracts/data-sources';
import { fillJsonBody, fillPath, fillText, isNullAlone, type TemplateValue } from '@tessera/core/helpers/http-request';
import { parseJsonPath, selectJsonRows } from '@tessera/core/helpers/json-path';
import { SourceError } from './source-clients.ts';

export interface HttpSettings {
  baseUrl: string;
  headers: THttpHeader[];
  auth: THttpAuth;
  testPath: string;
  timeoutMs: number;
}

/** A request that cannot be built from what the caller gave: a 400 naming the member. */
export class HttpRequestInvalid extends Error {
  constructor(
    readonly reason: 'outsideBase' | 'badBody' | 'badPath' | 'badHeader',
    readonly member: string,
    message: string,
  ) {
    super(message);
  }
}

export interface BuiltRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: string | null;
}

/** The base URL's path joined with a request path: `/api` + `customers/1` → `/api/customers/1`. */
function joinPath(base: string, path: string): string {
  const head = base.replace(/\/+$/, '');
  const tail = path.replace(/^\/+/, '');
  return tail ? `${head}/${tail}` : head || '/';
}

/** The request as it is sent: URL, headers (default, own, then auth) and body. */
export function buildHttpRequest(settings: HttpSettings, secret: string | null, request: Pick<THttpRequest, 'method' | 'path' | 'query' | 'headers' | 'body'>, values: Record<string, TemplateValue>): BuiltRequest {
  const base = new URL(settings.baseUrl);
  const url = new URL(base.origin);
  url.pathname = joinPath(base.pathname, fillPath(request.path, values));
  // Never another host: a value is encoded into one segment, and `..` may not climb out of the base path.
  const basePath = base.pathname.replace(/\/+$/, '');
  if (url.origin !== base.origin || (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))) {
    throw new HttpRequestInvalid('outsideBase', 'request.path', url.pathname);
  }
  for (const q of request.query) {
    if (isNullAlone(q.value, values)) continue;
    url.searchParams.append(q.name, fillText(q.value, values));
  }
  const headers = new Headers();
  headers.set('accept', 'application/json');
  try {
    for (const h of settings.headers) headers.set(h.name, h.value);
    for (const h of request.headers) headers.set(h.name, fillText(h.value, values));
  } catch (error) {
    throw new HttpRequestInvalid('badHeader', 'request.headers', (error as Error).message);
  }
  const key = secret ?? '';
  // Header values are bytes (Latin-1): a secret or value outside it is the caller's to change, a 400.
  try {
    switch (settings.auth.kind) {
      case 'basic':
        headers.set('authorization', `Basic ${Buffer.from(`${settings.auth.username}:${key}`).toString('base64')}`);
        break;
      case 'bearer':
        headers.set('authorization', `Bearer ${key}`);
        break;
      case 'apiKey':
        if (settings.auth.apiKeyIn === 'query') url.searchParams.set(settings.auth.apiKeyName, key);
        else headers.set(settings.auth.apiKeyName, key);
        break;
    }
  } catch (error) {
    throw new HttpRequestInvalid('badHeader', 'secret', (error as Error).message);
  }
  let body: string | null = null;
  if (request.body.trim()) {
    try {
      body = JSON.stringify(fillJsonBody(request.body, values));
    } catch (error) {
      throw new HttpRequestInvalid('badBody', 'request.body', (error as Error).message);
    }
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  return { url, method: request.method, headers, body };
}

export interface HttpAnswer {
  status: number;
  statusText: string;
  /** The body's text (at most HTTP_LIMITS.responseBytes). */
  text: string;
  elapsedMs: number;
}

const isTimeout = (error: unknown) => error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/** Why fetch failed, in the transport's words (ECONNREFUSED 127.0.0.1:1, ENOTFOUND host …). */
function transportReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message || cause?.code || (error as Error).message || String(error);
}

/** Sends a built request: a timeout is a 'timeout', no connection 'unavailable', an answer too large 'response'. */
export async function sendHttpRequest(built: BuiltRequest, timeoutMs: number): Promise<HttpAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(built.url, { method: built.method, headers: built.headers, body: built.body, signal, redirect: 'manual' });
  } catch (error) {
    if (isTimeout(error) || signal.aborted) throw new SourceError('timeout', `no answer within ${timeoutMs} ms`);
    throw new SourceError('unavailable', transportReason(error));
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  const tooLarge = () => new SourceError('response', `the answer is larger than ${HTTP_LIMITS.responseBytes / 1024 / 1024} MB`);
  if (declared > HTTP_LIMITS.responseBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > HTTP_LIMITS.responseBytes) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(value);
      }
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    if (isTimeout(error) || signal.aborted) throw new SourceError('timeout', `no answer within ${timeoutMs} ms`);
    throw new SourceError('unavailable', transportReason(error));
  }
  return { status: response.status, statusText: response.statusText, text: Buffer.concat(chunks).toString('utf8'), elapsedMs: Math.round(performance.now() - started) };
}

/** The JSON of a 2xx answer ('' is none); any other status, or text that is not JSON, a 'response' failure. */
export function answerJson(answer: HttpAnswer): unknown {
  if (answer.status < 200 || answer.status > 299) {
    const excerpt = answer.text.replace(/\s+/g, ' ').trim().slice(0, 200);
    throw new SourceError('response', `HTTP ${answer.status} ${answer.statusText}${excerpt ? ` — ${excerpt}` : ''}`);
  }
  if (!answer.text.trim()) return null;
  try {
    return JSON.parse(answer.text);
  } catch (error) {
    throw new SourceError('response', `the answer is not JSON (${(error as Error).message})`);
  }
}

export interface HttpRows {
  columns: { name: string; dataType: string }[];
  rows: Record<string, unknown>[];
  truncated: boolean;
}

/** How many rows the column types are read from. */
const TYPED_FROM = 100;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function typeOf(value: unknown): string {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return DATE.test(value) ? 'date' : TIMESTAMP.test(value) ? 'timestamp' : 'text';
  return 'json';
}

/** The type that holds every one of a column's types: integer within number, date within timestamp, else text. */
function widen(a: string, b: string): string {
  if (a === b) return a;
  const pair = new Set([a, b]);
  if (pair.has('integer') && pair.has('number')) return 'number';
  if (pair.has('date') && pair.has('timestamp')) return 'timestamp';
  return 'text';
}

/**
 * Rows of a JSON answer by the rows path (an object is a row; another value a row of one column,
 * `value`), at most `rowCap`. Columns are the rows' keys in order of first appearance; their types
 * what the non-null values of the first rows are.
 */
export function jsonRows(answer: unknown, rowsPath: string, rowCap: number): HttpRows {
  const segments = parseJsonPath(rowsPath);
  if (!segments) throw new HttpRequestInvalid('badPath', 'request.rowsPath', rowsPath);
  const selected = answer === null ? [] : selectJsonRows(answer, segments);
  const rows = selected.slice(0, rowCap).map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v }));
  const types = new Map<string, string | null>();
  rows.forEach((row, i) => {
    for (const [name, value] of Object.entries(row)) {
      if (!types.has(name)) types.set(name, null);
      if (i >= TYPED_FROM || value === null || value === undefined) continue;
      const held = types.get(name);
      types.set(name, held ? widen(held, typeOf(value)) : typeOf(value));
    }
  });
  const columns = [...types].map(([name, type]) => ({ name, dataType: type ?? 'text' }));
  return { columns, rows: rows.map((row) => Object.fromEntries(columns.map((c) => [c.name, row[c.name] ?? null]))), truncated: selected.length > rowCap };
}
