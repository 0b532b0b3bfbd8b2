import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TChangePasswordInput, TCurrentUser, TLoginInput, TRegisterInput, TRegistrationOptions } from '@tessera/core/contracts/auth';
import { LOGIN_CODES } from '@tessera/core/contracts/auth';
import { v7 as uuidv7 } from 'uuid';
import { loadUserAccess } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { issueSession, type RequestUser } from '../../platform/auth.ts';
import { AppError, invalid, unauthorized } from '../../platform/errors.ts';
import { requestCulture, translate } from '../../platform/messages.ts';
import { hashPassword, meetsPolicy, passwordPolicy, verifyPassword } from '../../platform/passwords.ts';
import { isRegistrationEnabled } from '../../platform/settings.ts';
import * as repo from './auth.repository.ts';
import { consumeCaptcha, type CaptchaOptions } from './captcha.service.ts';

export const captchaOptions = (app: FastifyInstance): CaptchaOptions => ({ secret: app.config.jwtSecret, maxCounter: app.config.captchaMaxCounter });

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

/**
 * The automatic lockout is in force until its end while the failure count still stands at the
 * threshold: an administrator's unlock (which zeroes the count) lifts it as well.
 */
function isSignInLockedOut(user: { lockout_enabled: boolean; sign_in_lockout_end: Date | null; access_failed_count: number }, now: Date) {
  return user.lockout_enabled && !!user.sign_in_lockout_end && user.sign_in_lockout_end > now && user.access_failed_count >= LOCKOUT_AFTER_FAILURES;
}

/**
 * Sign-in without an oracle: an unknown name, a wrong password and any attempt during the automatic
 * lockout get the same answer (1001) after the same work (one Argon2 verification; during the
 * lockout it runs against a dummy hash, so the password is not checked). Only the right password
 * learns that an administrator locked the account (1002) or disabled it (1003), as Keycloak does.
 */
export async function login(app: FastifyInstance, request: FastifyRequest, input: TLoginInput) {
  const culture = requestCulture(request);
  const user = await repo.findUserByUserName(app.db, input.username);
  const now = new Date();
  const lockedOut = !!user && isSignInLockedOut(user, now);
  dummyHash ??= hashPassword('not-a-real-password', app.config.argon2);
  const checkedHash = user && !lockedOut ? user.password_hash : await dummyHash;
  const ok = (await verifyPassword(checkedHash, input.password)) && !!user && !lockedOut;
  const fail = async (code: number, message: string, reason: string) => {
    await recordAudit(request, 'LoginFailed', { userId: user?.id ?? null, userName: input.username, details: { reason } });
    return { code, message, data: null };
  };
  const invalidCredentials = (reason: string) => fail(LOGIN_CODES.invalidCredentials, translate(culture, 'auth.invalidCredentials'), reason);
  if (!user) return invalidCredentials('unknown user');
  if (lockedOut) return invalidCredentials('locked out');
  if (!ok) {
    const after = await repo.recordFailedSignIn(app.db, user.id, LOCKOUT_AFTER_FAILURES, new Date(now.getTime() + LOCKOUT_MINUTES * 60_000));
    const lockedNow = !!after?.sign_in_lockout_end && after.sign_in_lockout_end > now;
    return invalidCredentials(lockedNow ? 'wrong password, locked out now' : 'wrong password');
  }
  // The right password from here on.
  if (user.lockout_end && user.lockout_end > now) {
    const minutes = Math.max(1, Math.ceil((user.lockout_end.getTime() - now.getTime()) / 60_000));
    return fail(LOGIN_CODES.lockedOut, translate(culture, 'auth.lockedOut', { minutes }), 'locked by an administrator');
  }
  if (!user.is_active) return fail(LOGIN_CODES.disabled, translate(culture, 'auth.disabled'), 'inactive');
  if (user.access_failed_count > 0 || user.sign_in_lockout_end) await repo.resetFailedSignIns(app.db, user.id);
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
  if (!(await isRegistrationEnabled(app.db))) {
    throw new AppError(403, 'RegistrationDisabled', 'auth.registrationDisabled');
  }
  if (!(await consumeCaptcha(app.db, captchaOptions(app), input.captcha))) {
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
    // The default roles (system settings); the administrator role can never be one.
    const roles = await repo.defaultRoleIds(trx);
    if (roles.length) await trx.insertInto('user_roles').values(roles.map((r) => ({ user_id: id, role_id: r.id }))).execute();
    return issueSession(app, id, { ip: request.ip, userAgent: request.headers['user-agent'] }, trx);
  });
  const info = await currentUserInfo(app, id);
  await recordAudit(request, 'Registered', { userId: id, userName: input.mail, entityType: 'User', entityId: id });
  return { code: 0, message: translate(culture, 'auth.loginSuccess'), data: { uuid: id, token, isAdmin: info.isAdmin, info: { id, ...info } } };
}

export async function registrationOptions(app: FastifyInstance): Promise<TRegistrationOptions> {
  return { isEnabled: await isRegistrationEnabled(app.db), passwordPolicy: await passwordPolicy(app.db) };
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
