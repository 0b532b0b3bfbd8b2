import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { issueDocumentNumber, setDocumentNumberClock } from './document-number-issuer.ts';

// Period rollover with an injected clock: the counter of a new period starts again at the
// serial's start, at the rule's midnight, month end and year end.
let t: TestApp;
let admin: string;
let clockAt = new Date();

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  setDocumentNumberClock(() => clockAt);
});
afterAll(async () => {
  setDocumentNumberClock(null);
  await t.close();
});

async function rule(code: string, resetPeriod: string, pattern: string, timeZone: string | null = 'Asia/Shanghai') {
  const segments = [{ type: 'text', value: code }, ...(pattern ? [{ type: 'date', pattern }] : []), { type: 'text', value: '-' }, { type: 'serial', width: 3 }];
  const res = await t.call(admin, { method: 'POST', url: '/api/app/document-number', payload: { code, name: code, resetPeriod, timeZone, segments } });
  expect(res.statusCode, res.body).toBe(200);
}

/** Fetches a number through the API at the given instant. */
async function at(iso: string, code: string) {
  clockAt = new Date(iso);
  const res = await t.call(admin, { method: 'GET', url: `/api/app/document-number/${code}/doc-no` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().docNo as string;
}

describe('period rollover (injected clock)', () => {
  it('restarts a daily counter at midnight in the rule time zone', async () => {
    await rule('D', 'daily', 'yyyyMMdd');
    expect(await at('2026-03-31T23:59:58.000+08:00', 'D')).toBe('D20260331-001');
    expect(await at('2026-03-31T23:59:59.999+08:00', 'D')).toBe('D20260331-002');
    expect(await at('2026-04-01T00:00:00.000+08:00', 'D')).toBe('D20260401-001');
    expect(await at('2026-04-01T00:00:00.001+08:00', 'D')).toBe('D20260401-002');
    // A clock that steps back (another node slightly behind) continues the earlier day's counter.
    expect(await at('2026-03-31T23:59:59.500+08:00', 'D')).toBe('D20260331-003');
  });

  it('restarts a monthly counter at each month end, leap days included', async () => {
    await rule('M', 'monthly', 'yyMM');
    expect(await at('2026-01-31T23:59:59+08:00', 'M')).toBe('M2601-001');
    expect(await at('2026-02-01T00:00:00+08:00', 'M')).toBe('M2602-001');
    expect(await at('2026-02-28T23:59:59+08:00', 'M')).toBe('M2602-002');
    expect(await at('2026-03-01T00:00:00+08:00', 'M')).toBe('M2603-001');
    expect(await at('2028-02-29T12:00:00+08:00', 'M')).toBe('M2802-001');
    expect(await at('2028-02-29T23:59:59+08:00', 'M')).toBe('M2802-002');
    expect(await at('2028-03-01T00:00:00+08:00', 'M')).toBe('M2803-001');
  });

  it('restarts a yearly counter on New Year, and a never-reset counter keeps counting', async () => {
    await rule('Y', 'yearly', 'yyyy');
    await rule('N', 'never', 'yyyyMMdd');
    expect(await at('2026-12-31T23:59:59+08:00', 'Y')).toBe('Y2026-001');
    expect(await at('2026-12-31T23:59:59+08:00', 'N')).toBe('N20261231-001');
    expect(await at('2027-01-01T00:00:00+08:00', 'Y')).toBe('Y2027-001');
    expect(await at('2027-01-01T00:00:00+08:00', 'N')).toBe('N20270101-002');
    expect(await at('2027-06-15T08:00:00+08:00', 'Y')).toBe('Y2027-002');
  });

  it('follows the rule time zone: the same instant is a new day in Shanghai and not yet in UTC', async () => {
    await rule('SH', 'daily', 'yyyyMMdd', 'Asia/Shanghai');
    await rule('UT', 'daily', 'yyyyMMdd', 'UTC');
    expect(await at('2026-06-30T15:59:59Z', 'SH')).toBe('SH20260630-001');
    expect(await at('2026-06-30T15:59:59Z', 'UT')).toBe('UT20260630-001');
    expect(await at('2026-06-30T16:00:00Z', 'SH')).toBe('SH20260701-001');
    expect(await at('2026-06-30T16:00:00Z', 'UT')).toBe('UT20260630-002');
    expect(await at('2026-07-01T00:00:00Z', 'UT')).toBe('UT20260701-001');
  });

  it('uses the clock given to the saving transaction as well', async () => {
    await rule('T', 'monthly', 'yyyyMM');
    const issue = (iso: string) => t.database.db.transaction().execute((trx) => issueDocumentNumber(trx, 'T', { now: new Date(iso) }));
    expect((await issue('2026-10-31T23:59:59.999+08:00')).docNo).toBe('T202610-001');
    const next = await issue('2026-11-01T00:00:00+08:00');
    expect(next).toMatchObject({ docNo: 'T202611-001', periodKey: '202611', serial: 1 });
    const counters = await t.database.db
      .selectFrom('document_number_counters as c')
      .innerJoin('document_number_rules as r', 'r.id', 'c.rule_id')
      .select(['c.period_key', 'c.value'])
      .where('r.code', '=', 'T')
      .orderBy('c.period_key')
      .execute();
    expect(counters).toEqual([
      { period_key: '202610', value: 1 },
      { period_key: '202611', value: 1 },
    ]);
    // The rule's next number is shown for the clock's current period.
    clockAt = new Date('2026-11-15T09:00:00+08:00');
    expect((await t.call(admin, { method: 'GET', url: '/api/app/document-number/T' })).json().nextNumber).toBe('T202611-002');
  });

  it('assigns numbers for other modules inside their transaction, with record fields and their clock', async () => {
    const res = await t.call(admin, {
      method: 'POST',
      url: '/api/app/document-number',
      payload: { code: 'PO', name: 'PO', resetPeriod: 'daily', timeZone: 'Asia/Shanghai', segments: [{ type: 'field', fieldCode: 'dept' }, { type: 'text', value: '-' }, { type: 'date', pattern: 'yyMMdd' }, { type: 'serial', width: 4 }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const clock = () => new Date('2026-05-20T23:30:00+08:00');
    const save = (dept: string, fail = false) =>
      t.database.db.transaction().execute(async (trx) => {
        const n = await issueDocumentNumber(trx, 'PO', { now: clock(), record: { dept } });
        if (fail) throw new Error('rolled back');
        return n.docNo;
      });
    expect(await save('HR')).toBe('HR-2605200001');
    await expect(save('IT', true)).rejects.toThrow('rolled back');
    // The rolled-back number goes to the next save: no gap among committed records.
    expect(await save('IT')).toBe('IT-2605200002');
    await expect(issueDocumentNumber(t.database.db, 'PO', { now: clock() })).rejects.toThrow(/inside the saving transaction/);
  });

  it('issues with the rule as it is now, even right after another node changed, deleted or re-created it', async () => {
    const post = (code: string, prefix: string) =>
      t.call(admin, { method: 'POST', url: '/api/app/document-number', payload: { code, name: code, resetPeriod: 'never', segments: [{ type: 'text', value: prefix }, { type: 'serial', width: 3 }] } });
    const first = (await post('K', 'K-')).json();
    const issue = () => t.database.db.transaction().execute(async (trx) => (await issueDocumentNumber(trx, 'k')).docNo);
    expect(await issue()).toBe('K-001');
    expect(await issue()).toBe('K-002');
    // Changed behind this node's back (a plain UPDATE, as another node would): the new text applies at once.
    await t.database.db
      .updateTable('document_number_rules')
      .set({ segments: JSON.stringify([{ type: 'text', value: 'KK/' }, { type: 'serial', width: 3, start: 1, step: 1 }]), concurrency_stamp: 'changed-elsewhere' })
      .where('id', '=', first.id)
      .execute();
    expect(await issue()).toBe('KK/003');
    // Deleted and created again under the same code: a new rule with a new counter.
    expect((await t.call(admin, { method: 'DELETE', url: `/api/app/document-number/${first.id}` })).statusCode).toBe(204);
    await expect(issue()).rejects.toMatchObject({ statusCode: 404 });
    expect((await post('K', 'N-')).statusCode).toBe(200);
    expect(await issue()).toBe('N-001');
  });
});
