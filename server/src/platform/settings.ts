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
