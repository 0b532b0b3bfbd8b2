import { sql, type Kysely } from 'kysely';

// The data factory's external routines (issue 16): a procedure may name a stored procedure or
// function of a database source (`source_id`, fixed once created; no foreign key: the sources are
// another module's, and a run of a procedure whose source is gone answers 404), and each version
// keeps the routine it called (`routine`: ZRoutine, null for the factory's own functions).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table data_factory_procedures add column source_id uuid, add column routine jsonb;
    alter table data_factory_versions add column routine jsonb;
  `.execute(db);
}
