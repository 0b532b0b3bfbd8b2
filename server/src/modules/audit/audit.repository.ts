import type { Kysely } from 'kysely';
import type { TAuditLogQuery } from '@tessera/core/contracts/audit';
import type { Database } from '../../db/schema.ts';
import { parseSorting } from '../../platform/paging.ts';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The audit log narrowed by the query's filters (time range, user, actions, entity type, free text). */
export function filteredAuditLogs(db: Kysely<Database>, q: Omit<TAuditLogQuery, 'SkipCount' | 'MaxResultCount'>) {
  let query = db.selectFrom('audit_logs');
  if (q.StartTime) query = query.where('time', '>=', new Date(q.StartTime));
  if (q.EndTime) query = query.where('time', '<=', new Date(q.EndTime));
  if (q.UserId) query = query.where('user_id', '=', q.UserId);
  if (q.UserName) query = query.where('user_name', 'ilike', `%${escapeLike(q.UserName)}%`);
  const actions = (q.Action ?? '').split(',').filter(Boolean);
  if (actions.length) query = query.where('action', 'in', actions);
  if (q.EntityType) query = query.where('entity_type', '=', q.EntityType);
  if (q.Filter?.trim()) {
    const like = `%${escapeLike(q.Filter.trim())}%`;
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

export function auditSort(sorting: string | undefined) {
  return parseSorting(
    sorting,
    { time: 'time', action: 'action', username: 'user_name', entitytype: 'entity_type' },
    { column: 'time', direction: 'desc' },
  );
}

export async function distinctActions(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('audit_logs').select('action').distinct().orderBy('action').execute();
  return rows.map((r) => r.action);
}
