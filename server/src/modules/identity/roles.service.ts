import type { TPagedQuery } from '@tessera/core/contracts/common';
import {
  ZCreateRoleInput,
  ZUpdateRoleInput,
  type TAddMembersInput,
  type TCreateRoleInput,
  type TIdentityRole,
  type TRoleQuery,
  type TUpdateRoleInput,
} from '@tessera/core/contracts/identity';
import { uuidv7 } from '../../platform/ids.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { guardDelegation } from '../../platform/delegation.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { parseSorting } from '../../platform/paging.ts';
import { identityInvalid, identityRefused } from './identity.messages.ts';

import { guardAdministratorChange } from './users.service.ts';
import * as repo from './roles.repository.ts';
import { existingUserIds } from './organization-units.repository.ts';
import { removePrincipals } from './principal-removal.ts';
import { grantCountsOfRoles } from './role-grant-count.ts';
import { iso, isUniqueViolation } from '../../platform/sql-values.ts';

const ENTITY = 'Role';
const MEMBER_ENTITY = 'RoleMember';

function toDto(row: repo.RoleRow, grantCounts: ReadonlyMap<string, number>): TIdentityRole {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isDefault: row.is_default,
    isPublic: row.is_public,
    isStatic: row.is_static,
    userCount: row.user_count,
    grantedPermissionCount: grantCounts.get(row.id) ?? 0,
    concurrencyStamp: row.concurrency_stamp,
    creationTime: iso(row.creation_time)!,
  };
}

const isAdminRole = (role: { name: string; isStatic: boolean }) => role.isStatic && role.name.toLowerCase() === ADMIN_ROLE_NAME;

/** The roles as the API shows them, with the permission counts authorization keeps. */
async function toDtos(ctx: ServiceContext, rows: repo.RoleRow[]): Promise<TIdentityRole[]> {
  const counts = await grantCountsOfRoles(ctx.db, rows.map((r) => ({ id: r.id, isAdminRole: isAdminRole({ name: r.name, isStatic: r.is_static }) })));
  return rows.map((row) => toDto(row, counts));
}

export async function listRoles(ctx: ServiceContext, query: TRoleQuery) {
  const sort = parseSorting(query.Sorting, { name: 'r.name', creationtime: 'r.creation_time', isdefault: 'r.is_default' } as const, {
    column: 'r.name',
    direction: 'asc',
  });
  const { rows, totalCount } = await repo.listRoles(ctx.db, {
    filter: query.Filter?.trim() || undefined,
    isDefault: query.IsDefault,
    offset: query.SkipCount,
    limit: query.MaxResultCount,
    sort,
  });
  return { items: await toDtos(ctx, rows), totalCount };
}

export async function getRole(ctx: ServiceContext, id: string) {
  const row = await repo.findRole(ctx.db, id);
  if (!row) throw notFound({ id });
  return (await toDtos(ctx, [row]))[0]!;
}

export async function createRole(ctx: ServiceContext, raw: TCreateRoleInput) {
  const input = ZCreateRoleInput.parse(raw);
  if (await repo.roleNameTaken(ctx.db, input.name)) throw identityInvalid(ctx, 'role.nameTaken', ['name'], { name: input.name });
  const id = uuidv7();
  try {
    await repo.insertRole(ctx.db, {
      id,
      name: input.name,
      description: input.description,
      is_default: input.isDefault,
      is_public: input.isPublic,
      is_static: false,
      concurrency_stamp: uuidv7(),
      creation_time: new Date(),
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw identityInvalid(ctx, 'role.nameTaken', ['name'], { name: input.name });
    throw err;
  }
  const after = await getRole(ctx, id);
  await recordAudit(ctx, 'Created', { entityType: ENTITY, entityId: id, details: { before: null, after } });
  return after;
}

/** Static roles keep their name; everything else may change. */
export async function updateRole(ctx: ServiceContext, id: string, raw: TUpdateRoleInput) {
  const input = ZUpdateRoleInput.parse(raw);
  const before = await getRole(ctx, id);
  if (before.concurrencyStamp !== input.concurrencyStamp) throw conflict({ concurrencyStamp: before.concurrencyStamp });
  if (before.isStatic && before.name !== input.name) throw identityRefused(ctx, 'StaticRole', 'role.staticRename');
  // Registration hands out the default roles: the administrator role must never be one.
  if (isAdminRole(before) && input.isDefault) throw identityInvalid(ctx, 'role.adminNotDefault', ['isDefault']);
  if (await repo.roleNameTaken(ctx.db, input.name, id)) throw identityInvalid(ctx, 'role.nameTaken', ['name'], { name: input.name });
  // A default role goes to every self-registered account: only for someone who holds all it carries.
  if (input.isDefault && !before.isDefault) await guardDelegation(ctx.db, ctx, { roleIds: [id] });
  try {
    const saved = await repo.updateRoleFields(ctx.db, id, input.concurrencyStamp, {
      name: input.name,
      description: input.description,
      is_default: input.isDefault,
      is_public: input.isPublic,
    });
    if (!saved) throw conflict();
  } catch (err) {
    if (isUniqueViolation(err)) throw identityInvalid(ctx, 'role.nameTaken', ['name'], { name: input.name });
    throw err;
  }
  ctx.caches.auth.invalidateAccess();
  const after = await getRole(ctx, id);
  await recordAudit(ctx, 'Updated', { entityType: ENTITY, entityId: id, details: { before, after } });
  return after;
}

/** Removes the role with its memberships, grants and data scopes (one transaction). */
export async function deleteRole(ctx: ServiceContext, id: string) {
  const before = await getRole(ctx, id);
  if (before.isStatic) throw identityRefused(ctx, 'StaticRole', 'role.staticDelete');
  await guardDelegation(ctx.db, ctx, { roleIds: [id] });
  const members = await ctx.db.transaction().execute(async (trx) => {
    const ids = await repo.memberIds(trx, id);
    // Rows other modules keep about the role (authorization's grants and data scopes) go with it;
    // authorization reports the grants the role carried (`grantedPermissions`) for the audit entry.
    const reported = await removePrincipals(trx, { kind: 'role', ids: [id] });
    await repo.deleteRole(trx, id);
    return { ids, reported };
  });
  ctx.caches.auth.invalidateAccess();
  await recordAudit(ctx, 'Deleted', {
    entityType: ENTITY,
    entityId: id,
    details: { before: { ...before, memberIds: members.ids, ...members.reported }, after: null },
  });
}

export async function listRoleMembers(ctx: ServiceContext, id: string, query: TPagedQuery) {
  await getRole(ctx, id);
  const sort = parseSorting(query.Sorting, { username: 'u.user_name', name: 'u.name', email: 'u.email' } as const, { column: 'u.user_name', direction: 'asc' });
  const { rows, totalCount } = await repo.listMembers(ctx.db, id, { filter: query.Filter?.trim() || undefined, offset: query.SkipCount, limit: query.MaxResultCount, sort });
  return {
    items: rows.map((r) => ({ id: r.id, userName: r.user_name, name: r.name, surname: r.surname, email: r.email, isActive: r.is_active })),
    totalCount,
  };
}

export async function addRoleMembers(ctx: ServiceContext, id: string, input: TAddMembersInput) {
  const role = await getRole(ctx, id);
  if (isAdminRole(role) && !ctx.user?.isAdmin && !ctx.isSystem) throw forbidden({ reason: 'AdministratorRole' });
  const userIds = [...new Set(input.userIds)];
  const existing = await existingUserIds(ctx.db, userIds);
  const unknown = userIds.filter((u) => !existing.has(u));
  if (unknown.length) throw identityInvalid(ctx, 'user.unknownUsers', ['userIds'], { ids: unknown.join(', ') });
  await guardDelegation(ctx.db, ctx, { roleIds: [id], userIds, raisesOwnPower: userIds.includes(ctx.user?.id ?? '') });
  const added = await ctx.db.transaction().execute(async (trx) => {
    return repo.addMembers(trx, id, userIds);
  });
  for (const userId of added) {
    ctx.caches.auth.invalidateUser(userId);
    await recordAudit(ctx, 'Created', { entityType: MEMBER_ENTITY, entityId: `${id}:${userId}`, details: { before: null, after: { roleId: id, userId } } });
  }
  return { addedCount: added.length };
}

export async function removeRoleMember(ctx: ServiceContext, id: string, userId: string) {
  const role = await getRole(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    if (isAdminRole(role)) await guardAdministratorChange(ctx, trx, userId, { endsAdministration: true });
    await guardDelegation(trx, ctx, { userIds: [userId] });
    if (!(await repo.removeMember(trx, id, userId))) throw notFound({ id, userId });
  });
  ctx.caches.auth.invalidateUser(userId);
  await recordAudit(ctx, 'Deleted', { entityType: MEMBER_ENTITY, entityId: `${id}:${userId}`, details: { before: { roleId: id, userId }, after: null } });
}
