import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, DocumentNumberReservationsTable, DocumentNumberRulesTable } from '../../db/schema.ts';
import { likePattern } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function filtered(db: Db, text: string | undefined) {
  let q = db.selectFrom('document_number_rules');
  if (text) {
    const pattern = likePattern(text);
    q = q.where((eb) => eb.or([eb('code', 'ilike', pattern), eb('name', 'ilike', pattern), eb('description', 'ilike', pattern)]));
  }
  return q;
}

export async function countRules(db: Db, text: string | undefined): Promise<number> {
  const row = await filtered(db, text).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listRules(
  db: Db,
  text: string | undefined,
  sort: { column: 'code' | 'name' | 'creation_time' | 'last_modification_time'; direction: 'asc' | 'desc' },
  window: { offset: number; limit: number },
) {
  return filtered(db, text).selectAll().orderBy(sort.column, sort.direction).orderBy('id', sort.direction).offset(window.offset).limit(window.limit).execute();
}

/** A rule by id, or by code (case-insensitive). */
export function findRule(db: Db, idOrCode: string) {
  return db
    .selectFrom('document_number_rules')
    .selectAll()
    .where((eb) => (UUID.test(idOrCode) ? eb('id', '=', idOrCode) : eb(eb.fn('lower', ['code']), '=', idOrCode.toLowerCase())))
    .executeTakeFirst();
}

export function findRuleByCode(db: Db, code: string) {
  return db
    .selectFrom('document_number_rules')
    .select(['id'])
    .where((eb) => eb(eb.fn('lower', ['code']), '=', code.toLowerCase()))
    .executeTakeFirst();
}

export function insertRule(db: Db, row: Insertable<DocumentNumberRulesTable>) {
  return db.insertInto('document_number_rules').values(row).execute();
}

export function updateRule(db: Db, id: string, changes: Updateable<DocumentNumberRulesTable>) {
  return db.updateTable('document_number_rules').set(changes).where('id', '=', id).execute();
}

/** Deletes the rule with its counters and reservations (foreign-key cascade). */
export function deleteRule(db: Db, id: string) {
  return db.deleteFrom('document_number_rules').where('id', '=', id).execute();
}

/** Counter values for (rule, period) pairs; absent pairs have issued nothing yet. */
export async function counterValues(db: Db, pairs: { ruleId: string; periodKey: string }[]): Promise<Map<string, number>> {
  if (pairs.length === 0) return new Map();
  const rows = await db
    .selectFrom('document_number_counters')
    .select(['rule_id', 'period_key', 'value'])
    .where('rule_id', 'in', [...new Set(pairs.map((p) => p.ruleId))])
    .where('period_key', 'in', [...new Set(pairs.map((p) => p.periodKey))])
    .execute();
  return new Map(rows.map((r) => [`${r.rule_id}|${r.period_key}`, Number(r.value)]));
}

/** Rules that have issued at least one number (in any period). */
export async function rulesWithIssuedNumbers(db: Db, ruleIds: string[]): Promise<Set<string>> {
  if (ruleIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('document_number_counters')
    .select('rule_id')
    .where('rule_id', 'in', ruleIds)
    .where('value', '>', 0)
    .groupBy('rule_id')
    .execute();
  return new Set(rows.map((r) => r.rule_id));
}

/**
 * The counter step: `UPDATE … RETURNING` on the (rule, period) row. The row lock it takes is held
 * until the caller's transaction ends, so concurrent issuers queue on it and a rolled-back
 * transaction's number is handed to the next one: committed numbers are unique and gap-free.
 * The first number of a period inserts the row; a racing first insert waits on the unique key and
 * then takes the update branch.
 */
export async function incrementCounter(trx: Db, ruleId: string, periodKey: string): Promise<number> {
  const updated = await trx
    .updateTable('document_number_counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('rule_id', '=', ruleId)
    .where('period_key', '=', periodKey)
    .returning('value')
    .executeTakeFirst();
  if (updated) return Number(updated.value);
  const inserted = await trx
    .insertInto('document_number_counters')
    .values({ rule_id: ruleId, period_key: periodKey, value: 1 })
    .onConflict((oc) => oc.columns(['rule_id', 'period_key']).doUpdateSet({ value: sql`document_number_counters.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(inserted.value);
}

/**
 * The one-statement path for a rule the caller already knows: increments the period's counter only
 * while the rule still carries `stamp` (not changed or deleted since it was read). Null when there
 * is no such row — a changed rule, or the period's first number — and nothing was written.
 */
export async function incrementCounterIfCurrent(trx: Db, ruleId: string, stamp: string, periodKey: string): Promise<number | null> {
  const { rows } = await sql<{ value: number | string }>`
    update document_number_counters c set value = c.value + 1
    from document_number_rules r
    where c.rule_id = ${ruleId} and c.period_key = ${periodKey} and r.id = c.rule_id and r.concurrency_stamp = ${stamp}
    returning c.value`.execute(trx);
  return rows[0] ? Number(rows[0].value) : null;
}

/**
 * A number reserved on its own (GET /{id}/doc-no) in ONE autocommit statement: the period's counter
 * is incremented (inserted for the period's first number) while the rule still carries `stamp`, and
 * the reservation row is inserted from the new value, the number formatted in SQL exactly as
 * `serialText` does (start + (n-1)·step, zero-padded to the width, never cut). The counter row is
 * locked only for this statement — as in a bare `UPDATE … RETURNING` — and the statement is atomic,
 * so numbers stay unique and gap-free. Null when the rule changed or is gone (nothing was written).
 */
export async function reserveNextNumber(
  db: Db,
  r: {
    id: string;
    ruleId: string;
    stamp: string;
    periodKey: string;
    before: string;
    after: string;
    serial: { width: number; start: number; step: number };
    at: Date;
    by: string | null;
  },
): Promise<{ serial: number; docNo: string } | null> {
  const { rows } = await sql<{ serial: number | string; doc_no: string }>`
    with c as (
      insert into document_number_counters (rule_id, period_key, value)
      select r.id, ${r.periodKey}::text, 1 from document_number_rules r where r.id = ${r.ruleId}::uuid and r.concurrency_stamp = ${r.stamp}::text
      on conflict (rule_id, period_key) do update set value = document_number_counters.value + 1
      returning value
    ), n as (
      select c.value, (${r.serial.start}::bigint + (c.value - 1) * ${r.serial.step}::bigint)::text as s from c
    )
    insert into document_number_reservations (id, rule_id, period_key, serial, doc_no, status, reserved_at, reserved_by)
    select ${r.id}::uuid, ${r.ruleId}::uuid, ${r.periodKey}::text, n.value,
      ${r.before}::text || (case when length(n.s) >= ${r.serial.width}::int then n.s else lpad(n.s, ${r.serial.width}::int, '0') end) || ${r.after}::text,
      'reserved', ${r.at}::timestamptz, ${r.by}::uuid
    from n
    returning serial, doc_no`.execute(db);
  return rows[0] ? { serial: Number(rows[0].serial), docNo: rows[0].doc_no } : null;
}

export function insertReservation(db: Db, row: Insertable<DocumentNumberReservationsTable>) {
  return db.insertInto('document_number_reservations').values(row).execute();
}

/** Moves a reservation from `reserved` to `to`; undefined when it was not reserved. */
export function closeReservation(db: Db, ruleId: string, docNo: string, to: 'used' | 'void', at: Date, onlyBy?: string) {
  let q = db
    .updateTable('document_number_reservations')
    .set(to === 'used' ? { status: 'used', used_at: at } : { status: 'void', voided_at: at })
    .where('rule_id', '=', ruleId)
    .where('doc_no', '=', docNo)
    .where('status', '=', 'reserved');
  if (onlyBy) q = q.where('reserved_by', '=', onlyBy);
  return q.returning(['id', 'serial']).executeTakeFirst();
}

export function findReservation(db: Db, ruleId: string, docNo: string) {
  return db
    .selectFrom('document_number_reservations')
    .selectAll()
    .where('rule_id', '=', ruleId)
    .where('doc_no', '=', docNo)
    .executeTakeFirst();
}

/** Marks reservations older than `before` and still open as void; returns how many. */
export async function voidReservationsBefore(db: Db, before: Date, at: Date): Promise<number> {
  const result = await db
    .updateTable('document_number_reservations')
    .set({ status: 'void', voided_at: at })
    .where('status', '=', 'reserved')
    .where('reserved_at', '<', before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function listReservations(db: Db, ruleId: string, filter: { status?: 'reserved' | 'used' | 'void'; text?: string }, window: { offset: number; limit: number }) {
  let q = db
    .selectFrom('document_number_reservations as r')
    .leftJoin('users as u', 'u.id', 'r.reserved_by')
    .where('r.rule_id', '=', ruleId);
  if (filter.status) q = q.where('r.status', '=', filter.status);
  if (filter.text) q = q.where('r.doc_no', 'ilike', likePattern(filter.text));
  return Promise.all([
    q.selectAll('r').select('u.user_name').orderBy('r.reserved_at', 'desc').orderBy('r.serial', 'desc').offset(window.offset).limit(window.limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
}
