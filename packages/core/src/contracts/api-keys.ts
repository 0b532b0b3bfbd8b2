import { z } from 'zod';
import { zText } from './text.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';

/**
 * Personal API keys (issue 29): a user's keys for other systems, sent as `Authorization: Bearer
 * <key>` or `X-API-Key: <key>`. A key acts as its owner with the owner's current codes, narrowed to
 * `codes` when given, and the owner's data scopes.
 */
export const API_KEY_PREFIX = 'tsk_';
/** A key is `tsk_` and 43 base64url characters (32 random bytes). */
export const API_KEY_PATTERN = /^tsk_[A-Za-z0-9_-]{43}$/;
/** How many live (unrevoked, unexpired) keys one user may hold. */
export const API_KEYS_PER_USER_MAX = 20;
/** The longest a key may live, in days (a key without expiry is allowed too). */
export const API_KEY_MAX_DAYS = 3650;

export const ZApiKeyStatus = z.enum(['active', 'expired', 'revoked']);
export type TApiKeyStatus = z.infer<typeof ZApiKeyStatus>;

export const ZApiKey = z.object({
  id: zText(),
  name: zText(),
  /** The key's first characters (`tsk_AbCd1234`), to recognise it; the key itself is never shown again. */
  prefix: zText(),
  /** Null: every code the owner holds at the time of each call. */
  codes: z.array(zText()).nullable(),
  expiresAt: zText().nullable(),
  createdAt: zText(),
  lastUsedAt: zText().nullable(),
  lastUsedIp: zText().nullable(),
  revokedAt: zText().nullable(),
  status: ZApiKeyStatus,
});
export type TApiKey = z.infer<typeof ZApiKey>;

export const ZApiKeyList = z.object({ items: z.array(ZApiKey) });
export type TApiKeyList = z.infer<typeof ZApiKeyList>;

export const ZApiKeyCreateInput = z.object({
  name: text(64).min(1),
  /** An ISO time in the future, or null for a key that does not expire. */
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  /** A subset of the caller's own codes, or null for all of them. */
  codes: z.array(text(200).min(1)).min(1).max(500).nullable(),
});
export type TApiKeyCreateInput = z.infer<typeof ZApiKeyCreateInput>;

export const ZApiKeyCreated = z.object({
  apiKey: ZApiKey,
  /** The key: shown this once, stored only as a hash. */
  key: zText(),
});
export type TApiKeyCreated = z.infer<typeof ZApiKeyCreated>;

/** The codes a user may give a key: their own, grouped as the permission definitions are. */
export const ZApiKeyCodeGroups = z.object({
  groups: z.array(
    z.object({
      name: zText(),
      displayName: zText(),
      permissions: z.array(z.object({ name: zText(), displayName: zText(), parentName: zText().nullable() })),
    }),
  ),
});
export type TApiKeyCodeGroups = z.infer<typeof ZApiKeyCodeGroups>;

/** Administrators' list of every key: `Filter` matches the key's name, prefix or owner's user name. */
export const ZAdminApiKeyQuery = ZPagedQuery.extend({
  Status: ZApiKeyStatus.optional(),
  UserId: z.uuid().optional(),
});
export type TAdminApiKeyQuery = z.infer<typeof ZAdminApiKeyQuery>;

export const ZAdminApiKey = ZApiKey.extend({ userId: zText(), userName: zText(), ownerName: zText() });
export type TAdminApiKey = z.infer<typeof ZAdminApiKey>;
export const ZAdminApiKeyList = pagedResult(ZAdminApiKey);
export type TAdminApiKeyList = z.infer<typeof ZAdminApiKeyList>;
