import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  TAddMembersInput,
  TCreateOrganizationUnitInput,
  TOrganizationUnit,
  TOrganizationUnitNode,
  TOrganizationUnitQuery,
  TSetLeaderInput,
  TUpdateOrganizationUnitInput,
} from '@tessera/core/contracts/identity';
import type { TPagedQuery } from '@tessera/core/contracts/common';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit } from '../../platform/audit.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { parseSorting } from '../../platform/paging.ts';
import { guardDelegation } from '../../platform/delegation.ts';
import { identityInvalid, identityRefused } from './identity.messages.ts';
import { lockUnitTree } from './identity.shared.ts';
import * as repo from './organization-units.repository.ts';
import { iso } from '../../platform/sql-values.ts';

const SEGMENT_WIDTH = 5;
const ENTITY = 'OrganizationUnit';
const MEMBER_ENTITY = 'OrganizationUnitMember';

function toDto(row: repo.UnitRow): TOrganizationUnit {
  return {
    id: row.id,
    parentId: row.parent_id,
    code: row.code,
    displayName: row.display_name,
    leaderUserId: row.leader_user_id,
    leaderName: row.leader_user_id ? row.leader_name : null,
    memberCount: row.member_count,
    childCount: row.child_count,
    concurrencyStamp: row.concurrency_stamp,
    creationTime: iso(row.creation_time)!,
  };
}

/** The next free code below a parent: `00001.00003` after `00001.00002`. */
function nextCode(parentCode: string | null, lastSibling: string | null): string | null {
  const last = lastSibling ? Number(lastSibling.slice(lastSibling.lastIndexOf('.') + 1)) : 0;
  if (last + 1 >= 10 ** SEGMENT_WIDTH) return null;
  const segment = String(last + 1).padStart(SEGMENT_WIDTH, '0');
  return parentCode ? `${parentCode}.${segment}` : segment;
}

export async function listOrganizationUnits(app: FastifyInstance, query: TOrganizationUnitQuery) {
  const sort = parseSorting(
    query.Sorting,
    { displayname: 'ou.display_name', code: 'ou.code', creationtime: 'ou.creation_time' } as const,
    { column: 'ou.code', direction: 'asc' },
  );
  const { rows, totalCount } = await repo.listUnits(app.db, {
    filter: query.Filter?.trim() || undefined,
    parentId: query.ParentId,
    offset: query.SkipCount,
    limit: query.MaxResultCount,
    sort,
  });
  return { items: rows.map(toDto), totalCount };
}

/** Every unit as a forest ordered by code. */
export async function organizationUnitTree(app: FastifyInstance): Promise<TOrganizationUnitNode[]> {
  const rows = await repo.allUnits(app.db);
  const nodes = new Map<string, TOrganizationUnitNode>();
  const roots: TOrganizationUnitNode[] = [];
  for (const row of rows) nodes.set(row.id, { ...toDto(row), children: [] });
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

export async function getOrganizationUnit(app: FastifyInstance, id: string) {
  const row = await repo.findUnit(app.db, id);
  if (!row) throw notFound({ id });
  return toDto(row);
}

export async function createOrganizationUnit(app: FastifyInstance, request: FastifyRequest, input: TCreateOrganizationUnitInput) {
  const parentId = input.parentId ?? null;
  const id = uuidv7();
  await app.db.transaction().execute(async (trx) => {
    await lockUnitTree(trx);
    const parent = parentId ? await repo.findPlainUnit(trx, parentId) : null;
    if (parentId && !parent) throw identityInvalid(request, 'unit.parentMissing', ['parentId']);
    if (await repo.siblingNameTaken(trx, parentId, input.displayName)) {
      throw identityInvalid(request, 'unit.nameTaken', ['displayName'], { name: input.displayName });
    }
    const code = nextCode(parent?.code ?? null, await repo.lastChildCode(trx, parentId));
    if (!code) throw identityInvalid(request, 'unit.tooManyChildren', ['parentId']);
    await trx
      .insertInto('organization_units')
      .values({ id, parent_id: parentId, code, display_name: input.displayName, leader_user_id: null, concurrency_stamp: uuidv7(), creation_time: new Date() })
      .execute();
  });
  const after = await getOrganizationUnit(app, id);
  await recordAudit(request, 'Created', { entityType: ENTITY, entityId: id, details: { before: null, after } });
  return after;
}

/**
 * Rename and move. A move takes the next free code under the new parent and rewrites the codes of
 * the whole subtree in the same transaction; a unit cannot move under itself or its descendants.
 */
export async function updateOrganizationUnit(app: FastifyInstance, request: FastifyRequest, id: string, input: TUpdateOrganizationUnitInput) {
  const before = await getOrganizationUnit(app, id);
  if (before.concurrencyStamp !== input.concurrencyStamp) throw conflict({ concurrencyStamp: before.concurrencyStamp });
  const moved = before.parentId !== input.parentId;
  // Its members gain what the new parent (and the units above it) carries.
  if (moved) await guardDelegation(app.db, request, { unitIds: [id, ...(input.parentId ? [input.parentId] : [])] });
  let affectedUsers: string[] = [];
  await app.db.transaction().execute(async (trx) => {
    await lockUnitTree(trx);
    const unit = await repo.findPlainUnit(trx, id);
    if (!unit) throw notFound({ id });
    if (unit.concurrency_stamp !== input.concurrencyStamp) throw conflict({ concurrencyStamp: unit.concurrency_stamp });
    let code = unit.code;
    if (moved) {
      const parent = input.parentId ? await repo.findPlainUnit(trx, input.parentId) : null;
      if (input.parentId && !parent) throw identityInvalid(request, 'unit.parentMissing', ['parentId']);
      if (parent && (parent.code === unit.code || parent.code.startsWith(`${unit.code}.`))) {
        throw identityInvalid(request, 'unit.moveUnderItself', ['parentId']);
      }
      const next = nextCode(parent?.code ?? null, await repo.lastChildCode(trx, input.parentId));
      if (!next) throw identityInvalid(request, 'unit.tooManyChildren', ['parentId']);
      code = next;
    }
    if (await repo.siblingNameTaken(trx, input.parentId, input.displayName, id)) {
      throw identityInvalid(request, 'unit.nameTaken', ['displayName'], { name: input.displayName });
    }
    if (moved) {
      const units = await repo.subtree(trx, unit.code);
      affectedUsers = await repo.memberIdsOfUnits(trx, units.map((u) => u.id));
      await repo.rewriteSubtreeCodes(trx, unit.code, code);
    }
    await trx
      .updateTable('organization_units')
      .set({ display_name: input.displayName, parent_id: input.parentId, concurrency_stamp: uuidv7() })
      .where('id', '=', id)
      .execute();
  });
  // Members' units above them changed: inherited grants and "unit and below" scopes follow.
  if (moved) for (const userId of affectedUsers) app.authCache.invalidateUser(userId);
  if (before.displayName !== input.displayName) app.authCache.invalidateAccess();
  const after = await getOrganizationUnit(app, id);
  await recordAudit(request, 'Updated', { entityType: ENTITY, entityId: id, details: { before, after } });
  return after;
}

/** Only an empty unit, unless `cascade`: then the units below go too and every member is detached. */
export async function deleteOrganizationUnit(app: FastifyInstance, request: FastifyRequest, id: string, cascade: boolean) {
  const before = await getOrganizationUnit(app, id);
  const removed = await app.db.transaction().execute(async (trx) => {
    await lockUnitTree(trx);
    const unit = await repo.findPlainUnit(trx, id);
    if (!unit) throw notFound({ id });
    const units = await repo.subtree(trx, unit.code);
    const unitIds = units.map((u) => u.id);
    const memberIds = await repo.memberIdsOfUnits(trx, unitIds);
    if (!cascade && (units.length > 1 || memberIds.length > 0)) {
      throw identityRefused(request, 'OrganizationUnitNotEmpty', 'unit.notEmpty', { children: units.length - 1, members: memberIds.length }, {
        childCount: units.length - 1,
        memberCount: memberIds.length,
      });
    }
    await trx.deleteFrom('user_organization_units').where('organization_unit_id', 'in', unitIds).execute();
    await trx.deleteFrom('permission_grants').where('provider_name', '=', 'OU').where('provider_key', 'in', unitIds).execute();
    // One statement: the parent_id references are checked at its end, when the whole subtree is gone.
    await trx.deleteFrom('organization_units').where('id', 'in', unitIds).execute();
    return { units, memberIds };
  });
  for (const userId of removed.memberIds) app.authCache.invalidateUser(userId);
  await recordAudit(request, 'Deleted', {
    entityType: ENTITY,
    entityId: id,
    details: {
      before: {
        ...before,
        descendants: removed.units.filter((u) => u.id !== id).map((u) => ({ id: u.id, code: u.code, displayName: u.display_name })),
        detachedMemberIds: removed.memberIds,
      },
      after: null,
      cascade,
    },
  });
}

export async function listOrganizationUnitMembers(app: FastifyInstance, id: string, query: TPagedQuery & { IncludeChildren: boolean }) {
  const unit = await getOrganizationUnit(app, id);
  const sort = parseSorting(
    query.Sorting,
    { username: 'u.user_name', name: 'u.name', email: 'u.email', creationtime: 'u.creation_time' } as const,
    { column: 'u.user_name', direction: 'asc' },
  );
  const { rows, totalCount } = await repo.listMembers(
    app.db,
    { id: unit.id, code: unit.code, leaderUserId: unit.leaderUserId },
    { filter: query.Filter?.trim() || undefined, includeChildren: query.IncludeChildren, offset: query.SkipCount, limit: query.MaxResultCount, sort },
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      userName: r.user_name,
      name: r.name,
      surname: r.surname,
      email: r.email,
      phoneNumber: r.phone_number,
      isActive: r.is_active,
      isLeader: r.id === unit.leaderUserId,
    })),
    totalCount,
  };
}

export async function addOrganizationUnitMembers(app: FastifyInstance, request: FastifyRequest, id: string, input: TAddMembersInput) {
  await getOrganizationUnit(app, id);
  const userIds = [...new Set(input.userIds)];
  const existing = await repo.existingUserIds(app.db, userIds);
  const unknown = userIds.filter((u) => !existing.has(u));
  if (unknown.length) throw identityInvalid(request, 'user.unknownUsers', ['userIds'], { ids: unknown.join(', ') });
  await guardDelegation(app.db, request, { unitIds: [id], userIds, raisesOwnPower: userIds.includes(request.user?.id ?? '') });
  const added = await app.db.transaction().execute(async (trx) => {
    if (!(await repo.findPlainUnit(trx, id))) throw notFound({ id });
    const rows = await trx
      .insertInto('user_organization_units')
      .values(userIds.map((userId) => ({ user_id: userId, organization_unit_id: id })))
      .onConflict((oc) => oc.doNothing())
      .returning('user_id')
      .execute();
    return rows.map((r) => r.user_id);
  });
  for (const userId of added) {
    app.authCache.invalidateUser(userId);
    await recordAudit(request, 'Created', {
      entityType: MEMBER_ENTITY,
      entityId: `${id}:${userId}`,
      details: { before: null, after: { organizationUnitId: id, userId } },
    });
  }
  return { addedCount: added.length };
}

export async function removeOrganizationUnitMember(app: FastifyInstance, request: FastifyRequest, id: string, userId: string) {
  const unit = await getOrganizationUnit(app, id);
  await guardDelegation(app.db, request, { userIds: [userId] });
  await app.db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('user_organization_units')
      .where('organization_unit_id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw notFound({ id, userId });
    // A leader who leaves the unit no longer leads it.
    await trx
      .updateTable('organization_units')
      .set({ leader_user_id: null, concurrency_stamp: uuidv7() })
      .where('id', '=', id)
      .where('leader_user_id', '=', userId)
      .execute();
  });
  app.authCache.invalidateUser(userId);
  await recordAudit(request, 'Deleted', {
    entityType: MEMBER_ENTITY,
    entityId: `${id}:${userId}`,
    details: { before: { organizationUnitId: id, userId, isLeader: unit.leaderUserId === userId }, after: null },
  });
}

export async function setOrganizationUnitLeader(app: FastifyInstance, request: FastifyRequest, id: string, input: TSetLeaderInput) {
  const before = await getOrganizationUnit(app, id);
  if (input.userId && !(await repo.isMember(app.db, id, input.userId))) {
    throw identityInvalid(request, 'unit.leaderNotMember', ['userId']);
  }
  await app.db
    .updateTable('organization_units')
    .set({ leader_user_id: input.userId, concurrency_stamp: uuidv7() })
    .where('id', '=', id)
    .execute();
  const after = await getOrganizationUnit(app, id);
  await recordAudit(request, 'Updated', {
    entityType: ENTITY,
    entityId: id,
    details: { before: { leaderUserId: before.leaderUserId, leaderName: before.leaderName }, after: { leaderUserId: after.leaderUserId, leaderName: after.leaderName } },
  });
  return after;
}
