import { sql, type Kysely } from 'kysely';

// Document-number rules, their counters (one row per rule and period, incremented with
// UPDATE … RETURNING inside the issuing transaction) and the reservations of numbers fetched when
// a record is created (docNoOccasion 1): reserved → used by the save, or void if never saved.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table document_number_rules (
      id uuid primary key,
      code text not null,
      name text not null,
      description text not null default '',
      reset_period text not null check (reset_period in ('never', 'yearly', 'monthly', 'daily')),
      time_zone text,
      segments jsonb not null,
      concurrency_stamp text not null,
      creation_time timestamptz not null default now(),
      creator_id uuid,
      last_modification_time timestamptz,
      last_modifier_id uuid
    );
    create unique index document_number_rules_code_uq on document_number_rules (lower(code));

    create table document_number_counters (
      rule_id uuid not null references document_number_rules(id) on delete cascade,
      period_key text not null,
      value bigint not null check (value >= 0),
      primary key (rule_id, period_key)
    );

    create table document_number_reservations (
      id uuid primary key,
      rule_id uuid not null references document_number_rules(id) on delete cascade,
      period_key text not null,
      serial bigint not null,
      doc_no text not null,
      status text not null check (status in ('reserved', 'used', 'void')),
      reserved_at timestamptz not null default now(),
      reserved_by uuid,
      used_at timestamptz,
      voided_at timestamptz,
      unique (rule_id, doc_no)
    );
    create index document_number_reservations_rule_ix on document_number_reservations (rule_id, reserved_at desc);
    create index document_number_reservations_open_ix on document_number_reservations (reserved_at) where status = 'reserved';
  `.execute(db);
}
