import { sql, type Kysely } from 'kysely';

// Personal API keys (issue 29). A key is shown once; only its SHA-256 is kept (the key is 32 random
// bytes, so a fast hash is as safe as a slow one and the guard finds it by an index look-up).
// `codes` null: every code the owner holds; otherwise the owner's codes ∩ these, read per request.
// A revoked key keeps its row, so the audit log's references and the administrator's list stay whole.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table api_keys (
      id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      name text not null,
      prefix text not null,
      key_hash text not null unique,
      codes jsonb,
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      last_used_ip text,
      revoked_at timestamptz,
      revoked_by uuid
    );
    create index api_keys_user_ix on api_keys (user_id, created_at desc);
    create index api_keys_created_ix on api_keys (created_at desc, id desc);
  `.execute(db);
}
