import { sql, type Kysely } from 'kysely';

// The user list's text filter looks at user name, name, surname, e-mail and phone at once. Five
// ILIKEs cost ~40 ms over 10,000 rows; one LIKE over a stored lower-case column costs ~2 ms, and
// where pg_trgm is available (PostgreSQL servers; not the embedded PGlite) a trigram index makes
// selective searches index look-ups. Surname and name are also stored joined (张三) for Chinese
// full-name searches.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table users add column search_text text generated always as (
      lower(user_name || ' ' || name || ' ' || surname || ' ' || surname || name || ' ' || email || ' ' || phone_number)
    ) stored
  `.execute(db);
  await sql`
    do $$
    begin
      if exists (select 1 from pg_available_extensions where name = 'pg_trgm') then
        create extension if not exists pg_trgm;
        execute 'create index users_search_trgm_ix on users using gin (search_text gin_trgm_ops) where not is_deleted';
      end if;
    exception when others then
      raise notice 'pg_trgm not available (%), the user search scans instead', sqlerrm;
    end
    $$
  `.execute(db);
}
