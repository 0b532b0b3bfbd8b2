import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, HelpDocumentsTable } from '../../db/schema.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

/** The tree without bodies, in display order (the tree is small: built in memory). */
export function listNodes(db: Db) {
  return db
    .selectFrom('help_documents')
    .select(['id', 'parent_id', 'key', 'title', 'sort_order', 'updated_at'])
    .orderBy('sort_order')
    .orderBy('creation_time')
    .orderBy('id')
    .execute();
}


/** Documents whose key, title (any language) or Markdown (any language) contains the text; the caller re-checks the texts. */
export function searchDocuments(db: Db, text: string) {
  const pattern = likePattern(text);
  return db
    .selectFrom('help_documents')
    .select(['id', 'key', 'title', 'markdown', 'html', 'translations'])
    .where((eb) =>
      eb.or([
        eb('key', 'ilike', pattern),
        eb(sql<string>`title::text`, 'ilike', pattern),
        eb('markdown', 'ilike', pattern),
        eb(sql<string>`translations::text`, 'ilike', pattern),
      ]),
    )
    .execute();
}

export function findDocument(db: Db, id: string) {
  return db.selectFrom('help_documents').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDocumentByKey(db: Db, key: string) {
  return db.selectFrom('help_documents').selectAll().where('key', '=', key).executeTakeFirst();
}

export function siblingsOf(db: Db, parentId: string | null) {
  return db
    .selectFrom('help_documents')
    .select(['id', 'sort_order'])
    .where((eb) => (parentId ? eb('parent_id', '=', parentId) : eb('parent_id', 'is', null)))
    .orderBy('sort_order')
    .execute();
}

export function insertDocument(db: Db, row: Insertable<HelpDocumentsTable>) {
  return db.insertInto('help_documents').values(row).execute();
}

export function updateDocument(db: Db, id: string, changes: Updateable<HelpDocumentsTable>) {
  return db.updateTable('help_documents').set(changes).where('id', '=', id).execute();
}

/** Deletes a document; its sub-documents go with it (foreign key cascade). */
export function deleteDocument(db: Db, id: string) {
  return db.deleteFrom('help_documents').where('id', '=', id).execute();
}
