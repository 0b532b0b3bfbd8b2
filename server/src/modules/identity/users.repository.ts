import { sql, type Kysely, type SelectQueryBuilder, type Updateable } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import type { Database, NewUser, UsersTable } from '../../db/schema.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

export interface UserFilter {
  filter?: string;
  organizationUnitId?: string;
  includeChildUnits?: boolean;
  /** The unit's code, for "unit and below" (looked up by the service). */
  unitCode?: string;
  roleId?: string;
  roleName?: string;
  isActive?: boolean;
  isLockedOut?: boolean;
}

export type UserSortColumn = 'u.user_name' | 'u.name' | 'u.surname' | 'u.email' | 'u.phone_number' | 'u.is_active' | 'u.creation_time';

type UsersQuery<O> = SelectQueryBuilder<Database & { u: UsersTable }, 'u', O>;

function filtered<O>(q: UsersQuery<O>, f: UserFilter): UsersQuery<O> {
  q = q.where('u.is_deleted', '=', false);
  if (f.filter) {
    // One LIKE over the generated lower-case search column (migration 0101), trigram-indexed where available.
    q = q.where(sql<boolean>`u.search_text like lower(${likePattern(f.filter)})`);
  }
  if (f.organizationUnitId) {
    const unitId = f.organizationUnitId;
    const below = f.unitCode ? `${f.unitCode}.%` : null;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_organization_units as m')
          .select(sql`1`.as('one'))
          .whereRef('m.user_id', '=', 'u.id')
          .where((w) =>
            f.includeChildUnits && below
              ? w('m.organization_unit_id', 'in', w.selectFrom('organization_units').select('id').where((c) => c.or([c('id', '=', unitId), c('code', 'like', below)])))
              : w('m.organization_unit_id', '=', unitId),
          ),
      ),
    );
  }
  if (f.roleId || f.roleName) {
    q = q.where((eb) => {
      let sub = eb
        .selectFrom('user_roles as ur')
        .innerJoin('roles as r', 'r.id', 'ur.role_id')
        .select(sql`1`.as('one'))
        .whereRef('ur.user_id', '=', 'u.id');
      if (f.roleId) sub = sub.where('r.id', '=', f.roleId);
      if (f.roleName) sub = sub.where((w) => w(w.fn('lower', ['r.name']), '=', f.roleName!.toLowerCase()));
      return eb.exists(sub);
    });
  }
  if (f.isActive !== undefined) q = q.where('u.is_active', '=', f.isActive);
  if (f.isLockedOut !== undefined) {
    const now = new Date();
    q = f.isLockedOut
      ? q.where('u.lockout_end', '>', now)
      : q.where((eb) => eb.or([eb('u.lockout_end', 'is', null), eb('u.lockout_end', '<=', now)]));
  }
  return q;
}

const USER_COLUMNS = [
  'u.id',
  'u.user_name',
  'u.name',
  'u.surname',
  'u.email',
  'u.phone_number',
  'u.is_active',
  'u.lockout_enabled',
  'u.lockout_end',
  'u.access_failed_count',
  'u.avatar',
  'u.concurrency_stamp',
  'u.creation_time',
  'u.last_modification_time',
] as const;

function userColumns(db: Db) {
  return db.selectFrom('users as u').select(USER_COLUMNS);
}
type UserBaseRow = Awaited<ReturnType<ReturnType<typeof userColumns>['executeTakeFirstOrThrow']>>;
export type UserDetailRow = UserBaseRow & { role_names: string[]; units: { id: string; displayName: string }[] };

/**
 * Role names and units of a page of users in two set-based queries (instead of two sub-queries
 * per row), in parallel where the database has a pool.
 */
async function withRolesAndUnits(db: Db, rows: UserBaseRow[]): Promise<UserDetailRow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [roles, units] = await Promise.all([
    db
      .selectFrom('user_roles as ur')
      .innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select(['ur.user_id', 'r.name'])
      .where('ur.user_id', 'in', ids)
      .orderBy('r.name')
      .execute(),
    db
      .selectFrom('user_organization_units as m')
      .innerJoin('organization_units as ou', 'ou.id', 'm.organization_unit_id')
      .select(['m.user_id', 'ou.id', 'ou.display_name'])
      .where('m.user_id', 'in', ids)
      .orderBy('ou.code')
      .execute(),
  ]);
  const byUser = new Map<string, UserDetailRow>(rows.map((r) => [r.id, { ...r, role_names: [], units: [] }]));
  for (const r of roles) byUser.get(r.user_id)!.role_names.push(r.name);
  for (const u of units) byUser.get(u.user_id)!.units.push({ id: u.id, displayName: u.display_name });
  return [...byUser.values()];
}

export async function listUsers(
  db: Db,
  f: UserFilter,
  page: { offset: number; limit: number; sort: { column: UserSortColumn; direction: 'asc' | 'desc' } },
) {
  // Two statements sent at once (one round trip on a pool): the count, and the page with each
  // user's roles and units gathered by the database — for the page's rows only (the page is cut
  // first, so skipped rows of a deep page cost no lookups).
  const sortColumn = page.sort.column.slice(2);
  const pageRows = filtered(userColumns(db), f)
    .orderBy(page.sort.column, page.sort.direction)
    .orderBy('u.id', page.sort.direction)
    .offset(page.offset)
    .limit(page.limit);
  const [count, rows] = await Promise.all([
    filtered(db.selectFrom('users as u'), f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom(pageRows.as('p'))
      .selectAll('p')
      .select([
        sql<string[] | null>`(select array_agg(r.name order by r.name) from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = p.id)`.as('role_names'),
        sql<{ id: string; displayName: string }[] | string | null>`(select json_agg(json_build_object('id', ou.id, 'displayName', ou.display_name) order by ou.code)
          from user_organization_units m join organization_units ou on ou.id = m.organization_unit_id where m.user_id = p.id)`.as('units'),
      ])
      .orderBy(sql.ref(`p.${sortColumn}`), page.sort.direction)
      .orderBy('p.id', page.sort.direction)
      .execute(),
  ]);
  return {
    rows: rows.map(
      (r): UserDetailRow => ({
        ...r,
        role_names: r.role_names ?? [],
        units: typeof r.units === 'string' ? (JSON.parse(r.units) as UserDetailRow['units']) : (r.units ?? []),
      }),
    ),
    totalCount: Number(count.n),
  };
}

/** Every matching user, for the export (bounded by `limit`). */
export async function allUsers(db: Db, f: UserFilter, limit: number) {
  return withRolesAndUnits(db, await filtered(userColumns(db), f).orderBy('u.user_name').limit(limit).execute());
}

export async function findUser(db: Db, id: string) {
  const row = await userColumns(db).where('u.id', '=', id).where('u.is_deleted', '=', false).executeTakeFirst();
  return row ? (await withRolesAndUnits(db, [row]))[0] : undefined;
}

export function unitCode(db: Db, id: string) {
  return db.selectFrom('organization_units').select('code').where('id', '=', id).executeTakeFirst().then((r) => r?.code);
}

export function findUserRow(db: Db, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('is_deleted', '=', false).executeTakeFirst();
}

/** Live (not deleted) users holding any of the user names, lower-cased. */
export async function takenUserNames(db: Db, userNames: string[], exceptId?: string): Promise<Set<string>> {
  if (userNames.length === 0) return new Set();
  let q = db
    .selectFrom('users')
    .select((eb) => eb.fn<string>('lower', ['user_name']).as('key'))
    .where('is_deleted', '=', false)
    .where((eb) => eb(eb.fn('lower', ['user_name']), 'in', userNames.map((n) => n.toLowerCase())));
  if (exceptId) q = q.where('id', '!=', exceptId);
  return new Set((await q.execute()).map((r) => r.key));
}

export async function takenEmails(db: Db, emails: string[], exceptId?: string): Promise<Set<string>> {
  const wanted = emails.filter(Boolean).map((e) => e.toLowerCase());
  if (wanted.length === 0) return new Set();
  let q = db
    .selectFrom('users')
    .select((eb) => eb.fn<string>('lower', ['email']).as('key'))
    .where('is_deleted', '=', false)
    .where('email', '!=', '')
    .where((eb) => eb(eb.fn('lower', ['email']), 'in', wanted));
  if (exceptId) q = q.where('id', '!=', exceptId);
  return new Set((await q.execute()).map((r) => r.key));
}

export function allRoles(db: Db) {
  return db.selectFrom('roles').select(['id', 'name', 'is_default', 'is_static']).orderBy('name').execute();
}

export function allUnitsForLookup(db: Db) {
  return db.selectFrom('organization_units').select(['id', 'code', 'display_name', 'parent_id']).orderBy('code').execute();
}

export function insertUser(db: Db, user: NewUser) {
  return db.insertInto('users').values(user).execute();
}

export async function setRoles(db: Db, userId: string, roleIds: string[]) {
  await db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  if (roleIds.length) await db.insertInto('user_roles').values(roleIds.map((roleId) => ({ user_id: userId, role_id: roleId }))).execute();
}

export async function setUnits(db: Db, userId: string, unitIds: string[]) {
  await db.deleteFrom('user_organization_units').where('user_id', '=', userId).execute();
  if (unitIds.length) {
    await db.insertInto('user_organization_units').values(unitIds.map((id) => ({ user_id: userId, organization_unit_id: id }))).execute();
  }
  // A leader who leaves a unit no longer leads it.
  let clear = db.updateTable('organization_units').set({ leader_user_id: null }).where('leader_user_id', '=', userId);
  if (unitIds.length) clear = clear.where('id', 'not in', unitIds);
  await clear.execute();
}

/** Saves the user form's fields; answers false when the stamp no longer matches (someone else saved). */
export async function updateUserFields(
  db: Db,
  id: string,
  expectedStamp: string,
  fields: Pick<Updateable<UsersTable>, 'user_name' | 'name' | 'surname' | 'email' | 'phone_number' | 'is_active' | 'lockout_enabled' | 'avatar' | 'last_modifier_id'>,
): Promise<boolean> {
  const updated = await db
    .updateTable('users')
    .set({ ...fields, concurrency_stamp: uuidv7(), last_modification_time: new Date() })
    .where('id', '=', id)
    .where('is_deleted', '=', false)
    .where('concurrency_stamp', '=', expectedStamp)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Soft delete: the row stays for history, its roles and units go (and the units it led). */
export async function softDeleteUser(db: Db, id: string, modifierId: string | null) {
  await db
    .updateTable('users')
    .set({ is_deleted: true, concurrency_stamp: uuidv7(), last_modification_time: new Date(), last_modifier_id: modifierId })
    .where('id', '=', id)
    .execute();
  await db.deleteFrom('user_roles').where('user_id', '=', id).execute();
  await setUnits(db, id, []);
}

/** The administrator's lock until a time (null lifts it and the automatic lock after failed sign-ins). */
export async function setLockout(db: Db, id: string, until: Date) {
  await db.updateTable('users').set({ lockout_end: until, concurrency_stamp: uuidv7() }).where('id', '=', id).execute();
}

export async function clearLockouts(db: Db, id: string) {
  await db
    .updateTable('users')
    .set({ lockout_end: null, sign_in_lockout_end: null, access_failed_count: 0, concurrency_stamp: uuidv7() })
    .where('id', '=', id)
    .execute();
}

/** A new password set by someone (an administrator, or the user themselves): the failure count starts afresh. */
export async function setPasswordHash(db: Db, id: string, passwordHash: string, stamp: string, modifierId: string | null) {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, concurrency_stamp: stamp, access_failed_count: 0, last_modification_time: new Date(), last_modifier_id: modifierId })
    .where('id', '=', id)
    .execute();
}

/** Imported users with their roles and units, 200 at a time (inside the caller's transaction). */
export async function insertUsersWithMemberships(db: Db, users: { user: NewUser; roleIds: string[]; unitIds: string[] }[]) {
  for (let i = 0; i < users.length; i += 200) {
    const chunk = users.slice(i, i + 200);
    await db.insertInto('users').values(chunk.map((c) => c.user)).execute();
    const roles = chunk.flatMap((c) => c.roleIds.map((roleId) => ({ user_id: c.user.id, role_id: roleId })));
    if (roles.length) await db.insertInto('user_roles').values(roles).execute();
    const memberships = chunk.flatMap((c) => c.unitIds.map((unitId) => ({ user_id: c.user.id, organization_unit_id: unitId })));
    if (memberships.length) await db.insertInto('user_organization_units').values(memberships).execute();
  }
}
