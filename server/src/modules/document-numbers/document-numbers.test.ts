import { P } from '@tessera/core/contracts/permissions';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { consumeReservedNumber, setDocumentNumberClock } from './document-number-issuer.ts';

let t: TestApp;
let admin: string;
const URL = '/api/app/document-number';
const NOW = new Date('2026-05-20T10:00:00+08:00');

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  setDocumentNumberClock(() => NOW);
});
afterAll(async () => {
  setDocumentNumberClock(null);
  await t.close();
});
afterEach(() => setDocumentNumberClock(() => NOW));

const db = () => t.database.db;
const salesOrders = {
  code: 'SO',
  name: '销售订单',
  resetPeriod: 'daily',
  timeZone: 'Asia/Shanghai',
  segments: [
    { type: 'text', value: 'SO' },
    { type: 'date', pattern: 'yyyyMMdd' },
    { type: 'text', value: '-' },
    { type: 'serial', width: 4, start: 1, step: 1 },
  ],
};
const create = async (body: object, token = admin) => {
  const res = await t.call(token, { method: 'POST', url: URL, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const docNo = async (rule: string, token = admin) => {
  const res = await t.call(token, { method: 'GET', url: `${URL}/${rule}/doc-no` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().docNo as string;
};

describe('document-number rules', () => {
  let rule: { id: string; concurrencyStamp: string };

  it('creates a rule and shows its next number', async () => {
    rule = await create(salesOrders);
    expect(rule).toMatchObject({
      code: 'SO',
      name: '销售订单',
      description: '',
      resetPeriod: 'daily',
      timeZone: 'Asia/Shanghai',
      nextNumber: 'SO20260520-0001',
      hasIssuedNumbers: false,
    });
    expect((rule as unknown as { segments: unknown[] }).segments[3]).toEqual({ type: 'serial', width: 4, start: 1, step: 1 });
    const list = (await t.call(admin, { method: 'GET', url: `${URL}?Filter=${encodeURIComponent('销售')}` })).json();
    expect(list).toMatchObject({ totalCount: 1, items: [{ id: rule.id }] });
    expect((await t.call(admin, { method: 'GET', url: `${URL}?Filter=nothing` })).json().totalCount).toBe(0);
    expect((await t.call(admin, { method: 'GET', url: `${URL}/so` })).json().id).toBe(rule.id);
    expect((await t.call(admin, { method: 'GET', url: `${URL}/${rule.id}` })).json().code).toBe('SO');
    expect((await t.call(admin, { method: 'GET', url: `${URL}/nope` })).statusCode).toBe(404);
  });

  it('rejects bad rules before writing', async () => {
    const serial = { type: 'serial', width: 4 };
    const bad: object[] = [
      {},
      { ...salesOrders, code: 'SO' },
      { ...salesOrders, code: 'so' },
      { ...salesOrders, code: '9x' },
      { ...salesOrders, code: 'X', name: '' },
      { ...salesOrders, code: 'X', resetPeriod: 'weekly' },
      { ...salesOrders, code: 'X', segments: [] },
      { ...salesOrders, code: 'X', segments: [{ type: 'text', value: 'A' }] },
      { ...salesOrders, code: 'X', segments: [serial, serial] },
      { ...salesOrders, code: 'X', segments: [{ type: 'date', pattern: 'yyyyMM' }, serial] },
      { ...salesOrders, code: 'X', segments: [{ type: 'date', pattern: 'yyyy<script>' }, serial] },
      { ...salesOrders, code: 'X', segments: [{ type: 'date', pattern: 'yyyyMMdd' }, { type: 'serial', width: 0 }] },
      { ...salesOrders, code: 'X', segments: [{ type: 'date', pattern: 'yyyyMMdd' }, { type: 'serial', width: 4, step: 0 }] },
      { ...salesOrders, code: 'X', segments: [{ type: 'date', pattern: 'yyyyMMdd' }, serial, { type: 'field', fieldCode: 'a-b' }] },
      { ...salesOrders, code: 'X', segments: [{ type: 'date', pattern: 'yyyyMMdd' }, serial, { type: 'unknown' }] },
      { ...salesOrders, code: 'X', timeZone: 'Mars/Olympus' },
    ];
    for (const body of bad) {
      const res = await t.call(admin, { method: 'POST', url: URL, payload: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    const daily = await t.call(admin, { method: 'POST', url: URL, payload: { ...salesOrders, code: 'X', segments: [{ type: 'date', pattern: 'yyyyMM' }, serial] } });
    expect(daily.json().error.validationErrors[0]).toMatchObject({ members: ['body.resetPeriod'] });
    expect((await t.call(admin, { method: 'GET', url: URL })).json().totalCount).toBe(1);
  });

  it('previews the next three numbers without consuming any', async () => {
    const preview = async (body: object) => {
      const res = await t.call(admin, { method: 'POST', url: `${URL}/preview`, payload: body });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const fresh = await preview({ rule: { resetPeriod: 'monthly', segments: [{ type: 'text', value: 'PO' }, { type: 'date', pattern: 'yyMM' }, { type: 'serial', width: 3, start: 10, step: 5 }, { type: 'field', fieldCode: 'Dept' }] } });
    expect(fresh).toEqual({ periodKey: '202605', numbers: ['PO2605010{Dept}', 'PO2605015{Dept}', 'PO2605020{Dept}'] });
    expect((await preview({ rule: { resetPeriod: 'never', segments: [{ type: 'field', fieldCode: 'Dept' }, { type: 'serial', width: 2 }] }, record: { Dept: 'HR' }, count: 2 })).numbers).toEqual(['HR01', 'HR02']);
    // A saved rule continues from its counter; previews consume nothing.
    await docNo(rule.id);
    await docNo(rule.id);
    const body = { rule: salesOrders, ruleId: rule.id };
    expect((await preview(body)).numbers).toEqual(['SO20260520-0003', 'SO20260520-0004', 'SO20260520-0005']);
    expect((await preview(body)).numbers[0]).toBe('SO20260520-0003');
    const invalid = await t.call(admin, { method: 'POST', url: `${URL}/preview`, payload: { rule: { resetPeriod: 'daily', segments: [{ type: 'serial', width: 3 }] } } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.validationErrors[0].members).toEqual(['body.rule.resetPeriod']);
    expect((await t.call(admin, { method: 'POST', url: `${URL}/preview`, payload: { ...body, ruleId: '0190a0a0-0000-7000-8000-000000000000' } })).statusCode).toBe(404);
  });

  it('fixes the reset period and serial once numbers were issued; other changes are fine', async () => {
    const current = (await t.call(admin, { method: 'GET', url: `${URL}/${rule.id}` })).json();
    expect(current).toMatchObject({ hasIssuedNumbers: true, nextNumber: 'SO20260520-0003' });
    const put = (body: object) => t.call(admin, { method: 'PUT', url: `${URL}/${rule.id}`, payload: body });
    const reset = await put({ ...salesOrders, resetPeriod: 'never' });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error.validationErrors[0].members).toEqual(['resetPeriod']);
    const start = await put({ ...salesOrders, segments: [...salesOrders.segments.slice(0, 3), { type: 'serial', width: 4, start: 0, step: 1 }] });
    expect(start.statusCode).toBe(400);
    expect(start.json().error.validationErrors[0].members).toEqual(['segments.3.start']);
    const renamed = await put({ ...salesOrders, name: 'Sales orders', description: 'wider serial', segments: [{ type: 'text', value: 'XS' }, ...salesOrders.segments.slice(1, 3), { type: 'serial', width: 6, start: 1, step: 1 }], concurrencyStamp: current.concurrencyStamp });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Sales orders', nextNumber: 'XS20260520-000003' });
    expect((await put({ ...salesOrders, concurrencyStamp: current.concurrencyStamp })).statusCode).toBe(409);
    await create({ ...salesOrders, code: 'PO', name: '采购订单' });
    expect((await put({ ...salesOrders, code: 'po' })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'PUT', url: `${URL}/0190a0a0-0000-7000-8000-000000000000`, payload: salesOrders })).statusCode).toBe(404);
    await put(salesOrders);
  });

  it('reserves numbers for new records: the save uses them, abandoned ones are voided, none is reused', async () => {
    const a = await docNo('SO');
    const b = await docNo(rule.id);
    const c = await docNo(rule.id);
    expect([a, b, c]).toEqual(['SO20260520-0003', 'SO20260520-0004', 'SO20260520-0005']);
    // The record with `a` is saved; its save transaction marks the number used.
    await db().transaction().execute((trx) => consumeReservedNumber(trx, rule.id, a));
    // A save that rolls back leaves the number reserved.
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await consumeReservedNumber(trx, 'SO', b);
          throw new Error('save failed');
        }),
    ).rejects.toThrow('save failed');
    // A number cannot be used twice, nor one that was never issued.
    await expect(db().transaction().execute((trx) => consumeReservedNumber(trx, rule.id, a))).rejects.toMatchObject({ code: 'DocumentNumberUsed', statusCode: 400 });
    await expect(db().transaction().execute((trx) => consumeReservedNumber(trx, rule.id, 'SO20260520-9999'))).rejects.toMatchObject({ code: 'DocumentNumberUnknown' });
    // The user closes the form for `c`: the number is voided, and can no longer be used.
    const voided = await t.call(admin, { method: 'POST', url: `${URL}/${rule.id}/doc-no/void`, payload: { docNo: c } });
    expect(voided.statusCode).toBe(204);
    await expect(db().transaction().execute((trx) => consumeReservedNumber(trx, rule.id, c))).rejects.toMatchObject({ code: 'DocumentNumberVoid' });
    expect((await t.call(admin, { method: 'POST', url: `${URL}/${rule.id}/doc-no/void`, payload: { docNo: c } })).statusCode).toBe(400);
    // The next number follows on; nothing is handed out twice.
    expect(await docNo(rule.id)).toBe('SO20260520-0006');

    const log = (await t.call(admin, { method: 'GET', url: `${URL}/${rule.id}/reservations` })).json();
    expect(log.totalCount).toBe(6);
    expect(log.items.map((r: { docNo: string; status: string }) => [r.docNo, r.status])).toEqual([
      ['SO20260520-0006', 'reserved'],
      ['SO20260520-0005', 'void'],
      ['SO20260520-0004', 'reserved'],
      ['SO20260520-0003', 'used'],
      ['SO20260520-0002', 'reserved'],
      ['SO20260520-0001', 'reserved'],
    ]);
    expect(log.items[0]).toMatchObject({ reservedBy: 'admin', serial: 6, periodKey: '20260520', usedAt: null });
    const used = (await t.call(admin, { method: 'GET', url: `${URL}/${rule.id}/reservations?Status=used` })).json();
    expect(used.items.map((r: { docNo: string }) => r.docNo)).toEqual([a]);

    // A day later, reservations nobody saved are voided by the next fetch.
    setDocumentNumberClock(() => new Date(NOW.getTime() + 26 * 3600_000));
    expect(await docNo(rule.id)).toBe('SO20260521-0001');
    const statuses = (await t.call(admin, { method: 'GET', url: `${URL}/${rule.id}/reservations?MaxResultCount=100` })).json().items.map((r: { status: string }) => r.status);
    expect(statuses).toEqual(['reserved', 'void', 'void', 'void', 'used', 'void', 'void']);
  });

  it('formats reserved numbers in the one-statement reservation exactly as previews do (start, step, width never cut)', async () => {
    const q = await create({ code: 'Q', name: 'Q', resetPeriod: 'never', segments: [{ type: 'text', value: 'Q' }, { type: 'serial', width: 2, start: 98, step: 5 }, { type: 'text', value: '/x' }] });
    expect(q.nextNumber).toBe('Q98/x');
    expect([await docNo('Q'), await docNo(q.id), await docNo('q')]).toEqual(['Q98/x', 'Q103/x', 'Q108/x']);
    const rows = await db().selectFrom('document_number_reservations').select(['serial', 'doc_no', 'status']).where('rule_id', '=', q.id).orderBy('serial').execute();
    expect(rows.map((r) => [Number(r.serial), r.doc_no, r.status])).toEqual([[1, 'Q98/x', 'reserved'], [2, 'Q103/x', 'reserved'], [3, 'Q108/x', 'reserved']]);
    expect((await t.call(admin, { method: 'GET', url: `${URL}/${q.id}` })).json().nextNumber).toBe('Q113/x');
  });

  it('guards rules, issuing and voiding with their permissions', async () => {
    const clerks = await createRole(db(), 'clerks');
    await createUser(db(), 'clerk', { roles: [clerks] });
    await createUser(db(), 'other-clerk', { roles: [clerks] });
    const clerk = await t.login('clerk', FIXTURE_PASSWORD);
    const otherClerk = await t.login('other-clerk', FIXTURE_PASSWORD);
    for (const req of [
      { method: 'GET' as const, url: URL },
      { method: 'GET' as const, url: `${URL}/${rule.id}` },
      { method: 'GET' as const, url: `${URL}/${rule.id}/doc-no` },
      { method: 'GET' as const, url: `${URL}/${rule.id}/reservations` },
      { method: 'POST' as const, url: `${URL}/preview`, payload: { rule: salesOrders } },
      { method: 'POST' as const, url: URL, payload: { ...salesOrders, code: 'Z' } },
      { method: 'PUT' as const, url: `${URL}/${rule.id}`, payload: salesOrders },
      { method: 'DELETE' as const, url: `${URL}/${rule.id}` },
    ]) {
      expect((await t.call(clerk, req)).statusCode, `${req.method} ${req.url}`).toBe(403);
    }
    // Issuing needs only the issue permission (runtime users creating records).
    await grant(db(), 'R', clerks, [P.DocumentNumbersIssue]);
    t.app.authCache.invalidateAccess();
    const mine = await docNo(rule.id, clerk);
    expect(mine).toMatch(/^SO\d{8}-\d{4}$/);
    expect((await t.call(clerk, { method: 'GET', url: URL })).statusCode).toBe(403);
    // Someone else's reservation is theirs to void.
    const refused = await t.call(otherClerk, { method: 'POST', url: `${URL}/${rule.id}/doc-no/void`, payload: { docNo: mine } });
    expect(refused.statusCode).toBe(403);
    expect((await t.call(clerk, { method: 'POST', url: `${URL}/${rule.id}/doc-no/void`, payload: { docNo: mine } })).statusCode).toBe(204);
    expect((await t.call(null, { method: 'GET', url: `${URL}/${rule.id}/doc-no` })).statusCode).toBe(401);
  });

  it('deletes a rule with its counters and reservations', async () => {
    expect((await t.call(admin, { method: 'DELETE', url: `${URL}/${rule.id}` })).statusCode).toBe(204);
    expect((await t.call(admin, { method: 'GET', url: `${URL}/${rule.id}` })).statusCode).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: `${URL}/${rule.id}/doc-no` })).statusCode).toBe(404);
    expect(await db().selectFrom('document_number_counters').select('rule_id').where('rule_id', '=', rule.id).execute()).toEqual([]);
    expect(await db().selectFrom('document_number_reservations').select('id').where('rule_id', '=', rule.id).execute()).toEqual([]);
    expect((await t.call(admin, { method: 'DELETE', url: `${URL}/${rule.id}` })).statusCode).toBe(404);
    const audit = await db().selectFrom('audit_logs').select('action').where('entity_type', '=', 'DocumentNumberRule').where('entity_id', '=', rule.id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['Created', 'Deleted', 'Updated', 'Updated']);
  });
});
