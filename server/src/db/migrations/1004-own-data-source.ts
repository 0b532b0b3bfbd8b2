import { sql, type Kysely } from 'kysely';
import { ZPageDefinition } from '@tessera/core/page-definition';
import { createPageViews, VIEWS_SCHEMA } from '../../modules/pages/page-views.ts';

// Data sources (issue 16): the product's own database as a source (kind `own`), read through
// read-only views of the published pages in schema `biz_views` (server/src/modules/pages/page-views.ts).
// An own source has no connection settings: host, database and user are empty, the port 0. The
// views of the pages published before this migration are made here; publishing keeps them since.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table data_sources drop constraint data_sources_kind_check;
    alter table data_sources add constraint data_sources_kind_check check (kind in ('postgres', 'mysql', 'mssql', 'http', 'own'));
    alter table data_sources drop constraint data_sources_port_check;
    alter table data_sources add constraint data_sources_port_check check (port between 1 and 65535 or (kind = 'own' and port = 0));
    alter table data_sources add constraint data_sources_own_check check (kind <> 'own' or read_only);
  `.execute(db);
  await sql`create schema if not exists ${sql.id(VIEWS_SCHEMA)}`.execute(db);
  const published = await db
    .selectFrom('page_definitions as p')
    .innerJoin('page_definition_versions as v', (j) => j.onRef('v.page_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .select(['p.id', 'p.code', 'p.name', 'v.definition'])
    .orderBy('p.code')
    .execute();
  for (const row of published) await createPageViews(db, { id: row.id, code: row.code, name: row.name }, ZPageDefinition.parse(row.definition));
}
