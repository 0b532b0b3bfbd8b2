/**
 * Issue 5 (authorization, menus, audit): the audit-log page over 100,000 entries (newest page, and
 * filtered by action and user), a user's business-menu list (200 menus, 50 granted through a role)
 * and the grant tree of a user, each next to a bare route in the same run.
 * Run: `npx tsx bench/authorization/authorization.bench.ts` (embedded) or with DATABASE_URL set.
 */
import { BENCH_ADMIN_PASSWORD } from '../lib/constants.ts';
import { load, startServer, table } from '../lib/run.ts';

const server = await startServer('bench/authorization/bench-server.ts');
try {
  const signIn = async (username: string) => {
    const res = await fetch(`${server.url}/api/Auth/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: BENCH_ADMIN_PASSWORD }),
    });
    return ((await res.json()) as { data: { accessToken: string; user: { id: string } } }).data;
  };
  const admin = (await signIn('admin')).accessToken;
  const user = await signIn('bench.user');
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const menus = (await (await fetch(`${server.url}/api/app/business-menu`, { headers: auth(user.accessToken) })).json()) as { totalCount: number };
  if (menus.totalCount !== 5) throw new Error(`expected 5 visible top-level menus, got ${menus.totalCount}`);

  const cases: [string, string, string][] = [
    ['bare route', '/api/bench/bare', admin],
    ['audit log, newest 20 of 100k', '/api/app/audit-logs?MaxResultCount=20', admin],
    ['audit log, action + user filter', '/api/app/audit-logs?Action=LoginFailed&UserName=user17&MaxResultCount=20', admin],
    ['business menus of a user (50 of 200)', '/api/app/business-menu?SkipCount=0&MaxResultCount=100', user.accessToken],
    ['grant tree of a user', `/api/permission-management/permissions?providerName=U&providerKey=${user.user.id}`, admin],
  ];
  // Throughput under 50 connections, then what one administrator waits for (1 connection).
  for (const connections of [50, 1]) {
    const rows = [];
    for (const [name, path, token] of cases) rows.push(await load(name, { url: `${server.url}${path}`, headers: auth(token), connections, duration: connections === 1 ? 5 : 10 }));
    console.log(`\nDatabase: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}, ${connections} connection(s)\n`);
    console.log(table(rows, rows[0]));
  }
} finally {
  await server.stop();
}
