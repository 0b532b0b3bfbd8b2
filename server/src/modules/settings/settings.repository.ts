import type { Kysely } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../../db/schema.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';

type Db = Kysely<Database>;

/** Every role, marked when it is the static administrator role (never a registration default). */
export async function listRoles(db: Db) {
  const rows = await db.selectFrom('roles').select(['id', 'name', 'is_default', 'is_static']).orderBy('name').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, isDefault: r.is_default, isAdmin: r.is_static && r.name.toLowerCase() === ADMIN_ROLE_NAME }));
}

/**
 * Makes exactly these roles the default ones (what registration hands out). The flag belongs to
 * the role, so the roles page shows the same; a changed role gets a new concurrency stamp.
 */
export async function setDefaultRoles(db: Db, roleIds: string[]) {
  await db
    .updateTable('roles')
    .set((eb) => ({ is_default: eb.not(eb.ref('is_default')), concurrency_stamp: uuidv7() }))
    .where((eb) =>
      roleIds.length
        ? eb.or([
            eb.and([eb('id', 'in', roleIds), eb('is_default', '=', false)]),
            eb.and([eb('id', 'not in', roleIds), eb('is_default', '=', true)]),
          ])
        : eb('is_default', '=', true),
    )
    .execute();
}
