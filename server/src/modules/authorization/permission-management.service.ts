import type {
  TPermissionListResult,
  TPermissionProviderQuery,
  TUpdatePermissionsInput,
} from '@tessera/core/contracts/authorization';
import { authorizationInvalid, authorizationText } from './authorization.messages.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { actorHolds, type Db, type ServiceContext } from '../../platform/context.ts';
import { guardDelegation } from '../../platform/delegation.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { bizPermission } from '@tessera/core/contracts/permissions';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { localize } from '../../platform/localized-text.ts';
import { ancestorsOfUnit, findRoleSummary, findUnitSummary, findUserSummary, rolesOfUser, unitsAndAncestorsOfUser } from '../identity/index.ts';
import * as repo from './authorization.repository.ts';

type Source = { providerName: 'R' | 'U' | 'OU'; providerKey: string };

/** The role, user or unit a grant belongs to, with the name shown for it; undefined when absent. */
async function findProviderEntity(db: Db, providerName: repo.ProviderName, key: string, culture: string) {
  if (providerName === 'R') {
    const role = await findRoleSummary(db, key);
    return role && { displayName: role.name, isAdminRole: role.isAdminRole };
  }
  if (providerName === 'U') {
    const user = await findUserSummary(db, key);
    if (!user) return undefined;
    const name = personDisplayName({ name: user.name, surname: user.surname }, culture);
    return { displayName: name ? `${name} (${user.userName})` : user.userName, isAdminRole: false };
  }
  const unit = await findUnitSummary(db, key);
  return unit && { displayName: unit.displayName, isAdminRole: false };
}

/**
 * ABP's permission list for one provider: every defined permission in its group, whether it is
 * granted and from where. A user inherits from their roles and units (and the units above); a
 * unit from the units above it.
 */
export async function getPermissions(ctx: ServiceContext, query: TPermissionProviderQuery): Promise<TPermissionListResult> {
  const db = ctx.db;
  const { providerName, providerKey } = query;
  const entity = await findProviderEntity(db, providerName, providerKey, ctx.culture);
  if (!entity) throw notFound({ providerName, providerKey });

  const sources = new Map<string, Source[]>();
  const add = (name: string, source: Source) => {
    const list = sources.get(name);
    if (list) list.push(source);
    else sources.set(name, [source]);
  };
  for (const name of await repo.directGrants(db, providerName, providerKey)) add(name, { providerName, providerKey });

  let adminSource: Source | null = entity.isAdminRole ? { providerName: 'R', providerKey } : null;
  if (providerName === 'U') {
    const roles = await rolesOfUser(db, providerKey);
    const adminRole = roles.find((r) => r.name.toLowerCase() === ADMIN_ROLE_NAME);
    if (adminRole) adminSource = { providerName: 'R', providerKey: adminRole.id };
    for (const g of await repo.grantsOfProviders(db, 'R', roles.map((r) => r.id))) add(g.name, { providerName: 'R', providerKey: g.provider_key });
    const units = await unitsAndAncestorsOfUser(db, providerKey);
    for (const g of await repo.grantsOfProviders(db, 'OU', units)) add(g.name, { providerName: 'OU', providerKey: g.provider_key });
  } else if (providerName === 'OU') {
    const above = await ancestorsOfUnit(db, providerKey);
    for (const g of await repo.grantsOfProviders(db, 'OU', above)) add(g.name, { providerName: 'OU', providerKey: g.provider_key });
  }

  const language = ctx.acceptLanguage;
  const groups = new Map<string, TPermissionListResult['groups'][number]>();
  for (const def of await repo.listAllDefinitions(db)) {
    let group = groups.get(def.group_name);
    if (!group) {
      group = { name: def.group_name, displayName: localize(def.group_display_name, language) || def.group_name, isSystem: def.is_system, permissions: [] };
      groups.set(def.group_name, group);
    }
    const granted = [...(sources.get(def.name) ?? [])];
    // The administrator role holds every permission without a grant row.
    if (adminSource && !granted.some((s) => s.providerName === adminSource.providerName && s.providerKey === adminSource.providerKey)) {
      granted.push(adminSource);
    }
    group.permissions.push({
      name: def.name,
      displayName: localize(def.display_name, language) || def.name,
      parentName: def.parent_name,
      isGranted: granted.length > 0,
      grantedProviders: granted,
    });
  }
  return { entityDisplayName: entity.displayName, isReadOnly: entity.isAdminRole, groups: [...groups.values()] };
}

/**
 * Sets the provider's own grants: `isGranted` true adds, false removes (inherited grants stay).
 * Every name must be defined; a caller who is not an administrator may only hand out or take back
 * permissions they hold themselves, so the grant screen cannot raise anyone above its user.
 */
export async function updatePermissions(ctx: ServiceContext, query: TPermissionProviderQuery, input: TUpdatePermissionsInput): Promise<void> {
  const db = ctx.db;
  const { providerName, providerKey } = query;
  const seen = new Map<string, number>();
  input.permissions.forEach((p, i) => {
    if (seen.has(p.name)) throw authorizationInvalid(ctx, 'grants.permissionTwice', [`permissions.${i}.name`], { name: p.name });
    seen.set(p.name, i);
  });
  const known = await repo.definitionNames(db, [...seen.keys()]);
  const unknown = input.permissions.map((p, i) => ({ ...p, i })).filter((p) => !known.has(p.name));
  if (unknown.length > 0) {
    throw new AppError(400, 'ValidationError', null, {
      message: authorizationText(ctx, 'grants.unknownPermissions', { names: unknown.map((u) => u.name).slice(0, 10).join(', ') }),
      validationErrors: unknown.slice(0, 50).map((u) => ({ message: authorizationText(ctx, 'grants.unknownPermission', { name: u.name }), members: [`permissions.${u.i}.name`] })),
    });
  }
  const entity = await findProviderEntity(db, providerName, providerKey, ctx.culture);
  if (!entity) throw notFound({ providerName, providerKey });
  if (entity.isAdminRole) throw authorizationInvalid(ctx, 'grants.adminRole', ['providerKey']);

  const before = await repo.directGrants(db, providerName, providerKey);
  const had = new Set(before);
  const toGrant = input.permissions.filter((p) => p.isGranted && !had.has(p.name)).map((p) => p.name);
  const toRevoke = input.permissions.filter((p) => !p.isGranted && had.has(p.name)).map((p) => p.name);
  const beyond = [...toGrant, ...toRevoke].filter((name) => !actorHolds(ctx, name));
  if (beyond.length > 0) throw forbidden({ reason: 'cannot change permissions you do not hold', permissions: beyond.slice(0, 20) });
  if (toGrant.length === 0 && toRevoke.length === 0) return;
  // Whose grants change: a user who holds more than the caller, a role or a unit that carries more.
  await guardDelegation(db, ctx, providerName === 'U' ? { userIds: [providerKey] } : providerName === 'R' ? { roleIds: [providerKey] } : { unitIds: [providerKey] });

  const after = await db.transaction().execute(async (trx) => {
    await repo.insertGrants(trx, providerName, providerKey, toGrant);
    await repo.deleteGrants(trx, providerName, providerKey, toRevoke);
    return repo.directGrants(trx, providerName, providerKey);
  });
  ctx.caches.auth.invalidateAccess();
  await recordAudit(ctx, 'Updated', {
    entityType: 'PermissionGrant',
    entityId: `${providerName}:${providerKey}`,
    details: { provider: entity.displayName, granted: toGrant, revoked: toRevoke, before, after },
  });
}

// ---------------------------------------------------------------- for one-step setups

/** What a role newly received from `grantToRolesWithin`. */
export interface RoleGrantChange {
  roleId: string;
  roleName: string;
  granted: string[];
}

/**
 * Grants codes to roles inside the caller's transaction, for a one-step setup ("a business menu for
 * this page, granted to these roles"). The grant screen's rules apply: every code defined, no
 * administrator role, only codes the caller holds — or `createdNow`, codes made in this same
 * transaction — and only roles whose codes the caller holds. The caller audits after commit with
 * `auditRoleGrants`.
 */
export async function grantToRolesWithin(
  ctx: ServiceContext,
  trx: Db,
  roleIds: readonly string[],
  names: readonly string[],
  createdNow: readonly string[] = [],
): Promise<RoleGrantChange[]> {
  if (roleIds.length === 0 || names.length === 0) return [];
  const known = await repo.definitionNames(trx, [...names]);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) throw authorizationInvalid(ctx, 'grants.unknownPermissions', ['roleIds'], { names: unknown.slice(0, 10).join(', ') });
  const made = new Set(createdNow);
  const beyond = names.filter((n) => !made.has(n) && !actorHolds(ctx, n));
  if (beyond.length) throw forbidden({ reason: 'cannot change permissions you do not hold', permissions: beyond.slice(0, 20) });
  const changes: RoleGrantChange[] = [];
  for (const [i, roleId] of [...new Set(roleIds)].entries()) {
    const entity = await findProviderEntity(trx, 'R', roleId, ctx.culture);
    if (!entity) throw notFound({ providerName: 'R', providerKey: roleId });
    if (entity.isAdminRole) throw authorizationInvalid(ctx, 'grants.adminRole', [`roleIds.${i}`]);
    const had = new Set(await repo.directGrants(trx, 'R', roleId));
    changes.push({ roleId, roleName: entity.displayName, granted: names.filter((n) => !had.has(n)) });
  }
  await guardDelegation(trx, ctx, { roleIds: changes.map((c) => c.roleId) });
  for (const change of changes) await repo.insertGrants(trx, 'R', change.roleId, change.granted);
  return changes;
}

/** Audit entries and cache refresh for `grantToRolesWithin`'s changes, once their transaction committed. */
export async function auditRoleGrants(ctx: ServiceContext, changes: readonly RoleGrantChange[]): Promise<void> {
  if (changes.length === 0) return;
  ctx.caches.auth.invalidateAccess();
  for (const change of changes) {
    if (change.granted.length === 0) continue;
    await recordAudit(ctx, 'Updated', { entityType: 'PermissionGrant', entityId: `R:${change.roleId}`, details: { provider: change.roleName, granted: change.granted, revoked: [] } });
  }
}

/**
 * A business page's codes for a role of its users: `work` — everything the page defines (open,
 * actions, buttons, every field to edit); `read` — open it and view every field.
 */
export async function pageCodesFor(db: Db, pageCode: string, use: 'work' | 'read'): Promise<string[]> {
  const codes = await repo.designerCodesOfGroup(db, `Biz.${pageCode}`);
  if (use === 'work') return codes;
  const access = bizPermission.access(pageCode);
  const fieldView = bizPermission.fieldView(pageCode, '*').split('*');
  return codes.filter((c) => c === access || (c.startsWith(fieldView[0]!) && c.endsWith(fieldView[1]!)));
}
