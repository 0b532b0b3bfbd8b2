import { sql, type Kysely } from 'kysely';

// Safe casts for the publish dry run: `pages_try_<type>(text)` returns null instead of failing,
// so counting the values that would not survive a type change is one query (PostgreSQL 15 has no
// pg_input_is_valid).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function pages_try_bigint(v text) returns bigint language plpgsql immutable as $$
    begin return v::bigint; exception when others then return null; end $$;
    create or replace function pages_try_numeric(v text) returns numeric language plpgsql immutable as $$
    begin return v::numeric; exception when others then return null; end $$;
    create or replace function pages_try_timestamptz(v text) returns timestamptz language plpgsql stable as $$
    begin return v::timestamptz; exception when others then return null; end $$;
    create or replace function pages_try_boolean(v text) returns boolean language plpgsql immutable as $$
    begin return v::boolean; exception when others then return null; end $$;
    create or replace function pages_try_jsonb(v text) returns jsonb language plpgsql immutable as $$
    begin return v::jsonb; exception when others then return null; end $$;
  `.execute(db);
}
