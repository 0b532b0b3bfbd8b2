import { sql, type Kysely } from 'kysely';

// Delegation, added signers and reclaim (issue 13):
// - a task may be `suspended` (its assignee delegated it, or signers added before them act first);
// - `origin` marks tasks that are not the node's own assignees: a delegate's task, or signers added
//   before / after an assignee; `parent_task_id` names the task they were added from;
// - a node visit remembers the task whose completion entered it (`caused_by_task_id`): reclaim (拿回)
//   undoes exactly those visits while nobody acted on them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table workflow_tasks drop constraint if exists workflow_tasks_status_check;
    alter table workflow_tasks add constraint workflow_tasks_status_check
      check (status in ('pending', 'waiting', 'suspended', 'approved', 'rejected', 'returned', 'transferred', 'cancelled', 'withdrawn'));
    alter table workflow_tasks add column origin text check (origin in ('delegate', 'addBefore', 'addAfter'));
    alter table workflow_tasks add column parent_task_id uuid;
    alter table workflow_node_states add column caused_by_task_id uuid;
    create index workflow_node_states_cause_ix on workflow_node_states (caused_by_task_id) where caused_by_task_id is not null;
  `.execute(db);
}
