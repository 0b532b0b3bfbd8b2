import { sql, type Kysely } from 'kysely';

// Data sources (issue 16): SQL Server joins PostgreSQL and MySQL / MariaDB as a kind.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table data_sources drop constraint data_sources_kind_check;
    alter table data_sources add constraint data_sources_kind_check check (kind in ('postgres', 'mysql', 'mssql'));
  `.execute(db);
}
