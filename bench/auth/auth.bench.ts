/**
 * Issue 2 benchmark: an authenticated `GET /api/app/sys-function/current-user` and `POST
 * /api/Auth/Login` (production argon2id cost), each next to a bare Fastify route in the same run.
 * Run: `npx tsx bench/auth/auth.bench.ts` (embedded) or with DATABASE_URL set (PostgreSQL).
 */
import { BENCH_ADMIN_PASSWORD } from '../lib/constants.ts';
import { load, startServer, table } from '../lib/run.ts';

const server = await startServer();
try {
  const login = await fetch(`${server.url}/api/Auth/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
  });
  const token = (await login.json()).data.accessToken as string;
  const bare = await load('bare route', { url: `${server.url}/api/bench/bare` });
  const me = await load('current-user (authenticated)', {
    url: `${server.url}/api/app/sys-function/current-user`,
    headers: { authorization: `Bearer ${token}` },
  });
  const signIn = await load('login (argon2id 19 MiB, t=2)', {
    url: `${server.url}/api/Auth/Login`,
    method: 'POST',
    connections: 8,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
  });
  console.log(`\nDatabase: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}\n`);
  console.log(table([bare, me, signIn], bare));
} finally {
  await server.stop();
}
