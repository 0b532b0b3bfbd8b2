import { sql, type Kysely } from 'kysely';

/**
 * Issue 25 (security II), sign-in and registration:
 * - `sign_in_lockout_end`: the automatic lockout after repeated wrong passwords, kept apart from
 *   `lockout_end` (an administrator's lock). The automatic one only blocks new sign-ins; an
 *   administrator's lock also ends the user's sessions. Locks already stored stay administrator
 *   locks (the two cannot be told apart; an automatic one ran out within 5 minutes anyway).
 * - Registration is off on a new installation. This runs before the first seed, so an empty
 *   `users` table means a new installation; an existing one keeps what it had: its explicit
 *   setting if it wrote one, otherwise the old default (on), now written down.
 * - The seeded `admin` gets the automatic lockout like everyone else (it no longer signs anyone
 *   out; README: recovery with `npm run unlock-user`).
 * - The arithmetic captcha's table goes; a proof-of-work challenge is signed, not stored, and only
 *   its use is recorded (`captcha_uses`, single use until it expires).
 * Every step may run again (the test of the existing-installation rule does).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column if not exists sign_in_lockout_end timestamptz`.execute(db);
  await sql`
    insert into settings (key, value)
    select 'registration.enabled', 'true'::jsonb
    where exists (select 1 from users)
    on conflict (key) do nothing
  `.execute(db);
  await sql`update users set lockout_enabled = true where user_name = 'admin'`.execute(db);
  await sql`drop table if exists captchas`.execute(db);
  await sql`
    create table if not exists captcha_uses (
      nonce text primary key,
      expires_at timestamptz not null
    );
    create index if not exists captcha_uses_expires_ix on captcha_uses (expires_at);
  `.execute(db);
}
