/**
 * Reads of `audit_logs` for the audit screen. The log is written by the kernel (platform/audit.ts,
 * `recordAudit`), which owns the table; this module only reads it.
 */
import type { Kysely } from 'kysely';
import type { TAuditLogQuery } from '@tessera/core/contracts/audit';
import type { Database } from '../../db/schema.ts';
import { parseSorting } from '../../platform/paging.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

/** The audit log narrowed by the query's filters (time range, user, actions, entity type, free text). */
function filteredAuditLogs(db: Db, q: Omit<TAuditLogQuery, 'SkipCount' | 'MaxResultCount'>) {
  let query = db.selectFrom('audit_logs');
  if (q.StartTime) query = query.where('time', '>=', new Date(q.StartTime));
  if (q.EndTime) query = query.where('time', '<=', new Date(q.EndTime));
  if (q.UserId) query = query.where('user_id', '=', q.UserId);
  if (q.UserName) query = query.where('user_name', 'ilike', likePattern(q.UserName));
  const actions = (q.Action ?? '').split(',').filter(Boolean);
  if (actions.length) query = query.where('action', 'in', actions);
  if (q.EntityType) query = query.where('entity_type', '=', q.EntityType);
  if (q.Filter?.trim()) {
    const like = likePattern(q.Filter.trim());
    query = query.where((eb) =>
      eb.or([
        eb('user_name', 'ilike', like),
        eb('action', 'ilike', like),
        eb('entity_type', 'ilike', like),
        eb('entity_id', 'ilike', like),
        eb('ip', 'ilike', like),
      ]),
    );
  }
  return query;
}

function auditSort(sorting: string | undefined) {
  return parseSorting(
    sorting,
    { time: 'time', action: 'action', username: 'user_name', entitytype: 'entity_type' },
    { column: 'time', direction: 'desc' },
  );
}

/** One page of the filtered log in the query's order (newest first by default), with the total. */
export async function pageOfAuditLogs(db: Db, query: Omit<TAuditLogQuery, 'SkipCount' | 'MaxResultCount'>, window: { offset: number; limit: number }) {
  const filtered = filteredAuditLogs(db, query);
  const sort = auditSort(query.Sorting);
  const [rows, total] = await Promise.all([
    filtered.selectAll().orderBy(sort.column, sort.direction).orderBy('id', 'desc').offset(window.offset).limit(window.limit).execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, totalCount: Number(total.count) };
}

/** The filtered log in the query's order, up to `limit` rows (the export). */
export function auditLogsInOrder(db: Db, query: Omit<TAuditLogQuery, 'SkipCount' | 'MaxResultCount'>, limit: number) {
  const sort = auditSort(query.Sorting);
  return filteredAuditLogs(db, query).selectAll().orderBy(sort.column, sort.direction).orderBy('id', 'desc').limit(limit).execute();
}

export async function distinctActions(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('audit_logs').select('action').distinct().orderBy('action').execute();
  return rows.map((r) => r.action);
}
