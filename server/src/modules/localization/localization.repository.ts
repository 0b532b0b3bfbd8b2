import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, LanguagePacksTable, LocalizationTextsTable } from '../../db/schema.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

// ---------------------------------------------------------------- packs

/** Every pack in display order, with its number of admin texts. */
export function listPacks(db: Db) {
  return db
    .selectFrom('language_packs as p')
    .selectAll('p')
    .select((eb) =>
      eb.selectFrom('localization_texts as t').whereRef('t.culture', '=', 'p.culture').select((e) => e.fn.countAll<number>().as('n')).as('text_count'),
    )
    .orderBy('p.sort_order')
    .orderBy('p.culture')
    .execute();
}

export function findPack(db: Db, id: string) {
  return db.selectFrom('language_packs').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findPackByCulture(db: Db, culture: string) {
  return db.selectFrom('language_packs').selectAll().where(sql<string>`lower(culture)`, '=', culture.toLowerCase()).executeTakeFirst();
}

export function maxPackOrder(db: Db) {
  return db.selectFrom('language_packs').select((eb) => eb.fn.max('sort_order').as('max')).executeTakeFirst();
}

export function insertPack(db: Db, row: Insertable<LanguagePacksTable>) {
  return db.insertInto('language_packs').values(row).execute();
}

export function updatePack(db: Db, id: string, changes: Updateable<LanguagePacksTable>) {
  return db.updateTable('language_packs').set(changes).where('id', '=', id).execute();
}

export function clearDefault(db: Db, exceptId: string) {
  return db.updateTable('language_packs').set({ is_default: false }).where('is_default', '=', true).where('id', '!=', exceptId).execute();
}

/** Deletes a pack; its texts go with it (foreign key cascade). */
export function deletePack(db: Db, id: string) {
  return db.deleteFrom('language_packs').where('id', '=', id).execute();
}

// ---------------------------------------------------------------- texts

export function findText(db: Db, id: string) {
  return db.selectFrom('localization_texts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findTextByKey(db: Db, culture: string, resourceName: string, key: string) {
  return db
    .selectFrom('localization_texts')
    .selectAll()
    .where('culture', '=', culture)
    .where('resource_name', '=', resourceName)
    .where('key', '=', key)
    .executeTakeFirst();
}

/**
 * A text of the same culture and namespace whose key is a prefix group of `key` or lies under
 * it (`login` vs `login.title`): nested resources cannot hold both.
 */
export function findClashingKey(db: Db, culture: string, resourceName: string, key: string, exceptId?: string) {
  const prefixes = key.split('.').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('.'));
  return db
    .selectFrom('localization_texts')
    .select(['id', 'key'])
    .where('culture', '=', culture)
    .where('resource_name', '=', resourceName)
    .where((eb) =>
      eb.or([
        ...(prefixes.length ? [eb('key', 'in', prefixes)] : []),
        eb(sql<string>`left(key, ${key.length + 1})`, '=', `${key}.`),
      ]),
    )
    .$if(!!exceptId, (qb) => qb.where('id', '!=', exceptId!))
    .executeTakeFirst();
}

/** Many texts in one statement (an import inserts them in batches of 500). */
export function insertTexts(db: Db, rows: Insertable<LocalizationTextsTable>[]) {
  return db.insertInto('localization_texts').values(rows).execute();
}

export function insertText(db: Db, row: Insertable<LocalizationTextsTable>) {
  return db.insertInto('localization_texts').values(row).execute();
}

export function updateText(db: Db, id: string, changes: Updateable<LocalizationTextsTable>) {
  return db.updateTable('localization_texts').set(changes).where('id', '=', id).execute();
}

export function deleteText(db: Db, id: string) {
  return db.deleteFrom('localization_texts').where('id', '=', id).execute();
}

/** All admin texts of a culture (dictionary, export, import). */
export function textsOfCulture(db: Db, culture: string) {
  return db
    .selectFrom('localization_texts')
    .select(['id', 'resource_name', 'key', 'value'])
    .where('culture', '=', culture)
    .orderBy('resource_name')
    .orderBy('key')
    .execute();
}

// ---------------------------------------------------------------- version

export async function currentVersion(db: Db): Promise<number> {
  const row = await db.selectFrom('localization_version').select('version').where('id', '=', 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** Inside the writing transaction, so the new version is visible exactly when the change is. */
export async function bumpVersion(db: Db): Promise<number> {
  const row = await db
    .updateTable('localization_version')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

// ---------------------------------------------------------------- paged texts

export interface TextPageQuery {
  culture?: string;
  referenceCulture?: string;
  onlyMissing?: boolean;
  resourceName?: string;
  key?: string;
  value?: string;
  filter?: string;
  sort: { column: 'resource_name' | 'key' | 'value' | 'culture' | 'last_modification_time'; direction: 'asc' | 'desc' };
  offset: number;
  limit: number;
}

export interface TextPageRow {
  id: string | null;
  culture: string;
  resource_name: string;
  key: string;
  value: string | null;
  reference_value: string | null;
  last_modification_time: Date | null;
  last_modifier_name: string | null;
}


/**
 * Texts of one culture (or all), optionally paired with a reference culture: a full join on
 * namespace and key, so reference texts without a translation appear as rows with no id.
 */
export async function pageTexts(db: Db, q: TextPageQuery): Promise<{ rows: TextPageRow[]; total: number }> {
  const source = q.referenceCulture
    ? db
        .selectFrom(db.selectFrom('localization_texts').selectAll().where('culture', '=', q.culture!).as('t'))
        .fullJoin(db.selectFrom('localization_texts').selectAll().where('culture', '=', q.referenceCulture).as('r'), (join) =>
          join.onRef('t.resource_name', '=', 'r.resource_name').onRef('t.key', '=', 'r.key'),
        )
        .select([
          't.id',
          sql<string>`${q.culture!}`.as('culture'),
          sql<string>`coalesce(t.resource_name, r.resource_name)`.as('resource_name'),
          sql<string>`coalesce(t.key, r.key)`.as('key'),
          't.value',
          'r.value as reference_value',
          't.last_modification_time',
          't.last_modifier_name',
        ])
    : db
        .selectFrom('localization_texts as t')
        .select([
          't.id',
          't.culture',
          't.resource_name',
          't.key',
          't.value',
          sql<string | null>`null::text`.as('reference_value'),
          sql<Date | null>`coalesce(t.last_modification_time, t.creation_time)`.as('last_modification_time'),
          't.last_modifier_name',
        ])
        .$if(!!q.culture, (qb) => qb.where('t.culture', '=', q.culture!));

  let query = db.selectFrom(source.as('x'));
  if (q.onlyMissing) query = query.where('x.id', 'is', null);
  if (q.resourceName) query = query.where('x.resource_name', '=', q.resourceName);
  if (q.key) query = query.where(sql<string>`x.key`, 'ilike', likePattern(q.key));
  if (q.value) query = query.where(sql<string>`x.value`, 'ilike', likePattern(q.value));
  if (q.filter) {
    const pattern = likePattern(q.filter);
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`x.key`, 'ilike', pattern),
        eb(sql<string>`x.value`, 'ilike', pattern),
        eb(sql<string>`x.reference_value`, 'ilike', pattern),
        eb(sql<string>`x.resource_name`, 'ilike', pattern),
      ]),
    );
  }
  const [{ n }] = await query.select((eb) => eb.fn.countAll<number>().as('n')).execute();
  const rows = await query
    .selectAll('x')
    .orderBy(sql.ref(`x.${q.sort.column}`), (ob) => (q.sort.direction === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsFirst()))
    .orderBy('x.resource_name')
    .orderBy('x.key')
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  return { rows: rows as TextPageRow[], total: Number(n) };
}
