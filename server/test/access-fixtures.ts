import type { Kysely } from 'kysely';
import { BIZ_ACTIONS, bizPermission, type BizAction } from '@tessera/core/contracts/permissions';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../src/db/schema.ts';
import { hashPassword } from '../src/platform/passwords.ts';

/**
 * Roles, users, units and grants written straight to the database, so access tests do not depend
 * on the identity screens. Passwords use the test hash cost.
 */
export const FIXTURE_PASSWORD = 'Fixture#2026';
const COST = { memoryCost: 1024, timeCost: 1 };

export async function createRole(db: Kysely<Database>, name: string): Promise<string> {
  const id = uuidv7();
  await db.insertInto('roles').values({ id, name, concurrency_stamp: uuidv7() }).execute();
  return id;
}

let unitSequence = 100;
/** A unit under `parentId` (or under the root 00001); codes follow the materialised-path scheme. */
export async function createUnit(db: Kysely<Database>, displayName: string, parentId?: string): Promise<string> {
  const parent = parentId
    ? await db.selectFrom('organization_units').select('code').where('id', '=', parentId).executeTakeFirstOrThrow()
    : await db.selectFrom('organization_units').select('code').where('parent_id', 'is', null).orderBy('code').executeTakeFirstOrThrow();
  const id = uuidv7();
  const code = `${parent.code}.${String(unitSequence++).padStart(5, '0')}`;
  const parentRow = parentId ?? (await db.selectFrom('organization_units').select('id').where('code', '=', parent.code).executeTakeFirstOrThrow()).id;
  await db
    .insertInto('organization_units')
    .values({ id, parent_id: parentRow, code, display_name: displayName, leader_user_id: null, concurrency_stamp: uuidv7() })
    .execute();
  return id;
}

export async function createUser(
  db: Kysely<Database>,
  userName: string,
  options: { roles?: string[]; units?: string[]; password?: string } = {},
): Promise<string> {
  const id = uuidv7();
  await db
    .insertInto('users')
    .values({
      id,
      user_name: userName,
      name: userName,
      surname: '',
      email: `${userName}@example.test`,
      phone_number: '',
      password_hash: await hashPassword(options.password ?? FIXTURE_PASSWORD, COST),
      avatar: null,
      concurrency_stamp: uuidv7(),
      creator_id: null,
      last_modification_time: null,
      last_modifier_id: null,
      lockout_end: null,
    })
    .execute();
  for (const roleId of options.roles ?? []) await db.insertInto('user_roles').values({ user_id: id, role_id: roleId }).execute();
  for (const unitId of options.units ?? []) {
    await db.insertInto('user_organization_units').values({ user_id: id, organization_unit_id: unitId }).execute();
  }
  return id;
}

export async function grant(db: Kysely<Database>, providerName: 'R' | 'U' | 'OU', providerKey: string, names: string[]) {
  await db
    .insertInto('permission_grants')
    .values(names.map((name) => ({ name, provider_name: providerName, provider_key: providerKey })))
    .execute();
}

export async function adminRoleId(db: Kysely<Database>): Promise<string> {
  return (await db.selectFrom('roles').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow()).id;
}

/** A business page's access code with its default action codes (add, edit, delete, import, export). */
export const pageWorkCodes = (pageCode: string, actions: readonly BizAction[] = BIZ_ACTIONS) => [
  bizPermission.access(pageCode),
  ...actions.map((a) => bizPermission.action(pageCode, a)),
];
