import { sql, type Kysely } from 'kysely';

// The to-do and done lists of one user (issue 13; bench/workflow/workflow-todo.bench.ts: 1,000,000
// historic and 50,000 open tasks). Each list filters on assignee, kind and status and is ordered
// newest first with the id as tie-breaker; with those columns in one index, in that order, the page
// is the first 20 entries of an index scan and the exact totalCount an index-only count. The 0901
// indexes lacked `kind` (a heap visit per counted task) and the id, and the done list's partial
// index was never chosen (its query did not say `completed_time is not null`).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    drop index if exists workflow_tasks_todo_ix;
    drop index if exists workflow_tasks_done_ix;
    create index workflow_tasks_open_list_ix on workflow_tasks (assignee_id, kind, status, creation_time desc, id desc);
    create index workflow_tasks_done_list_ix on workflow_tasks (assignee_id, kind, completed_time desc, id desc) include (status) where completed_time is not null;
  `.execute(db);
}
