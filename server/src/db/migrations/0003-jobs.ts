import { sql, type Kysely } from 'kysely';

/**
 * The durable job queue (platform/jobs.ts): timers and background work of every module (workflow
 * timeouts and reminders first). A job is claimed with `for update skip locked` and done in the
 * transaction of its work, so it runs exactly once whatever the number of server processes; one due
 * while no server ran runs at the next start.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table jobs (
      id uuid primary key,
      queue text not null,
      -- Optional: at most one pending job per queue and key (a node's timer), replaced when set again.
      key text,
      payload jsonb not null default '{}'::jsonb,
      run_at timestamptz not null,
      state text not null default 'pending' check (state in ('pending', 'done', 'failed')),
      attempts integer not null default 0,
      last_error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index jobs_due_ix on jobs (run_at) where state = 'pending';
    create unique index jobs_pending_key_ux on jobs (queue, key) where state = 'pending' and key is not null;
  `.execute(db);
}
