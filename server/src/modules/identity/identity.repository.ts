import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { lockUntilCommit } from '../../platform/locks.ts';

type Db = Kysely<Database>;

/** SQL shared by the identity services: advisory locks and the administrator checks. */

// Transaction-scoped advisory locks serialise the few identity writes whose checks read other
// rows: the unit tree's codes, and "is there another administrator left" (keys in platform/locks.ts).
export const lockUnitTree = (trx: Db) => lockUntilCommit(trx, 'unitTree');
export const lockAdministrators = (trx: Db) => lockUntilCommit(trx, 'administrators');

export function adminRole(db: Db) {
  return db
    .selectFrom('roles')
    .select(['id', 'name'])
    .where('is_static', '=', true)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', ADMIN_ROLE_NAME))
    .executeTakeFirst();
}

/**
 * Administrators who can still act: members of the static admin role, active, not deleted, not
 * locked out — other than `excludingUserId`.
 */
export async function otherEffectiveAdministrators(db: Db, excludingUserId: string): Promise<number> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('user_roles as ur', 'ur.user_id', 'u.id')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('r.is_static', '=', true)
    .where((eb) => eb(eb.fn('lower', ['r.name']), '=', ADMIN_ROLE_NAME))
    .where('u.is_active', '=', true)
    .where('u.is_deleted', '=', false)
    .where((eb) => eb.or([eb('u.lockout_end', 'is', null), eb('u.lockout_end', '<=', new Date())]))
    .where('u.id', '!=', excludingUserId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function isAdministrator(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_roles as ur')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select('r.id')
    .where('ur.user_id', '=', userId)
    .where('r.is_static', '=', true)
    .where((eb) => eb(eb.fn('lower', ['r.name']), '=', ADMIN_ROLE_NAME))
    .executeTakeFirst();
  return !!row;
}
