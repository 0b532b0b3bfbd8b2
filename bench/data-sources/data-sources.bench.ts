/**
 * Data sources (issue 16), `npx tsx bench/data-sources/data-sources.bench.ts`: a lookup (1010)
 * drop-down fed by a saved MariaDB query of 100,000 customers, searched as one person types —
 * one request at a time — next to the same SQL sent directly through mysql2 in the same run.
 * Targets: the window's p95 ≤ 300 ms uncached, ≤ 20 ms cached.
 *
 * MariaDB at 127.0.0.1:3306 (root, no password, database `test`; override with MARIADB_HOST,
 * MARIADB_PORT, MARIADB_USER, MARIADB_PASSWORD, MARIADB_DATABASE). The table
 * `tessera_bench_customers` is created, filled and dropped again by the bench. The real server runs
 * in its own process (embedded database for its own tables) and reads the source through its pool.
 *
 *  a. mysql2 directly: the statements the server sends for one window answer (the page of 20
 *     matching names, ordered by name, and the count, each wrapped in the row cap's select), both
 *     at once on a pool of 5, like the server.
 *  b. uncached: `query-open-windows-data` on the control whose query has cacheSeconds 0, with 50
 *     search texts (cities, brands, trades, pairs, digits of the customer number), so every
 *     request scans the table. a and b alternate, request by request.
 *  c. cached: the same call on the control whose query has cacheSeconds 600, four search texts
 *     repeated (each asked once first, which fills the cache).
 */
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import { BENCH_ADMIN_PASSWORD } from '../lib/constants.ts';
import { startServer } from '../lib/run.ts';
import { call, login, percentile } from '../workflow/wf-bench-setup.ts';

const MARIA = {
  host: process.env.MARIADB_HOST ?? '127.0.0.1',
  port: Number(process.env.MARIADB_PORT ?? 3306),
  user: process.env.MARIADB_USER ?? 'root',
  password: process.env.MARIADB_PASSWORD || undefined,
  database: process.env.MARIADB_DATABASE ?? 'test',
};
const TABLE = 'tessera_bench_customers';
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BATCH = 5_000;
/** Requests measured per case. */
const N = Number(process.env.BENCH_SAMPLES ?? 200);
/** Unmeasured requests per case first (JIT, connections, MariaDB's buffer pool). */
const WARM = 20;
/** The window's page size and the source's row cap (the server wraps every read in `limit rowCap + 1`). */
const PAGE_SIZE = 20;
const ROW_CAP = 1_000;
const SQL = `select code, name, region from ${TABLE} where region like :region`;

// ---------------------------------------------------------------- the customers

const CITIES = ['上海', '北京', '广州', '深圳', '杭州', '南京', '苏州', '成都', '武汉', '西安', '天津', '重庆'];
const BRANDS = ['华联', '恒通', '宏达', '鑫源', '远航', '东方', '金桥', '瑞丰', '永信', '天成'];
const TRADES = ['贸易', '科技', '实业', '物流', '电子', '食品', '机械', '化工'];
const SUFFIXES = ['有限公司', '有限公司', '有限公司', '股份有限公司', '集团有限公司'];
const REGIONS = ['华东', '华北', '华南', '华中', '西南', '西北', '东北', '港澳台', '海外', '其他'];

/** A small seeded generator (mulberry32): the same table every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(16);
const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
const customer = (n: number): [string, string, string, string] => {
  const no = String(n).padStart(6, '0');
  return [`C${no}`, `客户 ${no} ${pick(CITIES)}${pick(BRANDS)}${pick(TRADES)}${pick(SUFFIXES)}`, pick(REGIONS), (next() * 1_000_000).toFixed(2)];
};

/** 50 search texts, from ~8,000 matches (a city) to a handful (four digits of the number) and none. */
const SEARCHES = [
  ...CITIES,
  ...BRANDS,
  ...TRADES,
  ...BRANDS.map((b, i) => `${CITIES[i]}${b}`),
  ...['0001', '0123', '1234', '2345', '3456', '4567', '5678', '6789', '9999', '无此客户'],
];
/** What the cached control is asked, over and over. */
const CACHED_SEARCHES = ['上海', '恒通', '科技', '0123'];

// ---------------------------------------------------------------- mysql2 directly

const pool = mysql.createPool({ ...MARIA, connectionLimit: 5, charset: 'utf8mb4', dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });

/** `%`, `_` and the backslash taken literally, as the server binds a search. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
// The text the server sends (server/src/modules/data-sources/source-rows.ts, then executeStatement's
// row-cap wrapper), its :names bound as `?` in order: the query's region, then the search pattern.
const FROM = `from (\n${SQL.replace(':region', '?')}\n) as q\nwhere (cast(q.\`name\` as char) like ?)`;
const PAGE_SQL = `select * from (select * ${FROM}\norder by q.\`name\`\nlimit ${PAGE_SIZE} offset 0\n) as tessera_query limit ${ROW_CAP + 1}`;
const COUNT_SQL = `select * from (select count(*) as n ${FROM}\n) as tessera_query limit ${ROW_CAP + 1}`;

async function direct(search: string): Promise<{ codes: string[]; total: number }> {
  const values = ['%', `%${likeLiteral(search)}%`];
  const [[page], [count]] = await Promise.all([pool.query({ sql: PAGE_SQL, values, rowsAsArray: true }), pool.query({ sql: COUNT_SQL, values, rowsAsArray: true })]);
  return { codes: (page as unknown[][]).map((r) => String(r[0])), total: Number((count as unknown[][])[0]![0]) };
}

async function status(): Promise<Record<string, number>> {
  const [rows] = await pool.query(`show global status where Variable_name in ('Connections', 'Com_select')`);
  return Object.fromEntries((rows as { Variable_name: string; Value: string }[]).map((r) => [r.Variable_name, Number(r.Value)]));
}

const ms = (v: number) => v.toFixed(1);
const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99) };
};

// ---------------------------------------------------------------- run

try {
  const t0 = performance.now();
  await pool.query(`drop table if exists ${TABLE}`);
  await pool.query(`create table ${TABLE} (code varchar(16) not null primary key, name varchar(100) not null, region varchar(16) not null, credit decimal(14,2) not null) default charset = utf8mb4`);
  for (let at = 1; at <= ROWS; at += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, ROWS - at + 1) }, (_, i) => customer(at + i));
    await pool.query(`insert into ${TABLE} (code, name, region, credit) values ?`, [rows]);
  }
  await pool.query(`analyze table ${TABLE}`);
  console.log(`seeded ${ROWS} customers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const server = await startServer();
  try {
    const admin = await login(server.url, 'admin', BENCH_ADMIN_PASSWORD);
    const source = await call<{ id: string }>(server.url, admin, 'POST', '/app/data-source', { name: '客户库 (bench)', kind: 'mysql', ...MARIA, rowCap: ROW_CAP });
    const method = (code: string, cacheSeconds: number) =>
      call(server.url, admin, 'POST', `/app/data-source/${source.id}/method`, { code, name: code, sql: SQL, parameters: [{ name: 'region', type: 'text', defaultValue: '%' }], cacheSeconds });
    await method('customers_live', 0);
    await method('customers_cached', 600);
    const lookup = (code: string, methodCode: string) => ({
      id: randomUUID(),
      code,
      title: code,
      controlType: 1010,
      isDisplayed: true,
      isEdit: true,
      extraProperties: { sourceQuery: { sourceId: source.id, methodCode, valueColumn: 'code' }, dataSourceTitle: 'name' },
    });
    const live = lookup('CustomerLive', 'customers_live');
    const cached = lookup('CustomerCached', 'customers_cached');
    const view = { id: randomUUID(), code: 'Order', title: 'Order', viewType: 1, dataControls: [live, cached], viewButtons: [], viewControls: [] };
    const page = await call<{ id: string }>(server.url, admin, 'POST', '/app/page-definition', { code: 'BenchDataSources', name: { 'zh-CN': '销售订单', 'en-US': 'Sales order' }, definition: { viewControls: [view], pageButtons: [], dataLinkages: [] } });
    await call(server.url, admin, 'POST', `/app/page-definition/${page.id}/publish`, {});

    /** One drop-down answer of the window call, timed from the bench (request, JSON and all). */
    const windowCall = async (controlId: string, filter: string) => {
      const start = performance.now();
      const res = await fetch(`${server.url}/api/app/business-data/query-open-windows-data`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pageId: page.id, dataControlId: controlId, filter, skipCount: 0, maxResultCount: PAGE_SIZE }),
      });
      const text = await res.text();
      const elapsed = performance.now() - start;
      if (!res.ok) throw new Error(`query-open-windows-data ${filter} → ${res.status} ${text}`);
      return { elapsed, body: JSON.parse(text) as { items: { Id: string; name: string }[]; totalCount: number } };
    };
    const timed = async (run: () => Promise<unknown>) => {
      const start = performance.now();
      await run();
      return performance.now() - start;
    };

    // The server answers what mysql2 answers: the same 20 codes in the same order, the same count.
    const mismatches: string[] = [];
    const matches: number[] = [];
    for (const search of SEARCHES) {
      const [want, got] = [await direct(search), (await windowCall(live.id, search)).body];
      matches.push(want.total);
      const ids = got.items.map((i) => i.Id);
      if (got.totalCount !== want.total || ids.join() !== want.codes.join()) mismatches.push(`"${search}": server ${got.totalCount} [${ids.slice(0, 3).join(', ')}…], mysql2 ${want.total} [${want.codes.slice(0, 3).join(', ')}…]`);
    }

    // a and b, alternating; which goes first alternates too.
    const searchOf = (i: number) => SEARCHES[(i * 7) % SEARCHES.length]!;
    const baseline: number[] = [];
    const uncached: number[] = [];
    for (let i = 0; i < WARM; i++) {
      await direct(searchOf(i));
      await windowCall(live.id, searchOf(i));
    }
    const beforeUncached = await status();
    for (let i = 0; i < N; i++) {
      const search = searchOf(i);
      const a = () => timed(() => direct(search));
      const b = async () => (await windowCall(live.id, search)).elapsed;
      if (i % 2 === 0) {
        baseline.push(await a());
        uncached.push(await b());
      } else {
        uncached.push(await b());
        baseline.push(await a());
      }
    }
    const afterUncached = await status();

    // c: each search once (fills the cache), then over and over.
    for (const search of CACHED_SEARCHES) {
      const [want, got] = [await direct(search), (await windowCall(cached.id, search)).body];
      if (got.totalCount !== want.total || got.items.map((i) => i.Id).join() !== want.codes.join()) mismatches.push(`cached "${search}": server ${got.totalCount}, mysql2 ${want.total}`);
    }
    for (let i = 0; i < WARM; i++) await windowCall(cached.id, CACHED_SEARCHES[i % CACHED_SEARCHES.length]!);
    const beforeCached = await status();
    const cachedMs: number[] = [];
    for (let i = 0; i < N; i++) cachedMs.push((await windowCall(cached.id, CACHED_SEARCHES[i % CACHED_SEARCHES.length]!)).elapsed);
    const afterCached = await status();

    const [a, b, c] = [stats(baseline), stats(uncached), stats(cachedMs)];
    console.log(`\n### Lookup drop-down over a MariaDB query of ${ROWS.toLocaleString('en-US')} rows (one request at a time, ${N} each)\n`);
    console.log('| case | p50 ms | p95 ms | p99 ms | target |\n|---|---|---|---|---|');
    console.log(`| a. mysql2 directly: page of ${PAGE_SIZE} + count, in parallel | ${ms(a.p50)} | ${ms(a.p95)} | ${ms(a.p99)} | |`);
    console.log(`| b. window call, uncached (${SEARCHES.length} search texts) | ${ms(b.p50)} | ${ms(b.p95)} | ${ms(b.p99)} | p95 ≤ 300 |`);
    console.log(`| c. window call, cached (${CACHED_SEARCHES.length} search texts, warmed) | ${ms(c.p50)} | ${ms(c.p95)} | ${ms(c.p99)} | p95 ≤ 20 |`);
    console.log(`\nuncached p95 / mysql2 p95: ${(b.p95 / a.p95).toFixed(2)}× (p50: ${(b.p50 / a.p50).toFixed(2)}×)`);
    console.log(`matches per search text: ${Math.min(...matches)}–${Math.max(...matches)} of ${ROWS} (every request scans the table twice: page and count)`);
    console.log(
      `MariaDB during a+b: ${afterUncached.Com_select! - beforeUncached.Com_select!} selects, ${afterUncached.Connections! - beforeUncached.Connections!} new connections; ` +
        `during c: ${afterCached.Com_select! - beforeCached.Com_select!} selects, ${afterCached.Connections! - beforeCached.Connections!} new connections`,
    );
    if (mismatches.length) console.log(`\n**The server's answers differ from mysql2's** (${mismatches.length}):\n${mismatches.map((m) => `- ${m}`).join('\n')}`);
    else console.log(`the server's answers equal mysql2's for all ${SEARCHES.length + CACHED_SEARCHES.length} checked searches (codes, order, count)`);
  } finally {
    await server.stop();
  }
} finally {
  await pool.query(`drop table if exists ${TABLE}`).catch((error: unknown) => console.error(`could not drop ${TABLE}:`, error));
  await pool.end();
}
