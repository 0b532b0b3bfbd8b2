import type { Kysely, Selectable } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import { prepareDocumentNumber, type TDocumentNumberFormat, type TDocumentNumberSegment } from '@tessera/core/document-number-format';
import type { Database, DocumentNumberRulesTable } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { documentNumberError, documentNumberText, type Who } from './document-numbers.messages.ts';
import * as repo from './document-numbers.repository.ts';

type Db = Kysely<Database>;
type RuleRow = Selectable<DocumentNumberRulesTable>;

// The clock for dates and periods. Tests inject one to cross midnight and month ends.
let clock: () => Date = () => new Date();
export function setDocumentNumberClock(next: (() => Date) | null): void {
  clock = next ?? (() => new Date());
}
export const documentNumberNow = (): Date => clock();

/** A reservation nobody saved is voided after this long (a sign-in lasts a day: the form is gone). */
export const RESERVATION_TTL_MS = 25 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
const lastSweep = new WeakMap<object, number>();

/**
 * Rules as this node last read them, by id or lower-case code. Only a hint: issuing checks the
 * rule's concurrency stamp in the same statement that increments the counter, so a rule changed
 * or deleted (on any node) falls back to reading it again. Saves one round trip per number.
 */
const knownRules = new Map<string, RuleRow>();
const KNOWN_RULES_MAX = 1000;

export const formatOf = (rule: RuleRow): TDocumentNumberFormat => ({
  resetPeriod: rule.reset_period,
  timeZone: rule.time_zone,
  segments: rule.segments as TDocumentNumberSegment[],
});

export interface IssuedDocumentNumber {
  ruleId: string;
  ruleCode: string;
  periodKey: string;
  /** The n-th number of the period (the counter value). */
  serial: number;
  docNo: string;
}

export function ruleNotFound(who: Who, rule: string) {
  return new AppError(404, 'NotFound', null, { message: documentNumberText(who, 'rule.notFound', { rule }), details: { rule } });
}

/**
 * A per-node queue in front of each rule's counter row. Without it, every concurrent save of a rule
 * waits on the row inside PostgreSQL, and each commit wakes all of them to fight for the lock again
 * (a thundering herd that costs more CPU than the work). With it, one transaction per node waits
 * on the row and the rest wait here, cheaply, in arrival order. The order of arrival at the row is
 * all that changes: the lock, and so uniqueness and gap-freeness, stay PostgreSQL's.
 *
 * A transaction that already holds the row (a second number of the same rule) skips the queue, and
 * no one waits here longer than QUEUE_WAIT_MS: a wait that long may be a deadlock across two rules
 * issued in opposite orders, which only PostgreSQL can see and break — so the waiter goes on to
 * the row, and PostgreSQL's deadlock detector decides.
 */
const queues = new Map<string, Promise<void>>();
const rowsHeld = new WeakMap<object, Set<string>>();
const QUEUE_WAIT_MS = 2000;

async function oneAtATime<T>(trx: Db, ruleId: string, increment: () => Promise<T>): Promise<T> {
  const held = rowsHeld.get(trx);
  if (held?.has(ruleId)) return increment();
  const previous = queues.get(ruleId) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  queues.set(ruleId, tail);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([previous, new Promise<void>((resolve) => (timer = setTimeout(resolve, QUEUE_WAIT_MS)))]);
  clearTimeout(timer);
  try {
    const result = await increment();
    // The row is now locked by this transaction until it ends.
    if (held) held.add(ruleId);
    else rowsHeld.set(trx, new Set([ruleId]));
    return result;
  } finally {
    release();
    if (queues.get(ruleId) === tail) queues.delete(ruleId);
  }
}

/**
 * Issues the next number of a rule inside the caller's transaction (the record's save). The counter
 * row stays locked until that transaction ends: if it rolls back, the number goes to the next
 * issuer, so the numbers of committed records are unique and gap-free — on PostgreSQL and PGlite.
 */
export async function issueDocumentNumber(
  trx: Db,
  ruleIdOrCode: string,
  options: { now?: Date; record?: Record<string, unknown>; culture?: Who } = {},
): Promise<IssuedDocumentNumber> {
  if (!trx.isTransaction) throw new Error('issueDocumentNumber runs inside the saving transaction (pass the trx)');
  const now = options.now ?? clock();
  const key = ruleIdOrCode.toLowerCase();
  // Fast path (one statement): the rule as this node last read it, if it has not changed since.
  const known = knownRules.get(key);
  if (known) {
    // Everything but the serial is fixed before the row lock is taken, so the lock is held briefly.
    const prepared = prepareDocumentNumber(formatOf(known), { now, record: options.record });
    const serial = await oneAtATime(trx, known.id, () => repo.incrementCounterIfCurrent(trx, known.id, known.concurrency_stamp, prepared.periodKey));
    if (serial !== null) return { ruleId: known.id, ruleCode: known.code, periodKey: prepared.periodKey, serial, docNo: prepared.format(serial) };
  }
  const rule = await repo.findRule(trx, ruleIdOrCode);
  if (!rule) {
    knownRules.delete(key);
    throw ruleNotFound(options.culture ?? 'zh-CN', ruleIdOrCode);
  }
  if (knownRules.size >= KNOWN_RULES_MAX) knownRules.clear();
  knownRules.set(key, rule);
  const prepared = prepareDocumentNumber(formatOf(rule), { now, record: options.record });
  const serial = await oneAtATime(trx, rule.id, () => repo.incrementCounter(trx, rule.id, prepared.periodKey));
  return { ruleId: rule.id, ruleCode: rule.code, periodKey: prepared.periodKey, serial, docNo: prepared.format(serial) };
}

/**
 * spec §4 docNoOccasion 1: a number shown when the record is created, before it is saved. It is
 * issued and recorded as `reserved` in one autocommit statement; the save marks it `used`
 * (consumeReservedNumber) and a number never saved is voided — never handed out again. See README.
 */
export async function reserveDocumentNumber(
  db: Db,
  ruleIdOrCode: string,
  options: { now?: Date; userId?: string | null; culture?: Who } = {},
): Promise<IssuedDocumentNumber> {
  const at = options.now ?? clock();
  const key = ruleIdOrCode.toLowerCase();
  // One autocommit statement (counter + reservation row): the counter row is locked only for it.
  // The rule as this node last read it first; a rule changed or gone since is read again (once).
  let issued: IssuedDocumentNumber | null = null;
  for (let attempt = 0; attempt < 2 && !issued; attempt++) {
    let rule = attempt === 0 ? knownRules.get(key) : undefined;
    if (!rule) {
      rule = await repo.findRule(db, ruleIdOrCode);
      if (!rule) {
        knownRules.delete(key);
        throw ruleNotFound(options.culture ?? 'zh-CN', ruleIdOrCode);
      }
      if (knownRules.size >= KNOWN_RULES_MAX) knownRules.clear();
      knownRules.set(key, rule);
    }
    const prepared = prepareDocumentNumber(formatOf(rule), { now: at });
    const row = await repo.reserveNextNumber(db, {
      id: uuidv7(),
      ruleId: rule.id,
      stamp: rule.concurrency_stamp,
      periodKey: prepared.periodKey,
      ...prepared.pieces,
      at,
      by: options.userId ?? null,
    });
    if (row) issued = { ruleId: rule.id, ruleCode: rule.code, periodKey: prepared.periodKey, serial: row.serial, docNo: row.docNo };
    else knownRules.delete(key);
  }
  // Changed twice in a row (an edit racing this call): the rule as read inside a transaction.
  if (!issued) {
    issued = await db.transaction().execute(async (trx) => {
      const n = await issueDocumentNumber(trx, ruleIdOrCode, { now: at, culture: options.culture });
      await repo.insertReservation(trx, {
        id: uuidv7(),
        rule_id: n.ruleId,
        period_key: n.periodKey,
        serial: n.serial,
        doc_no: n.docNo,
        status: 'reserved',
        reserved_at: at,
        reserved_by: options.userId ?? null,
        used_at: null,
        voided_at: null,
      });
      return n;
    });
  }
  const last = lastSweep.get(db) ?? 0;
  if (at.getTime() - last > SWEEP_EVERY_MS || at.getTime() < last) {
    lastSweep.set(db, at.getTime());
    await voidStaleReservations(db, at);
  }
  return issued;
}

function closedError(who: Who, status: 'used' | 'void' | 'reserved' | undefined, docNo: string) {
  if (status === 'used') return documentNumberError(who, 'DocumentNumberUsed', 'docNo.used', ['docNo'], { docNo });
  if (status === 'void') return documentNumberError(who, 'DocumentNumberVoid', 'docNo.void', ['docNo'], { docNo });
  return documentNumberError(who, 'DocumentNumberUnknown', 'docNo.unknown', ['docNo'], { docNo });
}

/**
 * For the business-data module's save (inside its transaction): marks a reserved number `used`.
 * A number that is unknown, already used or void is refused (400), so two records never share one.
 */
export async function consumeReservedNumber(
  trx: Db,
  ruleIdOrCode: string,
  docNo: string,
  options: { now?: Date; culture?: Who } = {},
): Promise<{ reservationId: string; serial: number }> {
  const who = options.culture ?? 'zh-CN';
  const rule = await repo.findRule(trx, ruleIdOrCode);
  if (!rule) throw ruleNotFound(who, ruleIdOrCode);
  const row = await repo.closeReservation(trx, rule.id, docNo, 'used', options.now ?? clock());
  if (row) return { reservationId: row.id, serial: Number(row.serial) };
  throw closedError(who, (await repo.findReservation(trx, rule.id, docNo))?.status, docNo);
}

/** The user abandoned the new record: the number is recorded as void (only its holder or a rule manager may). */
export async function voidReservedNumber(
  db: Db,
  ruleIdOrCode: string,
  docNo: string,
  options: { userId: string | null; mayVoidAny: boolean; now?: Date; culture?: Who },
): Promise<void> {
  const who = options.culture ?? 'zh-CN';
  const rule = await repo.findRule(db, ruleIdOrCode);
  if (!rule) throw ruleNotFound(who, ruleIdOrCode);
  const row = await repo.closeReservation(db, rule.id, docNo, 'void', options.now ?? clock(), options.mayVoidAny ? undefined : (options.userId ?? ''));
  if (row) return;
  const existing = await repo.findReservation(db, rule.id, docNo);
  if (existing?.status === 'reserved') {
    const message = documentNumberText(who, 'docNo.notYours');
    throw new AppError(403, 'Forbidden', null, { message });
  }
  throw closedError(who, existing?.status, docNo);
}

/** Voids reservations older than the TTL that no save used. */
export function voidStaleReservations(db: Db, now: Date = clock()): Promise<number> {
  return repo.voidReservationsBefore(db, new Date(now.getTime() - RESERVATION_TTL_MS), now);
}
