import { sql, type Kysely } from 'kysely';

// Business runtime (issue 8): the change history of business records (who / when / before → after
// per field, one row per record save) and per-user list settings (saved filters, columns, widths).
// The business rows themselves live in schema `biz`, created by publishing (pages module).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table business_data_history (
      id uuid primary key,
      page_id uuid not null,
      master_record_id uuid not null,
      action text not null check (action in ('Created', 'Updated', 'Deleted')),
      user_id uuid,
      user_name text,
      time timestamptz not null default now(),
      changes jsonb not null
    );
    create index business_data_history_record_ix on business_data_history (master_record_id, time desc);

    create table business_data_preferences (
      user_id uuid not null,
      page_id uuid not null,
      view_id text not null,
      value jsonb not null,
      last_modification_time timestamptz not null default now(),
      primary key (user_id, page_id, view_id)
    );
  `.execute(db);
}
