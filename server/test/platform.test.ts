import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { publicRoute, requirePermission, signedIn } from '../src/platform/route-access.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { enableRegistration, register } from './registration-helpers.ts';

let t: TestApp;
let admin: string;
let releaseLongTransaction: () => void = () => {};
let markHeld: () => void = () => {};
/** Resolves once the next long transaction has written its first row and waits for the release. */
const longTransactionHeld = () => new Promise<void>((resolve) => (markHeld = resolve));

beforeAll(async () => {
  t = await createTestApp({ bodyLimit: 64 * 1024 }, (app) => {
    // Probes: a guarded write and a request that holds a transaction until the test releases it.
    app.post('/api/test/notes', {
      config: signedIn(),
      schema: { body: z.object({ text: z.string().min(1).max(50), count: z.number().int() }) },
      handler: async (req) => {
        const body = req.body as { text: string };
        await sql`insert into settings (key, value) values (${'note:' + body.text}, '1'::jsonb)`.execute(app.db);
        return { ok: true };
      },
    });
    app.post('/api/test/long-transaction', {
      config: signedIn(),
      handler: async (req) => {
        const fail = (req.query as { fail?: string }).fail === '1';
        await app.db.transaction().execute(async (trx) => {
          await sql`insert into settings (key, value) values (${fail ? 'doomed:before' : 'long:before'}, '1'::jsonb)`.execute(trx);
          const released = new Promise<void>((resolve) => (releaseLongTransaction = resolve));
          markHeld();
          await released;
          if (fail) throw new Error('rolled back on purpose');
          await sql`insert into settings (key, value) values ('long:after', '1'::jsonb)`.execute(trx);
        });
        return { ok: true };
      },
    });
    app.get('/api/test/needs-permission', { config: requirePermission('Test.Nobody.Has.This'), handler: async () => ({ ok: true }) });
    app.get('/api/test/undeclared', { handler: async () => ({ ok: true }) });
    app.get('/api/test/public', { config: publicRoute(), handler: async () => ({ ok: true }) });
  });
  admin = await t.login();
});
afterAll(() => t.close());

describe('route guard', () => {
  it('every /api route is explicitly public or guarded', () => {
    const apiRoutes = t.app.routeTable.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/test/'));
    expect(apiRoutes.length).toBeGreaterThan(5);
    const undeclared = apiRoutes.filter((r) => !r.access).map((r) => `${String(r.method)} ${r.url}`);
    expect(undeclared).toEqual([]);
    for (const r of apiRoutes.filter((r) => r.access?.kind === 'permission')) {
      expect((r.access as { code: string }).code).toMatch(/^[A-Za-z][\w.]+$/);
    }
  });

  it('fails closed for a route that declares nothing, even for the admin', async () => {
    expect((await t.call(admin, { method: 'GET', url: '/api/test/undeclared' })).statusCode).toBe(403);
  });

  it('answers 403 and audits a missing permission', async () => {
    const res = await t.call(admin, { method: 'GET', url: '/api/test/needs-permission' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('Forbidden');
    const denied = await t.database.db.selectFrom('audit_logs').selectAll().where('action', '=', 'PermissionDenied').execute();
    expect(denied.length).toBeGreaterThan(0);
  });

  it('lets anyone call a public route', async () => {
    expect((await t.call(null, { method: 'GET', url: '/api/test/public' })).statusCode).toBe(200);
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.call(null, { method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/Auth/Login']).toBeDefined();
  });

  it('sets security headers', async () => {
    const res = await t.call(null, { method: 'GET', url: '/api/test/public' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('bad input', () => {
  const post = (payload: string, headers: Record<string, string> = {}) =>
    t.call(admin, { method: 'POST', url: '/api/test/notes', payload, headers: { 'content-type': 'application/json', ...headers } });

  it.each([
    ['malformed JSON', '{"text": "a",'],
    ['wrong type', JSON.stringify({ text: 'a', count: 'many' })],
    ['missing field', JSON.stringify({ text: 'a' })],
    ['over-long string', JSON.stringify({ text: 'x'.repeat(51), count: 1 })],
  ])('%s → 400 with validationErrors and nothing written', async (_name, payload) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('ValidationError');
    expect(body.error.message).toBeTruthy();
    expect(body.error.validationErrors.length).toBeGreaterThan(0);
    const notes = await t.database.db.selectFrom('settings').select('key').where('key', 'like', 'note:%').execute();
    expect(notes).toEqual([]);
  });

  it('names the offending member', async () => {
    const res = await post(JSON.stringify({ text: 'a', count: 'many' }));
    expect(res.json().error.validationErrors[0].members).toEqual(['body.count']);
  });

  it('a body over the size limit → 413', async () => {
    const res = await post(JSON.stringify({ text: 'a', count: 1, pad: 'x'.repeat(70 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PayloadTooLarge');
  });

  it('an unknown /api path → JSON 404', async () => {
    const res = await t.call(admin, { method: 'GET', url: '/api/no/such/thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toContain('请求地址出错');
  });

  it('validation failures are audited', async () => {
    const rows = await t.database.db.selectFrom('audit_logs').select('action').where('action', '=', 'ValidationFailed').execute();
    expect(rows.length).toBeGreaterThan(0);
  });

  it('a valid body is accepted', async () => {
    expect((await post(JSON.stringify({ text: 'fine', count: 1 }))).statusCode).toBe(200);
  });
});

describe('tokens', () => {
  const me = (token: string | null) => t.call(token, { method: 'GET', url: '/api/app/sys-function/current-user' });

  it('no token → 401 with the error shape', async () => {
    const res = await me(null);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('Unauthorized');
  });

  it('a forged token (other secret) → 401', async () => {
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('00000000-0000-0000-0000-000000000000')
      .setJti('00000000-0000-0000-0000-000000000001')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(40)));
    expect((await me(forged)).statusCode).toBe(401);
    expect((await me('not.a.jwt')).statusCode).toBe(401);
  });

  it('an expired token → 401', async () => {
    const payload = JSON.parse(Buffer.from(admin.split('.')[1]!, 'base64url').toString());
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(payload.sub)
      .setJti(payload.jti)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(t.app.config.jwtSecret);
    expect((await me(expired)).statusCode).toBe(401);
  });

  it('a valid token for a locked or deleted user → 401', async () => {
    await enableRegistration(t);
    const reg = await register(t, 'temp@example.com');
    const token = reg.data.token;
    const id = reg.data.uuid;
    expect((await me(token)).statusCode).toBe(200);
    await t.database.db.updateTable('users').set({ lockout_end: new Date(Date.now() + 60_000) }).where('id', '=', id).execute();
    t.app.authCache.invalidateUser(id);
    expect((await me(token)).statusCode).toBe(401);
    await t.database.db.updateTable('users').set({ lockout_end: null, is_deleted: true }).where('id', '=', id).execute();
    t.app.authCache.invalidateUser(id);
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe('one embedded connection, many requests', () => {
  it('50 concurrent requests complete while another request holds a transaction, and nothing interleaves', async () => {
    const held = longTransactionHeld();
    const long = t.call(admin, { method: 'POST', url: '/api/test/long-transaction' });
    // However slow the machine, the 50 start only once the transaction is really held.
    await held;
    const others = Array.from({ length: 50 }, (_, i) =>
      t.call(admin, { method: 'POST', url: '/api/test/notes', payload: { text: `c${i}`, count: i } }),
    );
    await new Promise((r) => setTimeout(r, 100));
    releaseLongTransaction();
    const results = await Promise.all([long, ...others]);
    expect(results.map((r) => r.statusCode)).toEqual(Array(51).fill(200));
    const keys = await t.database.db.selectFrom('settings').select('key').where((eb) => eb.or([eb('key', 'like', 'note:c%'), eb('key', 'like', 'long:%')])).execute();
    expect(keys.length).toBe(52);
  });

  it('a transaction that rolls back takes none of the concurrent writes with it', async () => {
    const held = longTransactionHeld();
    const long = t.call(admin, { method: 'POST', url: '/api/test/long-transaction?fail=1' });
    // However slow the machine, the 50 start only once the transaction is really held.
    await held;
    const others = Array.from({ length: 50 }, (_, i) =>
      t.call(admin, { method: 'POST', url: '/api/test/notes', payload: { text: `r${i}`, count: i } }),
    );
    await new Promise((r) => setTimeout(r, 100));
    releaseLongTransaction();
    const [failed, ...rest] = await Promise.all([long, ...others]);
    expect(failed!.statusCode).toBe(500);
    expect(rest.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    const notes = await t.database.db.selectFrom('settings').select('key').where('key', 'like', 'note:r%').execute();
    expect(notes.length).toBe(50);
    const doomed = await t.database.db.selectFrom('settings').select('key').where('key', 'like', 'doomed:%').execute();
    expect(doomed).toEqual([]);
  });
});
