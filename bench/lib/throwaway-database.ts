/** A database of its own for one benchmark run on a PostgreSQL server, dropped again afterwards. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function onServer(baseUrl: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/** Creates `tessera_bench_<area>_<random>` on the server of `baseUrl` and returns its URL. */
export async function createThrowawayDatabase(baseUrl: string, area = 'run'): Promise<string> {
  const name = `tessera_bench_${area}_${randomBytes(4).toString('hex')}`;
  await onServer(baseUrl, `create database ${name}`);
  return Object.assign(new URL(baseUrl), { pathname: `/${name}` }).toString();
}

export async function dropThrowawayDatabase(baseUrl: string, databaseUrl: string): Promise<void> {
  await onServer(baseUrl, `drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
}
