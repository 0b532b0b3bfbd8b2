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
import { uuidv7 } from '../../platform/ids.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { recordAudit } from '../../platform/audit.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { parseSorting } from '../../platform/paging.ts';
import { guardDelegation } from '../../platform/delegation.ts';
import { identityInvalid, identityRefused } from './identity.messages.ts';
import { lockUnitTree } from './identity.repository.ts';
import { removePrincipals } from './principal-removal.ts';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import * as repo from './organization-units.repository.ts';
import { iso } from '../../platform/sql-values.ts';

const SEGMENT_WIDTH = 5;
const ENTITY = 'OrganizationUnit';
const MEMBER_ENTITY = 'OrganizationUnitMember';

function toDto(row: repo.UnitRow, culture: string): TOrganizationUnit {
  return {
    id: row.id,
    parentId: row.parent_id,
    code: row.code,
    displayName: row.display_name,
    leaderUserId: row.leader_user_id,
    leaderName: row.leader_user_id && row.leader_user_name ? personDisplayName({ name: row.leader_given_name, surname: row.leader_surname, userName: row.leader_user_name }, culture) : null,
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

export async function listOrganizationUnits(ctx: ServiceContext, query: TOrganizationUnitQuery) {
  const sort = parseSorting(
    query.Sorting,
    { displayname: 'ou.display_name', code: 'ou.code', creationtime: 'ou.creation_time' } as const,
    { column: 'ou.code', direction: 'asc' },
  );
  const { rows, totalCount } = await repo.listUnits(ctx.db, {
    filter: query.Filter?.trim() || undefined,
    parentId: query.ParentId,
    offset: query.SkipCount,
    limit: query.MaxResultCount,
    sort,
  });
  return { items: rows.map((row) => toDto(row, ctx.culture)), totalCount };
}

/** Every unit as a forest ordered by code. */
export async function organizationUnitTree(ctx: ServiceContext): Promise<TOrganizationUnitNode[]> {
  const rows = await repo.allUnits(ctx.db);
  const nodes = new Map<string, TOrganizationUnitNode>();
  const roots: TOrganizationUnitNode[] = [];
  for (const row of rows) nodes.set(row.id, { ...toDto(row, ctx.culture), children: [] });
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

export async function getOrganizationUnit(ctx: ServiceContext, id: string) {
  const row = await repo.findUnit(ctx.db, id);
  if (!row) throw notFound({ id });
  return toDto(row, ctx.culture);
}

export async function createOrganizationUnit(ctx: ServiceContext, input: TCreateOrganizationUnitInput) {
  const parentId = input.parentId ?? null;
  const id = uuidv7();
  await ctx.db.transaction().execute(async (trx) => {
    await lockUnitTree(trx);
    const parent = parentId ? await repo.findPlainUnit(trx, parentId) : null;
    if (parentId && !parent) throw identityInvalid(ctx, 'unit.parentMissing', ['parentId']);
    if (await repo.siblingNameTaken(trx, parentId, input.displayName)) {
      throw identityInvalid(ctx, 'unit.nameTaken', ['displayName'], { name: input.displayName });
    }
    const code = nextCode(parent?.code ?? null, await repo.lastChildCode(trx, parentId));
    if (!code) throw identityInvalid(ctx, 'unit.tooManyChildren', ['parentId']);
    await repo.insertUnit(trx, { id, parentId, code, displayName: input.displayName });
  });
  const after = await getOrganizationUnit(ctx, id);
  await recordAudit(ctx, 'Created', { entityType: ENTITY, entityId: id, details: { before: null, after } });
  return after;
}

/**
 * Rename and move. A move takes the next free code under the new parent and rewrites the codes of
 * the whole subtree in the same transaction; a unit cannot move under itself or its descendants.
 */
export async function updateOrganizationUnit(ctx: ServiceContext, id: string, input: TUpdateOrganizationUnitInput) {
  const before = await getOrganizationUnit(ctx, id);
  if (before.concurrencyStamp !== input.concurrencyStamp) throw conflict({ concurrencyStamp: before.concurrencyStamp });
  const moved = before.parentId !== input.parentId;
  // Its members gain what the new parent (and the units above it) carries.
  if (moved) await guardDelegation(ctx.db, ctx, { unitIds: [id, ...(input.parentId ? [input.parentId] : [])] });
  let affectedUsers: string[] = [];
  await ctx.db.transaction().execute(async (trx) => {
    await lockUnitTree(trx);
    const unit = await repo.findPlainUnit(trx, id);
    if (!unit) throw notFound({ id });
    if (unit.concurrency_stamp !== input.concurrencyStamp) throw conflict({ concurrencyStamp: unit.concurrency_stamp });
    let code = unit.code;
    if (moved) {
      const parent = input.parentId ? await repo.findPlainUnit(trx, input.parentId) : null;
      if (input.parentId && !parent) throw identityInvalid(ctx, 'unit.parentMissing', ['parentId']);
      if (parent && (parent.code === unit.code || parent.code.startsWith(`${unit.code}.`))) {
        throw identityInvalid(ctx, 'unit.moveUnderItself', ['parentId']);
      }
      const next = nextCode(parent?.code ?? null, await repo.lastChildCode(trx, input.parentId));
      if (!next) throw identityInvalid(ctx, 'unit.tooManyChildren', ['parentId']);
      code = next;
    }
    if (await repo.siblingNameTaken(trx, input.parentId, input.displayName, id)) {
      throw identityInvalid(ctx, 'unit.nameTaken', ['displayName'], { name: input.displayName });
    }
    if (moved) {
      const units = await repo.subtree(trx, unit.code);
      affectedUsers = await repo.memberIdsOfUnits(trx, units.map((u) => u.id));
      await repo.rewriteSubtreeCodes(trx, unit.code, code);
    }
    await repo.renameAndMoveUnit(trx, id, input.displayName, input.parentId);
  });
  // Members' units above them changed: inherited grants and "unit and below" scopes follow.
  if (moved) for (const userId of affectedUsers) ctx.caches.auth.invalidateUser(userId);
  if (before.displayName !== input.displayName) ctx.caches.auth.invalidateAccess();
  const after = await getOrganizationUnit(ctx, id);
  await recordAudit(ctx, 'Updated', { entityType: ENTITY, entityId: id, details: { before, after } });
  return after;
}

/** Only an empty unit, unless `cascade`: then the units below go too and every member is detached. */
export async function deleteOrganizationUnit(ctx: ServiceContext, id: string, cascade: boolean) {
  const before = await getOrganizationUnit(ctx, id);
  const removed = await ctx.db.transaction().execute(async (trx) => {
    await lockUnitTree(trx);
    const unit = await repo.findPlainUnit(trx, id);
    if (!unit) throw notFound({ id });
    const units = await repo.subtree(trx, unit.code);
    const unitIds = units.map((u) => u.id);
    const memberIds = await repo.memberIdsOfUnits(trx, unitIds);
    if (!cascade && (units.length > 1 || memberIds.length > 0)) {
      throw identityRefused(ctx, 'OrganizationUnitNotEmpty', 'unit.notEmpty', { children: units.length - 1, members: memberIds.length }, {
        childCount: units.length - 1,
        memberCount: memberIds.length,
      });
    }
    // Rows other modules keep about the units (authorization's grants) go with them.
    const reported = await removePrincipals(trx, { kind: 'unit', ids: unitIds });
    await repo.deleteUnits(trx, unitIds);
    return { units, memberIds, reported };
  });
  for (const userId of removed.memberIds) ctx.caches.auth.invalidateUser(userId);
  await recordAudit(ctx, 'Deleted', {
    entityType: ENTITY,
    entityId: id,
    details: {
      before: {
        ...before,
        descendants: removed.units.filter((u) => u.id !== id).map((u) => ({ id: u.id, code: u.code, displayName: u.display_name })),
        detachedMemberIds: removed.memberIds,
        ...removed.reported,
      },
      after: null,
      cascade,
    },
  });
}

export async function listOrganizationUnitMembers(ctx: ServiceContext, id: string, query: TPagedQuery & { IncludeChildren: boolean }) {
  const unit = await getOrganizationUnit(ctx, id);
  const sort = parseSorting(
    query.Sorting,
    { username: 'u.user_name', name: 'u.name', email: 'u.email', creationtime: 'u.creation_time' } as const,
    { column: 'u.user_name', direction: 'asc' },
  );
  const { rows, totalCount } = await repo.listMembers(
    ctx.db,
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

export async function addOrganizationUnitMembers(ctx: ServiceContext, id: string, input: TAddMembersInput) {
  await getOrganizationUnit(ctx, id);
  const userIds = [...new Set(input.userIds)];
  const existing = await repo.existingUserIds(ctx.db, userIds);
  const unknown = userIds.filter((u) => !existing.has(u));
  if (unknown.length) throw identityInvalid(ctx, 'user.unknownUsers', ['userIds'], { ids: unknown.join(', ') });
  await guardDelegation(ctx.db, ctx, { unitIds: [id], userIds, raisesOwnPower: userIds.includes(ctx.user?.id ?? '') });
  const added = await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.findPlainUnit(trx, id))) throw notFound({ id });
    return repo.addMembers(trx, id, userIds);
  });
  for (const userId of added) {
    ctx.caches.auth.invalidateUser(userId);
    await recordAudit(ctx, 'Created', {
      entityType: MEMBER_ENTITY,
      entityId: `${id}:${userId}`,
      details: { before: null, after: { organizationUnitId: id, userId } },
    });
  }
  return { addedCount: added.length };
}

export async function removeOrganizationUnitMember(ctx: ServiceContext, id: string, userId: string) {
  const unit = await getOrganizationUnit(ctx, id);
  await guardDelegation(ctx.db, ctx, { userIds: [userId] });
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.removeMember(trx, id, userId))) throw notFound({ id, userId });
  });
  ctx.caches.auth.invalidateUser(userId);
  await recordAudit(ctx, 'Deleted', {
    entityType: MEMBER_ENTITY,
    entityId: `${id}:${userId}`,
    details: { before: { organizationUnitId: id, userId, isLeader: unit.leaderUserId === userId }, after: null },
  });
}

export async function setOrganizationUnitLeader(ctx: ServiceContext, id: string, input: TSetLeaderInput) {
  const before = await getOrganizationUnit(ctx, id);
  if (input.userId && !(await repo.isMember(ctx.db, id, input.userId))) {
    throw identityInvalid(ctx, 'unit.leaderNotMember', ['userId']);
  }
  await repo.setLeader(ctx.db, id, input.userId);
  const after = await getOrganizationUnit(ctx, id);
  await recordAudit(ctx, 'Updated', {
    entityType: ENTITY,
    entityId: id,
    details: { before: { leaderUserId: before.leaderUserId, leaderName: before.leaderName }, after: { leaderUserId: after.leaderUserId, leaderName: after.leaderName } },
  });
  return after;
}
