/**
 * Document-number rules (`/dataSet/documentNumber`): CRUD, preview, and the calls other modules make.
 *
 * Other modules (the business-data save and lookups) call the issuer,
 * `document-number-issuer.ts`, directly:
 *
 * - `issueDocumentNumber(trx, ruleIdOrCode, { now, record, culture })` — the next number of a rule,
 *   issued INSIDE THE CALLER'S TRANSACTION (pass the save's `trx`; a plain handle is refused). The
 *   counter row stays locked until that transaction ends, so a rolled-back save gives its number to
 *   the next save: committed records get unique, gap-free numbers. Call it as late in the save as
 *   possible (the lock serialises saves of one rule). `record` feeds `field` segments; `now`
 *   defaults to the module clock (tests inject one). Returns `{ docNo, serial, periodKey, ruleId, ruleCode }`.
 * - `reserveDocumentNumber(db, ruleIdOrCode, who)` — a number shown on a new record (docNoOccasion 1),
 *   recorded as reserved; `consumeReservedNumber(trx, ruleIdOrCode, docNo)` marks it used inside the
 *   save's transaction; unknown, used or void numbers are refused (400).
 *
 * See README.md in this folder for why an abandoned reserved number is recorded as void.
 */
import type { ServiceContext } from '../../platform/context.ts';
import type { Kysely, Selectable } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import type { z } from 'zod';
import type {
  TDocumentNumberRule,
  TDocumentNumberRuleList,
  TDocumentNumberRuleQuery,
  TPreviewDocumentNumbersResult,
  TReservation,
  TReservationQuery,
  ZDocumentNumberRuleInput,
  ZPreviewDocumentNumbersInput,
} from '@tessera/core/contracts/document-numbers';
import { prepareDocumentNumber, previewDocumentNumbers, type TDocumentNumberSegment } from '@tessera/core/document-number-format';
import type { Database, DocumentNumberRulesTable } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { parseSorting, pageWindow } from '../../platform/paging.ts';
import { documentNumberNow, formatOf, ruleNotFound } from './document-number-issuer.ts';
import { documentNumberError } from './document-numbers.messages.ts';
import * as repo from './document-numbers.repository.ts';
import { iso, isUniqueViolation } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;

type RuleRow = Selectable<DocumentNumberRulesTable>;
export type RuleInput = z.output<typeof ZDocumentNumberRuleInput>;
export type PreviewInput = z.output<typeof ZPreviewDocumentNumbersInput>;


/** Rules with their next number (from the current period's counter) and whether they issued any. */
async function toRules(db: Db, rows: RuleRow[]): Promise<TDocumentNumberRule[]> {
  const now = documentNumberNow();
  const prepared = rows.map((r) => prepareDocumentNumber(formatOf(r), { now, fieldPlaceholders: true }));
  const counters = await repo.counterValues(db, rows.map((r, i) => ({ ruleId: r.id, periodKey: prepared[i]!.periodKey })));
  const issued = await repo.rulesWithIssuedNumbers(db, rows.map((r) => r.id));
  return rows.map((r, i) => ({
    id: r.id,
    code: r.code,
    name: r.name,
    description: r.description,
    resetPeriod: r.reset_period,
    timeZone: r.time_zone,
    segments: r.segments as TDocumentNumberSegment[],
    nextNumber: prepared[i]!.format((counters.get(`${r.id}|${prepared[i]!.periodKey}`) ?? 0) + 1),
    hasIssuedNumbers: issued.has(r.id),
    concurrencyStamp: r.concurrency_stamp,
    creationTime: iso(r.creation_time)!,
    lastModificationTime: iso(r.last_modification_time),
  }));
}

const SORTABLE = { code: 'code', name: 'name', creationtime: 'creation_time', lastmodificationtime: 'last_modification_time' } as const;

export async function listRules(ctx: ServiceContext, query: TDocumentNumberRuleQuery): Promise<TDocumentNumberRuleList> {
  const text = query.Filter?.trim() || undefined;
  const sort = parseSorting(query.Sorting, SORTABLE, { column: 'creation_time', direction: 'desc' });
  const [rows, totalCount] = await Promise.all([repo.listRules(ctx.db, text, sort, pageWindow(query)), repo.countRules(ctx.db, text)]);
  return { items: await toRules(ctx.db, rows), totalCount };
}

export async function getRule(ctx: ServiceContext, idOrCode: string): Promise<TDocumentNumberRule> {
  const row = await repo.findRule(ctx.db, idOrCode);
  if (!row) throw ruleNotFound(ctx, idOrCode);
  return (await toRules(ctx.db, [row]))[0]!;
}

const rowValues = (input: RuleInput) => ({
  code: input.code,
  name: input.name,
  description: input.description ?? '',
  reset_period: input.resetPeriod,
  time_zone: input.timeZone || null,
  segments: JSON.stringify(input.segments),
});

export async function createRule(ctx: ServiceContext, input: RuleInput): Promise<TDocumentNumberRule> {
  const codeTaken = () => documentNumberError(ctx, 'ValidationError', 'rule.codeTaken', ['code'], { code: input.code });
  if (await repo.findRuleByCode(ctx.db, input.code)) throw codeTaken();
  const id = uuidv7();
  try {
    await ctx.db.transaction().execute((trx) =>
      repo.insertRule(trx, {
        id,
        ...rowValues(input),
        concurrency_stamp: uuidv7(),
        creator_id: ctx.user?.id ?? null,
        last_modification_time: null,
        last_modifier_id: null,
      }),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw codeTaken();
    throw err;
  }
  const created = await getRule(ctx, id);
  await recordAudit(ctx, 'Created', { entityType: 'DocumentNumberRule', entityId: id, details: { before: null, after: created } });
  return created;
}

const serialOf = (segments: TDocumentNumberSegment[]) => {
  const i = segments.findIndex((s) => s.type === 'serial');
  return { index: i, segment: segments[i] as Extract<TDocumentNumberSegment, { type: 'serial' }> };
};

/**
 * Once a rule has issued numbers its sequence is fixed: a new reset period or serial start/step
 * could produce a number again. Texts, dates, widths and fields may still change.
 */
export async function updateRule(ctx: ServiceContext, id: string, input: RuleInput): Promise<TDocumentNumberRule> {
  const existing = await repo.findRule(ctx.db, id);
  if (!existing || existing.id !== id) throw notFound({ id });
  if (input.concurrencyStamp && input.concurrencyStamp !== existing.concurrency_stamp) throw conflict({ id });
  const codeTaken = () => documentNumberError(ctx, 'ValidationError', 'rule.codeTaken', ['code'], { code: input.code });
  const other = await repo.findRuleByCode(ctx.db, input.code);
  if (other && other.id !== id) throw codeTaken();
  const before = (await toRules(ctx.db, [existing]))[0]!;
  if (before.hasIssuedNumbers) {
    if (input.resetPeriod !== existing.reset_period) throw documentNumberError(ctx, 'ValidationError', 'rule.resetFixed', ['resetPeriod']);
    const was = serialOf(existing.segments as TDocumentNumberSegment[]).segment;
    const now = serialOf(input.segments as TDocumentNumberSegment[]);
    if (was.start !== now.segment.start || was.step !== now.segment.step) {
      throw documentNumberError(ctx, 'ValidationError', 'rule.serialFixed', [`segments.${now.index}.start`]);
    }
  }
  try {
    await ctx.db.transaction().execute((trx) =>
      repo.updateRule(trx, id, {
        ...rowValues(input),
        concurrency_stamp: uuidv7(),
        last_modification_time: new Date(),
        last_modifier_id: ctx.user?.id ?? null,
      }),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw codeTaken();
    throw err;
  }
  const updated = await getRule(ctx, id);
  await recordAudit(ctx, 'Updated', { entityType: 'DocumentNumberRule', entityId: id, details: { before, after: updated } });
  return updated;
}

export async function deleteRule(ctx: ServiceContext, id: string): Promise<void> {
  const existing = await repo.findRule(ctx.db, id);
  if (!existing || existing.id !== id) throw notFound({ id });
  const before = (await toRules(ctx.db, [existing]))[0]!;
  await ctx.db.transaction().execute((trx) => repo.deleteRule(trx, id));
  await recordAudit(ctx, 'Deleted', { entityType: 'DocumentNumberRule', entityId: id, details: { before, after: null } });
}

/** The next numbers of an edited rule without consuming any; a saved rule continues from its counter. */
export async function previewNumbers(ctx: ServiceContext, input: PreviewInput): Promise<TPreviewDocumentNumbersResult> {
  const now = documentNumberNow();
  const format = { resetPeriod: input.rule.resetPeriod, timeZone: input.rule.timeZone || null, segments: input.rule.segments as TDocumentNumberSegment[] };
  let issued = 0;
  if (input.ruleId) {
    const rule = await repo.findRule(ctx.db, input.ruleId);
    if (!rule) throw ruleNotFound(ctx, input.ruleId);
    const key = prepareDocumentNumber(format, { now }).periodKey;
    issued = (await repo.counterValues(ctx.db, [{ ruleId: rule.id, periodKey: key }])).get(`${rule.id}|${key}`) ?? 0;
  }
  return previewDocumentNumbers(format, { now, issued, count: input.count, record: input.record, fieldPlaceholders: true });
}

export async function listReservations(ctx: ServiceContext, idOrCode: string, query: TReservationQuery) {
  const rule = await repo.findRule(ctx.db, idOrCode);
  if (!rule) throw ruleNotFound(ctx, idOrCode);
  const [rows, count] = await repo.listReservations(ctx.db, rule.id, { status: query.Status, text: query.Filter?.trim() || undefined }, pageWindow({ ...query, Sorting: undefined }));
  const items: TReservation[] = rows.map((r) => ({
    id: r.id,
    docNo: r.doc_no,
    periodKey: r.period_key,
    serial: Number(r.serial),
    status: r.status,
    reservedAt: iso(r.reserved_at)!,
    reservedBy: r.user_name ?? null,
    usedAt: iso(r.used_at),
    voidedAt: iso(r.voided_at),
  }));
  return { items, totalCount: Number(count.n) };
}
