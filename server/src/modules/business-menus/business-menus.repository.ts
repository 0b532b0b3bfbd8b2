import type { Insertable, Kysely, Updateable } from 'kysely';
import type { BusinessMenusTable, Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** Every menu in display order (the tree is small: built and filtered in memory). */
export function listAllMenus(db: Db) {
  return db.selectFrom('business_menus').selectAll().orderBy('sort_order').orderBy('creation_time').orderBy('id').execute();
}

export function findMenu(db: Db, id: string) {
  return db.selectFrom('business_menus').selectAll().where('id', '=', id).executeTakeFirst();
}

export function siblingsOf(db: Db, parentId: string | null) {
  return db
    .selectFrom('business_menus')
    .select(['id', 'sort_order'])
    .where((eb) => (parentId ? eb('parent_id', '=', parentId) : eb('parent_id', 'is', null)))
    .orderBy('sort_order')
    .orderBy('creation_time')
    .orderBy('id')
    .execute();
}

export function insertMenu(db: Db, row: Insertable<BusinessMenusTable>) {
  return db.insertInto('business_menus').values(row).execute();
}

export function updateMenu(db: Db, id: string, changes: Updateable<BusinessMenusTable>) {
  return db.updateTable('business_menus').set(changes).where('id', '=', id).execute();
}

export function setOrder(db: Db, id: string, order: number) {
  return db.updateTable('business_menus').set({ sort_order: order }).where('id', '=', id).execute();
}

/** Deletes a menu; its sub-menus go with it (foreign key cascade). */
export function deleteMenu(db: Db, id: string) {
  return db.deleteFrom('business_menus').where('id', '=', id).execute();
}

/** The menus that open a page (a page cannot be deleted while a menu opens it). */
export function menusOpeningPage(db: Db, pageId: string) {
  return db.selectFrom('business_menus').select(['id', 'title']).where('page_definition_id', '=', pageId).orderBy('sort_order').execute();
}
