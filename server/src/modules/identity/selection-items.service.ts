import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { TSelectionItem } from '@tessera/core/contracts/identity';
import { likePattern } from './identity.shared.ts';

interface SelectionQuery {
  type: 1 | 3 | 4;
  filter?: string;
  ids?: string[];
  maxResultCount: number;
}

/**
 * spec §3 selection items for the pickers: 1 organisation unit (with its parent path), 3 user
 * (active ones when searching; any when resolving ids), 4 role. `ids` resolves chosen values.
 */
export async function selectionItems(app: FastifyInstance, q: SelectionQuery): Promise<TSelectionItem[]> {
  const db = app.db;
  const filter = q.filter?.trim();
  if (q.type === 1) {
    let query = db
      .selectFrom('organization_units as ou')
      .select([
        'ou.id',
        'ou.display_name as title',
        sql<string | null>`(select string_agg(p.display_name, '/' order by p.code) from organization_units p
                            where ou.code like p.code || '.%')`.as('description'),
      ]);
    if (q.ids) query = query.where('ou.id', 'in', q.ids.length ? q.ids : ['00000000-0000-0000-0000-000000000000']);
    if (filter) query = query.where((eb) => eb.or([eb('ou.display_name', 'ilike', likePattern(filter)), eb('ou.code', 'like', `${filter}%`)]));
    return query.orderBy('ou.code').limit(q.maxResultCount).execute();
  }
  if (q.type === 3) {
    let query = db
      .selectFrom('users as u')
      .select(['u.id', sql<string>`coalesce(nullif(u.name, ''), u.user_name)`.as('title'), 'u.user_name as description']);
    if (q.ids) query = query.where('u.id', 'in', q.ids.length ? q.ids : ['00000000-0000-0000-0000-000000000000']);
    else query = query.where('u.is_deleted', '=', false).where('u.is_active', '=', true);
    if (filter) query = query.where(sql<boolean>`u.search_text like lower(${likePattern(filter)})`);
    return query.orderBy('u.user_name').limit(q.maxResultCount).execute();
  }
  let query = db.selectFrom('roles as r').select(['r.id', 'r.name as title', sql<string | null>`nullif(r.description, '')`.as('description')]);
  if (q.ids) query = query.where('r.id', 'in', q.ids.length ? q.ids : ['00000000-0000-0000-0000-000000000000']);
  if (filter) query = query.where('r.name', 'ilike', likePattern(filter));
  return query.orderBy('r.name').limit(q.maxResultCount).execute();
}
