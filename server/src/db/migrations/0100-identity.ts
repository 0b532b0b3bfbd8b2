import { sql, type Kysely } from 'kysely';

// Identity: role descriptions, and indexes for the user list's filters (e-mail uniqueness, members
// of a unit by user, roles by user).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table roles add column description text not null default '';
    create index users_email_ix on users (lower(email)) where not is_deleted and email <> '';
    create index user_organization_units_user_ix on user_organization_units (user_id);
    create index organization_units_code_pattern_ix on organization_units (code text_pattern_ops);
    create index organization_units_leader_ix on organization_units (leader_user_id);
  `.execute(db);
}
