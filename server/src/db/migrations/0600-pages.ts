import { sql, type Kysely } from 'kysely';

// Page definitions (drafts the designer edits) and their published versions; schema `biz` holds
// one table per published data view (server/src/modules/pages/biz-schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create schema if not exists biz;

    create table page_definitions (
      id uuid primary key,
      code text not null,
      name jsonb not null,
      description text,
      draft jsonb not null,
      concurrency_stamp text not null,
      status text not null default 'draft' check (status in ('draft', 'published', 'modified')),
      published_version integer,
      published_time timestamptz,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      last_modification_time timestamptz,
      last_modifier_id uuid
    );
    create unique index page_definitions_code_ux on page_definitions (lower(code));

    create table page_definition_versions (
      page_id uuid not null references page_definitions(id) on delete cascade,
      version integer not null,
      definition jsonb not null,
      published_by uuid,
      published_time timestamptz not null default now(),
      change_summary jsonb not null default '[]',
      hidden_columns jsonb not null default '[]',
      rolled_back_from integer,
      primary key (page_id, version)
    );
  `.execute(db);
}
