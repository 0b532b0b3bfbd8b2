import { sql, type Kysely } from 'kysely';

// Help documents: a tree of Markdown pages with a unique key that screens link to; the sanitised
// HTML is stored beside the Markdown (with the renderer version that produced it).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table help_documents (
      id uuid primary key,
      parent_id uuid references help_documents(id) on delete cascade,
      key text not null unique,
      title jsonb not null,
      sort_order integer not null default 0,
      markdown text not null,
      html text not null,
      render_version integer not null,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      updated_at timestamptz not null default now(),
      updated_by uuid,
      updated_by_name text
    );
    create index help_documents_parent_ix on help_documents (parent_id, sort_order);
  `.execute(db);
}
