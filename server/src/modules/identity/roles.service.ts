import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { v7 as uuidv7 } from 'uuid';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { guardDelegation } from '../../platform/delegation.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { parseSorting } from '../../platform/paging.ts';
import { identityInvalid, identityRefused } from './identity.messages.ts';

import { guardAdministratorChange } from './users.service.ts';
import * as repo from './roles.repository.ts';
import { existingUserIds } from './organization-units.repository.ts';
import { iso, isUniqueViolation } from '../../platform/sql-values.ts';

const ENTITY = 'Role';
const MEMBER_ENTITY = 'RoleMember';

function toDto(row: repo.RoleRow): TIdentityRole {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isDefault: row.is_default,
    isPublic: row.is_public,
    isStatic: row.is_static,
    userCount: row.user_count,
    grantedPermissionCount: row.granted_permission_count,
    concurrencyStamp: row.concurrency_stamp,
    creationTime: iso(row.creation_time)!,
  };
}

const isAdminRole = (role: { name: string; isStatic: boolean }) => role.isStatic && role.name.toLowerCase() === ADMIN_ROLE_NAME;

export async function listRoles(app: FastifyInstance, query: TRoleQuery) {
  const sort = parseSorting(query.Sorting, { name: 'r.name', creationtime: 'r.creation_time', isdefault: 'r.is_default' } as const, {
    column: 'r.name',
    direction: 'asc',
  });
  const { rows, totalCount } = await repo.listRoles(app.db, {
    filter: query.Filter?.trim() || undefined,
    isDefault: query.IsDefault,
    offset: query.SkipCount,
    limit: query.MaxResultCount,
    sort,
  });
  return { items: rows.map(toDto), totalCount };
}

export async function getRole(app: FastifyInstance, id: string) {
  const row = await repo.findRole(app.db, id);
  if (!row) throw notFound({ id });
  return toDto(row);
}

export async function createRole(app: FastifyInstance, request: FastifyRequest, raw: TCreateRoleInput) {
  const input = ZCreateRoleInput.parse(raw);
  if (await repo.roleNameTaken(app.db, input.name)) throw identityInvalid(request, 'role.nameTaken', ['name'], { name: input.name });
  const id = uuidv7();
  try {
    await app.db
      .insertInto('roles')
      .values({
        id,
        name: input.name,
        description: input.description,
        is_default: input.isDefault,
        is_public: input.isPublic,
        is_static: false,
        concurrency_stamp: uuidv7(),
        creation_time: new Date(),
      })
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw identityInvalid(request, 'role.nameTaken', ['name'], { name: input.name });
    throw err;
  }
  const after = await getRole(app, id);
  await recordAudit(request, 'Created', { entityType: ENTITY, entityId: id, details: { before: null, after } });
  return after;
}

/** Static roles keep their name; everything else may change. */
export async function updateRole(app: FastifyInstance, request: FastifyRequest, id: string, raw: TUpdateRoleInput) {
  const input = ZUpdateRoleInput.parse(raw);
  const before = await getRole(app, id);
  if (before.concurrencyStamp !== input.concurrencyStamp) throw conflict({ concurrencyStamp: before.concurrencyStamp });
  if (before.isStatic && before.name !== input.name) throw identityRefused(request, 'StaticRole', 'role.staticRename');
  // Registration hands out the default roles: the administrator role must never be one.
  if (isAdminRole(before) && input.isDefault) throw identityInvalid(request, 'role.adminNotDefault', ['isDefault']);
  if (await repo.roleNameTaken(app.db, input.name, id)) throw identityInvalid(request, 'role.nameTaken', ['name'], { name: input.name });
  // A default role goes to every self-registered account: only for someone who holds all it carries.
  if (input.isDefault && !before.isDefault) await guardDelegation(app.db, request, { roleIds: [id] });
  try {
    const updated = await app.db
      .updateTable('roles')
      .set({ name: input.name, description: input.description, is_default: input.isDefault, is_public: input.isPublic, concurrency_stamp: uuidv7() })
      .where('id', '=', id)
      .where('concurrency_stamp', '=', input.concurrencyStamp)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw conflict();
  } catch (err) {
    if (isUniqueViolation(err)) throw identityInvalid(request, 'role.nameTaken', ['name'], { name: input.name });
    throw err;
  }
  app.authCache.invalidateAccess();
  const after = await getRole(app, id);
  await recordAudit(request, 'Updated', { entityType: ENTITY, entityId: id, details: { before, after } });
  return after;
}

/** Removes the role with its memberships, grants and data scopes (one transaction). */
export async function deleteRole(app: FastifyInstance, request: FastifyRequest, id: string) {
  const before = await getRole(app, id);
  if (before.isStatic) throw identityRefused(request, 'StaticRole', 'role.staticDelete');
  await guardDelegation(app.db, request, { roleIds: [id] });
  const members = await app.db.transaction().execute(async (trx) => {
    const ids = await repo.memberIds(trx, id);
    const grants = await trx.selectFrom('permission_grants').select('name').where('provider_name', '=', 'R').where('provider_key', '=', id).execute();
    await trx.deleteFrom('permission_grants').where('provider_name', '=', 'R').where('provider_key', '=', id).execute();
    await trx.deleteFrom('roles').where('id', '=', id).execute();
    return { ids, grants: grants.map((g) => g.name) };
  });
  app.authCache.invalidateAccess();
  await recordAudit(request, 'Deleted', {
    entityType: ENTITY,
    entityId: id,
    details: { before: { ...before, memberIds: members.ids, grantedPermissions: members.grants }, after: null },
  });
}

export async function listRoleMembers(app: FastifyInstance, id: string, query: TPagedQuery) {
  await getRole(app, id);
  const sort = parseSorting(query.Sorting, { username: 'u.user_name', name: 'u.name', email: 'u.email' } as const, { column: 'u.user_name', direction: 'asc' });
  const { rows, totalCount } = await repo.listMembers(app.db, id, { filter: query.Filter?.trim() || undefined, offset: query.SkipCount, limit: query.MaxResultCount, sort });
  return {
    items: rows.map((r) => ({ id: r.id, userName: r.user_name, name: r.name, surname: r.surname, email: r.email, isActive: r.is_active })),
    totalCount,
  };
}

export async function addRoleMembers(app: FastifyInstance, request: FastifyRequest, id: string, input: TAddMembersInput) {
  const role = await getRole(app, id);
  if (isAdminRole(role) && !request.user?.isAdmin) throw forbidden({ reason: 'AdministratorRole' });
  const userIds = [...new Set(input.userIds)];
  const existing = await existingUserIds(app.db, userIds);
  const unknown = userIds.filter((u) => !existing.has(u));
  if (unknown.length) throw identityInvalid(request, 'user.unknownUsers', ['userIds'], { ids: unknown.join(', ') });
  await guardDelegation(app.db, request, { roleIds: [id], userIds, raisesOwnPower: userIds.includes(request.user?.id ?? '') });
  const added = await app.db.transaction().execute(async (trx) => {
    const rows = await trx
      .insertInto('user_roles')
      .values(userIds.map((userId) => ({ user_id: userId, role_id: id })))
      .onConflict((oc) => oc.doNothing())
      .returning('user_id')
      .execute();
    return rows.map((r) => r.user_id);
  });
  for (const userId of added) {
    app.authCache.invalidateUser(userId);
    await recordAudit(request, 'Created', { entityType: MEMBER_ENTITY, entityId: `${id}:${userId}`, details: { before: null, after: { roleId: id, userId } } });
  }
  return { addedCount: added.length };
}

export async function removeRoleMember(app: FastifyInstance, request: FastifyRequest, id: string, userId: string) {
  const role = await getRole(app, id);
  await app.db.transaction().execute(async (trx) => {
    if (isAdminRole(role)) await guardAdministratorChange(request, trx, userId, { endsAdministration: true });
    await guardDelegation(trx, request, { userIds: [userId] });
    const removed = await trx.deleteFrom('user_roles').where('role_id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw notFound({ id, userId });
  });
  app.authCache.invalidateUser(userId);
  await recordAudit(request, 'Deleted', { entityType: MEMBER_ENTITY, entityId: `${id}:${userId}`, details: { before: { roleId: id, userId }, after: null } });
}
