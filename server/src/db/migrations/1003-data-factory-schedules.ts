import { sql, type Kysely } from 'kysely';

// Scheduled runs of data factory procedures (issue 16): a procedure's schedules (cron, time zone,
// IN values), each run queued in `jobs` (queue `data-factory.schedule`, key: the schedule's id);
// the run log says what started a run.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table data_factory_schedules (
      id uuid primary key,
      procedure_id uuid not null references data_factory_procedures (id) on delete cascade,
      cron text not null,
      time_zone text not null,
      parameters jsonb not null,
      enabled boolean not null,
      description text not null,
      next_run_time timestamptz,
      last_run_time timestamptz,
      last_error text,
      concurrency_stamp text not null,
      creation_time timestamptz not null,
      creator_id uuid,
      creator_name text,
      last_modification_time timestamptz,
      last_modifier_id uuid,
      last_modifier_name text
    );
    create index data_factory_schedules_procedure_ix on data_factory_schedules (procedure_id, creation_time);

    alter table data_factory_runs add column trigger text not null default 'manual';
    alter table data_factory_runs add column schedule_id uuid;
  `.execute(db);
}
