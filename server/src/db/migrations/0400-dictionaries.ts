import { sql, type Kysely } from 'kysely';

// Business dictionaries and their items (`/dataSet/dictionary`). An item's code is the value
// records store: unique within its dictionary and never changed; a tree item names its parent by
// code (codes are stable, and a whole dictionary is saved at once, new parents included).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table dictionaries (
      id uuid primary key,
      code text not null,
      title jsonb not null,
      description text not null default '',
      is_tree boolean not null default false,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      last_modification_time timestamptz,
      last_modifier_id uuid
    );
    create unique index dictionaries_code_uq on dictionaries (lower(code));
    create index dictionaries_creation_time_ix on dictionaries (creation_time, id);

    create table dictionary_items (
      id uuid primary key,
      dictionary_id uuid not null references dictionaries(id) on delete cascade,
      code text not null,
      label jsonb not null,
      parent_code text,
      sort_order integer not null default 0,
      is_enabled boolean not null default true,
      color text,
      unique (dictionary_id, code),
      check (parent_code is null or parent_code <> code)
    );
    create index dictionary_items_order_ix on dictionary_items (dictionary_id, sort_order);
  `.execute(db);
}
