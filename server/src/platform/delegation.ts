import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ADMIN_ROLE_NAME, loadUserAccess } from './access.ts';
import type { ServiceContext } from './context.ts';
import { AppError } from './errors.ts';
import { localize } from './localized-text.ts';

type Db = Kysely<Database>;

/**
 * Safe delegation (Keycloak's "map-roles" rule): an actor who is not an administrator may hand out
 * a role or a unit membership, make a role default, move a unit, or change a role's grants or data
 * scopes only when they hold every code it carries (a unit: with the units above it); may not
 * manage (edit, lock, reset, revoke, delete) a user who holds codes they lack; and never raises
 * their own power. Administrators hold every code, so nothing here refuses them.
 */
export interface DelegatedChange {
  /** Roles given, made default, or whose grants / data scopes / members change. */
  roleIds?: readonly string[];
  /** Units given as memberships, moved (the new parent), or whose members change. */
  unitIds?: readonly string[];
  /** Users whose account, memberships or sessions change. */
  userIds?: readonly string[];
  /** The change would give the actor themselves something new (a role, a unit, a wider scope). */
  raisesOwnPower?: boolean;
}

const EVERYTHING = Symbol('every code');

/** The codes the roles carry; the administrator role carries every code. */
async function codesOfRoles(db: Db, roleIds: readonly string[]): Promise<Set<string> | typeof EVERYTHING> {
  if (roleIds.length === 0) return new Set();
  const admin = await db
    .selectFrom('roles')
    .select('id')
    .where('id', 'in', [...roleIds])
    .where('is_static', '=', true)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', ADMIN_ROLE_NAME))
    .executeTakeFirst();
  if (admin) return EVERYTHING;
  const rows = await db.selectFrom('permission_grants').select('name').distinct().where('provider_name', '=', 'R').where('provider_key', 'in', [...roleIds]).execute();
  return new Set(rows.map((r) => r.name));
}

/** The codes a member of the units gets: their grants and those of every unit above them. */
async function codesOfUnits(db: Db, unitIds: readonly string[]): Promise<Set<string>> {
  if (unitIds.length === 0) return new Set();
  const { rows } = await sql<{ name: string }>`
    select distinct g.name from organization_units u
    join organization_units up on u.code = up.code or u.code like up.code || '.%'
    join permission_grants g on g.provider_name = 'OU' and g.provider_key = up.id::text
    where u.id = any(${[...unitIds]}::uuid[])
  `.execute(db);
  return new Set(rows.map((r) => r.name));
}

export async function guardDelegation(db: Db, ctx: ServiceContext, change: DelegatedChange): Promise<void> {
  const actor = ctx.user;
  if (ctx.isSystem || actor?.isAdmin) return;
  if (!actor) throw delegationRefused('NotSignedIn', []);
  if (change.raisesOwnPower) throw delegationRefused('OwnPower', []);
  const needed = new Set<string>();
  const roles = await codesOfRoles(db, change.roleIds ?? []);
  if (roles === EVERYTHING) throw delegationRefused('AdministratorRole', [ADMIN_ROLE_NAME]);
  for (const code of roles) needed.add(code);
  for (const code of await codesOfUnits(db, change.unitIds ?? [])) needed.add(code);
  for (const userId of new Set(change.userIds ?? [])) {
    const access = await loadUserAccess(db, userId);
    if (access.isAdmin) throw delegationRefused('AdministratorAccount', [ADMIN_ROLE_NAME]);
    for (const code of access.access) needed.add(code);
  }
  const missing = [...needed].filter((code) => !actor.access.has(code)).sort();
  if (missing.length > 0) throw delegationRefused('BeyondOwnAccess', missing, await displayNames(db, ctx.acceptLanguage, missing));
}

/** The permissions' names as the grant screen shows them, with their codes: `审计日志 (Tessera.AuditLogs)`. */
async function displayNames(db: Db, acceptLanguage: string, codes: string[]): Promise<string[]> {
  const shown = codes.slice(0, 5);
  const rows = await db.selectFrom('permission_definitions').select(['name', 'display_name']).where('name', 'in', shown).execute();
  const byCode = new Map(rows.map((r) => [r.name, localize(r.display_name, acceptLanguage)]));
  return shown.map((code) => (byCode.get(code) ? `${byCode.get(code)} (${code})` : code));
}

function delegationRefused(reason: string, missing: string[], names: string[] = missing) {
  const shown = names.slice(0, 5).join(', ') + (missing.length > 5 ? ` …(+${missing.length - 5})` : '');
  return new AppError(403, 'Forbidden', reason === 'OwnPower' ? 'error.delegationOwnPower' : 'error.delegation', {
    params: { codes: shown },
    details: { reason, permissions: missing.slice(0, 50) },
  });
}
