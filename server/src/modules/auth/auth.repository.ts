import type { Kysely } from 'kysely';
import type { Database, NewUser } from '../../db/schema.ts';

export function findUserByUserName(db: Kysely<Database>, userName: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['user_name']), '=', userName.toLowerCase()))
    .where('is_deleted', '=', false)
    .executeTakeFirst();
}

export function findUserById(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('is_deleted', '=', false).executeTakeFirst();
}

/**
 * Counts a wrong password and starts the automatic lockout at the threshold, in one statement
 * (concurrent attempts cannot slip past it). A lockout that has run out starts the count afresh.
 * The automatic lockout has its own column: it blocks new sign-ins, never live sessions.
 */
export function recordFailedSignIn(db: Kysely<Database>, id: string, lockoutAfter: number, lockoutUntil: Date) {
  const now = new Date();
  return db
    .updateTable('users')
    .set((eb) => {
      const lapsed = eb.and([eb('sign_in_lockout_end', 'is not', null), eb('sign_in_lockout_end', '<=', now)]);
      const count = eb.case().when(lapsed).then(1).else(eb('access_failed_count', '+', 1)).end();
      return {
        access_failed_count: count,
        sign_in_lockout_end: eb
          .case()
          .when(eb.and([eb('lockout_enabled', '=', true), eb(count, '>=', lockoutAfter)]))
          .then(lockoutUntil)
          .when(lapsed)
          .then(null)
          .else(eb.ref('sign_in_lockout_end'))
          .end(),
      };
    })
    .where('id', '=', id)
    .returning(['access_failed_count', 'sign_in_lockout_end'])
    .executeTakeFirst();
}

export function resetFailedSignIns(db: Kysely<Database>, id: string) {
  return db.updateTable('users').set({ access_failed_count: 0, sign_in_lockout_end: null }).where('id', '=', id).execute();
}

export function insertUser(db: Kysely<Database>, user: NewUser) {
  return db.insertInto('users').values(user).execute();
}

export function updatePasswordHash(db: Kysely<Database>, id: string, passwordHash: string, stamp: string) {
  return db
    .updateTable('users')
    .set({ password_hash: passwordHash, concurrency_stamp: stamp, last_modification_time: new Date(), last_modifier_id: id })
    .where('id', '=', id)
    .execute();
}

export function revokeSession(db: Kysely<Database>, sessionId: string) {
  return db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', sessionId).execute();
}

export function revokeOtherSessions(db: Kysely<Database>, userId: string, keepSessionId: string) {
  return db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export function defaultRoleIds(db: Kysely<Database>) {
  return db.selectFrom('roles').select('id').where('is_default', '=', true).execute();
}
