/**
 * Issue 6 benchmark: document numbers issued per second for one rule under 50 concurrent clients
 * on PostgreSQL, next to the limit — a bare `UPDATE … RETURNING` loop on the same counter table in
 * the same run. Every client contends for the same counter row, so the row lock decides.
 *
 *  - bare: 50 clients, each `UPDATE document_number_counters SET value = value + 1 … RETURNING` (autocommit),
 *    run before and after the other cases (the shared machine drifts); the limit is their mean
 *  - issueDocumentNumber: 50 clients, each a transaction that issues one number (what a save adds)
 *  - GET /{id}/doc-no: 50 HTTP connections (autocannon) on the real server: auth, rule, counter,
 *    reservation row, in one transaction
 *
 * Run: `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/docno/docno.bench.ts`
 */
import pg from 'pg';
import { openDatabase } from '../../server/src/db/database.ts';
import { issueDocumentNumber } from '../../server/src/modules/document-numbers/document-number-issuer.ts';
import { load, startServer } from '../lib/run.ts';
import { DOCNO_BENCH_PASSWORD } from '../lib/constants.ts';
import { createThrowawayDatabase, dropThrowawayDatabase } from '../lib/throwaway-database.ts';

const CLIENTS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) {
  console.log('bench/docno measures PostgreSQL: set DATABASE_URL=postgres://user@host:5432/db');
  process.exit(0);
}

const dbUrl = await createThrowawayDatabase(baseUrl, 'docno');

interface Row {
  name: string;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

/** 50 concurrent loops of `op` for SECONDS; numbers per second and latency percentiles. */
async function loops(label: string, op: () => Promise<unknown>): Promise<Row> {
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: unknown;
  const end = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          await op();
          latencies.push(performance.now() - t0);
        } catch (err) {
          failures++;
          firstFailure ??= err;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  if (firstFailure) console.log(`${label}: ${failures} failures, the first: ${String(firstFailure)}`);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => Math.round((latencies[Math.floor(latencies.length * p)] ?? 0) * 10) / 10;
  return { name: label, perSecond: Math.round(latencies.length / elapsed), p50: pct(0.5), p99: pct(0.99), failures };
}

const server = await startServer('bench/docno/docno-server.ts', { DOCNO_DATABASE_URL: dbUrl });
// Each case opens its 50 connections and closes them before the next (PostgreSQL's default
// max_connections is 100, and the server under test holds its own pool).
const pool = new pg.Pool({ connectionString: dbUrl, max: 2 });
try {
  const login = await fetch(`${server.url}/api/Auth/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: DOCNO_BENCH_PASSWORD }),
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  const createRule = async (code: string) => {
    const res = await fetch(`${server.url}/api/app/document-number`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        code,
        name: code,
        resetPeriod: 'daily',
        timeZone: 'Asia/Shanghai',
        segments: [{ type: 'text', value: `${code}-` }, { type: 'date', pattern: 'yyyyMMdd' }, { type: 'text', value: '-' }, { type: 'serial', width: 8 }],
      }),
    });
    return ((await res.json()) as { id: string }).id;
  };
  const bareRule = await createRule('BARE');
  const serviceRule = await createRule('SVC');
  const httpRule = await createRule('HTTP');

  await pool.query(`insert into document_number_counters (rule_id, period_key, value) values ($1, 'bare', 0)`, [bareRule]);
  const bareLoop = async (label: string) => {
    const barePool = new pg.Pool({ connectionString: dbUrl, max: CLIENTS });
    try {
      return await loops(label, () =>
        barePool.query('update document_number_counters set value = value + 1 where rule_id = $1 and period_key = $2 returning value', [bareRule, 'bare']),
      );
    } finally {
      await barePool.end();
    }
  };
  // The bare loop runs first and last: the machine is shared, so the limit is the mean of both.
  const bareBefore = await bareLoop('bare `UPDATE … RETURNING` (autocommit), before');
  const handle = await openDatabase({ databaseUrl: dbUrl, pgliteDataDir: '', poolSize: CLIENTS });
  let service: Row;
  try {
    service = await loops('issueDocumentNumber in a transaction', () => handle.db.transaction().execute((trx) => issueDocumentNumber(trx, serviceRule)));
  } finally {
    await handle.close();
  }
  const http = await load('GET /{id}/doc-no (HTTP, reserved)', {
    url: `${server.url}/api/app/document-number/${httpRule}/doc-no`,
    headers: { authorization: `Bearer ${token}` },
    connections: CLIENTS,
    duration: SECONDS,
  });
  const bareAfter = await bareLoop('bare `UPDATE … RETURNING` (autocommit), after');
  const bare = { perSecond: (bareBefore.perSecond + bareAfter.perSecond) / 2 };

  // Every number issued exactly once: the counters equal what the clients received.
  const counter = async (rule: string) =>
    Number((await pool.query('select coalesce(sum(value), 0) as n from document_number_counters where rule_id = $1', [rule])).rows[0].n);
  const reservations = await pool.query(
    'select count(*)::int as n, count(distinct doc_no)::int as d, max(serial)::int as m from document_number_reservations where rule_id = $1',
    [httpRule],
  );
  const served = http.requestsPerSecond * SECONDS;
  console.log(`\nDatabase: PostgreSQL, ${CLIENTS} concurrent clients, ${SECONDS} s each\n`);
  console.log('| case | numbers/s | p50 ms | p99 ms | failures | vs bare |');
  console.log('|---|---|---|---|---|---|');
  const ratio = (n: number) => `${((n / bare.perSecond) * 100).toFixed(1)}%`;
  for (const r of [bareBefore, bareAfter, service]) console.log(`| ${r.name} | ${r.perSecond} | ${r.p50} | ${r.p99} | ${r.failures} | ${ratio(r.perSecond)} |`);
  console.log(`| ${http.name} | ${http.requestsPerSecond} | ${http.p50} | ${http.p99} | ${http.non2xx + http.errors} | ${ratio(http.requestsPerSecond)} |`);
  console.log(
    `\nChecks: service counter ${await counter(serviceRule)}; HTTP reservations ${reservations.rows[0].n} (distinct ${reservations.rows[0].d}, ` +
      `max serial ${reservations.rows[0].m}, counter ${await counter(httpRule)}, ≈${served} answered)`,
  );
} finally {
  await pool.end();
  await server.stop();
  await dropThrowawayDatabase(baseUrl, dbUrl);
}
