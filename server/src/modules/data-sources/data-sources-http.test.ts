import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, FIXTURE_PASSWORD } from '../../../test/access-fixtures.ts';
import { closedPort, json, startHttpApi, type HttpApiFixture } from '../../../test/http-api-fixture.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// HTTP/REST data sources (issue 16) against a small HTTP API this file starts on 127.0.0.1: sealed
// secrets, connection tests, requests with parameters (URL-encoded path values, JSON body values,
// the base URL's origin kept), the four kinds of authentication as the API received them, rows by a
// JSON path with typed columns, saved queries, and every way a source fails (non-2xx, slow, not
// JSON, too large, refusing connections), validation and permissions.

let t: TestApp;
let admin: string;
let api: HttpApiFixture;
const URL = '/api/app/data-source';

const items = [
  { code: 'C1', name: '上海文具', credit: 100, rate: 0.5, active: true, since: '2026-01-02', tags: ['a'] },
  { code: 'C2', name: '北京纸业', credit: 200, rate: 1, active: false, since: '2026-02-03', tags: [] },
  { code: 'C3', name: '广州办公', credit: 300, rate: 1.25, active: true, since: null, tags: null },
];

/** Requests '/api/held' has under way now and the most it had at once; those '/api/slow' received. */
const held = { now: 0, most: 0, slow: 0 };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  api = await startHttpApi({
    '/api/health': (_, res) => json(res, 200, { ok: true }),
    '/api/customers': (req, res) => json(res, 200, { data: { items, total: items.length } }),
    '/api/echo': (req, res) => json(res, 200, { received: { method: req.method, url: req.url, body: req.body, tenant: req.headers['x-tenant'] ?? null } }),
    '/api/broken': (_, res) => json(res, 500, { error: 'database on fire' }),
    '/api/text': (_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>not json</html>');
    },
    '/api/big': (_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`[${'"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",'.repeat(200_000)}"end"]`);
    },
    '/api/slow': async (_, res) => {
      held.slow += 1;
      await new Promise((r) => setTimeout(r, 3_000));
      if (!res.destroyed) json(res, 200, []);
    },
    '/api/held': async (_, res) => {
      held.now += 1;
      held.most = Math.max(held.most, held.now);
      await new Promise((r) => setTimeout(r, 200));
      held.now -= 1;
      json(res, 200, [{ ok: true }]);
    },
    '/api/redirect': (_, res) => {
      res.writeHead(302, { location: 'http://example.invalid/' });
      res.end();
    },
  });
});
afterAll(async () => {
  await t?.close();
  await api?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) =>
  t.call(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) => {
  const res = await call(method, url, payload, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const HTTP = () => ({ kind: 'http', baseUrl: `${api.origin}/api` }) as const;
const create = (body: object) => ok('POST', URL, { name: `接口 ${randomBytes(3).toString('hex')}`, ...HTTP(), ...body });
const request = (id: string, req: object, parameters: object = {}) => call('POST', `${URL}/${id}/query`, { request: req, parameters });

describe('HTTP data sources', () => {
  it('seals the secret: never answered, not in the row, kept when not sent, removed when empty', async () => {
    const created = await create({ name: '客户接口', auth: { kind: 'bearer' }, secret: 'tok-secret-123', headers: [{ name: 'X-Client', value: 'tessera' }], timeoutMs: 2_000 });
    expect(created).toMatchObject({
      kind: 'http',
      hasPassword: true,
      host: '127.0.0.1',
      readOnly: true,
      rowCap: 1000,
      http: { baseUrl: `${api.origin}/api`, headers: [{ name: 'X-Client', value: 'tessera' }], auth: { kind: 'bearer', username: '', apiKeyName: '', apiKeyIn: 'header' }, testPath: '', timeoutMs: 2_000 },
    });
    expect(JSON.stringify(created)).not.toContain('tok-');
    const row = await t.app.db.selectFrom('data_sources').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.sealed_password).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('tok-');
    expect(JSON.stringify(await ok('GET', `${URL}/${created.id}`))).not.toContain('tok-');
    expect(JSON.stringify(await ok('GET', `${URL}?Kind=http`))).not.toContain('tok-');

    const kept = await ok('PUT', `${URL}/${created.id}`, { ...HTTP(), name: '客户接口 2', auth: { kind: 'bearer' }, concurrencyStamp: created.concurrencyStamp });
    expect(kept).toMatchObject({ name: '客户接口 2', hasPassword: true });
    await ok('POST', `${URL}/${created.id}/query`, { request: { path: '/echo' } });
    expect(api.last('/api/echo')!.headers.authorization).toBe('Bearer tok-secret-123');
    const cleared = await ok('PUT', `${URL}/${created.id}`, { ...HTTP(), name: '客户接口 2', secret: '', concurrencyStamp: kept.concurrencyStamp });
    expect(cleared).toMatchObject({ hasPassword: false, http: { auth: { kind: 'none' } } });
  });

  it('tests saved and unsaved settings: the HTTP status of the base URL or its test path, or why not (quickly for a closed port)', async () => {
    const source = await create({ testPath: '/health' });
    expect(await ok('POST', `${URL}/${source.id}/test`)).toMatchObject({ ok: true, version: 'HTTP 200 OK', message: null });
    expect(api.last('/api/health')!.method).toBe('GET');
    expect(await ok('POST', `${URL}/test`, { name: 'x', ...HTTP(), testPath: '/nowhere' })).toMatchObject({ ok: false, version: null, message: 'HTTP 404 Not Found' });
    // The stored secret is lent to a test of edited settings.
    const keyed = await create({ auth: { kind: 'apiKey', apiKeyName: 'X-Api-Key' }, secret: 'k-1', testPath: '/health' });
    await ok('POST', `${URL}/test`, { name: 'x', ...HTTP(), auth: { kind: 'apiKey', apiKeyName: 'X-Api-Key' }, testPath: '/health', sourceId: keyed.id });
    expect(api.last('/api/health')!.headers['x-api-key']).toBe('k-1');
    const started = performance.now();
    const refused = await ok('POST', `${URL}/test`, { name: 'x', kind: 'http', baseUrl: `http://127.0.0.1:${await closedPort()}` });
    expect(refused).toMatchObject({ ok: false, message: expect.stringMatching(/ECONNREFUSED/) });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('fills parameters: path values URL-encoded, query values encoded by the query string, header texts, body values as JSON values; the origin is kept', async () => {
    const source = await create({ readOnly: false });
    const res = await request(
      source.id,
      {
        method: 'POST',
        path: '/echo/:id/{{name}}',
        query: [
          { name: 'q', value: '{{q}}' },
          { name: 'gone', value: '{{none}}' },
        ],
        headers: [{ name: 'X-Tenant', value: 'tenant-{{n}}' }],
        body: '{"q": {{q}}, "n": {{n}}, "flag": {{flag}}, "greeting": "hi {{q}}", "none": {{none}}}',
        rowsPath: 'received',
      },
      { id: 'a/b?c#d', name: 'http://evil.example/x', q: 'x&y="z"', n: 7, flag: true, none: null },
    );
    expect(res.statusCode, res.body).toBe(200);
    const received = res.json().rows[0];
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/api/echo/a%2Fb%3Fc%23d/http%3A%2F%2Fevil.example%2Fx?q=x%26y%3D%22z%22');
    expect(received.tenant).toBe('tenant-7');
    expect(JSON.parse(received.body)).toEqual({ q: 'x&y="z"', n: 7, flag: true, greeting: 'hi x&y="z"', none: null });
    expect(api.last('/api/echo')!.headers['content-type']).toBe('application/json');

    // `..` values may not climb out of the base URL's path.
    const out = await request(source.id, { path: '/:a/:b' }, { a: '..', b: '..' });
    expect(out.statusCode).toBe(400);
    expect(out.json().error.validationErrors[0].members).toEqual(['request.path']);
    // Every parameter the templates use needs a value in an ad-hoc run.
    const missing = await request(source.id, { path: '/echo/:id', query: [{ name: 'q', value: '{{q}}' }] }, { id: 1 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toContain('q');
  });

  it('a read-only source sends GET and HEAD only', async () => {
    const source = await create({});
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const before = api.received.length;
      const res = await request(source.id, { method, path: '/echo' });
      expect(res.statusCode, method).toBe(400);
      expect(res.json().error.code).toBe('DataSource.ReadOnly');
      expect(api.received.length).toBe(before);
    }
    expect((await request(source.id, { method: 'HEAD', path: '/echo' })).json()).toMatchObject({ rowCount: 0 });
    expect(api.last('/api/echo')!.method).toBe('HEAD');
  });

  it('authenticates as configured: basic, bearer, an API key in a header or in the query string', async () => {
    const cases = [
      [{ kind: 'basic', username: 'ann' }, 'pw:密码', (r: { headers: Record<string, unknown>; url: string }) => expect(r.headers.authorization).toBe(`Basic ${Buffer.from('ann:pw:密码').toString('base64')}`)],
      [{ kind: 'bearer' }, 'tok', (r: { headers: Record<string, unknown> }) => expect(r.headers.authorization).toBe('Bearer tok')],
      [{ kind: 'apiKey', apiKeyName: 'X-Api-Key' }, 'k&1', (r: { headers: Record<string, unknown> }) => expect(r.headers['x-api-key']).toBe('k&1')],
      [{ kind: 'apiKey', apiKeyName: 'api_key', apiKeyIn: 'query' }, 'k&1', (r: { url: string }) => expect(r.url).toBe('/api/echo?api_key=k%261')],
      [{ kind: 'none' }, undefined, (r: { headers: Record<string, unknown> }) => expect(r.headers.authorization).toBeUndefined()],
    ] as const;
    for (const [auth, secret, check] of cases) {
      const source = await create({ auth, ...(secret === undefined ? {} : { secret }), headers: [{ name: 'Authorization', value: 'Bearer from-defaults' }] });
      await ok('POST', `${URL}/${source.id}/query`, { request: { path: '/echo', headers: [{ name: 'Authorization', value: auth.kind === 'none' ? 'Bearer own' : 'Bearer overridden' }] } });
      const received = api.last('/api/echo')!;
      if (auth.kind === 'none') expect(received.headers.authorization).toBe('Bearer own');
      else check(received as never);
    }
  });

  it('maps the JSON answer to rows by its rows path, typed from the rows; the row cap cuts and says so', async () => {
    const source = await create({ rowCap: 2 });
    const res = (await ok('POST', `${URL}/${source.id}/query`, { request: { path: '/customers', rowsPath: '$.data.items[*]' } })) as { columns: unknown; rows: unknown[]; truncated: boolean };
    expect(res.columns).toEqual([
      { name: 'code', dataType: 'text' },
      { name: 'name', dataType: 'text' },
      { name: 'credit', dataType: 'integer' },
      { name: 'rate', dataType: 'number' },
      { name: 'active', dataType: 'boolean' },
      { name: 'since', dataType: 'date' },
      { name: 'tags', dataType: 'json' },
    ]);
    expect(res).toMatchObject({ rowCount: 2, truncated: true });
    expect(res.rows[0]).toEqual(items[0]);
    expect((await ok('POST', `${URL}/${source.id}/query`, { request: { path: '/customers', rowsPath: 'data.total' } })).rows).toEqual([{ value: 3 }]);
    expect((await ok('POST', `${URL}/${source.id}/query`, { request: { path: '/customers', rowsPath: 'data.nothing' } })).rowCount).toBe(0);
  });

  it('fails clearly: a non-2xx answer, text that is not JSON, too large an answer, a redirect (502), a slow source (504), a closed port (502) — each quickly', async () => {
    const source = await create({ name: '不稳定接口', timeoutMs: 500 });
    const expectFailure = async (path: string, status: number, code: string, text: RegExp) => {
      const started = performance.now();
      const res = await request(source.id, { path });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(status);
      expect(res.json().error.code).toBe(code);
      expect(res.json().error.message).toContain('不稳定接口');
      expect(res.json().error.message).toMatch(text);
      expect(performance.now() - started).toBeLessThan(2_500);
    };
    await expectFailure('/broken', 502, 'DataSource.BadResponse', /HTTP 500 .*database on fire/);
    await expectFailure('/text', 502, 'DataSource.BadResponse', /JSON/);
    await expectFailure('/big', 502, 'DataSource.BadResponse', /5 MB/);
    await expectFailure('/redirect', 502, 'DataSource.BadResponse', /HTTP 302/);
    await expectFailure('/slow', 504, 'DataSource.Timeout', /500/);
    const down = await create({ name: '关闭的接口', baseUrl: `http://127.0.0.1:${await closedPort()}/api` });
    const refused = await request(down.id, { path: '/x' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error).toMatchObject({ code: 'DataSource.Unavailable', message: expect.stringContaining('关闭的接口') });
  });

  it('sends at most its pool size of requests at once; the others wait within their timeout, and one that waited it out is not sent', async () => {
    const narrow = await create({ name: '窄接口', poolSize: 1, timeoutMs: 5_000 });
    expect(narrow.poolSize).toBe(1);
    const started = performance.now();
    const answers = await Promise.all([1, 2, 3].map(() => request(narrow.id, { path: '/held' })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(held.most).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);

    const stalled = await create({ name: '卡住的接口', poolSize: 1, timeoutMs: 500 });
    const begun = performance.now();
    const slowBefore = held.slow;
    const [first, second] = await Promise.all([request(stalled.id, { path: '/slow' }), request(stalled.id, { path: '/slow' })]);
    expect(performance.now() - begun).toBeLessThan(2_500);
    expect([first.statusCode, second.statusCode]).toEqual([504, 504]);
    expect([first, second].every((r) => r.json().error.message.includes('卡住的接口'))).toBe(true);
    // The second waited for the first all its 500 ms and was never sent.
    expect(held.slow - slowBefore).toBe(1);
  });

  it('saves requests as queries: parameters declared exactly, columns read by a GET, runs with defaults and caches', async () => {
    const source = await create({});
    const saved = await ok('POST', `${URL}/${source.id}/method`, {
      code: 'customers',
      name: '客户',
      request: { path: '/customers', query: [{ name: 'region', value: '{{region}}' }], rowsPath: 'data.items' },
      parameters: [{ name: 'region', type: 'text', defaultValue: 'east' }],
      cacheSeconds: 60,
    });
    expect(saved).toMatchObject({ code: 'customers', sql: '', request: { method: 'GET', path: '/customers', rowsPath: 'data.items' } });
    expect(saved.columns.map((c: { name: string }) => c.name)).toEqual(['code', 'name', 'credit', 'rate', 'active', 'since', 'tags']);
    expect(api.last('/api/customers')!.url).toBe('/api/customers?region=east');

    // Sent back as read (sql '' beside the request), it saves again.
    const again = await ok('PUT', `${URL}/${source.id}/method/${saved.id}`, { ...saved, name: '客户 2', concurrencyStamp: saved.concurrencyStamp });
    expect(again).toMatchObject({ name: '客户 2', request: saved.request, columns: saved.columns });
    const run = (parameters: object) => ok('POST', `${URL}/${source.id}/method/${saved.id}/run`, { parameters });
    expect(await run({ region: 'west' })).toMatchObject({ rowCount: 3, cached: false });
    expect(api.last('/api/customers')!.url).toBe('/api/customers?region=west');
    const count = api.received.length;
    expect(await run({ region: 'west' })).toMatchObject({ rowCount: 3, cached: true });
    expect(api.received.length).toBe(count);

    for (const [body, member] of [
      [{ code: 'x', name: 'x', request: { path: '/echo/:id' }, parameters: [] }, 'parameters'],
      [{ code: 'x', name: 'x', request: { path: '/echo' }, parameters: [{ name: 'a', type: 'text', defaultValue: null }] }, 'parameters'],
      [{ code: 'x', name: 'x', sql: 'select 1' }, 'request'],
      [{ code: 'CUSTOMERS', name: 'x', request: { path: '/customers' } }, 'code'],
    ] as const) {
      const res = await call('POST', `${URL}/${source.id}/method`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.validationErrors[0].members).toEqual([member]);
    }
    // A request that fails at save time is refused with the source's error, nothing saved.
    expect((await call('POST', `${URL}/${source.id}/method`, { code: 'broken', name: 'x', request: { path: '/broken' } })).statusCode).toBe(502);
    expect((await ok('GET', `${URL}/${source.id}/method`)).items.map((m: { code: string }) => m.code)).toEqual(['customers']);
  });

  it('answers 400 with validationErrors for bad settings and requests, 400 for SQL on an HTTP source, and 403 without Tessera.DataSources', async () => {
    for (const body of [
      { kind: 'http', baseUrl: 'ftp://127.0.0.1/x' },
      { kind: 'http', baseUrl: 'http://127.0.0.1/x?key=1' },
      { kind: 'http', baseUrl: 'http://user:pw@127.0.0.1/x' },
      { kind: 'http', baseUrl: 'not a url' },
      { ...HTTP(), headers: [{ name: 'Bad Name', value: 'x' }] },
      { ...HTTP(), headers: [{ name: 'Host', value: 'evil.example' }] },
      { ...HTTP(), headers: [{ name: 'X-A', value: 'a\r\nX-B: b' }] },
      { ...HTTP(), auth: { kind: 'basic' } },
      { ...HTTP(), auth: { kind: 'apiKey' } },
      { ...HTTP(), timeoutMs: 10 },
    ]) {
      const res = await call('POST', URL, { name: 'x', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    const source = await create({});
    for (const req of [{ rowsPath: '$..items' }, { rowsPath: 'data[?(@.x)]' }, { method: 'GET', body: '{}' }, { method: 'TRACE' }, { path: '/x?y=1' }]) {
      const res = await request(source.id, req);
      expect(res.statusCode, JSON.stringify(req)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    expect((await call('POST', `${URL}/${source.id}/query`, { sql: 'select 1', request: { path: '/x' } })).statusCode).toBe(400);
    expect((await call('POST', `${URL}/${source.id}/query`, {})).statusCode).toBe(400);
    const sql = await call('POST', `${URL}/${source.id}/query`, { sql: 'select 1' });
    expect(sql.statusCode).toBe(400);
    expect(sql.json().error.validationErrors[0].members).toEqual(['sql']);
    expect((await call('GET', `${URL}/${source.id}/objects`)).statusCode).toBe(400);
    // A bearer token outside Latin-1 cannot be a header: the caller's mistake, named.
    const wide = await create({ auth: { kind: 'bearer' }, secret: '令牌' });
    const wideRes = await request(wide.id, { path: '/echo' });
    expect(wideRes.statusCode).toBe(400);
    expect(wideRes.json().error.validationErrors[0].members).toEqual(['secret']);
    const writable = await create({ readOnly: false });
    const badBody = await request(writable.id, { method: 'POST', path: '/echo', body: '{"a": {{a}}' }, { a: 1 });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json().error.validationErrors[0].members).toEqual(['request.body']);

    await createUser(t.app.db, 'http-outsider');
    const outsider = await t.login('http-outsider', FIXTURE_PASSWORD);
    expect((await call('POST', URL, { name: 'x', ...HTTP() }, outsider)).statusCode).toBe(403);
    expect((await call('POST', `${URL}/${source.id}/query`, { request: { path: '/echo' } }, outsider)).statusCode).toBe(403);
    expect((await call('POST', `${URL}/test`, { name: 'x', ...HTTP() }, outsider)).statusCode).toBe(403);
  });
});
