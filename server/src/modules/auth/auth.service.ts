import type { TChangePasswordInput, TCurrentUser, TLoginInput, TRegisterInput, TRegistrationOptions } from '@tessera/core/contracts/auth';
import { LOGIN_CODES } from '@tessera/core/contracts/auth';
import { uuidv7 } from '../../platform/ids.ts';
import { loadUserAccess } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { issueSession, revokeSession, revokeSessionsOfUser, type RequestUser } from '../../platform/auth.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { AppError, invalid, unauthorized } from '../../platform/errors.ts';
import { translate } from '../../platform/messages.ts';
import { hashPassword, meetsPolicy, passwordPolicy, verifyPassword } from '../../platform/passwords.ts';
import { isRegistrationEnabled } from '../../platform/settings.ts';
import * as identity from '../identity/index.ts';
import { consumeCaptcha, type CaptchaOptions } from './captcha.service.ts';

export const captchaOptions = (ctx: Pick<ServiceContext, 'config'>): CaptchaOptions => ({ secret: ctx.config.jwtSecret, maxCounter: ctx.config.captchaMaxCounter });

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
    surname: user.surname,
    avatar: user.avatar,
    organizationUnitId: user.organizationUnitId,
    organizationUnitName: user.organizationUnitName,
    isAdmin: user.isAdmin,
    access: [...user.access],
  };
}

async function currentUserInfo(ctx: ServiceContext, userId: string): Promise<TCurrentUser> {
  const user = await identity.findAccountById(ctx.db, userId);
  if (!user) throw unauthorized();
  const access = await loadUserAccess(ctx.db, userId);
  return {
    userId: user.id,
    userName: user.user_name,
    name: user.name,
    surname: user.surname,
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
export async function login(ctx: ServiceContext, input: TLoginInput) {
  const culture = ctx.culture;
  const user = await identity.findAccountByUserName(ctx.db, input.username);
  const now = new Date();
  const lockedOut = !!user && isSignInLockedOut(user, now);
  dummyHash ??= hashPassword('not-a-real-password', ctx.config.argon2);
  const checkedHash = user && !lockedOut ? user.password_hash : await dummyHash;
  const ok = (await verifyPassword(checkedHash, input.password)) && !!user && !lockedOut;
  const fail = async (code: number, message: string, reason: string) => {
    await recordAudit(ctx, 'LoginFailed', { userId: user?.id ?? null, userName: input.username, details: { reason } });
    return { code, message, data: null };
  };
  const invalidCredentials = (reason: string) => fail(LOGIN_CODES.invalidCredentials, translate(culture, 'auth.invalidCredentials'), reason);
  if (!user) return invalidCredentials('unknown user');
  if (lockedOut) return invalidCredentials('locked out');
  if (!ok) {
    const after = await identity.recordFailedSignIn(ctx.db, user.id, LOCKOUT_AFTER_FAILURES, new Date(now.getTime() + LOCKOUT_MINUTES * 60_000));
    const lockedNow = !!after?.sign_in_lockout_end && after.sign_in_lockout_end > now;
    return invalidCredentials(lockedNow ? 'wrong password, locked out now' : 'wrong password');
  }
  // The right password from here on.
  if (user.lockout_end && user.lockout_end > now) {
    const minutes = Math.max(1, Math.ceil((user.lockout_end.getTime() - now.getTime()) / 60_000));
    return fail(LOGIN_CODES.lockedOut, translate(culture, 'auth.lockedOut', { minutes }), 'locked by an administrator');
  }
  if (!user.is_active) return fail(LOGIN_CODES.disabled, translate(culture, 'auth.disabled'), 'inactive');
  if (user.access_failed_count > 0 || user.sign_in_lockout_end) await identity.resetFailedSignIns(ctx.db, user.id);
  const accessToken = await issueSession(ctx, user.id);
  const info = await currentUserInfo(ctx, user.id);
  await recordAudit(ctx, 'LoginSucceeded', { userId: user.id, userName: user.user_name });
  return {
    code: LOGIN_CODES.ok,
    message: translate(culture, 'auth.loginSuccess'),
    data: { accessToken, isAdmin: info.isAdmin, user: { id: user.id, ...info } },
  };
}

export async function register(ctx: ServiceContext, input: TRegisterInput) {
  const culture = ctx.culture;
  if (!(await isRegistrationEnabled(ctx.db))) {
    throw new AppError(403, 'RegistrationDisabled', 'auth.registrationDisabled');
  }
  if (!(await consumeCaptcha(ctx.db, captchaOptions(ctx), input.captcha))) {
    throw invalid(translate(culture, 'auth.captchaInvalid'), ['captcha']);
  }
  const policy = await passwordPolicy(ctx.db);
  if (!meetsPolicy(input.password, policy)) {
    throw invalid(translate(culture, 'auth.passwordPolicy', { minLength: policy.minLength, classes: policy.requiredClasses }), ['password']);
  }
  if (await identity.findAccountByUserName(ctx.db, input.mail)) throw invalid(translate(culture, 'auth.userExists'), ['mail']);
  const id = uuidv7();
  const passwordHash = await hashPassword(input.password, ctx.config.argon2);
  const token = await ctx.db.transaction().execute(async (trx) => {
    // With the default roles (system settings; the administrator role can never be one).
    await identity.insertRegisteredAccount(trx, {
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
    return issueSession(ctx, id, trx);
  });
  const info = await currentUserInfo(ctx, id);
  await recordAudit(ctx, 'Registered', { userId: id, userName: input.mail, entityType: 'User', entityId: id });
  return { code: 0, message: translate(culture, 'auth.loginSuccess'), data: { uuid: id, token, isAdmin: info.isAdmin, info: { id, ...info } } };
}

export async function registrationOptions(ctx: ServiceContext): Promise<TRegistrationOptions> {
  return { isEnabled: await isRegistrationEnabled(ctx.db), passwordPolicy: await passwordPolicy(ctx.db) };
}

export async function changePassword(ctx: ServiceContext, input: TChangePasswordInput) {
  const culture = ctx.culture;
  const me = ctx.user;
  if (!me) throw unauthorized();
  const user = await identity.findAccountById(ctx.db, me.id);
  if (!user) throw unauthorized();
  if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
    throw invalid(translate(culture, 'auth.wrongCurrentPassword'), ['currentPassword']);
  }
  const policy = await passwordPolicy(ctx.db);
  if (!meetsPolicy(input.newPassword, policy)) {
    throw invalid(translate(culture, 'auth.passwordPolicy', { minLength: policy.minLength, classes: policy.requiredClasses }), ['newPassword']);
  }
  const passwordHash = await hashPassword(input.newPassword, ctx.config.argon2);
  await ctx.db.transaction().execute(async (trx) => {
    await identity.setOwnPasswordHash(trx, me.id, passwordHash, uuidv7());
    // Other devices must sign in again with the new password.
    await revokeSessionsOfUser(trx, me.id, { keepSessionId: me.sessionId ?? undefined });
  });
  ctx.caches.auth.invalidateUser(me.id);
  await recordAudit(ctx, 'PasswordChanged', { entityType: 'User', entityId: me.id });
  return { message: translate(culture, 'auth.passwordChanged') };
}

export async function logout(ctx: ServiceContext) {
  const sessionId = ctx.user?.sessionId;
  if (!sessionId) throw unauthorized();
  await revokeSession(ctx.db, sessionId);
  ctx.caches.auth.invalidateSession(sessionId);
  await recordAudit(ctx, 'Logout');
}
