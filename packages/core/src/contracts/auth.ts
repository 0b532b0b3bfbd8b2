import { z } from 'zod';
import { zText } from './text.ts';
import { text } from './common.ts';

export const ZLoginInput = z.object({
  username: text(256).min(1),
  password: zText().min(1).max(256),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

/** spec §3 user info: what the browser needs about the signed-in user. */
export const ZCurrentUser = z.object({
  userId: zText(),
  userName: zText(),
  /** The given name and the surname as stored (either may be empty); `personDisplayName` (helpers/person-name) forms the full name shown. */
  name: zText(),
  surname: zText(),
  avatar: zText().nullable(),
  organizationUnitId: zText().nullable(),
  organizationUnitName: zText().nullable(),
  isAdmin: z.boolean(),
  access: z.array(zText()),
});
export type TCurrentUser = z.infer<typeof ZCurrentUser>;

export const ZLoginUser = ZCurrentUser.extend({ id: zText() });

/** Login answers `{ code: 0, data }`; a failed sign-in answers a non-zero code and a message. */
export const ZLoginResponse = z.object({
  code: z.number().int(),
  message: zText(),
  data: z
    .object({ accessToken: zText(), isAdmin: z.boolean(), user: ZLoginUser })
    .nullable(),
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

/**
 * 1001 answers every failure that could tell a guesser something: an unknown name, a wrong
 * password, and any attempt during the automatic lockout (no password is checked then). 1002 (an
 * administrator's lock) and 1003 (a disabled account) are said only after the right password.
 */
export const LOGIN_CODES = { ok: 0, invalidCredentials: 1001, lockedOut: 1002, disabled: 1003 } as const;

export const ZRegisterInput = z.object({
  mail: z.email().max(256),
  password: zText().min(1).max(256),
  mobile: zText().trim().regex(/^\+?[0-9 -]{5,20}$/),
  /** The solved proof-of-work challenge: ALTCHA's base64 payload (`GET /api/register/captcha`). */
  captcha: zText().trim().min(1).max(4000),
});
export type TRegisterInput = z.infer<typeof ZRegisterInput>;

export const ZRegisterResponse = z.object({
  code: z.number().int(),
  message: zText(),
  data: z.object({ uuid: zText(), token: zText(), isAdmin: z.boolean(), info: ZLoginUser }).nullable(),
});

/**
 * An ALTCHA v2 proof-of-work challenge, signed by the server: find the counter whose
 * SHA-256(salt ‖ nonce ‖ counter as uint32 big-endian) starts with `keyPrefix`.
 */
export const ZCaptchaParameters = z.object({
  algorithm: zText().max(32),
  nonce: zText().max(128),
  salt: zText().max(128),
  cost: z.number().int(),
  keyLength: z.number().int(),
  keyPrefix: zText().max(128),
  keySignature: zText().max(256).optional(),
  expiresAt: z.number().int().optional(),
});
export const ZCaptcha = z.object({ parameters: ZCaptchaParameters, signature: zText() });
export type TCaptcha = z.infer<typeof ZCaptcha>;

/** What the browser sends back (base64 of this JSON) as `captcha`. */
export const ZCaptchaPayload = z.object({
  challenge: ZCaptcha,
  solution: z.object({ counter: z.number().int().min(0).max(0xffffffff), derivedKey: zText().max(256), time: z.number().optional() }),
});
export type TCaptchaPayload = z.infer<typeof ZCaptchaPayload>;

/** The password policy (system settings): a minimum length and how many character classes. */
export const ZPasswordPolicy = z.object({
  minLength: z.number().int().min(8).max(128),
  /** How many of: upper case, lower case, digit, symbol. */
  requiredClasses: z.number().int().min(1).max(4),
});
export type TPasswordPolicy = z.infer<typeof ZPasswordPolicy>;

/** Public: whether visitors may register (the login page shows the link only then). */
export const ZRegistrationOptions = z.object({ isEnabled: z.boolean(), passwordPolicy: ZPasswordPolicy });
export type TRegistrationOptions = z.infer<typeof ZRegistrationOptions>;

export const ZChangePasswordInput = z.object({
  currentPassword: zText().min(1).max(256),
  newPassword: zText().min(1).max(256),
});
export type TChangePasswordInput = z.infer<typeof ZChangePasswordInput>;

export const ZSystemDate = z.object({ date: zText(), timeZone: zText() });
