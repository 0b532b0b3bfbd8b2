import { personDisplayName } from '@tessera/core/helpers/person-name';
import {
  API_KEY_MAX_DAYS,
  API_KEYS_PER_USER_MAX,
  type TAdminApiKeyList,
  type TAdminApiKeyQuery,
  type TApiKey,
  type TApiKeyCodeGroups,
  type TApiKeyCreated,
  type TApiKeyCreateInput,
  type TApiKeyList,
} from '@tessera/core/contracts/api-keys';
import { newApiKey } from '../../platform/api-keys.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { notFound, unauthorized } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { iso } from '../../platform/sql-values.ts';
import { definitionGroupsAmong } from '../authorization/index.ts';
import { apiKeyInvalid } from './api-keys.messages.ts';
import * as repo from './api-keys.repository.ts';

type KeyRow = Awaited<ReturnType<typeof repo.keysOfUser>>[number];

const toDto = (row: KeyRow, now: Date): TApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  codes: row.codes,
  expiresAt: iso(row.expires_at),
  createdAt: iso(row.created_at)!,
  lastUsedAt: iso(row.last_used_at),
  lastUsedIp: row.last_used_ip,
  revokedAt: iso(row.revoked_at),
  status: repo.statusOf(row, now),
});

function me(ctx: ServiceContext) {
  if (!ctx.user) throw unauthorized();
  return ctx.user;
}

export async function listMyKeys(ctx: ServiceContext): Promise<TApiKeyList> {
  const now = ctx.now();
  return { items: (await repo.keysOfUser(ctx.db, me(ctx).id)).map((row) => toDto(row, now)) };
}

/** The codes the caller may hand on to a key: the ones they hold now. */
export async function myKeyCodes(ctx: ServiceContext): Promise<TApiKeyCodeGroups> {
  return { groups: await definitionGroupsAmong(ctx, me(ctx).access) };
}

/**
 * A new key for the caller: never more codes than they hold, never past the longest lifetime. The
 * key is answered once; only its hash is stored.
 */
export async function createMyKey(ctx: ServiceContext, input: TApiKeyCreateInput): Promise<TApiKeyCreated> {
  const user = me(ctx);
  const now = ctx.now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw apiKeyInvalid(ctx, 'key.expiryPast', ['expiresAt']);
  if (expiresAt && expiresAt.getTime() - now.getTime() > API_KEY_MAX_DAYS * 86_400_000) {
    throw apiKeyInvalid(ctx, 'key.expiryTooFar', ['expiresAt'], { days: API_KEY_MAX_DAYS });
  }
  const codes = input.codes ? [...new Set(input.codes)].sort() : null;
  const notHeld = codes?.findIndex((code) => !user.access.has(code)) ?? -1;
  if (codes && notHeld >= 0) throw apiKeyInvalid(ctx, 'key.codeNotHeld', [`codes.${input.codes!.indexOf(codes[notHeld]!)}`], { code: codes[notHeld]! });
  const { key, prefix, hash } = newApiKey();
  const id = uuidv7();
  await ctx.db.transaction().execute(async (trx) => {
    // Counted in the transaction that inserts, under the owner's row lock: two tabs cannot both take the last place.
    await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().executeTakeFirst();
    if ((await repo.liveKeyCount(trx, user.id, now)) >= API_KEYS_PER_USER_MAX) {
      throw apiKeyInvalid(ctx, 'key.tooMany', ['name'], { max: API_KEYS_PER_USER_MAX });
    }
    await repo.insertKey(trx, { id, user_id: user.id, name: input.name, prefix, key_hash: hash, codes: codes ? JSON.stringify(codes) : null, expires_at: expiresAt, created_at: now });
  });
  await recordAudit(ctx, 'ApiKeyCreated', { entityType: 'ApiKey', entityId: id, details: { name: input.name, prefix, codes, expiresAt: iso(expiresAt) } });
  const row: KeyRow = { id, user_id: user.id, name: input.name, prefix, codes, expires_at: expiresAt, created_at: now, last_used_at: null, last_used_ip: null, revoked_at: null };
  return { apiKey: toDto(row, now), key };
}

async function revoke(ctx: ServiceContext, row: KeyRow) {
  const revoked = await repo.revokeKey(ctx.db, row.id, ctx.user?.id ?? null, ctx.now());
  ctx.caches.auth.invalidateApiKey(row.id);
  if (revoked) await recordAudit(ctx, 'ApiKeyRevoked', { entityType: 'ApiKey', entityId: row.id, details: { name: row.name, prefix: row.prefix, ownerId: row.user_id } });
}

/** Revokes one of the caller's keys: refused from the next request on (others' keys are not found). */
export async function revokeMyKey(ctx: ServiceContext, id: string): Promise<void> {
  const row = await repo.findKey(ctx.db, id);
  if (!row || row.user_id !== me(ctx).id) throw notFound();
  await revoke(ctx, row);
}

export async function listAllKeys(ctx: ServiceContext, query: TAdminApiKeyQuery): Promise<TAdminApiKeyList> {
  const now = ctx.now();
  const { rows, totalCount } = await repo.listAllKeys(ctx.db, query, now);
  return {
    items: rows.map((row) => ({
      ...toDto(row, now),
      userId: row.user_id,
      userName: row.user_name,
      ownerName: personDisplayName({ name: row.owner_name, surname: row.owner_surname, userName: row.user_name }, ctx.culture),
    })),
    totalCount,
  };
}

export async function revokeAnyKey(ctx: ServiceContext, id: string): Promise<void> {
  const row = await repo.findKey(ctx.db, id);
  if (!row) throw notFound();
  await revoke(ctx, row);
}
