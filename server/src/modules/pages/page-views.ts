import { sql, type Kysely } from 'kysely';
import { OWN_VIEW_OWNER_PREFIX, OWN_VIEWS_SCHEMA } from '@tessera/core/contracts/data-sources';
import { dataViews } from '@tessera/core/contracts/pages';
import type { TPageDefinition } from '@tessera/core/page-definition';
import { bizTableOf, ident } from './biz-schema.ts';

/*
 * Read-only views of the published pages, which data sources of kind `own` read (issue 16).
 *
 * - Schema `biz_views`; one view per data view of the latest published version, named
 *   `<page code>__<view code>` (cut to PostgreSQL's 63 characters; a name another page's view
 *   already has gets `_2`, `_3`…).
 * - Columns: "Id", "ParentViewDataId" (child views), one per control by its code, then
 *   "DataStatus", "FlowStatus", "CreatorId", "CreationTime", "LastModifierId",
 *   "LastModificationTime", "OwnerOrganizationUnitId". Rows: the records not deleted.
 * - Comments: the view's first line `tessera:page:<page id>` (whose view it is), its second the
 *   page's name · the view's title; a control column's, the control's title.
 * - Publishing drops the page's views before its tables change and makes them again after, in its
 *   transaction; deleting a page drops them. Views read with their owner's rights, so a reader
 *   needs rights on `biz_views` only.
 */

export const VIEWS_SCHEMA = OWN_VIEWS_SCHEMA;
const OWNER_PREFIX = OWN_VIEW_OWNER_PREFIX;
const MAX_NAME = 63;
const TAIL_COLUMNS = ['DataStatus', 'FlowStatus', 'CreatorId', 'CreationTime', 'LastModifierId', 'LastModificationTime', 'OwnerOrganizationUnitId'];

type Db = Kysely<any>;

export interface ViewPage {
  id: string;
  code: string;
  name: Record<string, string>;
}

/** The names of the views a page has now. */
async function viewsOfPage(db: Db, pageId: string): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select c.relname as name
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_description d on d.objoid = c.oid and d.classoid = 'pg_class'::regclass and d.objsubid = 0
     where n.nspname = ${VIEWS_SCHEMA} and c.relkind = 'v' and split_part(d.description, E'\\n', 1) = ${OWNER_PREFIX + pageId}`.execute(db);
  return rows.rows.map((r) => r.name);
}

async function takenNames(db: Db): Promise<Set<string>> {
  const rows = await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${VIEWS_SCHEMA}`.execute(db);
  return new Set(rows.rows.map((r) => r.name));
}

const viewRef = (name: string) => sql.id(VIEWS_SCHEMA, name);

export async function dropPageViews(db: Db, pageId: string): Promise<void> {
  for (const name of await viewsOfPage(db, pageId)) await sql`drop view if exists ${viewRef(name)}`.execute(db);
}

/** A free view name for `<page code>__<view code>`. */
function nameFor(taken: Set<string>, pageCode: string, viewCode: string): string {
  const base = `${pageCode}__${viewCode}`.slice(0, MAX_NAME);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
  taken.add(name);
  return name;
}

const nameOf = (text: Record<string, string>) => text['zh-CN'] ?? text['en-US'] ?? Object.values(text)[0] ?? '';

/** Makes the views of a page's published definition (its previous ones dropped first). */
export async function createPageViews(db: Db, page: ViewPage, definition: TPageDefinition): Promise<string[]> {
  await dropPageViews(db, page.id);
  const taken = await takenNames(db);
  const made: string[] = [];
  for (const { view } of dataViews(definition)) {
    const name = nameFor(taken, page.code, view.code);
    const columns = [
      ident('Id'),
      ...(view.parentViewControlId ? [ident('ParentViewDataId')] : []),
      ...view.dataControls.map((c) => ident(c.code)),
      ...TAIL_COLUMNS.map((c) => ident(c)),
    ];
    await sql`create view ${viewRef(name)} as select ${sql.join(columns)} from ${bizTableOf(view.id)} where not ${ident('IsDeleted')}`.execute(db);
    const label = [nameOf(page.name), view.title].filter(Boolean).join(' · ');
    await sql`comment on view ${viewRef(name)} is ${sql.lit(`${OWNER_PREFIX}${page.id}\n${label}`)}`.execute(db);
    for (const c of view.dataControls) {
      if (c.title) await sql`comment on column ${sql.id(VIEWS_SCHEMA, name, c.code)} is ${sql.lit(c.title)}`.execute(db);
    }
    made.push(name);
  }
  return made;
}
