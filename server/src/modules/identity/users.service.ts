import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  TCreateUserInput,
  TIdentityUser,
  TLockUserInput,
  TResetPasswordInput,
  TUpdateUserInput,
  TUserQuery,
} from '@tessera/core/contracts/identity';
import { ZCreateUserInput, ZUpdateUserInput } from '@tessera/core/contracts/identity';
import { v7 as uuidv7 } from 'uuid';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { guardDelegation } from '../../platform/delegation.ts';
import { conflict, forbidden, notFound, type ValidationErrorItem } from '../../platform/errors.ts';
import { parseSorting } from '../../platform/paging.ts';
import { hashPassword, meetsPolicy, passwordPolicy } from '../../platform/passwords.ts';
import { identityInvalid, identityRefused, identityText } from './identity.messages.ts';
import { validationFailure } from '../../platform/module-messages.ts';
import { isAdministrator, lockAdministrators, otherEffectiveAdministrators, revokeSessionsOf } from './identity.shared.ts';
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

export async function userFilterOf(app: FastifyInstance, query: Omit<TUserQuery, 'SkipCount' | 'MaxResultCount' | 'Sorting'>): Promise<repo.UserFilter> {
  return {
    unitCode: query.OrganizationUnitId && query.IncludeChildUnits ? await repo.unitCode(app.db, query.OrganizationUnitId) : undefined,
    filter: query.Filter?.trim() || undefined,
    organizationUnitId: query.OrganizationUnitId,
    includeChildUnits: query.IncludeChildUnits,
    roleId: query.RoleId,
    roleName: query.RoleName,
    isActive: query.IsActive,
    isLockedOut: query.IsLockedOut,
  };
}

export async function listUsers(app: FastifyInstance, query: TUserQuery) {
  const sort = parseSorting(query.Sorting, userSorting, { column: 'u.creation_time', direction: 'desc' });
  const { rows, totalCount } = await repo.listUsers(app.db, await userFilterOf(app, query), { offset: query.SkipCount, limit: query.MaxResultCount, sort });
  return { items: rows.map(toUserDto), totalCount };
}

export async function getUser(app: FastifyInstance, id: string, db = app.db) {
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
export async function checkCandidates(app: FastifyInstance, request: FastifyRequest, candidates: Candidate[], exceptId?: string) {
  const db = app.db;
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
    if (names.has(c.userName.toLowerCase())) errors.push({ message: identityText(request, 'user.userNameTaken', { userName: c.userName }), members: ['userName'] });
    if (c.email && emails.has(c.email.toLowerCase())) errors.push({ message: identityText(request, 'user.emailTaken', { email: c.email }), members: ['email'] });
    if (c.password !== undefined && !meetsPolicy(c.password, policy)) {
      errors.push({ message: identityText(request, 'user.passwordPolicy', { minLength: policy.minLength, classes: policy.requiredClasses }), members: ['password'] });
    }
    const unknownRoles = (c.roleNames ?? []).filter((n) => !roleByName.has(n.toLowerCase()));
    if (unknownRoles.length) errors.push({ message: identityText(request, 'user.unknownRoles', { names: unknownRoles.join(', ') }), members: ['roleNames'] });
    if ((c.organizationUnitIds ?? []).some((id) => !unitIds.has(id))) {
      errors.push({ message: identityText(request, 'user.unknownUnits'), members: ['organizationUnitIds'] });
    }
    const roleIds = c.roleNames ? [...new Set(c.roleNames.map((n) => roleByName.get(n.toLowerCase())?.id).filter((id): id is string => !!id))] : defaultRoleIds;
    return { errors, roleIds };
  });
}

function throwIfInvalid(request: FastifyRequest, errors: ValidationErrorItem[]) {
  if (errors.length) throw validationFailure(errors[0]!.message, errors);
}

export async function createUser(app: FastifyInstance, request: FastifyRequest, raw: TCreateUserInput) {
  const input = ZCreateUserInput.parse(raw);
  const [checked] = await checkCandidates(app, request, [input]);
  throwIfInvalid(request, checked!.errors);
  guardAdminRoleAssignment(request, [], input.roleNames);
  const unitIds = [...new Set(input.organizationUnitIds)];
  await guardDelegation(app.db, request, { roleIds: checked!.roleIds, unitIds });
  const id = uuidv7();
  const passwordHash = await hashPassword(input.password, app.config.argon2);
  try {
    await app.db.transaction().execute(async (trx) => {
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
        creator_id: request.user?.id ?? null,
        last_modification_time: null,
        last_modifier_id: null,
      });
      await repo.setRoles(trx, id, checked!.roleIds);
      await repo.setUnits(trx, id, unitIds);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw identityInvalid(request, 'user.userNameTaken', ['userName'], { userName: input.userName });
    throw err;
  }
  const after = await getUser(app, id);
  await recordAudit(request, 'Created', { entityType: ENTITY, entityId: id, details: { before: null, after: auditView(after) } });
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
  request: FastifyRequest,
  trx: FastifyInstance['db'],
  userId: string,
  change: { endsAdministration: boolean },
) {
  await lockAdministrators(trx);
  if (!(await isAdministrator(trx, userId))) return;
  if (change.endsAdministration && (await otherEffectiveAdministrators(trx, userId)) === 0) {
    throw identityRefused(request, 'LastAdministrator', 'user.lastAdministrator');
  }
  if (!request.user?.isAdmin) throw forbidden({ reason: 'AdministratorAccount' });
}

/** Granting or taking away the admin role is for administrators only. */
export function guardAdminRoleAssignment(request: FastifyRequest, roleNamesBefore: string[], roleNamesAfter: string[] | undefined) {
  if (roleNamesAfter === undefined || request.user?.isAdmin) return;
  const had = roleNamesBefore.some((n) => n.toLowerCase() === ADMIN_ROLE_NAME);
  const has = roleNamesAfter.some((n) => n.toLowerCase() === ADMIN_ROLE_NAME);
  if (had !== has) throw forbidden({ reason: 'AdministratorRole' });
}

export async function updateUser(app: FastifyInstance, request: FastifyRequest, id: string, raw: TUpdateUserInput) {
  const input = ZUpdateUserInput.parse(raw);
  const before = await getUser(app, id);
  if (before.concurrencyStamp !== input.concurrencyStamp) throw conflict({ concurrencyStamp: before.concurrencyStamp });
  const isSelf = request.user?.id === id;
  if (isSelf && !input.isActive) throw identityRefused(request, 'CannotDeactivateSelf', 'user.cannotDeactivateSelf');
  const [checked] = await checkCandidates(app, request, [input], id);
  throwIfInvalid(request, checked!.errors);
  const unitIds = input.organizationUnitIds === undefined ? undefined : [...new Set(input.organizationUnitIds)];
  const rolesAdded = input.roleNames !== undefined && input.roleNames.some((n) => !before.roleNames.some((b) => b.toLowerCase() === n.toLowerCase()));
  const unitsAdded = unitIds !== undefined && unitIds.some((u) => !before.organizationUnits.some((b) => b.id === u));
  const losesAdmin = input.roleNames !== undefined && before.roleNames.some((n) => n.toLowerCase() === ADMIN_ROLE_NAME) && !input.roleNames.some((n) => n.toLowerCase() === ADMIN_ROLE_NAME);
  const deactivated = before.isActive && !input.isActive;
  try {
    await app.db.transaction().execute(async (trx) => {
      await guardAdministratorChange(request, trx, id, { endsAdministration: losesAdmin || deactivated });
      guardAdminRoleAssignment(request, before.roleNames, input.roleNames);
      // The user as they are (they may hold more than the caller), and what the change gives them.
      await guardDelegation(trx, request, {
        userIds: [id],
        roleIds: input.roleNames !== undefined ? checked!.roleIds : [],
        unitIds: unitIds ?? [],
        raisesOwnPower: isSelf && (rolesAdded || unitsAdded),
      });
      const updated = await trx
        .updateTable('users')
        .set({
          user_name: input.userName,
          name: input.name,
          surname: input.surname,
          email: input.email,
          phone_number: input.phoneNumber,
          is_active: input.isActive,
          lockout_enabled: input.lockoutEnabled,
          ...(input.avatar !== undefined ? { avatar: input.avatar } : {}),
          concurrency_stamp: uuidv7(),
          last_modification_time: new Date(),
          last_modifier_id: request.user?.id ?? null,
        })
        .where('id', '=', id)
        .where('is_deleted', '=', false)
        .where('concurrency_stamp', '=', input.concurrencyStamp)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw conflict();
      if (input.roleNames !== undefined) await repo.setRoles(trx, id, checked!.roleIds);
      if (unitIds !== undefined) await repo.setUnits(trx, id, unitIds);
      // A deactivated user is signed out everywhere at once.
      if (deactivated) await revokeSessionsOf(trx, [id]);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw identityInvalid(request, 'user.userNameTaken', ['userName'], { userName: input.userName });
    throw err;
  }
  app.authCache.invalidateUser(id);
  const after = await getUser(app, id);
  await recordAudit(request, 'Updated', { entityType: ENTITY, entityId: id, details: { before: auditView(before), after: auditView(after) } });
  return after;
}

/** Soft delete: the row stays for history; roles, units, own grants and sessions go. */
export async function deleteUser(app: FastifyInstance, request: FastifyRequest, id: string) {
  if (request.user?.id === id) throw identityRefused(request, 'CannotDeleteSelf', 'user.cannotDeleteSelf');
  const before = await getUser(app, id);
  await app.db.transaction().execute(async (trx) => {
    await guardAdministratorChange(request, trx, id, { endsAdministration: true });
    await guardDelegation(trx, request, { userIds: [id] });
    await trx
      .updateTable('users')
      .set({ is_deleted: true, concurrency_stamp: uuidv7(), last_modification_time: new Date(), last_modifier_id: request.user?.id ?? null })
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('user_roles').where('user_id', '=', id).execute();
    await repo.setUnits(trx, id, []);
    await trx.deleteFrom('permission_grants').where('provider_name', '=', 'U').where('provider_key', '=', id).execute();
    await revokeSessionsOf(trx, [id]);
  });
  app.authCache.invalidateUser(id);
  await recordAudit(request, 'Deleted', { entityType: ENTITY, entityId: id, details: { before: auditView(before), after: null } });
}

/** Locks until a time (or for some minutes) and signs the user out; works whatever lockoutEnabled says. */
export async function lockUser(app: FastifyInstance, request: FastifyRequest, id: string, input: TLockUserInput) {
  if (request.user?.id === id) throw identityRefused(request, 'CannotLockSelf', 'user.cannotLockSelf');
  const until = input.until ? new Date(input.until) : new Date(Date.now() + input.minutes! * 60_000);
  if (until <= new Date()) throw identityInvalid(request, 'user.lockInPast', ['until']);
  const before = await getUser(app, id);
  await app.db.transaction().execute(async (trx) => {
    await guardAdministratorChange(request, trx, id, { endsAdministration: true });
    await guardDelegation(trx, request, { userIds: [id] });
    await trx.updateTable('users').set({ lockout_end: until, concurrency_stamp: uuidv7() }).where('id', '=', id).execute();
    await revokeSessionsOf(trx, [id]);
  });
  app.authCache.invalidateUser(id);
  const after = await getUser(app, id);
  await recordAudit(request, 'Updated', {
    entityType: ENTITY,
    entityId: id,
    details: { operation: 'lock', before: { lockoutEnd: before.lockoutEnd }, after: { lockoutEnd: after.lockoutEnd } },
  });
  return after;
}

export async function unlockUser(app: FastifyInstance, request: FastifyRequest, id: string) {
  const before = await getUser(app, id);
  await app.db.transaction().execute(async (trx) => {
    await guardAdministratorChange(request, trx, id, { endsAdministration: false });
    await guardDelegation(trx, request, { userIds: [id] });
    // Both locks: the administrator's and the automatic one after failed sign-ins.
    await trx.updateTable('users').set({ lockout_end: null, sign_in_lockout_end: null, access_failed_count: 0, concurrency_stamp: uuidv7() }).where('id', '=', id).execute();
  });
  app.authCache.invalidateUser(id);
  const after = await getUser(app, id);
  await recordAudit(request, 'Updated', {
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
export async function resetUserPassword(app: FastifyInstance, request: FastifyRequest, id: string, input: TResetPasswordInput) {
  const before = await getUser(app, id);
  const policy = await passwordPolicy(app.db);
  if (!meetsPolicy(input.newPassword, policy)) {
    throw identityInvalid(request, 'user.passwordPolicy', ['newPassword'], { minLength: policy.minLength, classes: policy.requiredClasses });
  }
  const passwordHash = await hashPassword(input.newPassword, app.config.argon2);
  const stamp = uuidv7();
  await app.db.transaction().execute(async (trx) => {
    await guardAdministratorChange(request, trx, id, { endsAdministration: false });
    await guardDelegation(trx, request, { userIds: [id] });
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, concurrency_stamp: stamp, access_failed_count: 0, last_modification_time: new Date(), last_modifier_id: request.user?.id ?? null })
      .where('id', '=', id)
      .execute();
    // The caller keeps their own session when resetting their own password.
    await trx
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', id)
      .where('revoked_at', 'is', null)
      .$if(request.user?.id === id, (q) => q.where('id', '!=', request.user!.sessionId))
      .execute();
  });
  app.authCache.invalidateUser(id);
  await recordAudit(request, 'Updated', {
    entityType: ENTITY,
    entityId: id,
    details: { operation: 'resetPassword', before: { concurrencyStamp: before.concurrencyStamp }, after: { concurrencyStamp: stamp, passwordChanged: true } },
  });
}

/** Signs the user out on every device (their tokens stop working at once). */
export async function revokeUserSessions(app: FastifyInstance, request: FastifyRequest, id: string) {
  await getUser(app, id);
  const { activeBefore, revokedCount } = await app.db.transaction().execute(async (trx) => {
    await guardAdministratorChange(request, trx, id, { endsAdministration: false });
    await guardDelegation(trx, request, { userIds: [id] });
    return { activeBefore: await repo.activeSessionCount(trx, id), revokedCount: await revokeSessionsOf(trx, [id]) };
  });
  app.authCache.invalidateUser(id);
  await recordAudit(request, 'Updated', {
    entityType: ENTITY,
    entityId: id,
    details: { operation: 'revokeSessions', before: { activeSessions: activeBefore }, after: { activeSessions: 0 } },
  });
  return { revokedCount };
}

export async function assignableRoles(app: FastifyInstance) {
  const roles = await repo.allRoles(app.db);
  return { items: roles.map((r) => ({ id: r.id, name: r.name, isDefault: r.is_default })) };
}
