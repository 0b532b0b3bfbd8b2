/**
 * The SQL of authorization's tables: `permission_definitions`, `permission_grants`, `data_scopes`.
 * Users, roles and units are read through identity's index.
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import type { TDataScopeKind, TPermissionDefinitionQuery } from '@tessera/core/contracts/authorization';
import type { Database, PermissionDefinitionsTable } from '../../db/schema.ts';
import { pageWindow, parseSorting } from '../../platform/paging.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;
export type ProviderName = 'R' | 'U' | 'OU';

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

/** Every grant of the providers (removed roles, users or units); answers the names they carried. */
export async function deleteGrantsOfProviders(db: Db, providerName: ProviderName, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .deleteFrom('permission_grants')
    .where('provider_name', '=', providerName)
    .where('provider_key', 'in', [...keys])
    .returning('name')
    .execute();
  return rows.map((r) => r.name);
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

/** The designer-made (non-system) codes of a group, e.g. a page's `Biz.<code>` group. */
export async function designerCodesOfGroup(db: Db, group: string): Promise<string[]> {
  const rows = await db.selectFrom('permission_definitions').select('name').where('group_name', '=', group).where('is_system', '=', false).execute();
  return rows.map((r) => r.name);
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

/** A page of definitions by the list's filters (group, system or not, text), with the total. */
export async function listDefinitions(db: Db, query: TPermissionDefinitionQuery) {
  let q = db.selectFrom('permission_definitions');
  if (query.GroupName) q = q.where('group_name', '=', query.GroupName);
  if (query.IsSystem) q = q.where('is_system', '=', query.IsSystem === 'true');
  if (query.Filter?.trim()) {
    const like = likePattern(query.Filter.trim());
    q = q.where((eb) =>
      eb.or([eb('name', 'ilike', like), eb(eb.cast('display_name', 'text'), 'ilike', like), eb('group_name', 'ilike', like)]),
    );
  }
  const sort = parseSorting(query.Sorting, { name: 'name', groupname: 'group_name' }, { column: 'name', direction: 'asc' });
  const { offset, limit } = pageWindow(query);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy(sort.column, sort.direction).orderBy('name').offset(offset).limit(limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, totalCount: Number(total.count) };
}

/** The groups with their display name (as JSON text), whether they are system groups, and their number of codes. */
export function definitionGroups(db: Db) {
  return db
    .selectFrom('permission_definitions')
    .select((eb) => [
      'group_name',
      eb.fn.max<string>(eb.cast('group_display_name', 'text')).as('display_name'),
      eb.fn<boolean>('bool_or', ['is_system']).as('is_system'),
      eb.fn.countAll<number>().as('count'),
    ])
    .groupBy('group_name')
    .orderBy((eb) => eb.fn<boolean>('bool_or', ['is_system']), 'desc')
    .orderBy('group_name')
    .execute();
}

export function updateDefinition(db: Db, name: string, displayName: string, parentName: string | null) {
  return db.updateTable('permission_definitions').set({ display_name: displayName, parent_name: parentName }).where('name', '=', name).execute();
}

/** Inserts a definition, or renames and re-parents it when it exists. */
export async function upsertDefinition(db: Db, row: Insertable<PermissionDefinitionsTable>) {
  await db
    .insertInto('permission_definitions')
    .values(row)
    .onConflict((oc) => oc.column('name').doUpdateSet({ display_name: row.display_name, parent_name: row.parent_name }))
    .execute();
}

// ---------------------------------------------------------------- data scopes

export type DataScopeRow = { page_key: string; scope: TDataScopeKind; custom_filter: unknown[] | null };

/** The data scopes the roles set for one page. */
export function dataScopesOfRolesForPages(db: Db, roleIds: readonly string[], pageKeys: readonly string[]) {
  if (roleIds.length === 0 || pageKeys.length === 0) return Promise.resolve([] as { role_id: string; page_key: string; scope: TDataScopeKind; custom_filter: unknown[] | null }[]);
  return db.selectFrom('data_scopes').select(['role_id', 'page_key', 'scope', 'custom_filter']).where('role_id', 'in', [...roleIds]).where('page_key', 'in', [...pageKeys]).execute();
}

export function dataScopesOfRole(db: Db, roleId: string) {
  return db.selectFrom('data_scopes').selectAll().where('role_id', '=', roleId).orderBy('page_key').execute();
}

/** Replaces a role's data scopes (in the caller's transaction). */
export async function replaceDataScopes(db: Db, roleId: string, items: { pageKey: string; scope: TDataScopeKind; customFilter: unknown[] | null }[]) {
  await db.deleteFrom('data_scopes').where('role_id', '=', roleId).execute();
  if (items.length === 0) return;
  await db
    .insertInto('data_scopes')
    .values(
      items.map((item) => ({
        id: uuidv7(),
        role_id: roleId,
        page_key: item.pageKey,
        scope: item.scope,
        custom_filter: item.customFilter ? JSON.stringify(item.customFilter) : null,
      })),
    )
    .execute();
}

export async function deleteDataScopesOfRoles(db: Db, roleIds: readonly string[]) {
  if (roleIds.length === 0) return;
  await db.deleteFrom('data_scopes').where('role_id', 'in', [...roleIds]).execute();
}

/** How many permissions each role is granted (roles without a grant are absent). */
export async function grantCountsOfRoles(db: Db, roleIds: readonly string[]): Promise<Map<string, number>> {
  if (roleIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('permission_grants')
    .select(['provider_key', (eb) => eb.fn.countAll<number>().as('n')])
    .where('provider_name', '=', 'R')
    .where('provider_key', 'in', [...roleIds])
    .groupBy('provider_key')
    .execute();
  return new Map(rows.map((r) => [r.provider_key, Number(r.n)]));
}

export async function definitionCount(db: Db): Promise<number> {
  const row = await db.selectFrom('permission_definitions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
