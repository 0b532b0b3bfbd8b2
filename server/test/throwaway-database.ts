/** A database of its own on a PostgreSQL server (a test file, a crash run), dropped again by `drop`. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function onServer<T>(baseUrl: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

export async function createThrowawayDatabase(baseUrl: string, prefix = 'tessera_test', template?: string): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await onServer(baseUrl, (c) => c.query(`create database ${name}${template ? ` template ${pg.escapeIdentifier(template)}` : ''}`));
  const url = Object.assign(new URL(baseUrl), { pathname: `/${name}` }).toString();
  const drop = () =>
    onServer(baseUrl, async (c) => {
      // The pool's sockets may still be closing after pool.end(); forcing the drop then terminates
      // them with FATAL 57P01, which surfaces as an unhandled error. Wait for them first.
      for (let attempt = 0; attempt < 40; attempt++) {
        const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`drop database if exists ${name} with (force)`);
    });
  return { url, name, drop };
}
