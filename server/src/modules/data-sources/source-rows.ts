/*
 * Rows of a saved query read by other modules — lookups and drop-downs of business pages now,
 * charts later. The saved query is wrapped in a select of its own: conditions on its result
 * columns, a search over some of them, an order, a page and, when asked, a count. Every value is a
 * bound parameter and every column one the saved query answers (quoted in the source's dialect):
 * nothing the caller sends becomes SQL text. Answers are kept for the query's cacheSeconds.
 * An HTTP source's query (a GET) is asked for its rows whole — at most the source's row cap, kept
 * for cacheSeconds — and the conditions, search, order and page are applied to them here
 * (source-rows-memory.ts).
 */
import { sqlDialectOf, type TSqlSourceKind as TDataSourceKind, type TQueryParameterValue } from '@tessera/core/contracts/data-sources';
import { sqlStatements } from '@tessera/core/helpers/sql-parameters';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { runValues, toMethod } from './data-source-methods.service.ts';
import { sourceError } from './data-sources.messages.ts';
import * as repo from './data-sources.repository.ts';
import { executeStatement, requireSource } from './data-sources.service.ts';
import { keepAnswer, keptAnswer } from './source-answers.ts';
import { executeHttpRequest } from './source-http-run.ts';
import { rowsInMemory } from './source-rows-memory.ts';
import { asText, likeLiteral, likeSql, pageSql, quoteName } from './source-sql.ts';

export type SourceConditionOp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'contains' | 'notContains' | 'startsWith' | 'endsWith' | 'in' | 'isEmpty' | 'isNotEmpty';
/** A condition on a result column of the saved query (`in` takes a list of values). */
export interface SourceCondition {
  column: string;
  op: SourceConditionOp;
  value?: TQueryParameterValue | TQueryParameterValue[];
}

export interface SourceRowsRequest {
  sourceId: string;
  methodCode: string;
  /** Values of the saved query's parameters (the rest from its defaults). */
  parameters: Record<string, TQueryParameterValue>;
  /** All must hold. */
  where?: SourceCondition[];
  /** Rows where one of these columns contains the text (case-insensitive where the source's collation is). */
  search?: { columns: string[]; text: string } | null;
  orderBy?: string | null;
  limit: number;
  offset?: number;
  /** Also count the rows the conditions keep (a second statement, run beside the first). */
  count?: boolean;
}

export interface SourceRows {
  columns: { name: string; dataType: string }[];
  rows: Record<string, unknown>[];
  totalCount: number | null;
  cached: boolean;
}

/** A saved query by its code, with what a design names of it: its parameters and result columns. */
export async function findSourceMethod(db: Db, sourceId: string, code: string) {
  const source = await repo.findSource(db, sourceId);
  const row = source ? await repo.findMethodByCode(db, sourceId, code) : undefined;
  return source && row ? { source: { id: source.id, name: source.name, kind: source.kind }, method: toMethod(row) } : null;
}


const COMPARISONS: Partial<Record<SourceConditionOp, string>> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };

/**
 * The statements reading a page of a saved query's rows (and counting them), with the values to
 * bind by name: the saved query's own parameters and `tessera_v0`, `tessera_v1`… for the
 * conditions and the search. Columns must be ones the query answers (`has`; else `unknown`'s error).
 */
export function rowsSql(
  kind: TDataSourceKind,
  sql: string,
  values: Record<string, TQueryParameterValue>,
  request: Pick<SourceRowsRequest, 'where' | 'search' | 'orderBy' | 'limit' | 'offset'>,
  options: { rowCap: number; has(column: string): boolean; unknown(column: string): Error },
): { page: string; count: string; bound: Record<string, TQueryParameterValue> } {
  const column = (name: string) => {
    if (!options.has(name)) throw options.unknown(name);
    return quoteName(kind, name);
  };
  // Names of our own for the bound values; the saved query's parameters keep theirs.
  const bound: Record<string, TQueryParameterValue> = { ...values };
  let n = 0;
  const bind = (value: TQueryParameterValue) => {
    const name = `tessera_v${n++}`;
    bound[name] = value;
    return `:${name}`;
  };
  const filters: string[] = [];
  for (const c of request.where ?? []) {
    const col = column(c.column);
    const one = Array.isArray(c.value) ? (c.value[0] ?? null) : (c.value ?? null);
    const text = one === null ? '' : String(one);
    switch (c.op) {
      case 'in': {
        const list = (Array.isArray(c.value) ? c.value : [c.value ?? null]).filter((v) => v !== null).map(String);
        filters.push(list.length ? `${asText(kind, col)} in (${list.map(bind).join(', ')})` : '1 = 0');
        break;
      }
      case 'contains':
      case 'notContains':
      case 'startsWith':
      case 'endsWith': {
        const pattern = `${c.op === 'startsWith' ? '' : '%'}${likeLiteral(kind, text)}${c.op === 'endsWith' ? '' : '%'}`;
        filters.push(`${c.op === 'notContains' ? 'not ' : ''}${likeSql(kind, asText(kind, col), bind(pattern))}`);
        break;
      }
      case 'isEmpty':
        filters.push(`(q.${col} is null or ${asText(kind, col)} = '')`);
        break;
      case 'isNotEmpty':
        filters.push(`(q.${col} is not null and ${asText(kind, col)} <> '')`);
        break;
      default:
        filters.push(one === null ? `q.${col} is ${c.op === 'ne' ? 'not ' : ''}null` : `q.${col} ${COMPARISONS[c.op]} ${bind(one)}`);
    }
  }
  const search = request.search?.text.trim();
  if (search && request.search) {
    const columns = request.search.columns.map(column);
    const pattern = `%${likeLiteral(kind, search)}%`;
    filters.push(columns.length ? `(${columns.map((col) => likeSql(kind, asText(kind, col), bind(pattern))).join(' or ')})` : '1 = 0');
  }
  const where = filters.length ? `\nwhere ${filters.join('\n  and ')}` : '';
  const from = `from (\n${sql.replace(/;\s*$/, '')}\n) as q${where}`;
  const limit = Math.max(0, Math.min(request.limit, options.rowCap));
  const page = `select * ${from}${pageSql(kind, request.orderBy ? `q.${column(request.orderBy)}` : null, limit, Math.max(0, request.offset ?? 0))}`;
  return { page, count: `select count(*) as n ${from}`, bound };
}

/**
 * Reads rows of a saved query (a reading one: SELECT, WITH or VALUES). A method that does not exist
 * is a 400 naming it; the source's own failures answer as everywhere (502 down, 504 slow).
 */
export async function readSourceRows(ctx: ServiceContext, request: SourceRowsRequest): Promise<SourceRows> {
  // A kept answer is served without reading the source or the query (saving either forgets their answers).
  const key = `${request.sourceId}/${request.methodCode.toLowerCase()}/${JSON.stringify([request.parameters, request.where ?? [], request.search ?? null, request.orderBy ?? null, request.limit, request.offset ?? 0, request.count === true])}`;
  const now = Date.now();
  const held = keptAnswer<SourceRows>(key, now);
  if (held) return { ...held, cached: true };
  const source = await requireSource(ctx, request.sourceId);
  const row = await repo.findMethodByCode(ctx.db, request.sourceId, request.methodCode);
  if (!row) throw sourceError(ctx, 400, 'DataSource.MethodMissing', 'method.missing', { code: request.methodCode, name: source.name }, { members: ['sourceQuery'] });
  const method = toMethod(row);
  const unknown = (column: string) => sourceError(ctx, 400, 'DataSource.UnknownColumn', 'method.unknownColumn', { code: method.code, column }, { members: ['sourceQuery'] });
  const has = (name: string) => method.columns.some((c) => c.name === name);
  if (source.kind === 'http') {
    if (method.request?.method !== 'GET') throw sourceError(ctx, 400, 'DataSource.MethodNotRows', 'method.notRows', { code: method.code }, { members: ['sourceQuery'] });
    const values = runValues(ctx, method.parameters, request.parameters);
    // The whole answer is kept (the stamps: a query or source saved on another node asks anew), each window cut from it.
    const wholeKey = `${request.sourceId}/rows:${method.id}:${method.concurrencyStamp}:${source.concurrency_stamp}:${JSON.stringify(method.parameters.map((p) => values[p.name]))}`;
    const whole = keptAnswer<Record<string, unknown>[]>(wholeKey, now) ?? (await executeHttpRequest(ctx, source, method.request, values)).rows;
    if (method.cacheSeconds > 0) keepAnswer(wholeKey, whole, now + method.cacheSeconds * 1000);
    const { page, count } = rowsInMemory(whole, request, { rowCap: source.row_cap, has, unknown });
    return { columns: method.columns, rows: page, totalCount: request.count ? count : null, cached: false };
  }
  const keyword = sqlStatements(method.sql, sqlDialectOf(source.kind)!).keywords[0];
  if (!keyword || !['select', 'with', 'values'].includes(keyword)) throw sourceError(ctx, 400, 'DataSource.MethodNotRows', 'method.notRows', { code: method.code }, { members: ['sourceQuery'] });
  const values = runValues(ctx, method.parameters, request.parameters);

  const { page, count, bound } = rowsSql(sqlDialectOf(source.kind)!, method.sql, values, request, { rowCap: source.row_cap, has, unknown });
  const [result, counted] = await Promise.all([
    executeStatement(ctx, source, page, bound),
    request.count ? executeStatement(ctx, source, count, bound) : Promise.resolve(null),
  ]);
  const rows: SourceRows = {
    columns: result.columns,
    rows: result.rows,
    totalCount: counted ? Number(Object.values(counted.rows[0] ?? {})[0] ?? 0) : null,
    cached: false,
  };
  if (method.cacheSeconds > 0) keepAnswer(key, rows, now + method.cacheSeconds * 1000);
  return rows;
}
