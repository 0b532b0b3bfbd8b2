import { sql, type Kysely } from 'kysely';

// Files uploaded to attachment (1013) and image (1014) controls. The bytes live on disk under the
// data folder (`storage_key`); a row is bound to the master record that references it
// (`record_id`, null while only its uploader may see it) and marked deleted when a save drops it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table files (
      id uuid primary key,
      page_id uuid not null,
      page_code text not null,
      control_code text not null,
      original_name text not null,
      content_type text not null,
      size integer not null,
      sha256 text not null,
      storage_key text not null,
      created_by uuid,
      created_at timestamptz not null default now(),
      record_id uuid,
      is_deleted boolean not null default false
    );
    create index files_record_ix on files (page_id, record_id) where record_id is not null;
    create index files_unbound_ix on files (created_at) where record_id is null;
  `.execute(db);
}
