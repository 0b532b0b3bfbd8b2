import { sql, type Kysely } from 'kysely';

// The workflow engine's rows (issue 13): instances pinned to a published definition version, one
// row per visit of a node, tasks (approval and CC), the action history (a client request id applied
// once per actor) and an outbox of events written in the same transaction as the change.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table workflow_instances (
      id uuid primary key,
      definition_id uuid not null,
      version integer not null,
      page_id uuid not null,
      record_id uuid not null,
      record_title text not null,
      initiator_id uuid not null,
      -- The initiator's organisation unit at start (initiatorLeader assignees walk up from it).
      initiator_unit_id uuid,
      status text not null check (status in ('running', 'approved', 'rejected', 'withdrawn', 'terminated')),
      chosen_assignees jsonb not null default '{}',
      started_time timestamptz not null default now(),
      ended_time timestamptz,
      foreign key (definition_id, version) references workflow_definition_versions (definition_id, version)
    );
    -- One running instance per record.
    create unique index workflow_instances_running_ux on workflow_instances (page_id, record_id) where status = 'running';
    create index workflow_instances_record_ix on workflow_instances (page_id, record_id, started_time desc);
    create index workflow_instances_initiator_ix on workflow_instances (initiator_id, started_time desc);
    create index workflow_instances_started_ix on workflow_instances (started_time desc);
    create index workflow_instances_definition_running_ix on workflow_instances (definition_id) where status = 'running';

    -- One row per visit of a node. A join's visit counts the branches that arrived (arrived_from).
    create table workflow_node_states (
      id uuid primary key,
      instance_id uuid not null references workflow_instances(id) on delete cascade,
      node_id text not null,
      node_type text not null,
      status text not null check (status in ('active', 'completed', 'cancelled', 'skipped')),
      arrived_from jsonb not null default '[]',
      entered_time timestamptz not null default now(),
      completed_time timestamptz
    );
    create index workflow_node_states_instance_ix on workflow_node_states (instance_id, entered_time);

    create table workflow_tasks (
      id uuid primary key,
      instance_id uuid not null references workflow_instances(id) on delete cascade,
      node_state_id uuid not null references workflow_node_states(id) on delete cascade,
      node_id text not null,
      kind text not null check (kind in ('approve', 'cc')),
      assignee_id uuid not null,
      status text not null check (status in ('pending', 'waiting', 'approved', 'rejected', 'returned', 'transferred', 'cancelled', 'withdrawn')),
      -- Sequential nodes: the order in which the tasks open.
      seq integer not null default 0,
      is_read boolean not null default false,
      comment text,
      -- A transferred task's successor names it.
      transferred_from uuid,
      creation_time timestamptz not null default now(),
      completed_time timestamptz,
      due_time timestamptz
    );
    create index workflow_tasks_todo_ix on workflow_tasks (assignee_id, status, creation_time desc);
    create index workflow_tasks_done_ix on workflow_tasks (assignee_id, completed_time desc) where completed_time is not null;
    create index workflow_tasks_instance_ix on workflow_tasks (instance_id, creation_time);
    create index workflow_tasks_node_state_ix on workflow_tasks (node_state_id);

    create table workflow_actions (
      id uuid primary key,
      instance_id uuid not null references workflow_instances(id) on delete cascade,
      task_id uuid,
      node_id text,
      -- null: the system (timeouts, auto-approval).
      actor_id uuid,
      action text not null,
      comment text,
      target_user_id uuid,
      target_node_id text,
      client_request_id text,
      -- The answer of the first application, returned again for a repeated request.
      result jsonb,
      creation_time timestamptz not null default now()
    );
    create unique index workflow_actions_request_ux on workflow_actions (actor_id, client_request_id) where client_request_id is not null;
    create index workflow_actions_instance_ix on workflow_actions (instance_id, creation_time);

    create table workflow_outbox (
      id uuid primary key,
      instance_id uuid not null,
      event text not null check (event in ('instance.started', 'node.entered', 'task.completed', 'instance.ended')),
      payload jsonb not null,
      creation_time timestamptz not null default now(),
      published_at timestamptz
    );
    create index workflow_outbox_unpublished_ix on workflow_outbox (creation_time) where published_at is null;
  `.execute(db);
}
