import { sql, type Kysely } from 'kysely';

// Data sources (issue 16): external databases the product reads. The password is stored sealed
// (platform/secrets.ts, bound to the row's id), never in plain text.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table data_sources (
      id uuid primary key,
      name text not null,
      description text not null default '',
      kind text not null check (kind in ('postgres', 'mysql')),
      host text not null,
      port integer not null check (port between 1 and 65535),
      database_name text not null,
      user_name text not null,
      sealed_password text,
      ssl boolean not null default false,
      pool_size integer not null check (pool_size between 1 and 20),
      statement_timeout_seconds integer not null check (statement_timeout_seconds between 1 and 300),
      row_cap integer not null check (row_cap between 1 and 100000),
      read_only boolean not null default true,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      last_modification_time timestamptz,
      last_modifier_id uuid
    );
    create index data_sources_creation_ix on data_sources (creation_time desc);
  `.execute(db);
}
