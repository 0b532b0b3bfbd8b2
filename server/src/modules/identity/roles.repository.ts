import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

/** Roles with their live member count and granted permission count (admin: every definition). */
function rolesWithCounts(db: Db) {
  return db.selectFrom('roles as r').select([
    'r.id',
    'r.name',
    'r.description',
    'r.is_default',
    'r.is_public',
    'r.is_static',
    'r.concurrency_stamp',
    'r.creation_time',
    sql<number>`(select count(*) from user_roles ur join users u on u.id = ur.user_id
                 where ur.role_id = r.id and not u.is_deleted)::int`.as('user_count'),
    sql<number>`case when r.is_static and lower(r.name) = ${ADMIN_ROLE_NAME}
                 then (select count(*) from permission_definitions)
                 else (select count(*) from permission_grants g where g.provider_name = 'R' and g.provider_key = r.id::text) end::int`.as(
      'granted_permission_count',
    ),
  ]);
}
export type RoleRow = Awaited<ReturnType<ReturnType<typeof rolesWithCounts>['executeTakeFirstOrThrow']>>;
export type RoleSortColumn = 'r.name' | 'r.creation_time' | 'r.is_default';

export async function listRoles(
  db: Db,
  q: { filter?: string; isDefault?: boolean; offset: number; limit: number; sort: { column: RoleSortColumn; direction: 'asc' | 'desc' } },
) {
  let count = db.selectFrom('roles as r');
  let page = rolesWithCounts(db);
  if (q.filter) {
    const like = likePattern(q.filter);
    count = count.where((eb) => eb.or([eb('r.name', 'ilike', like), eb('r.description', 'ilike', like)]));
    page = page.where((eb) => eb.or([eb('r.name', 'ilike', like), eb('r.description', 'ilike', like)]));
  }
  if (q.isDefault !== undefined) {
    count = count.where('r.is_default', '=', q.isDefault);
    page = page.where('r.is_default', '=', q.isDefault);
  }
  const { n } = await count.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await page
    .orderBy('r.is_static', 'desc')
    .orderBy(q.sort.column, q.sort.direction)
    .orderBy('r.id')
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  return { rows, totalCount: Number(n) };
}

export function findRole(db: Db, id: string) {
  return rolesWithCounts(db).where('r.id', '=', id).executeTakeFirst();
}

export async function roleNameTaken(db: Db, name: string, exceptId?: string) {
  let q = db
    .selectFrom('roles')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
  if (exceptId) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

export async function memberIds(db: Db, roleId: string): Promise<string[]> {
  const rows = await db.selectFrom('user_roles').select('user_id').where('role_id', '=', roleId).execute();
  return rows.map((r) => r.user_id);
}

export async function listMembers(
  db: Db,
  roleId: string,
  q: { filter?: string; offset: number; limit: number; sort: { column: 'u.user_name' | 'u.name' | 'u.email'; direction: 'asc' | 'desc' } },
) {
  let base = db
    .selectFrom('users as u')
    .innerJoin('user_roles as ur', 'ur.user_id', 'u.id')
    .where('ur.role_id', '=', roleId)
    .where('u.is_deleted', '=', false);
  if (q.filter) {
    base = base.where(sql<boolean>`u.search_text like lower(${likePattern(q.filter)})`);
  }
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['u.id', 'u.user_name', 'u.name', 'u.surname', 'u.email', 'u.is_active'])
    .orderBy(q.sort.column, q.sort.direction)
    .orderBy('u.id')
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  return { rows, totalCount: Number(n) };
}
