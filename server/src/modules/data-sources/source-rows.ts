/*
 * Rows of a saved query read by other modules — lookups and drop-downs of business pages now,
 * charts later. The saved query is wrapped in a select of its own: conditions on its result
 * columns, a search over some of them, an order, a page and, when asked, a count. Every value is a
 * bound parameter and every column one the saved query answers (quoted in the source's dialect):
 * nothing the caller sends becomes SQL text. Answers are kept for the query's cacheSeconds.
 */
import type { TQueryParameterValue } from '@tessera/core/contracts/data-sources';
import { sqlStatements } from '@tessera/core/helpers/sql-parameters';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { runValues, toMethod } from './data-source-methods.service.ts';
import { sourceError } from './data-sources.messages.ts';
import * as repo from './data-sources.repository.ts';
import { executeStatement, requireSource, type SourceRow } from './data-sources.service.ts';
import { keepAnswer, keptAnswer } from './source-answers.ts';

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

const quote = (kind: SourceRow['kind'], name: string) => (kind === 'postgres' ? `"${name.replace(/"/g, '""')}"` : `\`${name.replace(/`/g, '``')}\``);
/** A column's value as text, for comparing with text and searching (any type). */
const asText = (kind: SourceRow['kind'], column: string) => (kind === 'postgres' ? `q.${column}::text` : `cast(q.${column} as char)`);
/** `%`, `_` and the escape itself taken literally in a LIKE pattern (both dialects' default escape is the backslash). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const COMPARISONS: Partial<Record<SourceConditionOp, string>> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };

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
  const keyword = sqlStatements(method.sql, source.kind).keywords[0];
  if (!keyword || !['select', 'with', 'values'].includes(keyword)) throw sourceError(ctx, 400, 'DataSource.MethodNotRows', 'method.notRows', { code: method.code }, { members: ['sourceQuery'] });
  const values = runValues(ctx, method.parameters, request.parameters);

  const known = new Map(method.columns.map((c) => [c.name, c]));
  const column = (name: string) => {
    if (!known.has(name)) throw sourceError(ctx, 400, 'DataSource.UnknownColumn', 'method.unknownColumn', { code: method.code, column: name }, { members: ['sourceQuery'] });
    return quote(source.kind, name);
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
        filters.push(list.length ? `${asText(source.kind, col)} in (${list.map(bind).join(', ')})` : '1 = 0');
        break;
      }
      case 'contains':
      case 'notContains':
      case 'startsWith':
      case 'endsWith': {
        const pattern = `${c.op === 'startsWith' ? '' : '%'}${likeLiteral(text)}${c.op === 'endsWith' ? '' : '%'}`;
        filters.push(`${c.op === 'notContains' ? 'not ' : ''}${asText(source.kind, col)} ${source.kind === 'postgres' ? 'ilike' : 'like'} ${bind(pattern)}`);
        break;
      }
      case 'isEmpty':
        filters.push(`(q.${col} is null or ${asText(source.kind, col)} = '')`);
        break;
      case 'isNotEmpty':
        filters.push(`(q.${col} is not null and ${asText(source.kind, col)} <> '')`);
        break;
      default:
        filters.push(one === null ? `q.${col} is ${c.op === 'ne' ? 'not ' : ''}null` : `q.${col} ${COMPARISONS[c.op]} ${bind(one)}`);
    }
  }
  const search = request.search?.text.trim();
  if (search && request.search) {
    const columns = request.search.columns.map(column);
    const pattern = `%${likeLiteral(search)}%`;
    filters.push(columns.length ? `(${columns.map((col) => `${asText(source.kind, col)} ${source.kind === 'postgres' ? 'ilike' : 'like'} ${bind(pattern)}`).join(' or ')})` : '1 = 0');
  }
  const where = filters.length ? `\nwhere ${filters.join('\n  and ')}` : '';
  const from = `from (\n${method.sql.replace(/;\s*$/, '')}\n) as q${where}`;
  const order = request.orderBy ? `\norder by q.${column(request.orderBy)}` : '';
  const limit = Math.max(0, Math.min(request.limit, source.row_cap));
  const page = `select * ${from}${order}\nlimit ${limit} offset ${Math.max(0, request.offset ?? 0)}`;
  const [result, counted] = await Promise.all([
    executeStatement(ctx, source, page, bound),
    request.count ? executeStatement(ctx, source, `select count(*) as n ${from}`, bound) : Promise.resolve(null),
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
