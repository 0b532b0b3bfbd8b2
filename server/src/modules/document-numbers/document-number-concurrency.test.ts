import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { consumeReservedNumber, issueDocumentNumber, voidStaleReservations } from './document-number-issuer.ts';

// spec §4 / issue 6: numbers are unique and gap-free among committed transactions, on PostgreSQL
// (many connections racing for the counter row) and on the embedded PGlite (one connection).
const onPostgres = !!process.env.DATABASE_URL;
const REQUESTS = onPostgres ? 1000 : 200;
const SAVES = onPostgres ? 300 : 100;

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  await sql`create table docno_test_records (doc_no text primary key, serial integer not null)`.execute(t.database.db);
});
afterAll(() => t.close());

const db = () => t.database.db;
const createRule = async (code: string, width = 6) => {
  const res = await t.call(admin, {
    method: 'POST',
    url: '/api/app/document-number',
    payload: { code, name: code, resetPeriod: 'never', segments: [{ type: 'text', value: `${code}-` }, { type: 'serial', width }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
};
const consecutive = (code: string, n: number, width = 6) => Array.from({ length: n }, (_, i) => `${code}-${String(i + 1).padStart(width, '0')}`);
const pause = () => new Promise((r) => setTimeout(r, Math.random() * 3));

describe(`document numbers under concurrency (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it(`gives ${REQUESTS} concurrent doc-no requests ${REQUESTS} distinct consecutive numbers`, async () => {
    const ruleId = await createRule('C');
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, () => t.call(admin, { method: 'GET', url: `/api/app/document-number/${ruleId}/doc-no` })),
    );
    expect(responses.filter((r) => r.statusCode !== 200).map((r) => r.body)).toEqual([]);
    const numbers = responses.map((r) => r.json().docNo as string);
    expect(new Set(numbers).size).toBe(REQUESTS);
    expect([...numbers].sort()).toEqual(consecutive('C', REQUESTS));
    const reservations = await db().selectFrom('document_number_reservations').select(['doc_no', 'status']).where('rule_id', '=', ruleId).execute();
    expect(reservations).toHaveLength(REQUESTS);
    expect(reservations.every((r) => r.status === 'reserved')).toBe(true);
    const counter = await db().selectFrom('document_number_counters').select('value').where('rule_id', '=', ruleId).executeTakeFirstOrThrow();
    expect(counter.value).toBe(REQUESTS);
  });

  it('keeps committed numbers free of duplicates and gaps when 10% of the saving transactions roll back', async () => {
    await createRule('S');
    const outcomes = await Promise.allSettled(
      Array.from({ length: SAVES }, (_, i) =>
        db()
          .transaction()
          .execute(async (trx) => {
            const issued = await issueDocumentNumber(trx, 'S');
            await pause();
            await sql`insert into docno_test_records (doc_no, serial) values (${issued.docNo}, ${issued.serial})`.execute(trx);
            if (i % 10 === 3) throw new Error('the save failed');
            return issued.docNo;
          }),
      ),
    );
    const failed = outcomes.filter((o) => o.status === 'rejected');
    expect(failed).toHaveLength(SAVES / 10);
    expect(failed.every((o) => (o as PromiseRejectedResult).reason.message === 'the save failed')).toBe(true);
    const committed = await sql<{ doc_no: string }>`select doc_no from docno_test_records where doc_no like 'S-%'`.execute(db());
    const numbers = committed.rows.map((r) => r.doc_no).sort();
    expect(numbers).toEqual(consecutive('S', SAVES - SAVES / 10));
    // What each committed transaction was told matches what it stored.
    const told = outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<string>).value).sort();
    expect(told).toEqual(numbers);
  });

  it('accounts for every reserved number: saved ones used, rolled-back or abandoned ones void, none twice', async () => {
    const ruleId = await createRule('R', 4);
    const N = 50;
    const fetched = (await Promise.all(Array.from({ length: N }, () => t.call(admin, { method: 'GET', url: `/api/app/document-number/R/doc-no` })))).map(
      (r) => r.json().docNo as string,
    );
    expect([...fetched].sort()).toEqual(consecutive('R', N, 4));
    // Every record is saved concurrently; every tenth save rolls back, and one number is saved twice.
    const saves = await Promise.allSettled(
      [...fetched, fetched[0]!].map((docNo, i) =>
        db()
          .transaction()
          .execute(async (trx) => {
            await consumeReservedNumber(trx, ruleId, docNo);
            await pause();
            await sql`insert into docno_test_records (doc_no, serial) values (${docNo}, ${i})`.execute(trx);
            if (i % 10 === 5) throw new Error('the save failed');
          }),
      ),
    );
    const rejected = saves.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason);
    expect(rejected).toHaveLength(N / 10 + 1);
    // The second save of the same number is refused, whichever of the two committed first.
    expect(rejected.filter((e) => e.code === 'DocumentNumberUsed' || e.code === '23505')).toHaveLength(1);
    await voidStaleReservations(db(), new Date(Date.now() + 2 * 24 * 3600_000));
    const rows = await db().selectFrom('document_number_reservations').select(['doc_no', 'status', 'serial']).where('rule_id', '=', ruleId).orderBy('serial').execute();
    expect(rows.map((r) => Number(r.serial))).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    const used = rows.filter((r) => r.status === 'used').map((r) => r.doc_no);
    const saved = (await sql<{ doc_no: string }>`select doc_no from docno_test_records where doc_no like 'R-%' order by doc_no`.execute(db())).rows.map((r) => r.doc_no);
    expect(used.sort()).toEqual(saved);
    expect(used).toHaveLength(N - N / 10);
    expect(rows.filter((r) => r.status === 'void')).toHaveLength(N / 10);
    expect(rows.filter((r) => r.status === 'reserved')).toHaveLength(0);
  });

  it('leaves a deadlock across two rules issued in opposite orders to the database to break, without hanging', async () => {
    await createRule('DX');
    await createRule('DY');
    const started = Date.now();
    const both = await Promise.allSettled(
      [
        ['DX', 'DY'],
        ['DY', 'DX'],
      ].map(([a, b]) =>
        db()
          .transaction()
          .execute(async (trx) => {
            await issueDocumentNumber(trx, a!);
            await new Promise((r) => setTimeout(r, 100));
            await issueDocumentNumber(trx, b!);
          }),
      ),
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(both.some((r) => r.status === 'fulfilled')).toBe(true);
    // On PostgreSQL the two wait for each other and the deadlock detector aborts one; PGlite runs them one after the other.
    for (const r of both) if (r.status === 'rejected') expect(r.reason.code).toBe('40P01');
  });

  it('refuses to issue outside a transaction (the number would commit without its record)', async () => {
    await expect(issueDocumentNumber(db(), 'S')).rejects.toThrow(/inside the saving transaction/);
    await expect(db().transaction().execute((trx) => issueDocumentNumber(trx, 'missing'))).rejects.toMatchObject({ statusCode: 404 });
  });
});
