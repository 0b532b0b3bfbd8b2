import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { uuidv7 } from '../platform/ids.ts';
import type { HashCost } from '../platform/passwords.ts';
import { hashPassword } from '../platform/passwords.ts';
import { ADMIN_ROLE_NAME } from '../platform/access.ts';
import { systemPermissions } from '../platform/permission-registry.ts';
import type { Database } from './schema.ts';

export const ROOT_UNIT_CODE = '00001';

export interface SeedResult {
  /** Set only on the first start, when the admin account was created. */
  createdAdmin?: { userName: string; password: string; generated: boolean };
}

/** First-start data (admin, root unit, admin role) and, on every start, the permission registry. */
export async function seed(db: Kysely<Database>, options: { adminPassword?: string; hashCost: HashCost }): Promise<SeedResult> {
  const result: SeedResult = {};
  await db.transaction().execute(async (trx) => {
    await syncPermissionDefinitions(trx);
    const existing = await trx.selectFrom('users').select('id').where('user_name', '=', 'admin').executeTakeFirst();
    if (existing) return;
    const generated = !options.adminPassword;
    const password = options.adminPassword ?? `Ts-${randomBytes(9).toString('base64url')}`;
    const adminId = uuidv7();
    const roleId = uuidv7();
    const unitId = uuidv7();
    await trx
      .insertInto('users')
      .values({
        id: adminId,
        user_name: 'admin',
        name: '管理员',
        surname: '',
        email: 'admin@localhost',
        phone_number: '',
        password_hash: await hashPassword(password, options.hashCost),
        concurrency_stamp: uuidv7(),
        avatar: null,
        creator_id: null,
        last_modification_time: null,
        last_modifier_id: null,
        lockout_end: null,
        // The automatic lockout applies to admin too: it blocks new sign-ins for 5 minutes and
        // ends no session; README names the recovery (`npm run unlock-user -- admin`).
      })
      .execute();
    await trx
      .insertInto('roles')
      .values({ id: roleId, name: ADMIN_ROLE_NAME, is_static: true, is_public: true, concurrency_stamp: uuidv7() })
      .execute();
    await trx
      .insertInto('organization_units')
      .values({ id: unitId, parent_id: null, code: ROOT_UNIT_CODE, display_name: '总部', leader_user_id: adminId, concurrency_stamp: uuidv7() })
      .execute();
    await trx.insertInto('user_roles').values({ user_id: adminId, role_id: roleId }).execute();
    await trx.insertInto('user_organization_units').values({ user_id: adminId, organization_unit_id: unitId }).execute();
    result.createdAdmin = { userName: 'admin', password, generated };
  });
  return result;
}

async function syncPermissionDefinitions(db: Kysely<Database>) {
  const defs = systemPermissions();
  if (defs.length === 0) return;
  await db
    .insertInto('permission_definitions')
    .values(
      defs.map((d) => ({
        name: d.name,
        group_name: d.group,
        parent_name: d.parentName,
        display_name: JSON.stringify(d.displayName),
        group_display_name: JSON.stringify(d.groupDisplayName),
        is_system: true,
      })),
    )
    .onConflict((oc) =>
      oc.column('name').doUpdateSet((eb) => ({
        group_name: eb.ref('excluded.group_name'),
        parent_name: eb.ref('excluded.parent_name'),
        display_name: eb.ref('excluded.display_name'),
        group_display_name: eb.ref('excluded.group_display_name'),
      })),
    )
    .execute();
}
