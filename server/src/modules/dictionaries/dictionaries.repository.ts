import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, DictionariesTable, DictionaryItemsTable } from '../../db/schema.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

/** `%`, `_` and `\` in user text match themselves in a LIKE pattern. */

export interface DictionaryFilter {
  text?: string;
  isTree?: boolean;
}

function filtered(db: Db, filter: DictionaryFilter) {
  let q = db.selectFrom('dictionaries as d');
  if (filter.text) {
    const pattern = likePattern(filter.text);
    q = q.where((eb) =>
      eb.or([
        eb('d.code', 'ilike', pattern),
        eb('d.description', 'ilike', pattern),
        // Any language of the title.
        eb.exists(sql`(select 1 from jsonb_each_text(d.title) t where t.value ilike ${pattern})`),
      ]),
    );
  }
  if (filter.isTree !== undefined) q = q.where('d.is_tree', '=', filter.isTree);
  return q;
}

export async function countDictionaries(db: Db, filter: DictionaryFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listDictionaries(
  db: Db,
  filter: DictionaryFilter,
  sort: { column: 'd.code' | 'd.creation_time' | 'd.last_modification_time'; direction: 'asc' | 'desc' },
  window: { offset: number; limit: number },
) {
  return filtered(db, filter)
    .selectAll('d')
    .select((eb) => [
      eb.selectFrom('dictionary_items as i').whereRef('i.dictionary_id', '=', 'd.id').select((e) => e.fn.countAll<number>().as('n')).as('item_count'),
      eb
        .selectFrom('dictionary_items as i')
        .whereRef('i.dictionary_id', '=', 'd.id')
        .where('i.is_enabled', '=', true)
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('enabled_item_count'),
    ])
    .orderBy(sort.column, sort.direction)
    .orderBy('d.id', sort.direction)
    .offset(window.offset)
    .limit(window.limit)
    .execute();
}

export function findDictionary(db: Db, id: string) {
  return db.selectFrom('dictionaries').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDictionaryByCode(db: Db, code: string) {
  return db
    .selectFrom('dictionaries')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['code']), '=', code.toLowerCase()))
    .executeTakeFirst();
}

/**
 * The items of the dictionaries with any of these codes (matched case-insensitively) in one query,
 * each dictionary's in display order; a dictionary without items is one row with a null item.
 */
export function itemsOfCodes(db: Db, codes: readonly string[]) {
  if (codes.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('dictionaries as d')
    .leftJoin('dictionary_items as i', 'i.dictionary_id', 'd.id')
    .select(['d.code as dictionary_code', 'i.code', 'i.label', 'i.parent_code', 'i.is_enabled'])
    .where((eb) => eb(eb.fn('lower', ['d.code']), 'in', codes.map((c) => c.toLowerCase())))
    .orderBy('d.code')
    .orderBy('i.sort_order')
    .orderBy('i.code')
    .execute();
}

/** Items in display order (parents before their children: the order is a depth-first walk). */
export function itemsOf(db: Db, dictionaryId: string) {
  return db.selectFrom('dictionary_items').selectAll().where('dictionary_id', '=', dictionaryId).orderBy('sort_order').orderBy('code').execute();
}

export function insertDictionary(db: Db, row: Insertable<DictionariesTable>) {
  return db.insertInto('dictionaries').values(row).execute();
}

export function updateDictionary(db: Db, id: string, changes: Updateable<DictionariesTable>) {
  return db.updateTable('dictionaries').set(changes).where('id', '=', id).execute();
}

export function deleteDictionary(db: Db, id: string) {
  return db.deleteFrom('dictionaries').where('id', '=', id).execute();
}

/** Makes the stored items exactly `items`: removes the others, inserts new ones, updates the rest. */
export async function replaceItems(db: Db, dictionaryId: string, items: Insertable<DictionaryItemsTable>[]) {
  const keep = items.map((i) => i.id);
  let removal = db.deleteFrom('dictionary_items').where('dictionary_id', '=', dictionaryId);
  if (keep.length) removal = removal.where('id', 'not in', keep);
  await removal.execute();
  // 8 parameters a row: chunks stay far below PostgreSQL's 65535-parameter limit.
  for (let i = 0; i < items.length; i += 1000) {
    await db
      .insertInto('dictionary_items')
      .values(items.slice(i, i + 1000))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          label: eb.ref('excluded.label'),
          parent_code: eb.ref('excluded.parent_code'),
          sort_order: eb.ref('excluded.sort_order'),
          is_enabled: eb.ref('excluded.is_enabled'),
          color: eb.ref('excluded.color'),
        })),
      )
      .execute();
  }
}
