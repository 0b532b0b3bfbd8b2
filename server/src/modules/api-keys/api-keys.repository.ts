/** The SQL of the api-keys module's table `api_keys` (users' names are joined for the administrators' list). */
import type { Insertable, Kysely } from 'kysely';
import type { TAdminApiKeyQuery, TApiKeyStatus } from '@tessera/core/contracts/api-keys';
import type { ApiKeysTable, Database } from '../../db/schema.ts';
import { pageWindow, parseSorting } from '../../platform/paging.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

const KEY_COLUMNS = [
  'k.id',
  'k.user_id',
  'k.name',
  'k.prefix',
  'k.codes',
  'k.expires_at',
  'k.created_at',
  'k.last_used_at',
  'k.last_used_ip',
  'k.revoked_at',
] as const;

export function keysOfUser(db: Db, userId: string) {
  return db.selectFrom('api_keys as k').select(KEY_COLUMNS).where('k.user_id', '=', userId).orderBy('k.created_at', 'desc').orderBy('k.id', 'desc').execute();
}

export function findKey(db: Db, id: string) {
  return db.selectFrom('api_keys as k').select(KEY_COLUMNS).where('k.id', '=', id).executeTakeFirst();
}

export async function liveKeyCount(db: Db, userId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertKey(db: Db, row: Insertable<ApiKeysTable>) {
  await db.insertInto('api_keys').values(row).execute();
}

/** Revokes a live key; answers whether it was live. */
export async function revokeKey(db: Db, id: string, by: string | null, now: Date): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: now, revoked_by: by }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

const SORT_COLUMNS = { name: 'k.name', createdat: 'k.created_at', lastusedat: 'k.last_used_at', expiresat: 'k.expires_at', username: 'u.user_name' } as const;

export async function listAllKeys(db: Db, query: TAdminApiKeyQuery, now: Date) {
  const sort = parseSorting(query.Sorting, SORT_COLUMNS, { column: 'k.created_at', direction: 'desc' });
  const status = query.Status;
  const base = db
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .$if(!!query.Filter?.trim(), (q) => {
      const pattern = likePattern(query.Filter!.trim().toLowerCase());
      return q.where((eb) => eb.or([eb(eb.fn('lower', ['k.name']), 'like', pattern), eb(eb.fn('lower', ['k.prefix']), 'like', pattern), eb(eb.fn('lower', ['u.user_name']), 'like', pattern)]));
    })
    .$if(!!query.UserId, (q) => q.where('k.user_id', '=', query.UserId!))
    .$if(status === 'revoked', (q) => q.where('k.revoked_at', 'is not', null))
    .$if(status === 'expired', (q) => q.where('k.revoked_at', 'is', null).where('k.expires_at', '<=', now))
    .$if(status === 'active', (q) => q.where('k.revoked_at', 'is', null).where((eb) => eb.or([eb('k.expires_at', 'is', null), eb('k.expires_at', '>', now)])));
  const { offset, limit } = pageWindow(query);
  const [rows, count] = await Promise.all([
    base
      .select([...KEY_COLUMNS, 'u.user_name', 'u.name as owner_name', 'u.surname as owner_surname'])
      .orderBy(sort.column, sort.direction)
      .orderBy('k.id', sort.direction)
      .offset(offset)
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, totalCount: Number(count.n) };
}

export function statusOf(row: { revoked_at: Date | null; expires_at: Date | null }, now: Date): TApiKeyStatus {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && row.expires_at <= now) return 'expired';
  return 'active';
}
