import { sql, type Kysely } from 'kysely';

// Workflow definitions (issue 13): the draft graph the designer edits, bound to a page, and its
// published versions (instances pin one). The engine's tables (instances, tasks, timers, outbox)
// come in their own migration.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table workflow_definitions (
      id uuid primary key,
      name text not null,
      description text,
      -- Definitions bound to a deleted page go with it: a page is only deleted while no live
      -- definition uses it (pages' registerPageUsage), so only soft-deleted ones can remain.
      page_id uuid not null references page_definitions(id) on delete cascade,
      condition text,
      is_enabled boolean not null default false,
      draft jsonb not null,
      published_version integer,
      published_time timestamptz,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      last_modification_time timestamptz,
      last_modifier_id uuid,
      is_deleted boolean not null default false,
      deletion_time timestamptz,
      deleter_id uuid
    );
    create index workflow_definitions_page_ix on workflow_definitions (page_id) where not is_deleted;
    create index workflow_definitions_creation_ix on workflow_definitions (creation_time desc) where not is_deleted;

    create table workflow_definition_versions (
      definition_id uuid not null references workflow_definitions(id) on delete cascade,
      version integer not null check (version >= 1),
      page_id uuid not null,
      condition text,
      graph jsonb not null,
      published_time timestamptz not null default now(),
      published_by uuid,
      primary key (definition_id, version)
    );
  `.execute(db);
}
