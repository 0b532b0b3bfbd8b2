import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, PermissionDefinitionsTable } from '../../db/schema.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';

type Db = Kysely<Database>;
export type ProviderName = 'R' | 'U' | 'OU';

/** The role, user or unit a grant belongs to, with the name shown for it; undefined when absent. */
export async function findProviderEntity(db: Db, providerName: ProviderName, key: string) {
  if (providerName === 'R') {
    const role = await db.selectFrom('roles').select(['id', 'name']).where('id', '=', key).executeTakeFirst();
    return role && { displayName: role.name, isAdminRole: role.name.toLowerCase() === ADMIN_ROLE_NAME };
  }
  if (providerName === 'U') {
    const user = await db
      .selectFrom('users')
      .select(['id', 'user_name', 'name'])
      .where('id', '=', key)
      .where('is_deleted', '=', false)
      .executeTakeFirst();
    return user && { displayName: user.name ? `${user.name} (${user.user_name})` : user.user_name, isAdminRole: false };
  }
  const unit = await db.selectFrom('organization_units').select(['id', 'display_name']).where('id', '=', key).executeTakeFirst();
  return unit && { displayName: unit.display_name, isAdminRole: false };
}

export function listAllDefinitions(db: Db) {
  return db
    .selectFrom('permission_definitions')
    .selectAll()
    .orderBy('is_system', 'desc')
    .orderBy('group_name')
    .orderBy('name')
    .execute();
}

export async function definitionNames(db: Db, names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db.selectFrom('permission_definitions').select('name').where('name', 'in', names).execute();
  return new Set(rows.map((r) => r.name));
}

export async function directGrants(db: Db, providerName: ProviderName, key: string): Promise<string[]> {
  const rows = await db
    .selectFrom('permission_grants')
    .select('name')
    .where('provider_name', '=', providerName)
    .where('provider_key', '=', key)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

/** A user's roles (with whether one is the administrator role). */
export function rolesOfUser(db: Db, userId: string) {
  return db
    .selectFrom('user_roles as ur')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.name'])
    .where('ur.user_id', '=', userId)
    .execute();
}

/** The units a user belongs to and every unit above them (their grants reach the user). */
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

export function grantsOfProviders(db: Db, providerName: ProviderName, keys: string[]) {
  if (keys.length === 0) return Promise.resolve([] as { name: string; provider_key: string }[]);
  return db
    .selectFrom('permission_grants')
    .select(['name', 'provider_key'])
    .where('provider_name', '=', providerName)
    .where('provider_key', 'in', keys)
    .execute();
}

export async function insertGrants(db: Db, providerName: ProviderName, key: string, names: string[]) {
  if (names.length === 0) return;
  await db
    .insertInto('permission_grants')
    .values(names.map((name) => ({ name, provider_name: providerName, provider_key: key })))
    .onConflict((oc) => oc.columns(['provider_name', 'provider_key', 'name']).doNothing())
    .execute();
}

export async function deleteGrants(db: Db, providerName: ProviderName, key: string, names: string[]) {
  if (names.length === 0) return;
  await db
    .deleteFrom('permission_grants')
    .where('provider_name', '=', providerName)
    .where('provider_key', '=', key)
    .where('name', 'in', names)
    .execute();
}

// ---------------------------------------------------------------- definitions

export function findDefinition(db: Db, name: string) {
  return db.selectFrom('permission_definitions').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertDefinitions(db: Db, rows: Insertable<PermissionDefinitionsTable>[]) {
  if (rows.length === 0) return;
  await db.insertInto('permission_definitions').values(rows).execute();
}

/** A definition and everything below it (by parent name). */
export async function definitionWithDescendants(db: Db, name: string): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    with recursive tree as (
      select name from permission_definitions where name = ${name}
      union
      select d.name from permission_definitions d join tree t on d.parent_name = t.name
    )
    select name from tree
  `.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Removes definitions and every grant of them. */
export async function deleteDefinitions(db: Db, names: string[]) {
  if (names.length === 0) return;
  await db.deleteFrom('permission_grants').where('name', 'in', names).execute();
  await db.deleteFrom('permission_definitions').where('name', 'in', names).execute();
}

export function setGroupDisplayName(db: Db, groupName: string, groupDisplayName: string) {
  return db
    .updateTable('permission_definitions')
    .set({ group_display_name: groupDisplayName })
    .where('group_name', '=', groupName)
    .where('is_system', '=', false)
    .execute();
}
