/*
 * Running an HTTP source's requests for the API: the connection test, an ad-hoc request of the
 * workbench and a saved query's run. A read-only source sends GET and HEAD only (HTTP's safe
 * methods: whether a POST only reads is the API's business, not something the product can know —
 * such a source is marked writable). Saving a query runs it to read its columns only when it is a
 * GET or HEAD; another method is not sent at save time (its query then has no columns and feeds no
 * control).
 */
import { HTTP_READ_METHODS, type TDataSourceQueryResult, type TDataSourceTestResult, type THttpRequest, type THttpSourceSettings, type TQueryParameterValue } from '@tessera/core/contracts/data-sources';
import { httpParameterNames } from '@tessera/core/helpers/http-request';
import type { Selectable } from 'kysely';
import type { DataSourcesTable } from '../../db/schema.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { sourceError, sourceInvalid } from './data-sources.messages.ts';
import { SourceError } from './source-clients.ts';
import { failed, httpSettingsOf, storedPassword } from './source-failures.ts';
import { answerJson, buildHttpRequest, HttpRequestInvalid, jsonRows, sendHttpRequest } from './source-http.ts';

type SourceRow = Selectable<DataSourcesTable>;

/** Per source, the requests under way and those waiting for one of them to end. */
const gates = new Map<string, { running: number; waiting: Array<() => void> }>();

/**
 * Runs `send` once fewer than `limit` requests of the source are under way: one slow API holds at
 * most its own pool size of the server's requests. A request waits within its timeout (`send` gets
 * what is left of it); one that waited it all out fails as slow, without being sent. A request
 * that ends hands its place to the first one waiting.
 */
async function throughGate<T>(sourceId: string, limit: number, timeoutMs: number, send: (leftMs: number) => Promise<T>): Promise<T> {
  const gate = gates.get(sourceId) ?? { running: 0, waiting: [] };
  gates.set(sourceId, gate);
  const started = performance.now();
  if (gate.running < limit) gate.running += 1;
  else {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        gate.waiting.splice(gate.waiting.indexOf(turn), 1);
        reject(new SourceError('timeout', `no answer within ${timeoutMs} ms: ${limit} requests to it were still under way`));
      }, timeoutMs);
      const turn = () => (clearTimeout(timer), resolve());
      gate.waiting.push(turn);
    });
  }
  try {
    return await send(Math.max(1, Math.round(timeoutMs - (performance.now() - started))));
  } finally {
    const next = gate.waiting.shift();
    if (next) next();
    else if (--gate.running === 0) gates.delete(sourceId);
  }
}

/** GET of the base URL (or its test path) with the source's headers and authentication: the status, or why there was none. */
export async function testHttpSettings(settings: THttpSourceSettings, secret: string | null): Promise<TDataSourceTestResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const built = buildHttpRequest(settings, secret, { method: 'GET', path: settings.testPath, query: [], headers: [], body: '' }, {});
    const answer = await sendHttpRequest(built, settings.timeoutMs);
    const status = `HTTP ${answer.status} ${answer.statusText}`.trim();
    const ok = answer.status >= 200 && answer.status <= 299;
    return { ok, version: ok ? status : null, elapsedMs: elapsed(), message: ok ? null : status };
  } catch (error) {
    if (error instanceof HttpRequestInvalid) return { ok: false, version: null, elapsedMs: elapsed(), message: `${error.member}: ${error.message}` };
    if (!(error instanceof SourceError)) throw error;
    return { ok: false, version: null, elapsedMs: elapsed(), message: error.message.slice(0, 500) };
  }
}

/** A request the caller's values cannot make: a 400 on the member it names. */
function invalid(ctx: ServiceContext, error: HttpRequestInvalid): Error {
  if (error.reason === 'outsideBase') return sourceInvalid(ctx, 'http.outsideBase', [error.member], { path: error.message });
  if (error.reason === 'badBody') return sourceInvalid(ctx, 'http.badBody', [error.member], { reason: error.message });
  if (error.reason === 'badPath') return sourceInvalid(ctx, 'http.badPath', [error.member], { path: error.message });
  return sourceInvalid(ctx, 'http.badHeader', [error.member], { reason: error.message });
}

/**
 * Sends one request of an HTTP source with its parameters' values and maps the JSON answer to
 * rows (at most the row cap; `truncated` when there were more). `checkParameters`: every
 * parameter the templates use must have a value (an ad-hoc run; a saved query's are declared).
 * `columnsOnly`: a GET or HEAD is run for its columns, another method not sent at all.
 */
export async function executeHttpRequest(
  ctx: ServiceContext,
  row: SourceRow,
  request: THttpRequest,
  values: Record<string, TQueryParameterValue>,
  options: { checkParameters?: boolean; columnsOnly?: boolean } = {},
): Promise<TDataSourceQueryResult> {
  const reads = HTTP_READ_METHODS.includes(request.method);
  if (row.read_only && !reads) throw sourceError(ctx, 400, 'DataSource.ReadOnly', 'source.httpReadOnly', { name: row.name, method: request.method }, { members: ['request.method'] });
  const empty: TDataSourceQueryResult = { columns: [], rows: [], rowCount: 0, truncated: false, affectedRows: null, elapsedMs: 0, cached: false };
  if (options.columnsOnly && !reads) return empty;
  if (options.checkParameters) {
    const missing = httpParameterNames(request).filter((name) => !Object.hasOwn(values, name));
    if (missing.length > 0) throw sourceInvalid(ctx, 'source.missingParameters', ['parameters'], { names: missing.join(', ') });
  }
  const settings = httpSettingsOf(row);
  let built;
  try {
    built = buildHttpRequest(settings, storedPassword(ctx, row), request, values);
  } catch (error) {
    throw error instanceof HttpRequestInvalid ? invalid(ctx, error) : error;
  }
  try {
    const answer = await throughGate(row.id, row.pool_size, settings.timeoutMs, (leftMs) => sendHttpRequest(built, leftMs));
    const json = request.method === 'HEAD' ? null : answerJson(answer);
    if (request.method === 'HEAD' && (answer.status < 200 || answer.status > 299)) answerJson(answer);
    const rows = jsonRows(json, request.rowsPath, row.row_cap);
    return { columns: rows.columns, rows: options.columnsOnly ? [] : rows.rows, rowCount: options.columnsOnly ? 0 : rows.rows.length, truncated: rows.truncated, affectedRows: null, elapsedMs: answer.elapsedMs, cached: false };
  } catch (error) {
    if (error instanceof HttpRequestInvalid) throw invalid(ctx, error);
    throw failed(ctx, row, error);
  }
}
