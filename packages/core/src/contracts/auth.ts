import { z } from 'zod';
import { text } from './common.ts';

export const ZLoginInput = z.object({
  username: text(256).min(1),
  password: z.string().min(1).max(256),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

/** spec §3 user info: what the browser needs about the signed-in user. */
export const ZCurrentUser = z.object({
  userId: z.string(),
  userName: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  organizationUnitId: z.string().nullable(),
  organizationUnitName: z.string().nullable(),
  isAdmin: z.boolean(),
  access: z.array(z.string()),
});
export type TCurrentUser = z.infer<typeof ZCurrentUser>;

export const ZLoginUser = ZCurrentUser.extend({ id: z.string() });

/** Login answers `{ code: 0, data }`; a failed sign-in answers a non-zero code and a message. */
export const ZLoginResponse = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z
    .object({ accessToken: z.string(), isAdmin: z.boolean(), user: ZLoginUser })
    .nullable(),
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

export const LOGIN_CODES = { ok: 0, invalidCredentials: 1001, lockedOut: 1002 } as const;

export const ZRegisterInput = z.object({
  mail: z.email().max(256),
  password: z.string().min(1).max(256),
  mobile: z.string().trim().regex(/^\+?[0-9 -]{5,20}$/),
  captchaId: z.uuid(),
  captcha: z.string().trim().min(1).max(10),
});
export type TRegisterInput = z.infer<typeof ZRegisterInput>;

export const ZRegisterResponse = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.object({ uuid: z.string(), token: z.string(), isAdmin: z.boolean(), info: ZLoginUser }).nullable(),
});

export const ZCaptcha = z.object({ captchaId: z.string(), svg: z.string(), expiresIn: z.number() });

export const ZChangePasswordInput = z.object({
  currentPassword: z.string().min(1).max(256),
  newPassword: z.string().min(1).max(256),
});
export type TChangePasswordInput = z.infer<typeof ZChangePasswordInput>;

export const ZSystemDate = z.object({ date: z.string(), timeZone: z.string() });
