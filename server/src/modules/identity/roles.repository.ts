import { sql, type Insertable, type Kysely } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import type { Database, RolesTable } from '../../db/schema.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

/** Roles with their live member count (their permission count is authorization's: role-grant-count.ts). */
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

export function insertRole(db: Db, role: Insertable<RolesTable>) {
  return db.insertInto('roles').values(role).execute();
}

/** Saves the role form; answers false when the stamp no longer matches (someone else saved). */
export async function updateRoleFields(
  db: Db,
  id: string,
  expectedStamp: string,
  fields: { name: string; description: string; is_default: boolean; is_public: boolean },
): Promise<boolean> {
  const updated = await db
    .updateTable('roles')
    .set({ ...fields, concurrency_stamp: uuidv7() })
    .where('id', '=', id)
    .where('concurrency_stamp', '=', expectedStamp)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** The role row (its memberships go with it: `user_roles` cascades). */
export function deleteRole(db: Db, id: string) {
  return db.deleteFrom('roles').where('id', '=', id).execute();
}

/** Adds members (existing memberships stay); answers the users actually added. */
export async function addMembers(db: Db, roleId: string, userIds: string[]): Promise<string[]> {
  const rows = await db
    .insertInto('user_roles')
    .values(userIds.map((userId) => ({ user_id: userId, role_id: roleId })))
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

/** Answers false when the user was no member. */
export async function removeMember(db: Db, roleId: string, userId: string): Promise<boolean> {
  const removed = await db.deleteFrom('user_roles').where('role_id', '=', roleId).where('user_id', '=', userId).executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

/** Every role, marked when it is the static administrator role (never a registration default). */
export async function roleChoices(db: Db) {
  const rows = await db.selectFrom('roles').select(['id', 'name', 'is_default', 'is_static']).orderBy('name').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, isDefault: r.is_default, isAdmin: r.is_static && r.name.toLowerCase() === ADMIN_ROLE_NAME }));
}

/**
 * Makes exactly these roles the default ones (what registration hands out), in the caller's
 * transaction. The flag belongs to the role, so the roles page shows the same; a changed role gets
 * a new concurrency stamp.
 */
export async function setDefaultRoles(db: Db, roleIds: string[]) {
  await db
    .updateTable('roles')
    .set((eb) => ({ is_default: eb.not(eb.ref('is_default')), concurrency_stamp: uuidv7() }))
    .where((eb) =>
      roleIds.length
        ? eb.or([
            eb.and([eb('id', 'in', roleIds), eb('is_default', '=', false)]),
            eb.and([eb('id', 'not in', roleIds), eb('is_default', '=', true)]),
          ])
        : eb('is_default', '=', true),
    )
    .execute();
}
