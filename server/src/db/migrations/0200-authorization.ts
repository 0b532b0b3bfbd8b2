import { sql, type Kysely } from 'kysely';

// Authorization, business menus and the audit page: data scopes per role and business page, the
// business-menu tree, and indexes for filtering the audit log by user and action.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table data_scopes (
      id uuid primary key,
      role_id uuid not null references roles(id) on delete cascade,
      page_key text not null,
      scope text not null check (scope in ('all', 'unitAndBelow', 'ownUnit', 'own', 'custom')),
      custom_filter jsonb,
      unique (role_id, page_key),
      check ((scope = 'custom') = (custom_filter is not null))
    );
    create index data_scopes_page_ix on data_scopes (page_key);

    create table business_menus (
      id uuid primary key,
      parent_id uuid references business_menus(id) on delete cascade,
      title jsonb not null,
      url text,
      associate_key text,
      sort_order integer not null default 0,
      page_definition_id uuid,
      is_jump boolean not null default false,
      permission_code text not null unique,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      last_modification_time timestamptz,
      last_modifier_id uuid
    );
    create index business_menus_parent_ix on business_menus (parent_id, sort_order);

    create index audit_logs_user_time_ix on audit_logs (user_id, time desc);
    create index audit_logs_action_time_ix on audit_logs (action, time desc);
  `.execute(db);
}
