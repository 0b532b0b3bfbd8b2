import { sql, type Kysely } from 'kysely';

// Platform tables: identity, permissions, sessions, audit, settings, captchas.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key,
      user_name text not null,
      name text not null default '',
      surname text not null default '',
      email text not null default '',
      phone_number text not null default '',
      password_hash text not null,
      avatar text,
      is_active boolean not null default true,
      lockout_enabled boolean not null default true,
      lockout_end timestamptz,
      access_failed_count integer not null default 0,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      last_modification_time timestamptz,
      last_modifier_id uuid,
      is_deleted boolean not null default false
    );
    create unique index users_user_name_uq on users (lower(user_name)) where not is_deleted;
    create index users_creation_time_ix on users (creation_time, id);

    create table roles (
      id uuid primary key,
      name text not null,
      is_default boolean not null default false,
      is_public boolean not null default true,
      is_static boolean not null default false,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now()
    );
    create unique index roles_name_uq on roles (lower(name));

    create table user_roles (
      user_id uuid not null references users(id) on delete cascade,
      role_id uuid not null references roles(id) on delete cascade,
      primary key (user_id, role_id)
    );
    create index user_roles_role_ix on user_roles (role_id);

    create table organization_units (
      id uuid primary key,
      parent_id uuid references organization_units(id),
      code text not null unique,
      display_name text not null,
      leader_user_id uuid references users(id) on delete set null,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now()
    );
    create index organization_units_parent_ix on organization_units (parent_id);

    create table user_organization_units (
      user_id uuid not null references users(id) on delete cascade,
      organization_unit_id uuid not null references organization_units(id) on delete cascade,
      primary key (user_id, organization_unit_id)
    );
    create index user_organization_units_ou_ix on user_organization_units (organization_unit_id);

    create table permission_definitions (
      name text primary key,
      group_name text not null,
      parent_name text,
      display_name jsonb not null,
      group_display_name jsonb not null default '{}',
      is_system boolean not null default true
    );

    create table permission_grants (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      provider_name text not null check (provider_name in ('R', 'U', 'OU')),
      provider_key text not null,
      unique (provider_name, provider_key, name)
    );

    create table sessions (
      id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      ip text,
      user_agent text
    );
    create index sessions_user_ix on sessions (user_id);

    create table audit_logs (
      id uuid primary key default gen_random_uuid(),
      time timestamptz not null default now(),
      user_id uuid,
      user_name text,
      action text not null,
      entity_type text,
      entity_id text,
      ip text,
      details jsonb
    );
    create index audit_logs_time_ix on audit_logs (time desc);

    create table settings (
      key text primary key,
      value jsonb not null
    );

    create table captchas (
      id uuid primary key,
      answer_hash text not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
  `.execute(db);
}
