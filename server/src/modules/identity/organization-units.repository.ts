import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

/** Units with their leader's name and direct member and child counts. */
function unitsWithCounts(db: Db) {
  return db
    .selectFrom('organization_units as ou')
    .leftJoin('users as leader', (join) => join.onRef('leader.id', '=', 'ou.leader_user_id').on('leader.is_deleted', '=', false))
    .select([
      'ou.id',
      'ou.parent_id',
      'ou.code',
      'ou.display_name',
      'ou.leader_user_id',
      'ou.concurrency_stamp',
      'ou.creation_time',
      'leader.user_name as leader_user_name',
      'leader.name as leader_given_name',
      'leader.surname as leader_surname',
      sql<number>`(select count(*) from user_organization_units m join users u on u.id = m.user_id
                   where m.organization_unit_id = ou.id and not u.is_deleted)::int`.as('member_count'),
      sql<number>`(select count(*) from organization_units c where c.parent_id = ou.id)::int`.as('child_count'),
    ]);
}
export type UnitRow = Awaited<ReturnType<ReturnType<typeof unitsWithCounts>['executeTakeFirstOrThrow']>>;

export function allUnits(db: Db) {
  return unitsWithCounts(db).orderBy('ou.code').execute();
}

export function findUnit(db: Db, id: string) {
  return unitsWithCounts(db).where('ou.id', '=', id).executeTakeFirst();
}

export async function listUnits(db: Db, q: { filter?: string; parentId?: string; offset: number; limit: number; sort: { column: 'ou.display_name' | 'ou.code' | 'ou.creation_time'; direction: 'asc' | 'desc' } }) {
  let base = db.selectFrom('organization_units as ou');
  if (q.filter) base = base.where('ou.display_name', 'ilike', likePattern(q.filter));
  if (q.parentId) base = base.where('ou.parent_id', '=', q.parentId);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let page = unitsWithCounts(db);
  if (q.filter) page = page.where('ou.display_name', 'ilike', likePattern(q.filter));
  if (q.parentId) page = page.where('ou.parent_id', '=', q.parentId);
  const rows = await page.orderBy(q.sort.column, q.sort.direction).orderBy('ou.id').offset(q.offset).limit(q.limit).execute();
  return { rows, totalCount: Number(n) };
}

export function findPlainUnit(db: Db, id: string) {
  return db.selectFrom('organization_units').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The unit and every unit below it (materialised path prefix). */
export function subtree(db: Db, code: string) {
  return db
    .selectFrom('organization_units')
    .select(['id', 'code', 'display_name', 'parent_id'])
    .where((eb) => eb.or([eb('code', '=', code), eb('code', 'like', `${code}.%`)]))
    .orderBy('code')
    .execute();
}

export async function siblingNameTaken(db: Db, parentId: string | null, displayName: string, exceptId?: string) {
  let q = db
    .selectFrom('organization_units')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['display_name']), '=', displayName.toLowerCase()));
  q = parentId ? q.where('parent_id', '=', parentId) : q.where('parent_id', 'is', null);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

/** Highest code among the children of a parent (or among top-level units). */
export async function lastChildCode(db: Db, parentId: string | null): Promise<string | null> {
  let q = db.selectFrom('organization_units').select('code');
  q = parentId ? q.where('parent_id', '=', parentId) : q.where('parent_id', 'is', null);
  const row = await q.orderBy(sql`length(code)`, 'desc').orderBy('code', 'desc').limit(1).executeTakeFirst();
  return row?.code ?? null;
}

/** Rewrites the codes of a moved subtree from one prefix to another (one statement). */
export function rewriteSubtreeCodes(db: Db, oldCode: string, newCode: string) {
  return db
    .updateTable('organization_units')
    .set({ code: sql`${newCode} || substr(code, ${oldCode.length + 1})` })
    .where((eb) => eb.or([eb('code', '=', oldCode), eb('code', 'like', `${oldCode}.%`)]))
    .execute();
}

export async function memberIdsOfUnits(db: Db, unitIds: string[]): Promise<string[]> {
  if (unitIds.length === 0) return [];
  const rows = await db
    .selectFrom('user_organization_units')
    .select('user_id')
    .distinct()
    .where('organization_unit_id', 'in', unitIds)
    .execute();
  return rows.map((r) => r.user_id);
}

export async function listMembers(
  db: Db,
  unit: { id: string; code: string; leaderUserId: string | null },
  q: { filter?: string; includeChildren: boolean; offset: number; limit: number; sort: { column: 'u.user_name' | 'u.name' | 'u.email' | 'u.creation_time'; direction: 'asc' | 'desc' } },
) {
  let base = db
    .selectFrom('users as u')
    .where('u.is_deleted', '=', false)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_organization_units as m')
          .innerJoin('organization_units as ou', 'ou.id', 'm.organization_unit_id')
          .select(sql`1`.as('one'))
          .whereRef('m.user_id', '=', 'u.id')
          .where((w) =>
            q.includeChildren ? w.or([w('ou.code', '=', unit.code), w('ou.code', 'like', `${unit.code}.%`)]) : w('ou.id', '=', unit.id),
          ),
      ),
    );
  if (q.filter) {
    base = base.where(sql<boolean>`u.search_text like lower(${likePattern(q.filter)})`);
  }
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['u.id', 'u.user_name', 'u.name', 'u.surname', 'u.email', 'u.phone_number', 'u.is_active'])
    .orderBy(q.sort.column, q.sort.direction)
    .orderBy('u.id')
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  return { rows, totalCount: Number(n) };
}

export function isMember(db: Db, unitId: string, userId: string) {
  return db
    .selectFrom('user_organization_units')
    .select('user_id')
    .where('organization_unit_id', '=', unitId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function existingUserIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('id').where('id', 'in', ids).where('is_deleted', '=', false).execute();
  return new Set(rows.map((r) => r.id));
}

export function insertUnit(db: Db, unit: { id: string; parentId: string | null; code: string; displayName: string }) {
  return db
    .insertInto('organization_units')
    .values({ id: unit.id, parent_id: unit.parentId, code: unit.code, display_name: unit.displayName, leader_user_id: null, concurrency_stamp: uuidv7(), creation_time: new Date() })
    .execute();
}

export function renameAndMoveUnit(db: Db, id: string, displayName: string, parentId: string | null) {
  return db.updateTable('organization_units').set({ display_name: displayName, parent_id: parentId, concurrency_stamp: uuidv7() }).where('id', '=', id).execute();
}

/** The units with their memberships (one statement: parent references are checked at its end). */
export async function deleteUnits(db: Db, unitIds: string[]) {
  await db.deleteFrom('user_organization_units').where('organization_unit_id', 'in', unitIds).execute();
  await db.deleteFrom('organization_units').where('id', 'in', unitIds).execute();
}

/** Adds members (existing memberships stay); answers the users actually added. */
export async function addMembers(db: Db, unitId: string, userIds: string[]): Promise<string[]> {
  const rows = await db
    .insertInto('user_organization_units')
    .values(userIds.map((userId) => ({ user_id: userId, organization_unit_id: unitId })))
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

/** Removes a member (a leader who leaves no longer leads); answers false when they were none. */
export async function removeMember(db: Db, unitId: string, userId: string): Promise<boolean> {
  const removed = await db.deleteFrom('user_organization_units').where('organization_unit_id', '=', unitId).where('user_id', '=', userId).executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) return false;
  await db
    .updateTable('organization_units')
    .set({ leader_user_id: null, concurrency_stamp: uuidv7() })
    .where('id', '=', unitId)
    .where('leader_user_id', '=', userId)
    .execute();
  return true;
}

export function setLeader(db: Db, unitId: string, userId: string | null) {
  return db.updateTable('organization_units').set({ leader_user_id: userId, concurrency_stamp: uuidv7() }).where('id', '=', unitId).execute();
}
