import { sql, type Kysely } from 'kysely';

// Saved queries of a data source ("methods", issue 16): SQL with declared parameters and the result's
// columns, named by a code controls refer to; gone with their source.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table data_source_methods (
      id uuid primary key,
      source_id uuid not null references data_sources(id) on delete cascade,
      code text not null,
      name text not null,
      description text not null default '',
      sql text not null,
      parameters jsonb not null,
      columns jsonb not null,
      cache_seconds integer not null check (cache_seconds between 0 and 3600),
      concurrency_stamp text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      last_modification_time timestamptz,
      last_modifier_id uuid
    );
    create unique index data_source_methods_code_ux on data_source_methods (source_id, lower(code));
  `.execute(db);
}
