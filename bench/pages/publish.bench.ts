/**
 * Issue 7 benchmark: publishing a page with 200 controls (target: under 1 s on PostgreSQL).
 *
 * The page: a master form with 120 controls and two child grids with 50 and 30 (every control
 * type: text, integer, decimal, date, boolean, lookup, document number, multi-value list), so a
 * first publish creates 3 tables, 2 foreign keys and 26 indexes (child keys and lookups).
 *
 * Cases, each over HTTP on the real server (auth, validation, design checks, schema diff against
 * pg_catalog, DDL, version row, permission codes — one transaction), next to baselines measured in
 * the same run:
 *  - bare route: a public route answering a small JSON body (HTTP floor)
 *  - bare DDL: the same 3 CREATE TABLEs, foreign keys and indexes written by hand and run in one
 *    transaction through `pg` (what PostgreSQL itself needs; no diff, no checks)
 *  - first publish of a new 200-control page (fresh pages, so fresh tables each time)
 *  - republish unchanged (diff finds nothing to do)
 *  - republish with data present: 5,000 master rows and 20,000 child rows; each round adds a
 *    control, renames one and widens one (integer → decimal rewrites the child table)
 *
 * Run: `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/pages/publish.bench.ts`
 * (without DATABASE_URL it measures embedded PGlite).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { publicRoute } from '../../server/src/platform/route-access.ts';
import { prepareServer } from '../../server/src/server.ts';
import { createThrowawayDatabase, dropThrowawayDatabase } from '../lib/throwaway-database.ts';
import { ControlTypeId } from '@tessera/core/controls/registry';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const PASSWORD = 'Bench#Pages2026';
const baseUrl = process.env.DATABASE_URL;

const TYPES = [1001, 1002, 1003, 1004, 1005, 1010, 2001, 1008];
const control = (code: string, controlType: number) => ({ id: randomUUID(), code, title: code, controlType, isDisplayed: true, isEdit: true });
const controls = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => control(`${prefix}${i}`, TYPES[i % TYPES.length]!));

function page200() {
  const master = { id: randomUUID(), code: 'Master', title: 'Master', viewType: 1, dataControls: controls('M', 120), viewButtons: [], viewControls: [] as unknown[] };
  const lines = { id: randomUUID(), code: 'Lines', title: 'Lines', viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId', dataControls: controls('L', 50), viewButtons: [], viewControls: [] };
  const costs = { id: randomUUID(), code: 'Costs', title: 'Costs', viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId', dataControls: controls('C', 30), viewButtons: [], viewControls: [] };
  master.viewControls = [lines, costs];
  return { viewControls: [master], pageButtons: [], dataLinkages: [] };
}

const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(s.length * p))]! * 10) / 10;
  return { n: s.length, median: at(0.5), p95: at(0.95), max: Math.round(s.at(-1)! * 10) / 10 };
};

const databaseUrl = baseUrl ? await createThrowawayDatabase(baseUrl, 'pages') : undefined;
const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-bench-pages-'));
const server = await prepareServer(
  {
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    dataDir,
    jwtSecret: new TextEncoder().encode(randomBytes(32).toString('hex')),
    adminPassword: PASSWORD,
    logLevel: 'silent',
    bodyLimit: 4 * 1024 * 1024,
    loginRateLimit: 1_000_000,
    captchaMaxCounter: 2000,
    webDist: undefined,
    pgliteDataDir: path.join(dataDir, 'db'),
    argon2: { memoryCost: 1024, timeCost: 1 },
    trustProxy: false,
    basePath: '',
  },
  {
    logger: false,
    extend: (app) => {
      app.get('/api/bench/bare', { config: publicRoute(), handler: async () => ({ ok: true, version: 1 }) });
    },
  },
);
const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
const db = server.database.db;

async function call(method: string, route: string, token: string | null, body?: unknown) {
  const res = await fetch(`${url}/api${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}
async function timed(fn: () => Promise<unknown>) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

try {
  const token = (await call('POST', '/Auth/Login', null, { username: 'admin', password: PASSWORD })).data.accessToken as string;

  // Warm-up: one publish and a few bare calls (JIT, connection pool, catalog caches).
  const warm = await call('POST', '/app/page-definition', token, { code: 'Warm', name: { 'zh-CN': 'Warm' }, definition: page200() });
  await call('POST', `/app/page-definition/${warm.id}/publish`, token, {});
  for (let i = 0; i < 20; i++) await call('GET', '/bench/bare', null);

  const bare: number[] = [];
  for (let i = 0; i < 50; i++) bare.push(await timed(() => call('GET', '/bench/bare', null)));

  // Bare DDL: the same tables, keys and indexes by hand in one transaction.
  const ddl: number[] = [];
  const colType: Record<number, string> = { 1001: 'text', 1002: 'bigint', 1003: 'numeric', 1004: 'timestamptz', 1005: 'boolean', 1010: 'jsonb', 2001: 'text', 1008: 'text' };
  const system = `"Id" uuid primary key, "ParentViewDataId" uuid, "DataStatus" integer not null default 0, "CreatorId" uuid, "CreationTime" timestamptz not null default now(),
    "LastModifierId" uuid, "LastModificationTime" timestamptz, "IsDeleted" boolean not null default false, "DeletionTime" timestamptz, "ConcurrencyStamp" text not null,
    "OwnerOrganizationUnitId" uuid, "FlowStatus" integer not null default 0`;
  for (let r = 0; r < ROUNDS; r++) {
    const suffix = randomBytes(4).toString('hex');
    const def = page200();
    const statements: string[] = [];
    const create = (name: string, cs: { code: string; controlType: number }[]) =>
      statements.push(`create table biz.bare_${name}_${suffix} (${system}, ${cs.map((c) => `"${c.code}" ${colType[c.controlType]}`).join(', ')})`);
    const [master] = def.viewControls as { dataControls: { code: string; controlType: number }[]; viewControls: { dataControls: { code: string; controlType: number }[] }[] }[];
    create('m', master!.dataControls);
    create('l', master!.viewControls[0]!.dataControls);
    create('c', master!.viewControls[1]!.dataControls);
    for (const child of ['l', 'c']) {
      statements.push(`alter table biz.bare_${child}_${suffix} add constraint fk_${child}_${suffix} foreign key ("ParentViewDataId") references biz.bare_m_${suffix} ("Id") on delete cascade`);
      statements.push(`create index on biz.bare_${child}_${suffix} ("ParentViewDataId")`);
    }
    for (const [t, cs] of [['m', master!.dataControls], ['l', master!.viewControls[0]!.dataControls], ['c', master!.viewControls[1]!.dataControls]] as const) {
      for (const c of cs) if (c.controlType === ControlTypeId.Lookup) statements.push(`create index on biz.bare_${t}_${suffix} ("${c.code}")`);
    }
    ddl.push(
      await timed(() =>
        db.transaction().execute(async (trx) => {
          for (const s of statements) await sql.raw(s).execute(trx);
        }),
      ),
    );
  }

  // First publish of fresh 200-control pages.
  const first: number[] = [];
  let last: { id: string; definition: ReturnType<typeof page200> } | null = null;
  for (let r = 0; r < ROUNDS; r++) {
    const definition = page200();
    const created = await call('POST', '/app/page-definition', token, { code: `Bench${r}`, name: { 'zh-CN': `Bench ${r}` }, definition });
    first.push(await timed(() => call('POST', `/app/page-definition/${created.id}/publish`, token, {})));
    last = { id: created.id, definition };
  }

  // Republish unchanged.
  const unchanged: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const page = await call('GET', `/app/page-definition/${last!.id}`, token);
    await call('PUT', `/app/page-definition/${last!.id}`, token, { definition: page.definition, concurrencyStamp: page.concurrencyStamp });
    unchanged.push(await timed(() => call('POST', `/app/page-definition/${last!.id}/publish`, token, {})));
  }

  // Republish with data present.
  const def = last!.definition;
  const master = def.viewControls[0]!;
  const [lines] = master.viewControls as typeof master[];
  const masterTable = `v_${master.id.replace(/-/g, '')}`;
  const linesTable = `v_${lines!.id.replace(/-/g, '')}`;
  await sql`insert into ${sql.id('biz', masterTable)} ("Id", "ConcurrencyStamp", "M0", "M1", "M2")
    select gen_random_uuid(), 's', 'order ' || g, g, g * 1.5 from generate_series(1, 5000) g`.execute(db);
  await sql`insert into ${sql.id('biz', linesTable)} ("Id", "ParentViewDataId", "ConcurrencyStamp", "L0", "L1", "L2")
    select gen_random_uuid(), m."Id", 's', 'line', n, n * 2.5 from ${sql.id('biz', masterTable)} m, generate_series(1, 4) n`.execute(db);
  const withData: number[] = [];
  const integerControls = lines!.dataControls.filter((c) => c.controlType === ControlTypeId.Integer);
  for (let r = 0; r < Math.min(ROUNDS, integerControls.length); r++) {
    master.dataControls.push(control(`Added${r}`, 1001));
    master.dataControls[r * TYPES.length]!.code = `Renamed${r}`;
    integerControls[r]!.controlType = 1003;
    const page = await call('GET', `/app/page-definition/${last!.id}`, token);
    await call('PUT', `/app/page-definition/${last!.id}`, token, { definition: def, concurrencyStamp: page.concurrencyStamp });
    withData.push(await timed(() => call('POST', `/app/page-definition/${last!.id}/publish`, token, {})));
  }
  const rows = await sql<{ n: string }>`select count(*) as n from ${sql.id('biz', linesTable)}`.execute(db);

  const report = [
    ['bare route (HTTP floor)', stats(bare)],
    ['bare DDL: 3 tables, 2 FKs, 26 indexes, one transaction', stats(ddl)],
    ['publish, first (200 controls → 3 tables)', stats(first)],
    ['republish, unchanged', stats(unchanged)],
    [`republish with data (5,000 + ${Number(rows.rows[0]!.n).toLocaleString('en-US')} rows): add + rename + widen`, stats(withData)],
  ] as const;
  console.log(`\n${baseUrl ? 'PostgreSQL' : 'PGlite'}; ${ROUNDS} rounds; milliseconds\n`);
  console.log('| case | n | median | p95 | max |');
  console.log('|---|---|---|---|---|');
  for (const [name, s] of report) console.log(`| ${name} | ${s.n} | ${s.median} | ${s.p95} | ${s.max} |`);
  const worst = Math.max(stats(first).max, stats(withData).max, stats(unchanged).max);
  console.log(`\nTarget (publish of a 200-control page < 1000 ms): ${worst < 1000 ? 'met' : 'NOT met'} — slowest publish ${worst} ms`);
} finally {
  await server.stop();
  if (baseUrl && databaseUrl) await dropThrowawayDatabase(baseUrl, databaseUrl);
}
