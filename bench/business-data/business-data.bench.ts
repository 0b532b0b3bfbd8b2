/**
 * Issue 8 benchmark on PostgreSQL: `POST /api/app/business-data/query-view-data` on a 1,000,000-row
 * view with a three-condition filter, sorted, paging 20, under 50 concurrent clients — next to the
 * same SQL (page + capped count, as the API runs it) sent directly through `pg` by 50 clients in
 * the same run (the limit). Then the same query by a non-admin whose data scope is "own", and
 * `save-page` of a master with 20 lines.
 *
 * Issue 12 (labels): the same filtered, sorted page of 20 from two tables seeded alike, one whose
 * Supplier and Grade columns are business-dictionary drop-downs and Customer a lookup (so the
 * answer carries their labels), one where they are plain text and id columns — plain, labelled,
 * plain again, in the same run (target: labelled ≥ 90% of plain).
 *
 * The list's filter columns carry the index a DBA adds for this list ("Region", "Status",
 * "Amount"); the API and the direct SQL use the same index.
 *
 * Run: `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/business-data/business-data.bench.ts`
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { load, startServer, type LoadResult } from '../lib/run.ts';
import { BD_BENCH_PASSWORD } from '../lib/constants.ts';
import { createThrowawayDatabase, dropThrowawayDatabase } from '../lib/throwaway-database.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Rows of each of the two label-case tables. */
const LABEL_ROWS = Number(process.env.BENCH_LABEL_ROWS ?? 200_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) {
  console.log('bench/business-data measures PostgreSQL: set DATABASE_URL=postgres://user@host:5432/db');
  process.exit(0);
}

const dbUrl = await createThrowawayDatabase(baseUrl, 'bd');
const server = await startServer('bench/business-data/bd-server.ts', { BD_DATABASE_URL: dbUrl });
const pool = new pg.Pool({ connectionString: dbUrl, max: CLIENTS });

async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return JSON.parse(text) as T;
}
async function login(userName: string, password: string) {
  const res = await fetch(`${server.url}/api/Auth/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: userName, password }) });
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}
const control = (code: string, controlType: number, extra: object = {}) => ({ id: randomUUID(), code, title: code, controlType, isDisplayed: true, isEdit: true, ...extra });

/** 50 concurrent loops of `op`; requests per second and latency percentiles. */
async function loops(name: string, op: () => Promise<unknown>): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          await op();
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => Math.round(latencies[Math.floor(latencies.length * p)] ?? 0);
  return { name, requestsPerSecond: Math.round(latencies.length / elapsed), p50: pct(0.5), p99: pct(0.99), non2xx: 0, errors };
}

/**
 * Issue 12: two dictionaries (50 suppliers, 5 grades), a customers page (200 rows) and two order
 * pages seeded with the same LABEL_ROWS rows — "labelled" (dictionary drop-downs and a lookup) and
 * "plain" (text and id columns) — then the same list query on each: plain, labelled, plain again.
 */
async function labelCases(token: string): Promise<LoadResult[]> {
  const dictionary = (code: string, count: number) =>
    call(token, 'POST', '/app/business-dictionary', {
      code,
      title: { 'zh-CN': code, 'en-US': code },
      items: Array.from({ length: count }, (_, i) => ({ code: `${code}-${i}`, label: { 'zh-CN': `${code} 第${i}项`, 'en-US': `${code} item ${i}` } })),
    });
  await dictionary('BenchSupplier', 50);
  await dictionary('BenchGrade', 5);
  const customers = { id: randomUUID(), code: 'Customers', title: 'Customers', viewType: 1, viewButtons: [], viewControls: [], dataControls: [control('CustomerName', 1001)] };
  const publish = async (code: string, view: object) => {
    const created = await call<{ id: string }>(token, 'POST', '/app/page-definition', { code, name: { 'zh-CN': code, 'en-US': code }, definition: { viewControls: [view], pageButtons: [], dataLinkages: [] } });
    await call(token, 'POST', `/app/page-definition/${created.id}/publish`, {});
    return created.id;
  };
  await publish('BenchCustomers', customers);
  const customerTable = `biz."v_${customers.id.replace(/-/g, '')}"`;
  await pool.query(`insert into ${customerTable} ("Id", "ConcurrencyStamp", "CreationTime", "CustomerName") select ('00000000-0000-4000-9000-' || lpad(g::text, 12, '0'))::uuid, 's', now(), 'Customer ' || g from generate_series(0, 199) as g`);
  const orderView = (labelled: boolean) => ({
    id: randomUUID(), code: 'Orders', title: 'Orders', viewType: 1, viewButtons: [], viewControls: [],
    dataControls: [
      control('Region', 1001), control('Status', 1001), control('Amount', 1003, { extraProperties: { accuracy: 2 } }),
      labelled ? control('Supplier', 1006, { options: { dictionaryCode: 'BenchSupplier' } }) : control('Supplier', 1001),
      labelled ? control('Grade', 1006, { options: { dictionaryCode: 'BenchGrade' } }) : control('Grade', 1001),
      labelled ? control('Customer', 1010, { extraProperties: { dataSourceId: customers.id, dataSourceTitle: 'CustomerName' } }) : control('Customer', 3001),
    ],
  });
  const runs: { name: string; body: string }[] = [];
  for (const labelled of [false, true]) {
    const view = orderView(labelled);
    const pageId = await publish(labelled ? 'BenchLabelled' : 'BenchPlain', view);
    const table = `biz."v_${view.id.replace(/-/g, '')}"`;
    console.log(`seeding ${LABEL_ROWS} rows of ${labelled ? 'the labelled' : 'the plain'} page…`);
    await pool.query(`
      insert into ${table} ("Id", "ConcurrencyStamp", "CreationTime", "Region", "Status", "Amount", "Supplier", "Grade", "Customer")
      select gen_random_uuid(), 's', now() - g * interval '1 second', 'R' || lpad((g % 20)::text, 2, '0'), (array['open','paid','shipped','closed','void'])[1 + (g / 20) % 5],
        ((g::bigint * 7919) % 1000000) / 100.0, 'BenchSupplier-' || (g % 50), 'BenchGrade-' || (g % 5),
        to_jsonb('00000000-0000-4000-9000-' || lpad((g % 200)::text, 12, '0'))
      from generate_series(1, ${LABEL_ROWS}) as g`);
    await pool.query(`create index on ${table} ("Region", "Status", "Amount")`);
    await pool.query(`vacuum analyze ${table}`);
    runs.push({
      name: labelled ? 'query-view-data, 2 dictionary columns + 1 lookup shown as labels' : 'query-view-data, same columns without labels',
      body: JSON.stringify({ pageId, viewId: view.id, filterConditions: [{ key: 'Region', judgmentMethod: 'eq', value: 'R07' }, { key: 'Status', judgmentMethod: 'eq', value: 'shipped', linkCondition: 'and' }], Sorting: 'Amount desc', SkipCount: 0, MaxResultCount: 20 }),
    });
  }
  const probe = await call<{ items: unknown[]; labels: Record<string, Record<string, string>> }>(token, 'POST', '/app/business-data/query-view-data', JSON.parse(runs[1]!.body));
  console.log(`labelled page of ${probe.items.length}: ${Object.entries(probe.labels).map(([code, map]) => `${code} ${Object.keys(map).length} labels`).join(', ')}`);
  const run = (r: { name: string; body: string }, suffix = '') =>
    load(r.name + suffix, { url: `${server.url}/api/app/business-data/query-view-data`, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: r.body, duration: SECONDS, connections: CLIENTS });
  return [await run(runs[0]!, ' (before)'), await run(runs[1]!), await run(runs[0]!, ' (after)')];
}

try {
  const token = await login('admin', BD_BENCH_PASSWORD);
  const orders = { id: randomUUID(), code: 'Orders', title: 'Orders', viewType: 1, viewButtons: [], viewControls: [] as object[], dataControls: [control('Customer', 1001), control('Region', 1001), control('Status', 1001), control('Amount', 1003, { extraProperties: { accuracy: 2 } }), control('Qty', 1002), control('OrderDate', 1004)] };
  const qty = control('Qty', 1002);
  const price = control('Price', 1003, { extraProperties: { accuracy: 2 } });
  const amount = control('LineAmount', 1003, { valueTakingType: 2, extraProperties: { accuracy: 2 } });
  const lines = { id: randomUUID(), code: 'Lines', title: 'Lines', viewType: 2, parentViewControlId: orders.id, associateForeignKeyCode: 'ParentViewDataId', viewButtons: [], viewControls: [], dataControls: [control('Product', 1001), qty, price, amount] };
  orders.viewControls = [lines];
  const total = orders.dataControls[3]!;
  const page = await call<{ id: string }>(token, 'POST', '/app/page-definition', {
    code: 'BenchOrders',
    name: { 'zh-CN': 'Bench', 'en-US': 'Bench' },
    definition: {
      viewControls: [orders],
      pageButtons: [],
      dataLinkages: [
        { id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: qty.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: amount.id, assignmentFormula: 'ROUND({Qty} * {Price}, 2)' }] },
        { id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: amount.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: total.id, assignmentFormula: 'SUM({Lines.LineAmount})' }] },
      ],
    },
  });
  await call(token, 'POST', `/app/page-definition/${page.id}/publish`, {});
  const table = `biz."v_${orders.id.replace(/-/g, '')}"`;

  // A scoped user: role "clerk" with Access and every field, data scope "own".
  const roleRes = await call<{ id: string }>(token, 'POST', '/identity/roles', { name: 'clerk' }).catch(async () => (await pool.query(`select id from roles where name = 'clerk'`)).rows[0]);
  const roleId = roleRes.id;
  const codes = ['Biz.BenchOrders.Access', ...['Customer', 'Region', 'Status', 'Amount', 'Qty', 'OrderDate'].map((c) => `Biz.BenchOrders.Field.${c}.Edit`)];
  await pool.query(`insert into permission_grants (name, provider_name, provider_key) select unnest($1::text[]), 'R', $2`, [codes, roleId]);
  await call(token, 'PUT', `/app/data-scopes?roleId=${roleId}`, { items: [{ pageKey: 'BenchOrders', scope: 'own', customFilter: null }] });
  const clerkPassword = 'Clerk#Bench2026';
  const clerk = await call<{ id: string }>(token, 'POST', '/identity/users', { userName: 'clerk', name: 'Clerk', surname: '', email: 'clerk@example.test', phoneNumber: '', password: clerkPassword, roleNames: ['clerk'], isActive: true })
    .catch(async (e) => {
      console.error('user create via API failed, inserting directly:', String(e).slice(0, 200));
      throw e;
    });

  // 1,000,000 rows: 20 regions × 5 statuses, amounts 0–10,000, 100 creators (one of them the clerk).
  console.log(`seeding ${ROWS} rows…`);
  const t0 = performance.now();
  await pool.query(`
    insert into ${table} ("Id", "ConcurrencyStamp", "CreationTime", "CreatorId", "Customer", "Region", "Status", "Amount", "Qty", "OrderDate")
    select gen_random_uuid(), 's', now() - g * interval '1 second',
      case when g % 100 = 0 then $1::uuid else ('00000000-0000-4000-8000-' || lpad((g % 100)::text, 12, '0'))::uuid end,
      'Customer ' || (g % 5000), 'R' || lpad((g % 20)::text, 2, '0'), (array['open','paid','shipped','closed','void'])[1 + (g / 20) % 5],
      ((g::bigint * 7919) % 1000000) / 100.0, g % 50, now() - (g % 365) * interval '1 day'
    from generate_series(1, ${ROWS}) as g`, [clerk.id]);
  await pool.query(`create index bench_orders_filter on ${table} ("Region", "Status", "Amount")`);
  await pool.query(`vacuum analyze ${table}`);
  console.log(`seeded in ${Math.round((performance.now() - t0) / 1000)} s`);

  const filterConditions = [
    { key: 'Region', judgmentMethod: 'eq', value: 'R07' },
    { key: 'Status', judgmentMethod: 'eq', value: 'shipped', linkCondition: 'and' },
    { key: 'Amount', judgmentMethod: 'ge', value: 9000, linkCondition: 'and' },
  ];
  const body = JSON.stringify({ pageId: page.id, viewId: orders.id, filterConditions, Sorting: 'Amount desc', SkipCount: 0, MaxResultCount: 20 });
  const probe = await call<{ totalCount: number; totalCountIsEstimate: boolean; items: unknown[] }>(token, 'POST', '/app/business-data/query-view-data', JSON.parse(body));
  console.log(`filter matches ${probe.totalCount} rows (estimate: ${probe.totalCountIsEstimate}), page of ${probe.items.length}`);

  // The same SQL the API runs: the page, then (a full page) the estimate and the capped count.
  const cols = `t."Id", t."ParentViewDataId", t."DataStatus", t."ConcurrencyStamp", t."CreatorId", t."CreationTime", t."LastModifierId", t."LastModificationTime", t."OwnerOrganizationUnitId", t."FlowStatus", t."Customer", t."Region", t."Status", t."Amount", t."Qty", t."OrderDate"`;
  const where = `t."IsDeleted" = false and ((t."Region" = $1::text) and (t."Status" = $2::text) and (t."Amount" >= $3::numeric))`;
  const args = ['R07', 'shipped', '9000'];
  const direct = async () => {
    const rows = await pool.query(`select ${cols} from ${table} as t where ${where} order by t."Amount" desc nulls last, t."Id" desc limit 20 offset 0`, args);
    if (rows.rowCount === 20) {
      await pool.query(`explain (format json) select 1 from ${table} as t where ${where}`, args);
      await pool.query(`select count(*) as n from (select 1 from ${table} as t where ${where} limit 10001) as s`, args);
    }
  };
  const clerkToken = await login('clerk', clerkPassword);
  const api = (who: string, tok: string) =>
    load(who, { url: `${server.url}/api/app/business-data/query-view-data`, method: 'POST', headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' }, body, duration: SECONDS, connections: CLIENTS });

  const results: LoadResult[] = [];
  results.push(await loops('direct SQL through pg (page + count)', direct));
  results.push(await api('query-view-data, admin', token));
  results.push(await api('query-view-data, clerk (scope: own)', clerkToken));

  const saveBody = JSON.stringify({
    pageId: page.id,
    viewDataList: [
      { viewId: orders.id, dataList: [{ Customer: 'Bench', Region: 'R01', Status: 'open' }] },
      { viewId: lines.id, dataList: Array.from({ length: 20 }, (_, i) => ({ Product: `P${i}`, Qty: i + 1, Price: '9.99' })) },
    ],
  });
  results.push(await load('save-page, master + 20 lines', { url: `${server.url}/api/app/business-data/save-page`, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: saveBody, duration: SECONDS, connections: CLIENTS }));

  const labelRuns = await labelCases(token);

  const [base, adminRun, clerkRun, save] = results as [LoadResult, LoadResult, LoadResult, LoadResult];
  console.log('\n| case | req/s | p50 ms | p99 ms | non-2xx | errors | vs direct SQL |\n|---|---|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${r === save ? '' : `${((r.requestsPerSecond / base.requestsPerSecond) * 100).toFixed(1)}%`} |`);
  console.log(`\nclerk / admin p50 latency: ${(clerkRun.p50 / Math.max(adminRun.p50, 1)).toFixed(2)}×, p99: ${(clerkRun.p99 / Math.max(adminRun.p99, 1)).toFixed(2)}×`);
  const [plainBefore, labelled, plainAfter] = labelRuns as [LoadResult, LoadResult, LoadResult];
  const plain = (plainBefore.requestsPerSecond + plainAfter.requestsPerSecond) / 2;
  console.log('\n| labels case | req/s | p50 ms | p99 ms | non-2xx | errors | vs plain (mean of both runs) |\n|---|---|---|---|---|---|---|');
  for (const r of labelRuns) console.log(`| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${((r.requestsPerSecond / plain) * 100).toFixed(1)}% |`);
} finally {
  await pool.end();
  await server.stop();
  await dropThrowawayDatabase(baseUrl, dbUrl);
}
