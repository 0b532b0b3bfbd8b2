import { sql, type Kysely } from 'kysely';

// Live signals (issue 14): a committed change to a user's tasks or notifications tells every server
// process, through PostgreSQL's LISTEN / NOTIFY (PGlite has the same), which user's badges to read
// again: `{"u": <user id>, "t": "todo" | "notifications"}` on the channel `tessera_signal`
// (server/src/platform/live-signals.ts). NOTIFY in a trigger is sent at commit and not at all on a
// rollback, so a signal never runs ahead of the data. Statement-level triggers with transition
// tables send one signal per user and statement, however many rows it wrote (a million-row seed
// sends one per assignee); PostgreSQL folds equal signals of one transaction into one.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function tessera_signal_tasks() returns trigger language plpgsql as $$
    begin
      perform pg_notify('tessera_signal', json_build_object('u', s.u, 't', 'todo')::text)
      from (select distinct assignee_id as u from changed) s;
      return null;
    end $$;
    create trigger workflow_tasks_signal_insert after insert on workflow_tasks
      referencing new table as changed for each statement execute function tessera_signal_tasks();
    create trigger workflow_tasks_signal_update after update on workflow_tasks
      referencing new table as changed for each statement execute function tessera_signal_tasks();

    create function tessera_signal_notifications() returns trigger language plpgsql as $$
    begin
      perform pg_notify('tessera_signal', json_build_object('u', s.u, 't', 'notifications')::text)
      from (select distinct user_id as u from changed) s;
      return null;
    end $$;
    create trigger notifications_signal_insert after insert on notifications
      referencing new table as changed for each statement execute function tessera_signal_notifications();
    create trigger notifications_signal_update after update on notifications
      referencing new table as changed for each statement execute function tessera_signal_notifications();
  `.execute(db);
}
