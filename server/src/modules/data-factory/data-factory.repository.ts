import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, DataFactoryProceduresTable, DataFactoryRunsTable, DataFactorySchedulesTable, DataFactoryVersionsTable } from '../../db/schema.ts';
import { likePattern } from '../../platform/sql-values.ts';

// The SQL of `data_factory_procedures`, `data_factory_versions`, `data_factory_runs` and `data_factory_schedules`.

type Db = Kysely<Database>;

export type ProcedureSortColumn = 'code' | 'name' | 'version' | 'creation_time' | 'last_modification_time';

function filtered(db: Db, text: string | undefined) {
  let q = db.selectFrom('data_factory_procedures');
  if (text) {
    const pattern = likePattern(text);
    q = q.where((eb) => eb.or([eb('code', 'ilike', pattern), eb('name', 'ilike', pattern), eb('description', 'ilike', pattern)]));
  }
  return q;
}

export async function countProcedures(db: Db, text: string | undefined): Promise<number> {
  const row = await filtered(db, text).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listProcedures(db: Db, text: string | undefined, sort: { column: ProcedureSortColumn; direction: 'asc' | 'desc' }, window: { offset: number; limit: number }) {
  return filtered(db, text)
    .selectAll()
    .orderBy(sort.column, (ob) => (sort.direction === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsFirst()))
    .orderBy('id', sort.direction)
    .offset(window.offset)
    .limit(window.limit)
    .execute();
}

export function findProcedure(db: Db, id: string, options: { forUpdate?: boolean } = {}) {
  const q = db.selectFrom('data_factory_procedures').selectAll().where('id', '=', id);
  return (options.forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

export function findProcedureByCode(db: Db, code: string) {
  return db.selectFrom('data_factory_procedures').select(['id']).where('code', '=', code).executeTakeFirst();
}

export function insertProcedure(db: Db, row: Insertable<DataFactoryProceduresTable>) {
  return db.insertInto('data_factory_procedures').values(row).execute();
}

/** Updates when the stamp still matches; false when someone else saved in between. */
export async function updateProcedureIfStamp(db: Db, id: string, stamp: string, changes: Updateable<DataFactoryProceduresTable>): Promise<boolean> {
  const result = await db.updateTable('data_factory_procedures').set(changes).where('id', '=', id).where('concurrency_stamp', '=', stamp).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function deleteProcedure(db: Db, id: string) {
  return db.deleteFrom('data_factory_procedures').where('id', '=', id).execute();
}

export function insertVersion(db: Db, row: Insertable<DataFactoryVersionsTable>) {
  return db.insertInto('data_factory_versions').values(row).execute();
}

export function listVersions(db: Db, procedureId: string) {
  return db.selectFrom('data_factory_versions').selectAll().where('procedure_id', '=', procedureId).orderBy('version', 'desc').execute();
}

export function findVersion(db: Db, procedureId: string, version: number) {
  return db.selectFrom('data_factory_versions').selectAll().where('procedure_id', '=', procedureId).where('version', '=', version).executeTakeFirst();
}

export function insertRun(db: Db, row: Insertable<DataFactoryRunsTable>) {
  return db.insertInto('data_factory_runs').values(row).execute();
}

export async function countRuns(db: Db, procedureId: string): Promise<number> {
  const row = await db.selectFrom('data_factory_runs').select((eb) => eb.fn.countAll<number>().as('n')).where('procedure_id', '=', procedureId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listRuns(db: Db, procedureId: string, window: { offset: number; limit: number }) {
  return db.selectFrom('data_factory_runs').selectAll().where('procedure_id', '=', procedureId).orderBy('start_time', 'desc').orderBy('id', 'desc').offset(window.offset).limit(window.limit).execute();
}

/** Whether this session may run functions as the restricted role (it exists and the product's user may SET it). */
export async function restrictedRoleUsable(db: Db, role: string): Promise<boolean> {
  const row = await sql<{ usable: boolean }>`select case when exists (select 1 from pg_roles where rolname = ${role}) then pg_has_role(current_user, ${role}, 'MEMBER') else false end as usable`
    .execute(db)
    .catch(() => ({ rows: [{ usable: false }] }));
  return row.rows[0]?.usable === true;
}

export function listSchedules(db: Db, procedureId: string) {
  return db.selectFrom('data_factory_schedules').selectAll().where('procedure_id', '=', procedureId).orderBy('creation_time').orderBy('id').execute();
}

export async function countSchedules(db: Db, procedureId: string): Promise<number> {
  const row = await db.selectFrom('data_factory_schedules').select((eb) => eb.fn.countAll<number>().as('n')).where('procedure_id', '=', procedureId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findSchedule(db: Db, id: string, options: { forUpdate?: boolean } = {}) {
  const q = db.selectFrom('data_factory_schedules').selectAll().where('id', '=', id);
  return (options.forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

export function insertSchedule(db: Db, row: Insertable<DataFactorySchedulesTable>) {
  return db.insertInto('data_factory_schedules').values(row).execute();
}

/** Updates when the stamp still matches (no stamp: always); false when someone else saved in between. */
export async function updateSchedule(db: Db, id: string, stamp: string | null, changes: Updateable<DataFactorySchedulesTable>): Promise<boolean> {
  let q = db.updateTable('data_factory_schedules').set(changes).where('id', '=', id);
  if (stamp !== null) q = q.where('concurrency_stamp', '=', stamp);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function deleteSchedule(db: Db, id: string) {
  return db.deleteFrom('data_factory_schedules').where('id', '=', id).execute();
}
