import { sql, type Kysely } from 'kysely';

// The data factory (issue 16): PL/pgSQL functions the product keeps in schema `factory`, their
// versions and their run log. Functions run as `tessera_factory`, a role without login that may use
// schema `factory` and read schema `biz` (the published pages' tables, now and later: default
// privileges), and nothing else of the product's. Roles belong to the whole server: the role is
// created once, when the database user may create roles (a superuser, or CREATEROLE), and made a
// role this user may SET. Without that right the module runs functions as the product's own user
// (README "Data factory").
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create schema if not exists factory;
    create schema if not exists biz;
    do $migration$
    begin
      if not exists (select 1 from pg_roles where rolname = 'tessera_factory') then
        if exists (select 1 from pg_roles where rolname = current_user and (rolsuper or rolcreaterole)) then
          begin
            create role tessera_factory nologin noinherit;
          exception when duplicate_object or unique_violation then
            null; -- another database of this server created it at the same moment
          end;
        end if;
      end if;
      if exists (select 1 from pg_roles where rolname = 'tessera_factory') then
        if not exists (select 1 from pg_roles where rolname = current_user and rolsuper) then
          grant tessera_factory to current_user;
        end if;
        grant usage on schema factory to tessera_factory;
        grant usage on schema biz to tessera_factory;
        grant select on all tables in schema biz to tessera_factory;
        alter default privileges in schema biz grant select on tables to tessera_factory;
      end if;
    end
    $migration$;

    create table data_factory_procedures (
      id uuid primary key,
      code text not null,
      name text not null,
      description text not null default '',
      parameters jsonb not null,
      returns jsonb not null,
      body text not null,
      timeout_seconds integer not null check (timeout_seconds between 1 and 300),
      row_cap integer not null check (row_cap between 1 and 100000),
      version integer not null,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      creator_name text,
      last_modification_time timestamptz,
      last_modifier_id uuid,
      last_modifier_name text
    );
    create unique index data_factory_procedures_code_ux on data_factory_procedures (code);
    create index data_factory_procedures_creation_ix on data_factory_procedures (creation_time desc);

    create table data_factory_versions (
      procedure_id uuid not null references data_factory_procedures (id) on delete cascade,
      version integer not null,
      parameters jsonb not null,
      returns jsonb not null,
      body text not null,
      restored_from integer,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      creator_name text,
      primary key (procedure_id, version)
    );

    create table data_factory_runs (
      id uuid primary key,
      procedure_id uuid not null references data_factory_procedures (id) on delete cascade,
      version integer not null,
      user_id uuid,
      user_name text,
      start_time timestamptz not null,
      duration_ms integer not null,
      parameters jsonb not null,
      row_count integer,
      error text
    );
    create index data_factory_runs_procedure_ix on data_factory_runs (procedure_id, start_time desc);
  `.execute(db);
}
