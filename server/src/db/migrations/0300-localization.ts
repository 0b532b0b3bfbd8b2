import { sql, type Kysely } from 'kysely';

// Language packs (spec §3: culture, title) with the seven offered cultures (spec §9), the texts
// administrators add or override per culture, namespace and key, and one version counter that
// browsers poll to pick up changes.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table language_packs (
      id uuid primary key,
      culture text not null unique,
      title text not null,
      is_enabled boolean not null default true,
      flag text,
      sort_order integer not null default 0,
      is_default boolean not null default false,
      is_built_in boolean not null default false,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      last_modification_time timestamptz,
      last_modifier_id uuid,
      check (not is_default or is_enabled)
    );
    create unique index language_packs_culture_ci_ux on language_packs (lower(culture));
    create unique index language_packs_default_ux on language_packs (is_default) where is_default;

    create table localization_texts (
      id uuid primary key,
      culture text not null references language_packs(culture) on delete cascade on update cascade,
      resource_name text not null,
      key text not null,
      value text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      last_modification_time timestamptz,
      last_modifier_id uuid,
      last_modifier_name text,
      unique (culture, resource_name, key)
    );
    create index localization_texts_key_ix on localization_texts (resource_name, key);

    create table localization_version (
      id smallint primary key check (id = 1),
      version bigint not null
    );
    insert into localization_version (id, version) values (1, 1);

    insert into language_packs (id, culture, title, flag, sort_order, is_default, is_built_in, concurrency_stamp) values
      ('01900000-0000-7000-8000-000000000301', 'zh-CN', '简体中文', 'CN', 0, true, true, 'seed'),
      ('01900000-0000-7000-8000-000000000302', 'en-US', 'English', 'US', 1, false, true, 'seed'),
      ('01900000-0000-7000-8000-000000000303', 'zh-Hant', '繁體中文', null, 2, false, false, 'seed'),
      ('01900000-0000-7000-8000-000000000304', 'km', 'ខ្មែរ', 'KH', 3, false, false, 'seed'),
      ('01900000-0000-7000-8000-000000000305', 'my', 'မြန်မာ', 'MM', 4, false, false, 'seed'),
      ('01900000-0000-7000-8000-000000000306', 'vi', 'Tiếng Việt', 'VN', 5, false, false, 'seed'),
      ('01900000-0000-7000-8000-000000000307', 'th', 'ไทย', 'TH', 6, false, false, 'seed');
  `.execute(db);
}
