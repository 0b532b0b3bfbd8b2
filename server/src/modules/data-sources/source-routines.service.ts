/*
 * Stored procedures and functions of database sources, for the data factory (issue 16): which
 * sources there are, what routines a source has with their parameters, and calling one with bound
 * values: every result set it answers (capped) and its OUT values, under the source's own pool,
 * statement timeout and read-only mode. A source's failure is answered as a query's is.
 */
import type { TFactorySource, TProcedureResultSet, TSourceRoutineList } from '@tessera/core/contracts/data-factory';
import type { TSqlSourceKind } from '@tessera/core/contracts/data-sources';
import type { ServiceContext } from '../../platform/context.ts';
import { sourceInvalid } from './data-sources.messages.ts';
import * as repo from './data-sources.repository.ts';
import { clientOf, requireSource, uniqueNames } from './data-sources.service.ts';
import { jsonValue, type SourceResult } from './source-clients.ts';
import { failed } from './source-failures.ts';
import { routinesOf, routinesSql, type RoutineCall } from './source-routines.ts';

export type { RoutineCall, RoutineParameter } from './source-routines.ts';

const toRoutineSource = (r: { id: string; name: string; kind: string; read_only: boolean }): TFactorySource => ({ id: r.id, name: r.name, kind: r.kind as TSqlSourceKind, readOnly: r.read_only });

export async function listRoutineSources(ctx: ServiceContext): Promise<TFactorySource[]> {
  return (await repo.sqlSources(ctx.db)).map(toRoutineSource);
}

/** One database source, or null when there is none of that id or it is an HTTP source. */
export async function findRoutineSource(ctx: ServiceContext, id: string): Promise<TFactorySource | null> {
  const row = await repo.findSource(ctx.db, id);
  return row && row.kind !== 'http' && row.kind !== 'own' ? toRoutineSource(row) : null;
}

/** Names of sources by id (a deleted one is missing). */
export async function sourceNamesOf(ctx: ServiceContext, ids: string[]): Promise<Map<string, string>> {
  return new Map((await repo.sourceNames(ctx.db, [...new Set(ids)])).map((r) => [r.id, r.name]));
}

async function requireSqlSource(ctx: ServiceContext, id: string) {
  const row = await requireSource(ctx, id);
  if (row.kind === 'http') throw sourceInvalid(ctx, 'source.notSql', ['sourceId'], { name: row.name });
  if (row.kind === 'own') throw sourceInvalid(ctx, 'own.noRoutines', ['sourceId']);
  return row;
}

export async function listSourceRoutines(ctx: ServiceContext, sourceId: string): Promise<TSourceRoutineList> {
  const row = await requireSqlSource(ctx, sourceId);
  try {
    const result = await clientOf(ctx, row).query(routinesSql(row.kind as TSqlSourceKind), []);
    return { items: routinesOf(result.rows) };
  } catch (error) {
    throw failed(ctx, row, error);
  }
}

const resultSetOf = (set: SourceResult, limit: number): TProcedureResultSet => {
  const names = uniqueNames(set.columns.map((c) => c.name));
  const rows = set.rows.slice(0, limit).map((values) => Object.fromEntries(names.map((name, i) => [name, jsonValue(values[i])])));
  return { columns: set.columns.map((c, i) => ({ name: names[i]!, dataType: c.dataType })), rows, rowCount: rows.length, truncated: set.rows.length > limit };
};

/** Calls the routine on its source; each result set capped at `call.limit` rows. */
export async function callSourceRoutine(ctx: ServiceContext, sourceId: string, call: RoutineCall): Promise<{ resultSets: TProcedureResultSet[]; outs: Record<string, unknown> }> {
  const row = await requireSqlSource(ctx, sourceId);
  try {
    // One row more than the cap tells whether there were more (a PostgreSQL function's are capped there).
    const answer = await clientOf(ctx, row).call({ ...call, limit: call.limit + 1 });
    return {
      resultSets: answer.resultSets.map((set) => resultSetOf(set, call.limit)),
      outs: Object.fromEntries(Object.entries(answer.outs).map(([name, value]) => [name, jsonValue(value)])),
    };
  } catch (error) {
    throw failed(ctx, row, error);
  }
}
