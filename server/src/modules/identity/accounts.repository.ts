/**
 * The user accounts as sign-in, registration and "change my password" need them (for the auth
 * module, through identity's index).
 */
import type { Kysely } from 'kysely';
import type { Database, NewUser } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** A live account by user name (any case), with its hash and lockout state. */
export function findAccountByUserName(db: Db, userName: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['user_name']), '=', userName.toLowerCase()))
    .where('is_deleted', '=', false)
    .executeTakeFirst();
}

/** A live account by id, with its hash. */
export function findAccountById(db: Db, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('is_deleted', '=', false).executeTakeFirst();
}

/**
 * Counts a wrong password and starts the automatic lockout at the threshold, in one statement
 * (concurrent attempts cannot slip past it). A lockout that has run out starts the count afresh.
 * The automatic lockout has its own column: it blocks new sign-ins, never live sessions.
 */
export function recordFailedSignIn(db: Db, id: string, lockoutAfter: number, lockoutUntil: Date) {
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

export function resetFailedSignIns(db: Db, id: string) {
  return db.updateTable('users').set({ access_failed_count: 0, sign_in_lockout_end: null }).where('id', '=', id).execute();
}

/**
 * A self-registered account with the default roles (system settings; the administrator role can
 * never be one), in the caller's transaction.
 */
export async function insertRegisteredAccount(db: Db, user: NewUser) {
  await db.insertInto('users').values(user).execute();
  const roles = await db.selectFrom('roles').select('id').where('is_default', '=', true).execute();
  if (roles.length) await db.insertInto('user_roles').values(roles.map((r) => ({ user_id: user.id, role_id: r.id }))).execute();
}

/** The user's own new password (they are its modifier). */
export function setOwnPasswordHash(db: Db, id: string, passwordHash: string, stamp: string) {
  return db
    .updateTable('users')
    .set({ password_hash: passwordHash, concurrency_stamp: stamp, last_modification_time: new Date(), last_modifier_id: id })
    .where('id', '=', id)
    .execute();
}
