import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// External routines of the data factory (issue 16) against the machine's real MariaDB
// (127.0.0.1:3306, root, database `test`) and PostgreSQL (127.0.0.1:5432): the sources and their
// routines with typed parameters; a MariaDB procedure answering two result sets, an OUT and an
// INOUT value; a MariaDB function; a PostgreSQL function returning a table and a procedure with OUT
// values; values bound, never spliced; a read-only source refusing a procedure that writes; a source
// that refuses connections; the run log; 400s for definitions that cannot be called.

let t: TestApp;
let admin: string;
const URL = '/api/app/data-factory';
const suffix = randomBytes(4).toString('hex');
const table = `tessera_dfx_${suffix}`;
const schema = `tessera_dfx_${suffix}`;
let maria: mysql.Connection;
let postgres: pg.Client;

const pgUser = (process.env.DATABASE_URL && new globalThis.URL(process.env.DATABASE_URL).username) || 'postgres';
const MARIA = { kind: 'mysql', host: '127.0.0.1', port: 3306, database: 'test', user: 'root' } as const;
const PG = { kind: 'postgres', host: '127.0.0.1', port: 5432, database: 'postgres', user: pgUser } as const;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, token = admin) => t.call(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
const ok = async (method: Method, url: string, payload?: unknown, token = admin) => {
  const res = await call(method, url, payload, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const source = (body: object) => ok('POST', '/api/app/data-source', { name: `源 ${randomBytes(3).toString('hex')}`, ...body });

let mariaSource: { id: string };
let writableMaria: { id: string };
let pgSource: { id: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  maria = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', database: 'test', multipleStatements: false });
  await maria.query(`create table ${table} (code varchar(10) primary key, name varchar(50) not null, region varchar(20) not null)`);
  await maria.query(`insert into ${table} values ('C1', '上海文具', 'east'), ('C2', '北京纸业', 'north'), ('C3', '杭州办公', 'east')`);
  await maria.query(`create procedure ${table}_summary(in p_region varchar(20), out o_count int, inout io_scale decimal(10,2))
    begin
      select code, name from ${table} where region = p_region order by code;
      select region, count(*) as n from ${table} group by region order by region;
      select count(*) into o_count from ${table} where region = p_region;
      set io_scale = io_scale * 2;
    end`);
  await maria.query(`create function ${table}_twice(x int) returns int deterministic return x * 2`);
  await maria.query(`create procedure ${table}_touch(in p_code varchar(10)) begin insert into ${table} values (p_code, 'touched', 'west'); end`);
  postgres = new pg.Client({ host: '127.0.0.1', port: 5432, user: pgUser, database: 'postgres' });
  await postgres.connect();
  await postgres.query(`create schema ${schema};
    create table ${schema}.orders (id int primary key, total numeric(12,2));
    insert into ${schema}.orders select n, n * 1.5 from generate_series(1, 12) n;
    create function ${schema}.orders_over(p_min numeric) returns table (id int, total numeric) language sql stable as $$ select id, total from ${schema}.orders where total > p_min order by id $$;
    create procedure ${schema}.order_stats(in p_min numeric, out o_count int, inout io_label text) language plpgsql as $$
    begin
      select count(*) into o_count from ${schema}.orders where total > p_min;
      io_label := io_label || '!';
    end $$;
    create procedure ${schema}.order_sets(in p_min numeric, inout c_orders refcursor, inout c_totals refcursor, out o_count int) language plpgsql as $$
    begin
      open c_orders for select id, total from ${schema}.orders where total > p_min order by id;
      open c_totals for select count(*)::int as n, sum(total) as total from ${schema}.orders;
      select count(*) into o_count from ${schema}.orders where total > p_min;
    end $$;
    create function ${schema}.order_cursors() returns setof refcursor language plpgsql as $$
    declare a refcursor; b refcursor;
    begin
      open a for select min(id) as first from ${schema}.orders; return next a;
      open b for select max(id) as last from ${schema}.orders; return next b;
    end $$;`);
  mariaSource = await source(MARIA);
  writableMaria = await source({ ...MARIA, readOnly: false });
  pgSource = await source(PG);
});
afterAll(async () => {
  await maria?.query(`drop procedure if exists ${table}_summary`);
  await maria?.query(`drop function if exists ${table}_twice`);
  await maria?.query(`drop procedure if exists ${table}_touch`);
  await maria?.query(`drop table if exists ${table}`);
  await maria?.end();
  await postgres?.query(`drop schema if exists ${schema} cascade`);
  await postgres?.end();
  await t?.close();
});

const summary = () => ({
  code: `summary_${suffix}`,
  name: '客户汇总',
  sourceId: mariaSource.id,
  routine: { schema: 'test', name: `${table}_summary`, kind: 'procedure' },
  parameters: [
    { name: 'p_region', type: 'text', mode: 'in', defaultValue: 'east' },
    { name: 'o_count', type: 'integer', mode: 'out' },
    { name: 'io_scale', type: 'numeric', mode: 'inout', defaultValue: '1.5' },
  ],
  returns: { kind: 'void' },
});

describe('external routines of the data factory', () => {
  it('lists the database sources, and a source’s procedures and functions with their parameters typed', async () => {
    const http = await source({ kind: 'http', baseUrl: 'http://127.0.0.1:9/api' });
    const sources = (await ok('GET', `${URL}/sources`)).items as { id: string; kind: string }[];
    expect(sources.map((s) => s.id)).toEqual(expect.arrayContaining([mariaSource.id, pgSource.id]));
    expect(sources.map((s) => s.id)).not.toContain(http.id);

    const routines = (await ok('GET', `${URL}/sources/${mariaSource.id}/routines`)).items as { name: string }[];
    expect(routines.find((r) => r.name === `${table}_summary`)).toEqual({
      schema: 'test',
      name: `${table}_summary`,
      kind: 'procedure',
      returnsTable: false,
      parameters: [
        { name: 'p_region', mode: 'in', type: 'text', sourceType: 'varchar(20)' },
        { name: 'o_count', mode: 'out', type: 'integer', sourceType: 'int(11)' },
        { name: 'io_scale', mode: 'inout', type: 'numeric', sourceType: 'decimal(10,2)' },
      ],
    });
    expect(routines.find((r) => r.name === `${table}_twice`)).toMatchObject({ kind: 'function', returnsTable: false, parameters: [{ name: 'x', mode: 'in', type: 'integer' }] });

    const pgRoutines = (await ok('GET', `${URL}/sources/${pgSource.id}/routines`)).items as { schema: string; name: string }[];
    // The columns of `returns table` are not parameters.
    expect(pgRoutines.find((r) => r.schema === schema && r.name === 'orders_over')).toEqual({ schema, name: 'orders_over', kind: 'function', returnsTable: true, parameters: [{ name: 'p_min', mode: 'in', type: 'numeric', sourceType: 'numeric' }] });
    expect(pgRoutines.find((r) => r.schema === schema && r.name === 'order_stats')).toMatchObject({
      kind: 'procedure',
      parameters: [
        { name: 'p_min', mode: 'in', type: 'numeric' },
        { name: 'o_count', mode: 'out', type: 'integer' },
        { name: 'io_label', mode: 'inout', type: 'text' },
      ],
    });
    expect((await call('GET', `${URL}/sources/${http.id}/routines`)).statusCode).toBe(400);
    expect((await call('GET', `${URL}/sources/019ad000-0000-7000-8000-000000000000/routines`)).statusCode).toBe(404);
  });

  it('calls a MariaDB procedure: both result sets, the OUT and INOUT values; a hostile value stays a value; the run is logged', async () => {
    const created = await ok('POST', URL, summary());
    expect(created).toMatchObject({ sourceId: mariaSource.id, sourceName: expect.stringMatching(/^源 /), routine: { name: `${table}_summary` }, body: '', returns: { kind: 'void' }, version: 1 });

    const result = await ok('POST', `${URL}/${created.id}/run`, { parameters: { io_scale: '2.25' } });
    expect(result.resultSets).toEqual([
      {
        columns: [
          { name: 'code', dataType: 'var_string' },
          { name: 'name', dataType: 'var_string' },
        ],
        rows: [
          { code: 'C1', name: '上海文具' },
          { code: 'C3', name: '杭州办公' },
        ],
        rowCount: 2,
        truncated: false,
      },
      {
        columns: [
          { name: 'region', dataType: 'var_string' },
          { name: 'n', dataType: 'longlong' },
        ],
        rows: [
          { region: 'east', n: '2' },
          { region: 'north', n: '1' },
        ],
        rowCount: 2,
        truncated: false,
      },
    ]);
    expect(result).toMatchObject({ rowCount: 4, outParameters: { o_count: 2, io_scale: '4.50' } });

    const hostile = await ok('POST', `${URL}/${created.id}/run`, { parameters: { p_region: "east' or '1'='1" } });
    expect(hostile.resultSets[0].rows).toEqual([]);
    expect(hostile.outParameters).toMatchObject({ o_count: 0, io_scale: '3.00' });
    const capped = await ok('POST', `${URL}/${created.id}/run`, { parameters: {}, rowCap: 1 });
    expect(capped.resultSets.map((s: { rowCount: number; truncated: boolean }) => [s.rowCount, s.truncated])).toEqual([
      [1, true],
      [1, true],
    ]);

    const log = await ok('GET', `${URL}/${created.id}/runs`);
    expect(log.items.map((r: { rowCount: number; error: string | null }) => [r.rowCount, r.error])).toEqual([
      [2, null],
      [2, null],
      [4, null],
    ]);
    expect(log.items[2].parameters).toEqual({ p_region: 'east', io_scale: '2.25' });

    // Versions name the routine; the diff compares its signatures.
    const v2 = await ok('PUT', `${URL}/${created.id}`, { ...summary(), parameters: summary().parameters.slice(0, 2), concurrencyStamp: created.concurrencyStamp });
    expect(v2.version).toBe(2);
    const diff = await ok('GET', `${URL}/${created.id}/versions/diff?from=1&to=2`);
    expect(diff.lines.filter((l: { kind: string }) => l.kind === 'removed').map((l: { text: string }) => l.text)).toEqual(['  out o_count integer,', '  inout io_scale numeric default "1.5"']);
    expect(diff.lines[0].text).toBe(`procedure test.${table}_summary (`);
    const moved = await call('PUT', `${URL}/${created.id}`, { ...summary(), sourceId: pgSource.id, concurrencyStamp: v2.concurrencyStamp });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error.validationErrors[0].members).toEqual(['sourceId']);
    expect((await call('DELETE', `${URL}/${created.id}`)).statusCode).toBe(204);
  });

  it('calls a MariaDB function, and a PostgreSQL function (rows, capped) and procedure (OUT and INOUT values)', async () => {
    const twice = await ok('POST', URL, { code: `twice_${suffix}`, name: '两倍', sourceId: mariaSource.id, routine: { schema: 'test', name: `${table}_twice`, kind: 'function' }, parameters: [{ name: 'x', type: 'integer' }], returns: { kind: 'void' } });
    expect((await ok('POST', `${URL}/${twice.id}/run`, { parameters: { x: 21 } })).resultSets).toEqual([{ columns: [{ name: 'value', dataType: 'long' }], rows: [{ value: 42 }], rowCount: 1, truncated: false }]);

    const over = await ok('POST', URL, { code: `over_${suffix}`, name: '大额订单', sourceId: pgSource.id, routine: { schema, name: 'orders_over', kind: 'function' }, parameters: [{ name: 'p_min', type: 'numeric', defaultValue: '15' }], returns: { kind: 'void' }, rowCap: 2 });
    const rows = await ok('POST', `${URL}/${over.id}/run`, {});
    expect(rows.resultSets).toEqual([
      {
        columns: [
          { name: 'id', dataType: 'integer' },
          { name: 'total', dataType: 'numeric' },
        ],
        rows: [
          { id: 11, total: '16.50' },
          { id: 12, total: '18.00' },
        ],
        rowCount: 2,
        truncated: false,
      },
    ]);
    expect((await ok('POST', `${URL}/${over.id}/run`, { parameters: { p_min: 0 } })).resultSets[0]).toMatchObject({ rowCount: 2, truncated: true });

    const stats = await ok('POST', URL, {
      code: `stats_${suffix}`,
      name: '订单统计',
      sourceId: pgSource.id,
      routine: { schema, name: 'order_stats', kind: 'procedure' },
      parameters: [
        { name: 'p_min', type: 'numeric' },
        { name: 'o_count', type: 'integer', mode: 'out' },
        { name: 'io_label', type: 'text', mode: 'inout' },
      ],
      returns: { kind: 'void' },
    });
    expect(await ok('POST', `${URL}/${stats.id}/run`, { parameters: { p_min: '9', io_label: "o'k" } })).toMatchObject({ resultSets: [], rowCount: 0, outParameters: { o_count: 6, io_label: "o'k!" } });
  });

  it('fetches the cursors a PostgreSQL routine opens as result sets: refcursor INOUT values of a procedure, and a setof refcursor function', async () => {
    const listed = (await ok('GET', `${URL}/sources/${pgSource.id}/routines`)).items;
    expect(listed.find((r: { name: string }) => r.name === 'order_sets').parameters.map((p: { name: string; mode: string; type: string }) => [p.name, p.mode, p.type])).toEqual([
      ['p_min', 'in', 'numeric'],
      ['c_orders', 'inout', 'refcursor'],
      ['c_totals', 'inout', 'refcursor'],
      ['o_count', 'out', 'integer'],
    ]);
    const sets = await ok('POST', URL, {
      code: `order_sets_${suffix}`,
      name: '订单与合计',
      sourceId: pgSource.id,
      routine: { schema, name: 'order_sets', kind: 'procedure' },
      parameters: [
        { name: 'p_min', type: 'numeric', defaultValue: '15' },
        { name: 'c_orders', type: 'refcursor', mode: 'inout' },
        { name: 'c_totals', type: 'refcursor', mode: 'inout' },
        { name: 'o_count', type: 'integer', mode: 'out' },
      ],
      returns: { kind: 'void' },
      rowCap: 1,
    });
    const answer = await ok('POST', `${URL}/${sets.id}/run`, { parameters: { c_orders: 'orders"; drop table x; --' } });
    expect(answer.resultSets).toEqual([
      { columns: [{ name: 'id', dataType: 'integer' }, { name: 'total', dataType: 'numeric' }], rows: [{ id: 11, total: '16.50' }], rowCount: 1, truncated: true },
      { columns: [{ name: 'n', dataType: 'integer' }, { name: 'total', dataType: 'numeric' }], rows: [{ n: 12, total: '117.00' }], rowCount: 1, truncated: false },
    ]);
    expect(answer.outParameters).toMatchObject({ o_count: 2, c_orders: 'orders"; drop table x; --' });
    expect(answer.rowCount).toBe(2);

    const cursors = await ok('POST', URL, { code: `order_cursors_${suffix}`, name: '首末', sourceId: pgSource.id, routine: { schema, name: 'order_cursors', kind: 'function' }, parameters: [], returns: { kind: 'void' } });
    expect((await ok('POST', `${URL}/${cursors.id}/run`, {})).resultSets).toEqual([
      { columns: [{ name: 'first', dataType: 'integer' }], rows: [{ first: 1 }], rowCount: 1, truncated: false },
      { columns: [{ name: 'last', dataType: 'integer' }], rows: [{ last: 12 }], rowCount: 1, truncated: false },
    ]);
    // The source's connections are fine afterwards (each call's transaction ended).
    expect((await ok('POST', `${URL}/${sets.id}/run`, { parameters: { p_min: '100' } })).outParameters.o_count).toBe(0);

    // The factory's own functions do not take cursors.
    const refused = await call('POST', URL, { code: `own_cursor_${suffix}`, name: 'x', parameters: [{ name: 'c', type: 'refcursor', mode: 'out' }], returns: { kind: 'void' }, body: 'begin end' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('refcursor 只用于 PostgreSQL 数据源的过程：数据工厂的函数请返回数据表');
  });

  it('a read-only source refuses a procedure that writes (a writable one runs it); a source that is down answers 502 quickly; both logged', async () => {
    const touch = (sourceId: string, code: string) => ok('POST', URL, { code, name: '写入', sourceId, routine: { schema: 'test', name: `${table}_touch`, kind: 'procedure' }, parameters: [{ name: 'p_code', type: 'text' }], returns: { kind: 'void' } });
    const readOnly = await touch(mariaSource.id, `touch_ro_${suffix}`);
    const refused = await call('POST', `${URL}/${readOnly.id}/run`, { parameters: { p_code: 'W1' } });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.code).toBe('DataSource.ReadOnly');
    const [rows] = await maria.query(`select count(*) as n from ${table} where code = 'W1'`);
    expect((rows as { n: number }[])[0]!.n).toBe(0);
    const writable = await touch(writableMaria.id, `touch_rw_${suffix}`);
    expect((await ok('POST', `${URL}/${writable.id}/run`, { parameters: { p_code: 'W2' } })).resultSets).toEqual([]);
    const [written] = await maria.query(`select name from ${table} where code = 'W2'`);
    expect(written).toEqual([{ name: 'touched' }]);

    const down = await source({ ...MARIA, port: 1 });
    const gone = await ok('POST', URL, { code: `gone_${suffix}`, name: '不可用', sourceId: down.id, routine: { schema: 'test', name: `${table}_twice`, kind: 'function' }, parameters: [{ name: 'x', type: 'integer' }], returns: { kind: 'void' } });
    const started = performance.now();
    const answer = await call('POST', `${URL}/${gone.id}/run`, { parameters: { x: 1 } });
    expect(answer.statusCode).toBe(502);
    expect(performance.now() - started).toBeLessThan(6_000);
    expect((await ok('GET', `${URL}/${gone.id}/runs`)).items[0]).toMatchObject({ rowCount: null, error: expect.stringMatching(/\S/) });
    expect((await ok('GET', `${URL}/${readOnly.id}/runs`)).items[0].error).toBeTruthy();
  });

  it('answers 400 for definitions that cannot be called: no routine, OUT on a function, an HTTP or missing source, a routine without a source, INOUT in the factory', async () => {
    const http = await source({ kind: 'http', baseUrl: 'http://127.0.0.1:9/api' });
    const cases: [object, string][] = [
      [{ ...summary(), routine: null }, 'routine'],
      [{ ...summary(), routine: { schema: 'test', name: `${table}_twice`, kind: 'function' } }, 'parameters'],
      [{ ...summary(), sourceId: http.id }, 'sourceId'],
      [{ ...summary(), sourceId: '019ad000-0000-7000-8000-000000000000' }, 'sourceId'],
      [{ ...summary(), sourceId: null, body: 'begin end' }, 'routine'],
      [{ ...summary(), sourceId: null, routine: null, body: 'begin end' }, 'parameters.2.mode'],
      [{ ...summary(), routine: { schema: 'test', name: 'a\u0000b', kind: 'procedure' } }, 'body.routine.name'],
    ];
    for (const [body, member] of cases) {
      const res = await call('POST', URL, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 160)).toBe(400);
      expect(res.json().error.validationErrors[0].members, JSON.stringify(body).slice(0, 160)).toEqual([member]);
    }
    // The factory's own parameters have lower-case names (an external routine's may not).
    const upper = await call('POST', URL, { code: `upper_${suffix}`, name: 'x', parameters: [{ name: 'pCount', type: 'integer' }], returns: { kind: 'void' }, body: 'begin end' });
    expect(upper.json().error.validationErrors[0].members).toEqual(['parameters.0.name']);
    expect(await t.app.db.selectFrom('data_factory_procedures').select('id').where('code', '=', `summary_${suffix}`).executeTakeFirst()).toBeUndefined();
  });
});
