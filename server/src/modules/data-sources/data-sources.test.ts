import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, FIXTURE_PASSWORD } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Data sources (issue 16) against the machine's real MariaDB (127.0.0.1:3306, root, no password,
// database `test`) and PostgreSQL (127.0.0.1:5432, postgres): sealed passwords, connection tests,
// browsing, queries with bound parameters, read-only sources, row caps, timeouts, a source that
// refuses connections, permissions.

let t: TestApp;
let admin: string;
const URL = '/api/app/data-source';
const suffix = randomBytes(4).toString('hex');
const table = `tessera_ds_${suffix}`;
const schema = `tessera_ds_${suffix}`;
let maria: mysql.Connection;
let postgres: pg.Client;

// The PostgreSQL server's user: DATABASE_URL's when the suite runs against that server (CI may use root).
const pgUser = (process.env.DATABASE_URL && new globalThis.URL(process.env.DATABASE_URL).username) || 'postgres';
const MARIA = { kind: 'mysql', host: '127.0.0.1', port: 3306, database: 'test', user: 'root' } as const;
const PG = { kind: 'postgres', host: '127.0.0.1', port: 5432, database: 'postgres', user: pgUser } as const;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  maria = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', database: 'test' });
  await maria.query(`create table ${table} (id int primary key, name varchar(50) not null, amount decimal(12,2), day date)`);
  await maria.query(`create view ${table}_v as select id, name from ${table}`);
  await maria.query(`insert into ${table} values (1, '钢笔', 12.50, '2026-11-27'), (2, 'x''y', 3.00, null), (3, '铅笔', 1.25, '2026-01-01')`);
  postgres = new pg.Client({ host: '127.0.0.1', port: 5432, user: pgUser, database: 'postgres' });
  await postgres.connect();
  await postgres.query(`create schema ${schema}; create table ${schema}.orders (id int primary key, total numeric(12,2), placed timestamptz); insert into ${schema}.orders select n, n * 1.5, '2026-11-27T08:00:00Z' from generate_series(1, 12) n`);
});
afterAll(async () => {
  await maria?.query(`drop view if exists ${table}_v`);
  await maria?.query(`drop table if exists ${table}`);
  await maria?.end();
  await postgres?.query(`drop schema if exists ${schema} cascade`);
  await postgres?.end();
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) =>
  t.call(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) => {
  const res = await call(method, url, payload, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const create = (body: object) => ok('POST', URL, { name: `源 ${randomBytes(3).toString('hex')}`, ...body });
const query = (id: string, sql: string, parameters: object = {}) => call('POST', `${URL}/${id}/query`, { sql, parameters });

describe('data sources', () => {
  it('seals the password: never answered, not in the row, kept when not sent, removed when empty; a stale stamp is a 409', async () => {
    const created = await create({ ...MARIA, name: 'MariaDB 测试', password: 'p@ss-秘密' });
    expect(created).toMatchObject({ name: 'MariaDB 测试', kind: 'mysql', hasPassword: true, readOnly: true, rowCap: 1000, poolSize: 5, statementTimeoutSeconds: 15 });
    expect(JSON.stringify(created)).not.toContain('p@ss');
    const row = await t.app.db.selectFrom('data_sources').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.sealed_password).toMatch(/^v1\./);
    expect(row.sealed_password).not.toContain('p@ss');

    const kept = await ok('PUT', `${URL}/${created.id}`, { ...MARIA, name: 'MariaDB 测试 2', concurrencyStamp: created.concurrencyStamp });
    expect(kept).toMatchObject({ name: 'MariaDB 测试 2', hasPassword: true });
    expect((await call('PUT', `${URL}/${created.id}`, { ...MARIA, name: 'x', concurrencyStamp: created.concurrencyStamp })).statusCode).toBe(409);
    const cleared = await ok('PUT', `${URL}/${created.id}`, { ...MARIA, name: 'MariaDB 测试 2', password: '', concurrencyStamp: kept.concurrencyStamp });
    expect(cleared.hasPassword).toBe(false);

    const list = await ok('GET', `${URL}?Filter=${encodeURIComponent('测试 2')}&Kind=mysql`);
    expect(list.items.map((s: { id: string }) => s.id)).toEqual([created.id]);
    expect((await call('DELETE', `${URL}/${created.id}`)).statusCode).toBe(204);
    expect((await call('GET', `${URL}/${created.id}`)).statusCode).toBe(404);
  });

  it('tests saved and unsaved settings: the server version, or why not (quickly, for a port nobody listens on)', async () => {
    const source = await create(MARIA);
    expect(await ok('POST', `${URL}/${source.id}/test`)).toMatchObject({ ok: true, version: expect.stringContaining('MariaDB'), message: null });
    expect(await ok('POST', `${URL}/test`, { name: 'x', ...PG })).toMatchObject({ ok: true, version: expect.stringContaining('PostgreSQL') });
    const started = performance.now();
    const refused = await ok('POST', `${URL}/test`, { name: 'x', ...MARIA, port: 1 });
    expect(refused).toMatchObject({ ok: false, version: null, message: expect.stringMatching(/ECONNREFUSED|connect/i) });
    expect(performance.now() - started).toBeLessThan(6_000);
    const wrongPassword = await ok('POST', `${URL}/test`, { name: 'x', ...MARIA, user: 'nobody_here', password: 'wrong' });
    expect(wrongPassword).toMatchObject({ ok: false, message: expect.stringMatching(/denied/i) });
  });

  it('SQL Server (no server on this machine): a port nobody listens on answers quickly, as a failed test and a 502; read-only is refused a write before any connection', async () => {
    const MSSQL = { kind: 'mssql', host: '127.0.0.1', port: 1, database: 'master', user: 'sa', password: 'x' } as const;
    let started = performance.now();
    expect(await ok('POST', `${URL}/test`, { name: 'x', ...MSSQL })).toMatchObject({ ok: false, version: null, message: expect.stringMatching(/ECONNREFUSED|connect/i) });
    expect(performance.now() - started).toBeLessThan(6_000);
    const source = await create(MSSQL);
    expect(source).toMatchObject({ kind: 'mssql', port: 1, readOnly: true });
    started = performance.now();
    const objects = await call('GET', `${URL}/${source.id}/objects`);
    expect(objects.statusCode).toBe(502);
    expect(objects.json().error.code).toBe('DataSource.Unavailable');
    expect(performance.now() - started).toBeLessThan(6_000);
    const write = await query(source.id, 'delete from [orders] where [id] = :id', { id: 1 });
    expect(write.statusCode).toBe(400);
    expect(write.json().error.code).toBe('DataSource.ReadOnly');
  });

  it('browses schemas, tables, views and columns on MariaDB and PostgreSQL', async () => {
    const m = await create(MARIA);
    const objects = await ok('GET', `${URL}/${m.id}/objects`);
    const test = objects.schemas.find((s: { name: string }) => s.name === 'test');
    expect(test.tables).toEqual(expect.arrayContaining([{ name: table, kind: 'table' }, { name: `${table}_v`, kind: 'view' }]));
    expect(objects.schemas.map((s: { name: string }) => s.name)).not.toContain('mysql');
    const columns = await ok('GET', `${URL}/${m.id}/columns?schema=test&table=${table}`);
    expect(columns.columns[0]).toEqual({ name: 'id', dataType: 'int(11)', nullable: false, isPrimaryKey: true });
    expect(columns.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'name', 'amount', 'day']);

    const p = await create(PG);
    const pgObjects = await ok('GET', `${URL}/${p.id}/objects`);
    expect(pgObjects.schemas.find((s: { name: string }) => s.name === schema).tables).toEqual([{ name: 'orders', kind: 'table' }]);
    expect(pgObjects.schemas.map((s: { name: string }) => s.name)).not.toContain('pg_catalog');
    const pgColumns = await ok('GET', `${URL}/${p.id}/columns?schema=${schema}&table=orders`);
    expect(pgColumns.columns).toEqual([
      { name: 'id', dataType: 'integer', nullable: false, isPrimaryKey: true },
      { name: 'total', dataType: 'numeric', nullable: true, isPrimaryKey: false },
      { name: 'placed', dataType: 'timestamp with time zone', nullable: true, isPrimaryKey: false },
    ]);
  });

  it('binds named parameters, so SQL metacharacters in values stay values; exact decimals and dates come back as written', async () => {
    const m = await create(MARIA);
    const byName = await query(m.id, `select id, name, amount, day from ${table} where name = :name or name = :other order by id`, { name: "x'y", other: "' or '1'='1" });
    expect(byName.statusCode, byName.body).toBe(200);
    expect(byName.json()).toMatchObject({ rowCount: 1, truncated: false, rows: [{ id: 2, name: "x'y", amount: '3.00', day: null }] });
    const typed = await ok('POST', `${URL}/${m.id}/query`, { sql: `select amount, day from ${table} where id = :id`, parameters: { id: 1 } });
    expect(typed.rows).toEqual([{ amount: '12.50', day: '2026-11-27' }]);
    expect(typed.columns).toEqual([{ name: 'amount', dataType: 'newdecimal' }, { name: 'day', dataType: 'date' }]);
    expect((await query(m.id, 'select :n + 1 as answer', { n: 41 })).json().rows).toEqual([{ answer: 42 }]);

    const p = await create(PG);
    const pgRows = await query(p.id, `select id, total, placed, :tag as tag from ${schema}.orders where id <= :n and :tag = :tag order by id -- :ignored`, { n: 2, tag: "'; drop schema x; --" });
    expect(pgRows.statusCode, pgRows.body).toBe(200);
    expect(pgRows.json().rows).toEqual([
      { id: 1, total: '1.50', placed: '2026-11-27 08:00:00+00', tag: "'; drop schema x; --" },
      { id: 2, total: '3.00', placed: '2026-11-27 08:00:00+00', tag: "'; drop schema x; --" },
    ]);
    const missing = await query(p.id, 'select :a, :b', { a: 1 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toContain('b');
  });

  it('a read-only source runs reads only: writes, DDL, several statements and data-modifying WITH are refused and change nothing', async () => {
    const m = await create(MARIA);
    for (const sql of [`insert into ${table} values (9, 'z', 1, null)`, `delete from ${table}`, `create table ${table}_x (x int)`, `drop table ${table}`, 'set @a = 1']) {
      const res = await query(m.id, sql);
      expect(res.statusCode, sql).toBe(400);
      expect(res.json().error.code).toBe('DataSource.ReadOnly');
    }
    expect((await query(m.id, `select 1; delete from ${table}`)).json().error.validationErrors[0].message).toBe('一次只能执行一条语句');
    const p = await create(PG);
    const sneaky = await query(p.id, `with gone as (delete from ${schema}.orders returning *) select * from gone`);
    expect(sneaky.statusCode).toBe(400);
    expect((await maria.query(`select count(*) as n from ${table}`))[0]).toEqual([{ n: 3 }]);
    expect((await postgres.query(`select count(*)::int as n from ${schema}.orders`)).rows).toEqual([{ n: 12 }]);
  });

  it('a writable source takes writes and says how many rows changed; the row cap keeps answers small and says so', async () => {
    const m = await create({ ...MARIA, readOnly: false, rowCap: 2 });
    const inserted = await query(m.id, `insert into ${table} values (:id, :name, 0, null)`, { id: 10, name: '新' });
    expect(inserted.json()).toMatchObject({ affectedRows: 1, rowCount: 0 });
    const capped = (await query(m.id, `select id from ${table} order by id`)).json();
    expect(capped).toMatchObject({ rowCount: 2, truncated: true, rows: [{ id: 1 }, { id: 2 }] });
    await query(m.id, `delete from ${table} where id = 10`);
    const p = await create({ ...PG, rowCap: 5 });
    expect((await query(p.id, `select id from ${schema}.orders order by id`)).json()).toMatchObject({ rowCount: 5, truncated: true });
    expect((await query(p.id, `with x as (select id from ${schema}.orders) select count(*)::int as n from x`)).json()).toMatchObject({ rows: [{ n: 12 }], truncated: false });
  });

  it('a slow statement is cut at the source timeout (504), a source that refuses connections answers 502 at once, an SQL error is a 400', async () => {
    const p = await create({ ...PG, statementTimeoutSeconds: 1 });
    let started = performance.now();
    const slow = await query(p.id, 'select pg_sleep(5)');
    expect(slow.statusCode, slow.body).toBe(504);
    expect(slow.json().error.code).toBe('DataSource.Timeout');
    expect(performance.now() - started).toBeLessThan(4_000);
    const m = await create({ ...MARIA, statementTimeoutSeconds: 1 });
    started = performance.now();
    const slowMaria = await query(m.id, `select sleep(5) from ${table}`);
    expect(slowMaria.statusCode, slowMaria.body).toBe(504);
    expect(performance.now() - started).toBeLessThan(4_000);

    const down = await create({ ...MARIA, port: 1 });
    started = performance.now();
    const refused = await query(down.id, 'select 1');
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error).toMatchObject({ code: 'DataSource.Unavailable', message: expect.stringContaining('无法连接数据源') });
    expect(performance.now() - started).toBeLessThan(6_000);

    const wrong = await query(m.id, 'select * from no_such_table_here');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'DataSource.QueryFailed', message: expect.stringContaining("doesn't exist") });
  });

  it('a saturated slow source keeps its own pool: another source still answers at once, and every waiting request ends', async () => {
    const slow = await create({ ...MARIA, poolSize: 1, statementTimeoutSeconds: 1 });
    const fast = await create(PG);
    const started = performance.now();
    const stuck = [1, 2, 3].map(() => query(slow.id, 'select sleep(10)'));
    await new Promise((r) => setTimeout(r, 200));
    const quick = await query(fast.id, 'select 1 as one');
    expect(quick.json().rows).toEqual([{ one: 1 }]);
    expect(performance.now() - started).toBeLessThan(1_500);
    const answers = await Promise.all(stuck);
    // MariaDB ends each sleep at its 1 s limit (504); the third waited for the other two.
    for (const answer of answers) expect(answer.json().error.code).toBe('DataSource.Timeout');
    expect(performance.now() - started).toBeLessThan(9_000);
  });

  it('answers 400 with validationErrors for bad settings and bad queries, and 403 without Tessera.DataSources', async () => {
    for (const body of [
      { ...MARIA, name: 'x', host: 'evil host; rm -rf' },
      { ...MARIA, name: 'x', port: 70_000 },
      { ...MARIA, name: 'x', kind: 'oracle' },
      { ...MARIA, name: 'x', rowCap: 0 },
      { ...MARIA, name: '' },
    ]) {
      const res = await call('POST', URL, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    const m = await create(MARIA);
    expect((await call('POST', `${URL}/${m.id}/query`, { sql: 'select 1', parameters: { 'bad name': 1 } })).statusCode).toBe(400);
    expect((await call('POST', `${URL}/${m.id}/query`, { sql: '' })).statusCode).toBe(400);

    await createUser(t.app.db, 'ds-outsider');
    const outsider = await t.login('ds-outsider', FIXTURE_PASSWORD);
    expect((await call('GET', URL, undefined, outsider)).statusCode).toBe(403);
    expect((await call('POST', `${URL}/${m.id}/query`, { sql: 'select 1' }, outsider)).statusCode).toBe(403);
    expect((await call('POST', `${URL}/test`, { name: 'x', ...MARIA }, outsider)).statusCode).toBe(403);
  });

  it('saves queries with typed parameters and the columns read from the source; runs them with defaults, types the values, caches the answer', async () => {
    const m = await create(MARIA);
    const saved = await ok('POST', `${URL}/${m.id}/method`, {
      code: 'products_by_name',
      name: '按名称查产品',
      sql: `select id, name, amount from ${table} where name like :pattern and amount >= :least order by id`,
      parameters: [
        { name: 'pattern', type: 'text', defaultValue: '%', required: false },
        { name: 'least', type: 'number', defaultValue: 0 },
      ],
      cacheSeconds: 60,
    });
    expect(saved).toMatchObject({ code: 'products_by_name', columns: [{ name: 'id', dataType: 'long' }, { name: 'name', dataType: 'var_string' }, { name: 'amount', dataType: 'newdecimal' }] });
    expect((await ok('GET', `${URL}/${m.id}/method`)).items.map((x: { code: string }) => x.code)).toEqual(['products_by_name']);

    const run = (parameters: object) => call('POST', `${URL}/${m.id}/method/${saved.id}/run`, { parameters });
    const all = (await run({})).json();
    expect(all).toMatchObject({ rowCount: 3, cached: false });
    // A number given as text is a number; the same values again come from the cache.
    const some = (await run({ least: '2' })).json();
    expect(some).toMatchObject({ rowCount: 2, cached: false });
    expect((await run({ least: 2 })).json()).toMatchObject({ rowCount: 2, cached: true });
    expect((await run({ least: 'two' })).statusCode).toBe(400);

    // The SQL's names and the declared parameters must agree; codes are unique per source.
    for (const [body, member] of [
      [{ code: 'x', name: 'x', sql: 'select :a as a', parameters: [] }, 'parameters'],
      [{ code: 'x', name: 'x', sql: 'select 1 as a', parameters: [{ name: 'a', type: 'text', defaultValue: null }] }, 'parameters'],
      [{ code: 'x', name: 'x', sql: 'select :a as a', parameters: [{ name: 'a', type: 'number', defaultValue: 'many' }] }, 'parameters.0.defaultValue'],
      [{ code: 'PRODUCTS_BY_NAME', name: 'x', sql: 'select 1 as a' }, 'code'],
      [{ code: 'y', name: 'y', sql: 'select * from no_such_table_here' }, 'sql'],
    ] as const) {
      const res = await call('POST', `${URL}/${m.id}/method`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.validationErrors[0].members).toEqual([member]);
    }
    // A required parameter must be given; a stale stamp is a 409; deleting the source takes its queries.
    const strict = await ok('POST', `${URL}/${m.id}/method`, { code: 'by_id', name: '按编号', sql: `select name from ${table} where id = :id`, parameters: [{ name: 'id', type: 'number', defaultValue: null, required: true }] });
    expect((await call('POST', `${URL}/${m.id}/method/${strict.id}/run`, { parameters: {} })).statusCode).toBe(400);
    expect((await ok('POST', `${URL}/${m.id}/method/${strict.id}/run`, { parameters: { id: 1 } })).rows).toEqual([{ name: '钢笔' }]);
    const renamed = await ok('PUT', `${URL}/${m.id}/method/${strict.id}`, { code: 'by_id', name: '按编号查', sql: strict.sql, parameters: strict.parameters, concurrencyStamp: strict.concurrencyStamp });
    expect(renamed.name).toBe('按编号查');
    expect((await call('PUT', `${URL}/${m.id}/method/${strict.id}`, { code: 'by_id', name: 'x', sql: strict.sql, parameters: strict.parameters, concurrencyStamp: strict.concurrencyStamp })).statusCode).toBe(409);
    expect((await call('DELETE', `${URL}/${m.id}`)).statusCode).toBe(204);
    expect(await t.app.db.selectFrom('data_source_methods').select('id').where('source_id', '=', m.id).execute()).toEqual([]);
  });
});
