/**
 * Issue 5 benchmark: `GET /api/identity/users` over 10,000 users with filters and paging, next to
 * a bare route in the same run. Target: p99 ≤ 50 ms on PostgreSQL.
 * Run: `DATABASE_URL=postgres://… npx tsx bench/identity/users-list.bench.ts` (or without it: PGlite).
 * CONNECTIONS (default 4) sets the concurrent administrators.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { load, table, type LoadResult } from '../lib/run.ts';
import { BENCH_PASSWORD } from './constants.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const connections = Number(process.env.CONNECTIONS ?? 4);

const child = spawn(process.execPath, ['--import', 'tsx', 'bench/identity/bench-server.ts'], { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
const [url, regionId, roleName] = await new Promise<string[]>((resolve, reject) => {
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
    const m = /READY (\S+) (\S+) (\S+)/.exec(out);
    if (m) resolve([m[1]!, m[2]!, m[3]!]);
  });
  child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
});

try {
  const login = await fetch(`${url}/api/Auth/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: BENCH_PASSWORD }),
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  const headers = { authorization: `Bearer ${token}` };
  const cases: [string, string][] = [
    ['first page (20, newest first)', 'MaxResultCount=20'],
    ['text filter + page 3', 'Filter=user-01&SkipCount=40&MaxResultCount=20&Sorting=userName'],
    ['unit and below + sort by name', `OrganizationUnitId=${regionId}&IncludeChildUnits=true&Sorting=name&MaxResultCount=20`],
    ['role + active, deep page', `RoleName=${roleName}&IsActive=true&SkipCount=1000&MaxResultCount=20`],
    ['phone digits, 100 per page', 'Filter=1380000&MaxResultCount=100'],
  ];
  // Sanity: each query answers what it should before it is measured.
  for (const [name, query] of cases) {
    const res = await fetch(`${url}/api/identity/users?${query}`, { headers });
    const body = (await res.json()) as { totalCount: number; items: unknown[] };
    if (!res.ok || body.items.length === 0) throw new Error(`${name}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    console.log(`${name}: totalCount ${body.totalCount}, ${body.items.length} items`);
  }
  const results: LoadResult[] = [];
  const bare = await load('bare route', { url: `${url}/api/bench/bare`, connections });
  for (const [name, query] of cases) results.push(await load(name, { url: `${url}/api/identity/users?${query}`, headers, connections }));
  console.log(`\nDatabase: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}, ${connections} connections, 10 s each\n`);
  console.log(table([bare, ...results], bare));
  const worst = Math.max(...results.map((r) => r.p99));
  console.log(`\nworst p99: ${worst} ms (target ≤ 50 ms on PostgreSQL) — ${worst <= 50 ? 'met' : 'NOT met'}`);

  // One administrator at a time: what a person paging through the list waits for.
  const single: LoadResult[] = [await load('bare route', { url: `${url}/api/bench/bare`, connections: 1 })];
  for (const [name, query] of cases) single.push(await load(name, { url: `${url}/api/identity/users?${query}`, headers, connections: 1 }));
  console.log(`\n1 connection, 10 s each\n`);
  console.log(table(single, single[0]));
  const worstSingle = Math.max(...single.slice(1).map((r) => r.p99));
  console.log(`\nworst p99 (1 connection): ${worstSingle} ms (target ≤ 50 ms on PostgreSQL) — ${worstSingle <= 50 ? 'met' : 'NOT met'}`);
} finally {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
