import { P } from '@tessera/core/contracts/permissions';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// The data factory (issue 16) on the embedded database, and on PostgreSQL with DATABASE_URL: PL/pgSQL
// functions created in schema `factory` in the definition's transaction, typed runs with OUT
// parameters, row caps and timeouts, the restricted role, versions with diffs and rollback, the
// run log and audit, hostile names and values, 400s and 403s.

let t: TestApp;
let admin: string;
const URL = '/api/app/data-factory';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, token = admin) => t.call(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
const ok = async (method: Method, url: string, payload?: unknown, token = admin) => {
  const res = await call(method, url, payload, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
/** The rows of a run's one result set. */
const rowsOf = (result: { resultSets: { rows: Record<string, unknown>[] }[] }) => result.resultSets[0]?.rows ?? [];
const run = (id: string, parameters: object = {}, extra: object = {}, token = admin) => call('POST', `${URL}/${id}/run`, { parameters, ...extra }, token);

/** The functions of schema factory with that name, as PostgreSQL has them. */
const functionsNamed = async (name: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from pg_proc p join pg_namespace s on s.oid = p.pronamespace where s.nspname = 'factory' and p.proname = ${name}`.execute(t.app.db)).rows[0]!.n;

const SERIES = {
  code: 'series_of',
  name: '数列',
  description: 'n rows from a start',
  parameters: [
    { name: 'p_start', type: 'integer', defaultValue: 1 },
    { name: 'p_count', type: 'integer', defaultValue: 3 },
    { name: 'p_label', type: 'text', defaultValue: null },
  ],
  returns: { kind: 'table', columns: [{ name: 'n', type: 'integer' }, { name: 'label', type: 'text' }, { name: 'day', type: 'date' }, { name: 'amount', type: 'numeric' }] },
  body: `begin
  return query select g, coalesce(p_label, 'x') || g, date '2026-12-01' + g, (g * 1.5)::numeric
    from generate_series(p_start, p_start + p_count - 1) g;
end`,
};

describe('data factory', () => {
  it('creates a PL/pgSQL function in schema factory and runs it with typed, bound values; rows are capped in the database', async () => {
    const created = await ok('POST', URL, SERIES);
    expect(created).toMatchObject({ code: 'series_of', name: '数列', version: 1, creatorName: 'admin', timeoutSeconds: 30, rowCap: 1000 });
    expect(await functionsNamed('series_of')).toBe(1);

    const result = await run(created.id, { p_start: 10, p_count: 2, p_label: "'; drop table users; --" });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json()).toMatchObject({
      resultSets: [
        {
          columns: [
            { name: 'n', dataType: 'integer' },
            { name: 'label', dataType: 'text' },
            { name: 'day', dataType: 'date' },
            { name: 'amount', dataType: 'numeric' },
          ],
          rows: [
            { n: 10, label: "'; drop table users; --10", day: '2026-12-11', amount: '15.0' },
            { n: 11, label: "'; drop table users; --11", day: '2026-12-12', amount: '16.5' },
          ],
          rowCount: 2,
          truncated: false,
        },
      ],
      rowCount: 2,
      outParameters: {},
    });
    expect(await t.app.db.selectFrom('users').select('id').where('user_name', '=', 'admin').executeTakeFirst()).toBeTruthy();
    // Defaults fill what is not given; numbers as digit text are integers too.
    expect(rowsOf(await ok('POST', `${URL}/${created.id}/run`, { parameters: {} })).map((r) => r.n)).toEqual([1, 2, 3]);
    expect(rowsOf(await ok('POST', `${URL}/${created.id}/run`, { parameters: { p_count: '2' } }))).toHaveLength(2);
    const capped = await ok('POST', `${URL}/${created.id}/run`, { parameters: { p_count: 50 }, rowCap: 5 });
    expect(capped).toMatchObject({ rowCount: 5, resultSets: [{ rowCount: 5, truncated: true }] });

    const list = await ok('GET', `${URL}?Filter=${encodeURIComponent('数列')}&Sorting=code%20desc`);
    expect(list.items.map((p: { id: string }) => p.id)).toEqual([created.id]);
    expect(list.items[0].body).toBeUndefined();
    expect((await ok('GET', `${URL}/${created.id}`)).body).toBe(SERIES.body);
  });

  it('answers OUT parameters of a function without a table, and refuses OUT with a table', async () => {
    const stats = await ok('POST', URL, {
      code: 'stats_of',
      name: 'OUT 参数',
      parameters: [
        { name: 'p_values', type: 'jsonb' },
        { name: 'o_total', type: 'numeric', mode: 'out' },
        { name: 'o_count', type: 'integer', mode: 'out' },
        { name: 'o_when', type: 'date', mode: 'out' },
      ],
      returns: { kind: 'void' },
      body: `begin
  select coalesce(sum(v::numeric), 0), count(*) into o_total, o_count from jsonb_array_elements_text(p_values) v;
  o_when := date '2026-12-02';
end`,
    });
    const result = await ok('POST', `${URL}/${stats.id}/run`, { parameters: { p_values: [1.5, 2, '3.25'] } });
    expect(result).toMatchObject({ resultSets: [], rowCount: 0, outParameters: { o_total: '6.75', o_count: 3, o_when: '2026-12-02' } });

    const both = await call('POST', URL, { ...SERIES, code: 'both_of', parameters: [{ name: 'o_x', type: 'integer', mode: 'out' }] });
    expect(both.statusCode).toBe(400);
    expect(both.json().error.validationErrors[0].members).toEqual(['parameters']);

    const nothing = await ok('POST', URL, { code: 'does_nothing', name: 'void', returns: { kind: 'void' }, body: 'begin perform 1; end' });
    expect(await ok('POST', `${URL}/${nothing.id}/run`, {})).toMatchObject({ resultSets: [], rowCount: 0, outParameters: {} });
  });

  it("refuses a body PostgreSQL does not accept with PostgreSQL's message, and saves nothing", async () => {
    const res = await call('POST', URL, { ...SERIES, code: 'broken_one', body: 'begin selec 1; end' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'DataFactory.CompileFailed', validationErrors: [{ members: ['body'] }] });
    expect(res.json().error.message).toMatch(/syntax error at or near "selec"/);
    expect(await t.app.db.selectFrom('data_factory_procedures').select('id').where('code', '=', 'broken_one').executeTakeFirst()).toBeUndefined();
    expect(await functionsNamed('broken_one')).toBe(0);

    // A save that fails keeps the previous version, its row and its function.
    const good = await ok('POST', URL, { ...SERIES, code: 'kept_one' });
    const bad = await call('PUT', `${URL}/${good.id}`, { ...SERIES, code: 'kept_one', body: 'begin return query selec 1; end', concurrencyStamp: good.concurrencyStamp });
    expect(bad.statusCode).toBe(400);
    expect(await ok('GET', `${URL}/${good.id}`)).toMatchObject({ version: 1, body: SERIES.body, concurrencyStamp: good.concurrencyStamp });
    expect((await ok('POST', `${URL}/${good.id}/run`, {})).rowCount).toBe(3);
  });

  it('keeps every save as a version: the list, a line diff, and a rollback that is a new version re-created in the database', async () => {
    const v1 = await ok('POST', URL, { ...SERIES, code: 'versioned' });
    const v2 = await ok('PUT', `${URL}/${v1.id}`, {
      ...SERIES,
      code: 'versioned',
      body: SERIES.body.replace("coalesce(p_label, 'x')", "coalesce(p_label, 'y')"),
      concurrencyStamp: v1.concurrencyStamp,
    });
    expect(v2.version).toBe(2);
    expect(rowsOf(await ok('POST', `${URL}/${v1.id}/run`, { parameters: { p_count: 1 } }))[0].label).toBe('y1');
    expect((await call('PUT', `${URL}/${v1.id}`, { ...SERIES, code: 'versioned', concurrencyStamp: v1.concurrencyStamp })).statusCode).toBe(409);

    const versions = await ok('GET', `${URL}/${v1.id}/versions`);
    expect(versions.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions.items[1]).toMatchObject({ body: SERIES.body, creatorName: 'admin', restoredFrom: null });

    const diff = await ok('GET', `${URL}/${v1.id}/versions/diff?from=1&to=2`);
    expect(diff).toMatchObject({ from: 1, to: 2, added: 1, removed: 1 });
    expect(diff.lines.filter((l: { kind: string }) => l.kind !== 'same')).toEqual([
      { kind: 'removed', text: expect.stringContaining("coalesce(p_label, 'x')"), oldNumber: 7, newNumber: null },
      { kind: 'added', text: expect.stringContaining("coalesce(p_label, 'y')"), oldNumber: null, newNumber: 7 },
    ]);
    expect(diff.lines[0]).toEqual({ kind: 'same', text: 'function factory.versioned (', oldNumber: 1, newNumber: 1 });
    expect((await call('GET', `${URL}/${v1.id}/versions/diff?from=1&to=9`)).statusCode).toBe(404);

    const v3 = await ok('POST', `${URL}/${v1.id}/versions/1/rollback`, { concurrencyStamp: v2.concurrencyStamp });
    expect(v3).toMatchObject({ version: 3, body: SERIES.body });
    expect((await ok('GET', `${URL}/${v1.id}/versions`)).items[0]).toMatchObject({ version: 3, restoredFrom: 1 });
    expect(rowsOf(await ok('POST', `${URL}/${v1.id}/run`, { parameters: { p_count: 1 } }))[0].label).toBe('x1');
    expect((await call('POST', `${URL}/${v1.id}/versions/1/rollback`, { concurrencyStamp: v2.concurrencyStamp })).statusCode).toBe(409);
    expect((await call('POST', `${URL}/${v1.id}/versions/7/rollback`, { concurrencyStamp: v3.concurrencyStamp })).statusCode).toBe(404);

    // A new code renames the function: the old one goes.
    await ok('PUT', `${URL}/${v1.id}`, { ...SERIES, code: 'versioned_renamed', concurrencyStamp: v3.concurrencyStamp });
    expect(await functionsNamed('versioned')).toBe(0);
    expect(await functionsNamed('versioned_renamed')).toBe(1);
  });

  it('cancels a run past its timeout with a clear 504, undoes it, and logs it', async () => {
    const slow = await ok('POST', URL, {
      code: 'slow_one',
      name: '慢',
      parameters: [{ name: 'p_seconds', type: 'double', defaultValue: 2 }],
      returns: { kind: 'table', columns: [{ name: 'done', type: 'boolean' }] },
      timeoutSeconds: 1,
      body: 'begin perform pg_sleep(p_seconds); return query select true; end',
    });
    const started = performance.now();
    const res = await run(slow.id);
    expect(res.statusCode, res.body).toBe(504);
    expect(res.json().error).toMatchObject({ code: 'DataFactory.Timeout', message: '过程“slow_one”在 1 秒内没有完成，已取消' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(rowsOf(await ok('POST', `${URL}/${slow.id}/run`, { parameters: { p_seconds: 0 } }))).toEqual([{ done: true }]);

    const log = await ok('GET', `${URL}/${slow.id}/runs`);
    expect(log.totalCount).toBe(2);
    expect(log.items[1]).toMatchObject({ version: 1, userName: 'admin', parameters: { p_seconds: 2 }, rowCount: null, error: expect.stringContaining('slow_one') });
    expect(log.items[1].durationMs).toBeGreaterThanOrEqual(900);
    expect(log.items[0]).toMatchObject({ parameters: { p_seconds: 0 }, rowCount: 1, error: null });
    expect((await ok('GET', `${URL}/${slow.id}/runs?SkipCount=1&MaxResultCount=1`)).items.map((r: { id: string }) => r.id)).toEqual([log.items[1].id]);

    const audit = await t.app.db.selectFrom('audit_logs').selectAll().where('action', '=', 'Ran').where('entity_id', '=', slow.id).orderBy('id').execute();
    expect(audit).toHaveLength(2);
    const details = audit.map((a) => (typeof a.details === 'string' ? JSON.parse(a.details) : a.details) as { error: string | null });
    expect(details.find((d) => d.error)).toMatchObject({ code: 'slow_one', parameters: { p_seconds: 2 }, rows: null, error: expect.stringContaining('slow_one') });
    expect(details.find((d) => !d.error)).toMatchObject({ parameters: { p_seconds: 0 }, rows: 1, asRole: 'tessera_factory' });
  });

  it("runs as the restricted role: the biz schema is readable, the product's own tables are not", async () => {
    await sql`create table biz.factory_orders (id int primary key, total numeric)`.execute(t.app.db);
    await sql`insert into biz.factory_orders values (1, 10.5), (2, 20)`.execute(t.app.db);
    const reader = await ok('POST', URL, {
      code: 'biz_reader',
      name: 'biz',
      returns: { kind: 'table', columns: [{ name: 'total', type: 'numeric' }] },
      body: 'begin return query select sum(o.total) from biz.factory_orders o; end',
    });
    expect(rowsOf(await ok('POST', `${URL}/${reader.id}/run`, {}))).toEqual([{ total: '30.5' }]);
    const snoop = await ok('POST', URL, {
      code: 'snoop',
      name: 'users',
      returns: { kind: 'table', columns: [{ name: 'hash', type: 'text' }] },
      body: 'begin return query select password_hash from public.users; end',
    });
    const denied = await run(snoop.id);
    expect(denied.statusCode).toBe(400);
    expect(denied.json().error).toMatchObject({ code: 'DataFactory.RunFailed', message: expect.stringMatching(/permission denied for table users/) });
    const raised = await ok('POST', URL, { code: 'raiser', name: 'raise', returns: { kind: 'void' }, body: "begin raise exception '金额不能为负'; end" });
    expect((await run(raised.id)).json().error.message).toContain('金额不能为负');
  });

  it('refuses bodies that switch roles, run text as SQL or change structure, before touching the database', async () => {
    for (const body of ['begin reset role; end', "begin perform set_config('role', 'postgres', true); end", "begin execute 'drop table users'; end", 'begin drop table users; end', 'begin set local statement_timeout = 0; end']) {
      const res = await call('POST', URL, { code: 'guarded', name: 'x', returns: { kind: 'void' }, body });
      expect(res.statusCode, body).toBe(400);
      expect(res.json().error.validationErrors[0].members).toEqual(['body']);
    }
    expect(await functionsNamed('guarded')).toBe(0);
  });

  it('answers 400 for hostile codes, names and values, and for values of the wrong type', async () => {
    const hostile = [
      { ...SERIES, code: 'x"; drop table users; --' },
      { ...SERIES, code: 'Upper' },
      { ...SERIES, code: 'a'.repeat(64) },
      { ...SERIES, parameters: [{ name: 'p"); drop table users; --', type: 'integer' }] },
      { ...SERIES, parameters: [{ name: 'p_x', type: 'integer; drop table users' }] },
      { ...SERIES, returns: { kind: 'table', columns: [{ name: 'a b', type: 'text' }] } },
      { ...SERIES, parameters: [{ name: 'p_x', type: 'integer', defaultValue: 'abc' }] },
      { ...SERIES, parameters: [{ name: 'n', type: 'integer' }] },
      { ...SERIES, body: '' },
      { ...SERIES, name: '' },
      { ...SERIES, timeoutSeconds: 301 },
    ];
    for (const body of hostile) {
      const res = await call('POST', URL, { ...body, code: body.code === SERIES.code ? 'hostile_one' : body.code });
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    expect(await t.app.db.selectFrom('data_factory_procedures').select('id').where('code', '=', 'hostile_one').executeTakeFirst()).toBeUndefined();
    expect((await call('POST', URL, { ...SERIES })).json().error.validationErrors[0].members).toEqual(['code']);

    const series = (await ok('GET', `${URL}?Filter=series_of`)).items[0];
    for (const [parameters, member] of [
      [{ p_count: '1; drop table users' }, 'parameters.p_count'],
      [{ p_count: 1.5 }, 'parameters.p_count'],
      [{ p_count: 3_000_000_000 }, 'parameters.p_count'],
      [{ p_label: 5 }, 'parameters.p_label'],
      [{ p_nope: 1 }, 'parameters.p_nope'],
    ] as const) {
      const res = await run(series.id, parameters);
      expect(res.statusCode, JSON.stringify(parameters)).toBe(400);
      expect(res.json().error.validationErrors[0].members).toEqual([member]);
    }
    expect((await run(series.id, { 'p"x': 1 })).statusCode).toBe(400);
    expect((await call('GET', `${URL}/not-a-uuid`)).statusCode).toBe(400);
    expect((await call('GET', `${URL}/019ad000-0000-7000-8000-000000000000`)).statusCode).toBe(404);
  });

  it("answers 403 without the codes: managing needs Tessera.DataFactory, running Tessera.DataFactory.Run and the procedure's own code", async () => {
    const series = (await ok('GET', `${URL}?Filter=series_of`)).items[0];
    const other = await ok('POST', URL, { ...SERIES, code: 'series_other', name: '另一个数列' });
    await createUser(t.app.db, 'factory-outsider');
    const outsider = await t.login('factory-outsider', FIXTURE_PASSWORD);
    expect((await call('GET', URL, undefined, outsider)).statusCode).toBe(403);
    expect((await call('POST', URL, { ...SERIES, code: 'outsider_one' }, outsider)).statusCode).toBe(403);
    expect((await run(series.id, {}, {}, outsider)).statusCode).toBe(403);

    // Each procedure has its code, named after it, under "run" in the data factory's group of the grant screen.
    expect(series.permissionCode).toBe(`Tessera.DataFactory.Procedures.${series.id.replace(/-/g, '')}`);
    const definition = await t.app.db.selectFrom('permission_definitions').selectAll().where('name', '=', series.permissionCode).executeTakeFirstOrThrow();
    expect([definition.group_name, definition.parent_name, definition.is_system]).toEqual(['Tessera.DataFactory', P.DataFactoryRun, false]);
    expect(definition.display_name).toEqual({ 'zh-CN': '运行“数列”', 'en-US': 'Run "数列"' });

    const runners = await createRole(t.app.db, 'factory-runners');
    await grant(t.app.db, 'R', runners, [P.DataFactoryRun, series.permissionCode]);
    await createUser(t.app.db, 'factory-runner', { roles: [runners] });
    const runner = await t.login('factory-runner', FIXTURE_PASSWORD);
    expect((await run(series.id, { p_count: 1 }, {}, runner)).statusCode).toBe(200);
    // Not the other procedure, and not without DataFactoryRun either (nothing ran, nothing logged).
    const refused = await run(other.id, {}, {}, runner);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('没有运行过程“series_other”的权限');
    expect((await call('GET', `${URL}/${other.id}/runs`, undefined, runner)).json().totalCount).toBe(0);
    const codeOnly = await createRole(t.app.db, 'factory-code-only');
    await grant(t.app.db, 'R', codeOnly, [other.permissionCode]);
    await createUser(t.app.db, 'factory-code-only', { roles: [codeOnly] });
    expect((await run(other.id, {}, {}, await t.login('factory-code-only', FIXTURE_PASSWORD))).statusCode).toBe(403);

    // Renamed, the code keeps its grants and takes the new name; deleted, it goes with its grants.
    const renamed = await ok('PUT', `${URL}/${series.id}`, { ...SERIES, name: '数列二', concurrencyStamp: series.concurrencyStamp });
    expect(renamed.permissionCode).toBe(series.permissionCode);
    expect((await t.app.db.selectFrom('permission_definitions').select('display_name').where('name', '=', series.permissionCode).executeTakeFirstOrThrow()).display_name).toEqual({ 'zh-CN': '运行“数列二”', 'en-US': 'Run "数列二"' });
    expect((await run(series.id, { p_count: 1 }, {}, runner)).statusCode).toBe(200);
    expect((await call('DELETE', `${URL}/${other.id}`)).statusCode).toBe(204);
    expect(await t.app.db.selectFrom('permission_definitions').select('name').where('name', '=', other.permissionCode).executeTakeFirst()).toBeUndefined();
    expect(await t.app.db.selectFrom('permission_grants').select('id').where('name', '=', other.permissionCode).executeTakeFirst()).toBeUndefined();
    // The code is the procedure's: the permission definitions designer neither deletes nor edits it.
    const deleting = await call('DELETE', `/api/app/permission-definitions/${encodeURIComponent(series.permissionCode)}`);
    expect(deleting.statusCode, deleting.body).toBe(400);
    expect(await t.app.db.selectFrom('permission_definitions').select('name').where('name', '=', series.permissionCode).executeTakeFirst()).toBeDefined();
    expect((await call('GET', `${URL}/${series.id}/runs`, undefined, runner)).json().items[0].userName).toBe('factory-runner');
    expect((await call('GET', URL, undefined, runner)).statusCode).toBe(403);
    expect((await call('PUT', `${URL}/${series.id}`, { ...SERIES, concurrencyStamp: series.concurrencyStamp }, runner)).statusCode).toBe(403);
    expect((await call('DELETE', `${URL}/${series.id}`, undefined, runner)).statusCode).toBe(403);
  });

  it('deletes a definition with its versions and run log, and drops its function', async () => {
    const doomed = await ok('POST', URL, { ...SERIES, code: 'doomed' });
    await ok('POST', `${URL}/${doomed.id}/run`, {});
    expect(await functionsNamed('doomed')).toBe(1);
    expect((await call('DELETE', `${URL}/${doomed.id}`)).statusCode).toBe(204);
    expect(await functionsNamed('doomed')).toBe(0);
    expect((await call('GET', `${URL}/${doomed.id}`)).statusCode).toBe(404);
    expect(await t.app.db.selectFrom('data_factory_runs').select('id').where('procedure_id', '=', doomed.id).executeTakeFirst()).toBeUndefined();
    expect(await t.app.db.selectFrom('data_factory_versions').select('version').where('procedure_id', '=', doomed.id).executeTakeFirst()).toBeUndefined();
    const entry = await t.app.db.selectFrom('audit_logs').selectAll().where('action', '=', 'Deleted').where('entity_id', '=', doomed.id).executeTakeFirstOrThrow();
    expect(entry.entity_type).toBe('DataFactoryProcedure');
  });
});
