/**
 * Reads of users, roles and units for other modules (through identity's index): who a grant or a
 * data scope belongs to, a user's roles and units, the recipients of a notification, the items of
 * the pickers.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { TSelectionItem } from '@tessera/core/contracts/identity';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import type { Database } from '../../db/schema.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

/** A role by id, with whether it is the administrator role (by name, as grants see it). */
export async function findRoleSummary(db: Db, id: string) {
  const role = await db.selectFrom('roles').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  return role && { id: role.id, name: role.name, isAdminRole: role.name.toLowerCase() === ADMIN_ROLE_NAME };
}

/** A live (not deleted) user by id. */
export function findUserSummary(db: Db, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'user_name as userName', 'name', 'surname'])
    .where('id', '=', id)
    .where('is_deleted', '=', false)
    .executeTakeFirst();
}

export function findUnitSummary(db: Db, id: string) {
  return db.selectFrom('organization_units').select(['id', 'display_name as displayName']).where('id', '=', id).executeTakeFirst();
}

/** A user's roles (id and name). */
export function rolesOfUser(db: Db, userId: string) {
  return db
    .selectFrom('user_roles as ur')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.name'])
    .where('ur.user_id', '=', userId)
    .execute();
}

/** Whether the user is a member of the role. */
export async function userHasRole(db: Db, userId: string, roleId: string): Promise<boolean> {
  return !!(await db.selectFrom('user_roles').select('role_id').where('user_id', '=', userId).where('role_id', '=', roleId).executeTakeFirst());
}

/** The units a user belongs to and every unit above them. */
export async function unitsAndAncestorsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    select distinct up.id::text as id from user_organization_units uou
    join organization_units mu on mu.id = uou.organization_unit_id
    join organization_units up on mu.code = up.code or mu.code like up.code || '.%'
    where uou.user_id = ${userId}
  `.execute(db);
  return rows.rows.map((r) => r.id);
}

/** The units above a unit (not the unit itself). */
export async function ancestorsOfUnit(db: Db, unitId: string): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    select up.id::text as id from organization_units mu
    join organization_units up on mu.code like up.code || '.%'
    where mu.id = ${unitId}
  `.execute(db);
  return rows.rows.map((r) => r.id);
}

/** Active, not deleted users among `ids` (or all of them when ids is undefined). */
export async function activeUserIds(db: Db, ids?: string[]): Promise<string[]> {
  let q = db.selectFrom('users').select('id').where('is_deleted', '=', false).where('is_active', '=', true);
  if (ids) q = q.where('id', 'in', ids);
  return (await q.execute()).map((r) => r.id);
}

/** What a picker searches for: text, or chosen ids to resolve; one page of it. */
export interface DirectoryQuery {
  filter?: string;
  ids?: string[];
  skipCount: number;
  maxResultCount: number;
}

const NO_ID = '00000000-0000-0000-0000-000000000000';

/** Units with their parent path as description, by code. */
export function unitDirectory(db: Db, q: DirectoryQuery): Promise<TSelectionItem[]> {
  const filter = q.filter?.trim();
  let query = db
    .selectFrom('organization_units as ou')
    .select([
      'ou.id',
      'ou.display_name as title',
      sql<string | null>`(select string_agg(p.display_name, '/' order by p.code) from organization_units p
                          where ou.code like p.code || '.%')`.as('description'),
    ]);
  if (q.ids) query = query.where('ou.id', 'in', q.ids.length ? q.ids : [NO_ID]);
  if (filter) query = query.where((eb) => eb.or([eb('ou.display_name', 'ilike', likePattern(filter)), eb('ou.code', 'like', `${filter}%`)]));
  return query.orderBy('ou.code').offset(q.skipCount).limit(q.maxResultCount).execute();
}

/**
 * Users with their full name (in the culture's order) as title and their user name as description:
 * active ones when searching, any when resolving ids.
 */
export async function userDirectory(db: Db, q: DirectoryQuery, culture: string): Promise<TSelectionItem[]> {
  const filter = q.filter?.trim();
  let query = db.selectFrom('users as u').select(['u.id', 'u.name', 'u.surname', 'u.user_name']);
  if (q.ids) query = query.where('u.id', 'in', q.ids.length ? q.ids : [NO_ID]);
  else query = query.where('u.is_deleted', '=', false).where('u.is_active', '=', true);
  if (filter) query = query.where(sql<boolean>`u.search_text like lower(${likePattern(filter)})`);
  const rows = await query.orderBy('u.user_name').orderBy('u.id').offset(q.skipCount).limit(q.maxResultCount).execute();
  return rows.map((u) => ({ id: u.id, title: personDisplayName({ name: u.name, surname: u.surname, userName: u.user_name }, culture), description: u.user_name }));
}

/** Roles with their description. */
export function roleDirectory(db: Db, q: DirectoryQuery): Promise<TSelectionItem[]> {
  const filter = q.filter?.trim();
  let query = db.selectFrom('roles as r').select(['r.id', 'r.name as title', sql<string | null>`nullif(r.description, '')`.as('description')]);
  if (q.ids) query = query.where('r.id', 'in', q.ids.length ? q.ids : [NO_ID]);
  if (filter) query = query.where('r.name', 'ilike', likePattern(filter));
  return query.orderBy('r.name').offset(q.skipCount).limit(q.maxResultCount).execute();
}

/**
 * A subquery of the ids of the units and every unit below them (by the units' materialised code
 * path), for other modules to embed in their own SQL — business data's "unit and below" scope.
 */
export function unitsAndBelowSql(unitIds: readonly string[]): RawBuilder<unknown> {
  return sql`select d.id from organization_units d join organization_units u on d.code = u.code or d.code like u.code || '.%' where u.id in (${sql.join(unitIds.map((id) => sql`${id}::uuid`))})`;
}

/** Users' full names in the culture's order (else their user names) by id, deleted users included, for histories, lists and the audit log. */
export async function userDisplayNames(db: Db, ids: readonly string[], culture: string): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter(Boolean))];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'user_name', 'name', 'surname']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, personDisplayName({ name: r.name, surname: r.surname, userName: r.user_name }, culture)]));
}

/** Active users among the members of the roles (workflow assignees by role). */
export async function activeMembersOfRoles(db: Db, roleIds: readonly string[]): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .selectFrom('user_roles as ur')
    .innerJoin('users as u', 'u.id', 'ur.user_id')
    .select('u.id')
    .distinct()
    .where('ur.role_id', 'in', [...roleIds])
    .where('u.is_deleted', '=', false)
    .where('u.is_active', '=', true)
    .orderBy('u.id')
    .execute();
  return rows.map((r) => r.id);
}

/** Active users among the members of the units (and of every unit below them with `includeSubUnits`). */
export async function activeMembersOfUnits(db: Db, unitIds: readonly string[], includeSubUnits: boolean): Promise<string[]> {
  if (unitIds.length === 0) return [];
  const units = includeSubUnits ? unitsAndBelowSql(unitIds) : sql`select id from organization_units where id in (${sql.join(unitIds.map((id) => sql`${id}::uuid`))})`;
  const rows = await sql<{ id: string }>`
    select distinct u.id::text as id from user_organization_units uou
    join users u on u.id = uou.user_id
    where uou.organization_unit_id in (${units}) and u.is_deleted = false and u.is_active = true
    order by 1
  `.execute(db);
  return rows.rows.map((r) => r.id);
}

/** A unit and the units above it, nearest first, with their leaders (workflow: the initiator's leader of level N is entry N−1). */
export async function unitLeaderChain(db: Db, unitId: string): Promise<{ unitId: string; leaderUserId: string | null }[]> {
  const rows = await sql<{ id: string; leader_user_id: string | null }>`
    select up.id::text as id, up.leader_user_id::text as leader_user_id from organization_units mu
    join organization_units up on mu.code = up.code or mu.code like up.code || '.%'
    where mu.id = ${unitId}::uuid
    order by length(up.code) desc
  `.execute(db);
  return rows.rows.map((r) => ({ unitId: r.id, leaderUserId: r.leader_user_id }));
}
