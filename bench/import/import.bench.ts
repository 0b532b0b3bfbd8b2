/**
 * Issue 27 item 6: importing 100,000 valid rows from Excel (the row cap) into a business page, on
 * PostgreSQL and on the embedded database. Measured: the import's time, the server process's peak
 * memory (VmHWM before → after), and the latency of simple GETs sent one after another while the
 * import runs, next to the same GETs on the idle server in the same run (target: p99 ≤ 2× idle).
 * A 10-row import first starts the import worker, as any earlier import of a running server has.
 * Two GETs: the signed-in user (`current-user`, no table read) and the first page of the user list
 * (a database read) — on the embedded database (one connection) the longest wait of the latter is
 * how long the import's write holds the database.
 *
 * Run: `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/import/import.bench.ts`
 * (without DATABASE_URL only the embedded database is measured; `BENCH_EMBEDDED=0` measures PostgreSQL
 * alone). Run it alone on a quiet machine.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { startServer } from '../lib/run.ts';
import { BD_BENCH_PASSWORD } from '../lib/constants.ts';
import { createThrowawayDatabase, dropThrowawayDatabase } from '../lib/throwaway-database.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const control = (code: string, controlType: number, extra: object = {}) => ({ id: randomUUID(), code, title: code, controlType, isDisplayed: true, isEdit: true, ...extra });

async function workbook(rows: number): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: true });
  const sheet = writer.addWorksheet('Orders');
  sheet.addRow(['Customer', 'Region', 'Qty', 'Price', 'OrderDate', 'Note']).commit();
  for (let i = 1; i <= rows; i++) {
    sheet.addRow([`客户${i % 5000}`, `华东${i % 20}`, (i % 50) + 1, ((i * 37) % 10_000) / 100, new Date(Date.UTC(2026, i % 12, (i % 28) + 1)), `备注 ${i}`]).commit();
  }
  sheet.commit();
  await writer.commit();
  return Buffer.concat(chunks);
}

/** The kernel's high-water mark of a process's resident memory, in MB. */
const peakMb = (pid: number) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
const currentMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

interface Latencies { p50: number; p99: number; max: number; n: number }
function summary(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), max: Math.round((sorted.at(-1) ?? 0) * 10) / 10, n: sorted.length };
}

const trace: [number, number][] = [];
/** Sends `request` one after another (10 ms apart) until `stop` resolves; the latencies. */
async function ping(request: () => Promise<Response>, stop: Promise<unknown>): Promise<number[]> {
  let done = false;
  void stop.finally(() => (done = true));
  const out: number[] = [];
  while (!done) {
    const t0 = performance.now();
    const res = await request();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`ping ${res.status}`);
    out.push(performance.now() - t0);
    if (process.env.BENCH_TRACE) trace.push([t0, performance.now() - t0]);
    await new Promise((r) => setTimeout(r, 10));
  }
  return out;
}

async function measure(label: string, databaseUrl: string | undefined, file: Buffer) {
  const server = await startServer('bench/import/import-server.ts', { IMPORT_DATABASE_URL: databaseUrl ?? '' });
  const pid = server.child.pid!;
  try {
    const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}/api${path}`, init);
    const login = await (await api('/Auth/Login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: BD_BENCH_PASSWORD }) })).json();
    const auth = { authorization: `Bearer ${login.data.accessToken}` };
    const qty = control('Qty', 1002);
    const price = control('Price', 1003, { extraProperties: { accuracy: 2 } });
    const amount = control('Amount', 1003, { valueTakingType: 2, extraProperties: { accuracy: 2 } });
    const orders = { id: randomUUID(), code: 'Orders', title: 'Orders', viewType: 1, viewButtons: [], viewControls: [], dataControls: [control('Customer', 1001), control('Region', 1001), qty, price, amount, control('OrderDate', 1004), control('Note', 1001)] };
    const created = await (await api('/app/page-definition', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        code: 'ImportBench',
        name: { 'zh-CN': '导入', 'en-US': 'Import' },
        definition: { viewControls: [orders], pageButtons: [], dataLinkages: [{ id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: qty.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: amount.id, assignmentFormula: 'ROUND({Qty} * {Price}, 2)' }] }] },
      }),
    })).json();
    const published = await api(`/app/page-definition/${created.id}/publish`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    if (!published.ok) throw new Error(`publish ${published.status} ${await published.text()}`);

    // A first small import starts the import worker (on PostgreSQL), as any earlier import of a running server has.
    const warm = await api(`/app/business-data/import-view-data?pageId=${created.id}&viewId=${orders.id}`, { method: 'POST', headers: { ...auth, 'content-type': XLSX }, body: new Uint8Array(await workbook(10)) });
    if (!warm.ok) throw new Error(`warm-up import ${warm.status} ${await warm.text()}`);
    const me = () => api('/app/sys-function/current-user', { headers: auth });
    const users = () => api('/identity/users?MaxResultCount=10', { headers: auth });
    const idleFor = new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const [idleMe, idleUsers] = await Promise.all([ping(me, idleFor), ping(users, idleFor)]);
    const rssBefore = currentMb(pid);
    const peakBefore = peakMb(pid);

    const t0 = performance.now();
    const importing = api(`/app/business-data/import-view-data?pageId=${created.id}&viewId=${orders.id}`, { method: 'POST', headers: { ...auth, 'content-type': XLSX }, body: new Uint8Array(file) });
    const [busyMe, busyUsers, answer] = await Promise.all([ping(me, importing), ping(users, importing), importing.then(async (r) => ({ status: r.status, body: await r.text() }))]);
    const seconds = (performance.now() - t0) / 1000;
    if (process.env.BENCH_TRACE) {
      const during = trace.filter(([at]) => at >= t0).map(([at, ms]) => [Math.floor((at - t0) / 1000), ms] as const);
      for (let s = 0; s <= seconds; s++) console.log(`second ${s}: ${JSON.stringify(summary(during.filter(([k]) => k === s).map(([, ms]) => ms)))}`);
      trace.length = 0;
    }
    if (answer.status !== 200) throw new Error(`import ${answer.status} ${answer.body.slice(0, 500)}`);
    const count = await (await api('/app/business-data/query-view-data', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ pageId: created.id, viewId: orders.id, MaxResultCount: 1 }) })).json();
    // The answer counts what was written; the list's total is the planner's estimate after the import's ANALYZE.
    if (JSON.parse(answer.body).imported !== ROWS || Math.abs(count.totalCount - ROWS - 10) > ROWS * 0.02) throw new Error(`expected ${ROWS} rows: ${answer.body}, list ${JSON.stringify(count)}`);
    return {
      label,
      seconds: Math.round(seconds * 10) / 10,
      rowsPerSecond: Math.round(ROWS / seconds),
      rss: `${rssBefore} MB → peak ${peakMb(pid)} MB (+${peakMb(pid) - Math.max(peakBefore, rssBefore)} MB over the earlier peak ${peakBefore} MB)`,
      idleMe: summary(idleMe),
      busyMe: summary(busyMe),
      idleUsers: summary(idleUsers),
      busyUsers: summary(busyUsers),
    };
  } finally {
    await server.stop();
  }
}

console.log(`writing a workbook of ${ROWS.toLocaleString('en-US')} rows…`);
const file = await workbook(ROWS);
console.log(`${(file.length / 1024 / 1024).toFixed(1)} MB`);
const results = [];
const baseUrl = process.env.DATABASE_URL;
if (baseUrl) {
  const dbUrl = await createThrowawayDatabase(baseUrl, 'import');
  try {
    results.push(await measure('PostgreSQL', dbUrl, file));
  } finally {
    await dropThrowawayDatabase(baseUrl, dbUrl);
  }
}
if (process.env.BENCH_EMBEDDED !== '0') results.push(await measure('embedded (PGlite)', undefined, file));
for (const r of results) {
  const ratio = (busy: Latencies, idle: Latencies) => (idle.p99 ? (busy.p99 / idle.p99).toFixed(2) : '–');
  console.log(`\n${r.label}: ${ROWS.toLocaleString('en-US')} rows in ${r.seconds} s (${r.rowsPerSecond.toLocaleString('en-US')} rows/s); server memory ${r.rss}`);
  console.log('| GET | idle p50 / p99 / max (ms) | during import p50 / p99 / max (ms) | p99 ratio |');
  console.log('|---|---|---|---|');
  console.log(`| current-user | ${r.idleMe.p50} / ${r.idleMe.p99} / ${r.idleMe.max} (n=${r.idleMe.n}) | ${r.busyMe.p50} / ${r.busyMe.p99} / ${r.busyMe.max} (n=${r.busyMe.n}) | ${ratio(r.busyMe, r.idleMe)}× |`);
  console.log(`| users list (database read) | ${r.idleUsers.p50} / ${r.idleUsers.p99} / ${r.idleUsers.max} (n=${r.idleUsers.n}) | ${r.busyUsers.p50} / ${r.busyUsers.p99} / ${r.busyUsers.max} (n=${r.busyUsers.n}) | ${ratio(r.busyUsers, r.idleUsers)}× |`);
}
