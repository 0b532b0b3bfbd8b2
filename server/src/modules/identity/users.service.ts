import type {
  TCreateUserInput,
  TIdentityUser,
  TLockUserInput,
  TResetPasswordInput,
  TUpdateUserInput,
  TUserQuery,
} from '@tessera/core/contracts/identity';
import { ZCreateUserInput, ZUpdateUserInput } from '@tessera/core/contracts/identity';
import { uuidv7 } from '../../platform/ids.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { liveSessionCount, revokeLiveSessions, revokeSessionsOfUser } from '../../platform/auth.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { guardDelegation } from '../../platform/delegation.ts';
import { conflict, forbidden, notFound, type ValidationErrorItem } from '../../platform/errors.ts';
import { parseSorting } from '../../platform/paging.ts';
import { hashPassword, meetsPolicy, passwordPolicy } from '../../platform/passwords.ts';
import { identityInvalid, identityRefused, identityText } from './identity.messages.ts';
import { validationFailure } from '../../platform/module-messages.ts';
import { isAdministrator, lockAdministrators, otherEffectiveAdministrators } from './identity.repository.ts';
import { removePrincipals } from './principal-removal.ts';
import * as repo from './users.repository.ts';
import { iso, isUniqueViolation } from '../../platform/sql-values.ts';

const ENTITY = 'User';

export function toUserDto(row: repo.UserDetailRow): TIdentityUser {
  const lockoutEnd = row.lockout_end ? new Date(row.lockout_end) : null;
  return {
    id: row.id,
    userName: row.user_name,
    name: row.name,
    surname: row.surname,
    email: row.email,
    phoneNumber: row.phone_number,
    isActive: row.is_active,
    lockoutEnabled: row.lockout_enabled,
    lockoutEnd: iso(lockoutEnd),
    isLockedOut: !!lockoutEnd && lockoutEnd > new Date(),
    accessFailedCount: row.access_failed_count,
    avatar: row.avatar,
    roleNames: row.role_names,
    organizationUnits: row.units,
    concurrencyStamp: row.concurrency_stamp,
    creationTime: iso(row.creation_time)!,
    lastModificationTime: iso(row.last_modification_time),
  };
}

/** What the audit log keeps of a user: no hash, and an uploaded avatar only as a marker. */
export function auditView(user: TIdentityUser) {
  return { ...user, avatar: user.avatar?.startsWith('data:') ? '[image]' : user.avatar };
}

export const userSorting = { username: 'u.user_name', name: 'u.name', surname: 'u.surname', email: 'u.email', phonenumber: 'u.phone_number', isactive: 'u.is_active', creationtime: 'u.creation_time' } as const;

export async function userFilterOf(ctx: ServiceContext, query: Omit<TUserQuery, 'SkipCount' | 'MaxResultCount' | 'Sorting'>): Promise<repo.UserFilter> {
  return {
    unitCode: query.OrganizationUnitId && query.IncludeChildUnits ? await repo.unitCode(ctx.db, query.OrganizationUnitId) : undefined,
    filter: query.Filter?.trim() || undefined,
    organizationUnitId: query.OrganizationUnitId,
    includeChildUnits: query.IncludeChildUnits,
    roleId: query.RoleId,
    roleName: query.RoleName,
    isActive: query.IsActive,
    isLockedOut: query.IsLockedOut,
  };
}

export async function listUsers(ctx: ServiceContext, query: TUserQuery) {
  const sort = parseSorting(query.Sorting, userSorting, { column: 'u.creation_time', direction: 'desc' });
  const { rows, totalCount } = await repo.listUsers(ctx.db, await userFilterOf(ctx, query), { offset: query.SkipCount, limit: query.MaxResultCount, sort });
  return { items: rows.map(toUserDto), totalCount };
}

export async function getUser(ctx: ServiceContext, id: string, db: Db = ctx.db) {
  const row = await repo.findUser(db, id);
  if (!row) throw notFound({ id });
  return toUserDto(row);
}

interface Candidate {
  userName: string;
  email: string;
  roleNames?: string[];
  organizationUnitIds?: string[];
  password?: string;
}

/**
 * The checks that read the database, for one user form or many import rows at once: unique user
 * names and e-mails, known roles and units, the password policy. Answers errors per candidate.
 */
export async function checkCandidates(ctx: ServiceContext, candidates: Candidate[], exceptId?: string) {
  const db = ctx.db;
  const [names, emails, roles, units, policy] = await Promise.all([
    repo.takenUserNames(db, candidates.map((c) => c.userName), exceptId),
    repo.takenEmails(db, candidates.map((c) => c.email), exceptId),
    repo.allRoles(db),
    repo.allUnitsForLookup(db),
    passwordPolicy(db),
  ]);
  const roleByName = new Map(roles.map((r) => [r.name.toLowerCase(), r]));
  const unitIds = new Set(units.map((u) => u.id));
  const defaultRoleIds = roles.filter((r) => r.is_default).map((r) => r.id);
  return candidates.map((c) => {
    const errors: ValidationErrorItem[] = [];
    if (names.has(c.userName.toLowerCase())) errors.push({ message: identityText(ctx, 'user.userNameTaken', { userName: c.userName }), members: ['userName'] });
    if (c.email && emails.has(c.email.toLowerCase())) errors.push({ message: identityText(ctx, 'user.emailTaken', { email: c.email }), members: ['email'] });
    if (c.password !== undefined && !meetsPolicy(c.password, policy)) {
      errors.push({ message: identityText(ctx, 'user.passwordPolicy', { minLength: policy.minLength, classes: policy.requiredClasses }), members: ['password'] });
    }
    const unknownRoles = (c.roleNames ?? []).filter((n) => !roleByName.has(n.toLowerCase()));
    if (unknownRoles.length) errors.push({ message: identityText(ctx, 'user.unknownRoles', { names: unknownRoles.join(', ') }), members: ['roleNames'] });
    if ((c.organizationUnitIds ?? []).some((id) => !unitIds.has(id))) {
      errors.push({ message: identityText(ctx, 'user.unknownUnits'), members: ['organizationUnitIds'] });
    }
    const roleIds = c.roleNames ? [...new Set(c.roleNames.map((n) => roleByName.get(n.toLowerCase())?.id).filter((id): id is string => !!id))] : defaultRoleIds;
    return { errors, roleIds };
  });
}

function throwIfInvalid(errors: ValidationErrorItem[]) {
  if (errors.length) throw validationFailure(errors[0]!.message, errors);
}

export async function createUser(ctx: ServiceContext, raw: TCreateUserInput) {
  const input = ZCreateUserInput.parse(raw);
  const [checked] = await checkCandidates(ctx, [input]);
  throwIfInvalid(checked!.errors);
  guardAdminRoleAssignment(ctx, [], input.roleNames);
  const unitIds = [...new Set(input.organizationUnitIds)];
  await guardDelegation(ctx.db, ctx, { roleIds: checked!.roleIds, unitIds });
  const id = uuidv7();
  const passwordHash = await hashPassword(input.password, ctx.config.argon2);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.insertUser(trx, {
        id,
        user_name: input.userName,
        name: input.name,
        surname: input.surname,
        email: input.email,
        phone_number: input.phoneNumber,
        password_hash: passwordHash,
        avatar: input.avatar ?? null,
        is_active: input.isActive,
        lockout_enabled: input.lockoutEnabled,
        lockout_end: null,
        concurrency_stamp: uuidv7(),
        creation_time: new Date(),
        creator_id: ctx.user?.id ?? null,
        last_modification_time: null,
        last_modifier_id: null,
      });
      await repo.setRoles(trx, id, checked!.roleIds);
      await repo.setUnits(trx, id, unitIds);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw identityInvalid(ctx, 'user.userNameTaken', ['userName'], { userName: input.userName });
    throw err;
  }
  const after = await getUser(ctx, id);
  await recordAudit(ctx, 'Created', { entityType: ENTITY, entityId: id, details: { before: null, after: auditView(after) } });
  return after;
}

/**
 * Changes to administrator accounts, inside the writing transaction (serialised):
 * - the last administrator must stay one: refused when the change would leave no active, unlocked,
 *   undeleted member of the static admin role;
 * - only an administrator may change an administrator's account (otherwise a delegated user
 *   manager could reset the admin's password or lock them out and take over).
 */
export async function guardAdministratorChange(
  ctx: ServiceContext,
  trx: Db,
  userId: string,
  change: { endsAdministration: boolean },
) {
  await lockAdministrators(trx);
  if (!(await isAdministrator(trx, userId))) return;
  if (change.endsAdministration && (await otherEffectiveAdministrators(trx, userId)) === 0) {
    throw identityRefused(ctx, 'LastAdministrator', 'user.lastAdministrator');
  }
  if (!ctx.user?.isAdmin && !ctx.isSystem) throw forbidden({ reason: 'AdministratorAccount' });
}

/** Granting or taking away the admin role is for administrators only. */
export function guardAdminRoleAssignment(ctx: ServiceContext, roleNamesBefore: string[], roleNamesAfter: string[] | undefined) {
  if (roleNamesAfter === undefined || ctx.user?.isAdmin || ctx.isSystem) return;
  const had = roleNamesBefore.some((n) => n.toLowerCase() === ADMIN_ROLE_NAME);
  const has = roleNamesAfter.some((n) => n.toLowerCase() === ADMIN_ROLE_NAME);
  if (had !== has) throw forbidden({ reason: 'AdministratorRole' });
}

export async function updateUser(ctx: ServiceContext, id: string, raw: TUpdateUserInput) {
  const input = ZUpdateUserInput.parse(raw);
  const before = await getUser(ctx, id);
  if (before.concurrencyStamp !== input.concurrencyStamp) throw conflict({ concurrencyStamp: before.concurrencyStamp });
  const isSelf = ctx.user?.id === id;
  if (isSelf && !input.isActive) throw identityRefused(ctx, 'CannotDeactivateSelf', 'user.cannotDeactivateSelf');
  const [checked] = await checkCandidates(ctx, [input], id);
  throwIfInvalid(checked!.errors);
  const unitIds = input.organizationUnitIds === undefined ? undefined : [...new Set(input.organizationUnitIds)];
  const rolesAdded = input.roleNames !== undefined && input.roleNames.some((n) => !before.roleNames.some((b) => b.toLowerCase() === n.toLowerCase()));
  const unitsAdded = unitIds !== undefined && unitIds.some((u) => !before.organizationUnits.some((b) => b.id === u));
  const losesAdmin = input.roleNames !== undefined && before.roleNames.some((n) => n.toLowerCase() === ADMIN_ROLE_NAME) && !input.roleNames.some((n) => n.toLowerCase() === ADMIN_ROLE_NAME);
  const deactivated = before.isActive && !input.isActive;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await guardAdministratorChange(ctx, trx, id, { endsAdministration: losesAdmin || deactivated });
      guardAdminRoleAssignment(ctx, before.roleNames, input.roleNames);
      // The user as they are (they may hold more than the caller), and what the change gives them.
      await guardDelegation(trx, ctx, {
        userIds: [id],
        roleIds: input.roleNames !== undefined ? checked!.roleIds : [],
        unitIds: unitIds ?? [],
        raisesOwnPower: isSelf && (rolesAdded || unitsAdded),
      });
      const saved = await repo.updateUserFields(trx, id, input.concurrencyStamp, {
        user_name: input.userName,
        name: input.name,
        surname: input.surname,
        email: input.email,
        phone_number: input.phoneNumber,
        is_active: input.isActive,
        lockout_enabled: input.lockoutEnabled,
        ...(input.avatar !== undefined ? { avatar: input.avatar } : {}),
        last_modifier_id: ctx.user?.id ?? null,
      });
      if (!saved) throw conflict();
      if (input.roleNames !== undefined) await repo.setRoles(trx, id, checked!.roleIds);
      if (unitIds !== undefined) await repo.setUnits(trx, id, unitIds);
      // A deactivated user is signed out everywhere at once.
      if (deactivated) await revokeLiveSessions(trx, [id]);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw identityInvalid(ctx, 'user.userNameTaken', ['userName'], { userName: input.userName });
    throw err;
  }
  ctx.caches.auth.invalidateUser(id);
  const after = await getUser(ctx, id);
  await recordAudit(ctx, 'Updated', { entityType: ENTITY, entityId: id, details: { before: auditView(before), after: auditView(after) } });
  return after;
}

/** Soft delete: the row stays for history; roles, units, own grants and sessions go. */
export async function deleteUser(ctx: ServiceContext, id: string) {
  if (ctx.user?.id === id) throw identityRefused(ctx, 'CannotDeleteSelf', 'user.cannotDeleteSelf');
  const before = await getUser(ctx, id);
  const reported = await ctx.db.transaction().execute(async (trx) => {
    await guardAdministratorChange(ctx, trx, id, { endsAdministration: true });
    await guardDelegation(trx, ctx, { userIds: [id] });
    await repo.softDeleteUser(trx, id, ctx.user?.id ?? null);
    // Rows other modules keep about the user (authorization's grants) go with it.
    const removed = await removePrincipals(trx, { kind: 'user', ids: [id] });
    await revokeLiveSessions(trx, [id]);
    return removed;
  });
  ctx.caches.auth.invalidateUser(id);
  await recordAudit(ctx, 'Deleted', { entityType: ENTITY, entityId: id, details: { before: { ...auditView(before), ...reported }, after: null } });
}

/** Locks until a time (or for some minutes) and signs the user out; works whatever lockoutEnabled says. */
export async function lockUser(ctx: ServiceContext, id: string, input: TLockUserInput) {
  if (ctx.user?.id === id) throw identityRefused(ctx, 'CannotLockSelf', 'user.cannotLockSelf');
  const until = input.until ? new Date(input.until) : new Date(ctx.now().getTime() + input.minutes! * 60_000);
  if (until <= ctx.now()) throw identityInvalid(ctx, 'user.lockInPast', ['until']);
  const before = await getUser(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    await guardAdministratorChange(ctx, trx, id, { endsAdministration: true });
    await guardDelegation(trx, ctx, { userIds: [id] });
    await repo.setLockout(trx, id, until);
    await revokeLiveSessions(trx, [id]);
  });
  ctx.caches.auth.invalidateUser(id);
  const after = await getUser(ctx, id);
  await recordAudit(ctx, 'Updated', {
    entityType: ENTITY,
    entityId: id,
    details: { operation: 'lock', before: { lockoutEnd: before.lockoutEnd }, after: { lockoutEnd: after.lockoutEnd } },
  });
  return after;
}

export async function unlockUser(ctx: ServiceContext, id: string) {
  const before = await getUser(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    await guardAdministratorChange(ctx, trx, id, { endsAdministration: false });
    await guardDelegation(trx, ctx, { userIds: [id] });
    // Both locks: the administrator's and the automatic one after failed sign-ins.
    await repo.clearLockouts(trx, id);
  });
  ctx.caches.auth.invalidateUser(id);
  const after = await getUser(ctx, id);
  await recordAudit(ctx, 'Updated', {
    entityType: ENTITY,
    entityId: id,
    details: {
      operation: 'unlock',
      before: { lockoutEnd: before.lockoutEnd, accessFailedCount: before.accessFailedCount },
      after: { lockoutEnd: after.lockoutEnd, accessFailedCount: after.accessFailedCount },
    },
  });
  return after;
}

/** Sets a new password chosen by the administrator; the user's sessions end. */
export async function resetUserPassword(ctx: ServiceContext, id: string, input: TResetPasswordInput) {
  const before = await getUser(ctx, id);
  const policy = await passwordPolicy(ctx.db);
  if (!meetsPolicy(input.newPassword, policy)) {
    throw identityInvalid(ctx, 'user.passwordPolicy', ['newPassword'], { minLength: policy.minLength, classes: policy.requiredClasses });
  }
  const passwordHash = await hashPassword(input.newPassword, ctx.config.argon2);
  const stamp = uuidv7();
  await ctx.db.transaction().execute(async (trx) => {
    await guardAdministratorChange(ctx, trx, id, { endsAdministration: false });
    await guardDelegation(trx, ctx, { userIds: [id] });
    await repo.setPasswordHash(trx, id, passwordHash, stamp, ctx.user?.id ?? null);
    // The caller keeps their own session when resetting their own password.
    await revokeSessionsOfUser(trx, id, { keepSessionId: ctx.user?.id === id ? (ctx.user.sessionId ?? undefined) : undefined });
  });
  ctx.caches.auth.invalidateUser(id);
  await recordAudit(ctx, 'Updated', {
    entityType: ENTITY,
    entityId: id,
    details: { operation: 'resetPassword', before: { concurrencyStamp: before.concurrencyStamp }, after: { concurrencyStamp: stamp, passwordChanged: true } },
  });
}

/** Signs the user out on every device (their tokens stop working at once). */
export async function revokeUserSessions(ctx: ServiceContext, id: string) {
  await getUser(ctx, id);
  const { activeBefore, revokedCount } = await ctx.db.transaction().execute(async (trx) => {
    await guardAdministratorChange(ctx, trx, id, { endsAdministration: false });
    await guardDelegation(trx, ctx, { userIds: [id] });
    return { activeBefore: await liveSessionCount(trx, id), revokedCount: await revokeLiveSessions(trx, [id]) };
  });
  ctx.caches.auth.invalidateUser(id);
  await recordAudit(ctx, 'Updated', {
    entityType: ENTITY,
    entityId: id,
    details: { operation: 'revokeSessions', before: { activeSessions: activeBefore }, after: { activeSessions: 0 } },
  });
  return { revokedCount };
}

export async function assignableRoles(ctx: ServiceContext) {
  const roles = await repo.allRoles(ctx.db);
  return { items: roles.map((r) => ({ id: r.id, name: r.name, isDefault: r.is_default })) };
}
