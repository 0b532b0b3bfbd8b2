import { sql, type Kysely } from 'kysely';

// The shell's notifications (spec §2: header tabs notice, message, to-do): one row per recipient,
// read per recipient. Listing and counting go by (user, read state, type).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table notifications (
      id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      type text not null check (type in ('notice', 'message', 'todo')),
      title text not null,
      content text not null default '',
      link text,
      is_read boolean not null default false,
      read_time timestamptz,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      creator_name text
    );
    create index notifications_user_time_ix on notifications (user_id, creation_time desc, id desc);
    create index notifications_user_unread_ix on notifications (user_id, type) where not is_read;
  `.execute(db);
}
