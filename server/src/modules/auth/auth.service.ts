import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TChangePasswordInput, TCurrentUser, TLoginInput, TRegisterInput } from '@tessera/core/contracts/auth';
import { LOGIN_CODES } from '@tessera/core/contracts/auth';
import { v7 as uuidv7 } from 'uuid';
import { loadUserAccess } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { issueSession, type RequestUser } from '../../platform/auth.ts';
import { AppError, invalid, unauthorized } from '../../platform/errors.ts';
import { requestCulture, translate } from '../../platform/messages.ts';
import { hashPassword, meetsPolicy, passwordPolicy, verifyPassword } from '../../platform/passwords.ts';
import { readSetting } from '../../platform/settings.ts';
import * as repo from './auth.repository.ts';
import { consumeCaptcha } from './captcha.service.ts';

export const LOCKOUT_AFTER_FAILURES = 5;
export const LOCKOUT_MINUTES = 5;

// Verifying against a fixed hash when the user does not exist keeps the timing the same,
// so the answer gives no hint whether the user name exists.
let dummyHash: Promise<string> | null = null;

/** spec §3 user info for the signed-in caller, from the guard's cached view of them. */
export function currentUserOf(user: RequestUser): TCurrentUser {
  return {
    userId: user.id,
    userName: user.userName,
    name: user.name,
    avatar: user.avatar,
    organizationUnitId: user.organizationUnitId,
    organizationUnitName: user.organizationUnitName,
    isAdmin: user.isAdmin,
    access: [...user.access],
  };
}

async function currentUserInfo(app: FastifyInstance, userId: string): Promise<TCurrentUser> {
  const user = await repo.findUserById(app.db, userId);
  if (!user) throw unauthorized();
  const access = await loadUserAccess(app.db, userId);
  return {
    userId: user.id,
    userName: user.user_name,
    name: user.name || user.user_name,
    avatar: user.avatar,
    organizationUnitId: access.organizationUnitId,
    organizationUnitName: access.organizationUnitName,
    isAdmin: access.isAdmin,
    access: access.access,
  };
}

export async function login(app: FastifyInstance, request: FastifyRequest, input: TLoginInput) {
  const culture = requestCulture(request);
  const user = await repo.findUserByUserName(app.db, input.username);
  dummyHash ??= hashPassword('not-a-real-password', app.config.argon2);
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash), input.password);
  const fail = async (code: number, message: string, reason: string) => {
    await recordAudit(request, 'LoginFailed', { userId: user?.id ?? null, userName: input.username, details: { reason } });
    return { code, message, data: null };
  };
  if (user?.lockout_end && user.lockout_end > new Date()) {
    const minutes = Math.max(1, Math.ceil((user.lockout_end.getTime() - Date.now()) / 60_000));
    return fail(LOGIN_CODES.lockedOut, translate(culture, 'auth.lockedOut', { minutes }), 'locked out');
  }
  if (!user || !ok || !user.is_active) {
    if (user && !ok) {
      const lockedUntil = new Date(Date.now() + LOCKOUT_MINUTES * 60_000);
      const after = await repo.recordFailedSignIn(app.db, user.id, LOCKOUT_AFTER_FAILURES, lockedUntil);
      if (after?.lockout_end && after.lockout_end > new Date()) {
        return fail(LOGIN_CODES.lockedOut, translate(culture, 'auth.lockedOut', { minutes: LOCKOUT_MINUTES }), 'locked out now');
      }
    }
    return fail(LOGIN_CODES.invalidCredentials, translate(culture, 'auth.invalidCredentials'), !user ? 'unknown user' : !ok ? 'wrong password' : 'inactive');
  }
  if (user.access_failed_count > 0 || user.lockout_end) await repo.resetFailedSignIns(app.db, user.id);
  const accessToken = await issueSession(app, user.id, { ip: request.ip, userAgent: request.headers['user-agent'] });
  const info = await currentUserInfo(app, user.id);
  await recordAudit(request, 'LoginSucceeded', { userId: user.id, userName: user.user_name });
  return {
    code: LOGIN_CODES.ok,
    message: translate(culture, 'auth.loginSuccess'),
    data: { accessToken, isAdmin: info.isAdmin, user: { id: user.id, ...info } },
  };
}

export async function register(app: FastifyInstance, request: FastifyRequest, input: TRegisterInput) {
  const culture = requestCulture(request);
  if (!(await readSetting(app.db, 'registration.enabled', true))) {
    throw new AppError(403, 'RegistrationDisabled', 'auth.registrationDisabled');
  }
  if (!(await consumeCaptcha(app.db, input.captchaId, input.captcha))) {
    throw invalid(translate(culture, 'auth.captchaInvalid'), ['captcha']);
  }
  const policy = await passwordPolicy(app.db);
  if (!meetsPolicy(input.password, policy)) {
    throw invalid(translate(culture, 'auth.passwordPolicy', { minLength: policy.minLength, classes: policy.requiredClasses }), ['password']);
  }
  if (await repo.findUserByUserName(app.db, input.mail)) throw invalid(translate(culture, 'auth.userExists'), ['mail']);
  const id = uuidv7();
  const passwordHash = await hashPassword(input.password, app.config.argon2);
  const token = await app.db.transaction().execute(async (trx) => {
    await repo.insertUser(trx, {
      id,
      user_name: input.mail,
      name: input.mail.split('@')[0] ?? input.mail,
      surname: '',
      email: input.mail,
      phone_number: input.mobile,
      password_hash: passwordHash,
      concurrency_stamp: uuidv7(),
      avatar: null,
      creator_id: null,
      last_modification_time: null,
      last_modifier_id: null,
      lockout_end: null,
    });
    const roles = await repo.defaultRoleIds(trx);
    if (roles.length) await trx.insertInto('user_roles').values(roles.map((r) => ({ user_id: id, role_id: r.id }))).execute();
    return issueSession(app, id, { ip: request.ip, userAgent: request.headers['user-agent'] }, trx);
  });
  const info = await currentUserInfo(app, id);
  await recordAudit(request, 'Registered', { userId: id, userName: input.mail, entityType: 'User', entityId: id });
  return { code: 0, message: translate(culture, 'auth.loginSuccess'), data: { uuid: id, token, isAdmin: info.isAdmin, info: { id, ...info } } };
}

export async function changePassword(app: FastifyInstance, request: FastifyRequest, input: TChangePasswordInput) {
  const culture = requestCulture(request);
  const me = request.user!;
  const user = await repo.findUserById(app.db, me.id);
  if (!user) throw unauthorized();
  if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
    throw invalid(translate(culture, 'auth.wrongCurrentPassword'), ['currentPassword']);
  }
  const policy = await passwordPolicy(app.db);
  if (!meetsPolicy(input.newPassword, policy)) {
    throw invalid(translate(culture, 'auth.passwordPolicy', { minLength: policy.minLength, classes: policy.requiredClasses }), ['newPassword']);
  }
  const passwordHash = await hashPassword(input.newPassword, app.config.argon2);
  await app.db.transaction().execute(async (trx) => {
    await repo.updatePasswordHash(trx, me.id, passwordHash, uuidv7());
    // Other devices must sign in again with the new password.
    await repo.revokeOtherSessions(trx, me.id, me.sessionId);
  });
  app.authCache.invalidateUser(me.id);
  await recordAudit(request, 'PasswordChanged', { entityType: 'User', entityId: me.id });
  return { message: translate(culture, 'auth.passwordChanged') };
}

export async function logout(app: FastifyInstance, request: FastifyRequest) {
  await repo.revokeSession(app.db, request.user!.sessionId);
  app.authCache.invalidateSession(request.user!.sessionId);
  await recordAudit(request, 'Logout');
}
