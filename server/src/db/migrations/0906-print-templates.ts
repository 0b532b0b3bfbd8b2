import { sql, type Kysely } from 'kysely';

// Print templates (issue 15): the draft layout the designer edits, bound to a page, its published
// versions (printing uses the latest), and how often each record was printed (and last by whom).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table print_templates (
      id uuid primary key,
      name text not null,
      description text,
      -- Templates of a deleted page go with it: a page is only deleted while no live template
      -- uses it (pages' registerPageUsage), so only soft-deleted ones can remain.
      page_id uuid not null references page_definitions(id) on delete cascade,
      permission_code text,
      approved_only boolean not null default false,
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
    create index print_templates_page_ix on print_templates (page_id) where not is_deleted;
    create index print_templates_creation_ix on print_templates (creation_time desc) where not is_deleted;

    create table print_template_versions (
      template_id uuid not null references print_templates(id) on delete cascade,
      version integer not null check (version >= 1),
      layout jsonb not null,
      published_time timestamptz not null default now(),
      published_by uuid,
      primary key (template_id, version)
    );

    create table print_counts (
      page_id uuid not null,
      record_id uuid not null,
      count integer not null,
      last_time timestamptz not null,
      last_user_id uuid,
      last_template_id uuid,
      primary key (page_id, record_id)
    );
  `.execute(db);
}
