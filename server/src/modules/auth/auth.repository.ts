/**
 * The SQL of the auth module's one table, `captcha_uses` (registration challenges already spent).
 * Accounts are identity's (its index); sessions the kernel's (platform/auth.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** Forgets spent challenges that have expired anyway. */
export async function deleteExpiredCaptchaUses(db: Db, now: Date) {
  await db.deleteFrom('captcha_uses').where('expires_at', '<', now).execute();
}

/** Marks a challenge spent; answers false when it already was. */
export async function spendCaptcha(db: Db, nonce: string, expiresAt: Date): Promise<boolean> {
  const spent = await db
    .insertInto('captcha_uses')
    .values({ nonce, expires_at: expiresAt })
    .onConflict((oc) => oc.column('nonce').doNothing())
    .returning('nonce')
    .executeTakeFirst();
  return !!spent;
}
