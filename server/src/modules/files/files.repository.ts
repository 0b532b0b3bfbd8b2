import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../platform/context.ts';
import type { FilesTable } from '../../db/schema.ts';

/** The SQL of the `files` table (the module's only table). */
export type FileRow = Selectable<FilesTable>;

export async function insertFile(db: Db, row: Insertable<FilesTable>): Promise<void> {
  await db.insertInto('files').values(row).execute();
}

export function fileById(db: Db, id: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).where('is_deleted', '=', false).executeTakeFirst();
}

/** The rows of the given ids, locked until the saving transaction ends (two saves cannot bind one file twice). */
export function filesForBinding(trx: Db, ids: string[]): Promise<FileRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return trx.selectFrom('files').selectAll().where('id', 'in', ids).forUpdate().execute();
}

export async function bindFiles(trx: Db, ids: string[], recordId: string): Promise<void> {
  if (!ids.length) return;
  await trx.updateTable('files').set({ record_id: recordId }).where('id', 'in', ids).where('record_id', 'is', null).execute();
}

/** Files a save dropped from a record: no longer served; the sweep removes them a day after their upload. */
export async function markDeleted(trx: Db, ids: string[], pageId: string, recordId: string): Promise<void> {
  if (!ids.length) return;
  await trx.updateTable('files').set({ is_deleted: true }).where('id', 'in', ids).where('page_id', '=', pageId).where('record_id', '=', recordId).execute();
}

/** Deletes up to `limit` unbound or dropped files uploaded before `before`; answers their storage keys (the caller removes the bytes). */
export async function deleteStaleFiles(trx: Db, before: Date, limit: number): Promise<string[]> {
  const rows = await trx
    .selectFrom('files')
    .select(['id', 'storage_key'])
    .where('created_at', '<', before)
    .where((eb) => eb.or([eb('record_id', 'is', null), eb('is_deleted', '=', true)]))
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (!rows.length) return [];
  await trx.deleteFrom('files').where('id', 'in', rows.map((r) => r.id)).execute();
  return rows.map((r) => r.storage_key);
}
