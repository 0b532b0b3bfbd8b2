import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** System settings are JSON values by key in the `settings` table. */
export async function readSetting<T>(db: Kysely<Database>, key: string, fallback: T): Promise<T> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (row.value as T) : fallback;
}

export async function writeSetting(db: Kysely<Database>, key: string, value: unknown): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
    .execute();
}

export const REGISTRATION_ENABLED = 'registration.enabled';

/**
 * Whether visitors may register. Off unless an administrator turned it on (system settings); an
 * installation from before this default has it written down as it was (migration 0002).
 */
export async function isRegistrationEnabled(db: Kysely<Database>): Promise<boolean> {
  return (await readSetting<unknown>(db, REGISTRATION_ENABLED, false)) === true;
}
