import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Recovery without the web app (`npm run unlock-user`): zeroes the failed sign-ins and lifts the
 * automatic lockout and an administrator's lock. Undefined when no such user exists.
 */
export function unlockUserByName(db: Kysely<Database>, userName: string) {
  return db
    .updateTable('users')
    .set({ access_failed_count: 0, sign_in_lockout_end: null, lockout_end: null })
    .where((eb) => eb(eb.fn('lower', ['user_name']), '=', userName.toLowerCase()))
    .where('is_deleted', '=', false)
    .returning(['user_name', 'is_active'])
    .executeTakeFirst();
}
