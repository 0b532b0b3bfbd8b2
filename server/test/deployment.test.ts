import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect as http2Connect } from 'node:http2';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBasePath, parseTrustProxy } from '../src/config.ts';
import { publicRoute } from '../src/platform/route-access.ts';
import { stripBasePath } from '../src/platform/deployment.ts';
import { createTestApp, TEST_ADMIN_PASSWORD, type TestApp } from './test-app.ts';

// How the product meets the network it is deployed on (issue 24): a LAN over plain HTTP, HTTPS
// directly or behind a proxy, at the root or under a sub-path.

const CURRENT_USER = '/api/app/sys-function/current-user';
/** A small public answer (the sign-in page's language selector). */
const PUBLIC = '/api/app/localization/language-packs';
const login = (t: TestApp, from: { remoteAddress: string; forwardedFor?: string; userName?: string }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/Auth/Login',
    remoteAddress: from.remoteAddress,
    headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
    payload: { username: from.userName ?? 'admin', password: 'wrong-password' },
  });

/** A built web app in miniature: index.html and one hashed asset with its compressed copies. */
function webDistFixture(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><script type="module" src="./assets/app-abc123.js"></script></head><body></body></html>');
  const js = `export const texts = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `text ${i}`))};`;
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), js);
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js.br'), brotliCompressSync(js));
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js.gz'), gzipSync(js));
  return dir;
}

describe('settings', () => {
  it.each([
    ['', false],
    ['false', false],
    ['true', true],
    ['1', 1],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.1, 192.168.0.0/16', ['10.0.0.1', '192.168.0.0/16']],
  ])('TRUST_PROXY=%j → %j', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
  });

  it.each([
    ['', ''],
    ['/', ''],
    ['/erp', '/erp'],
    ['/erp/', '/erp'],
    ['/apps/erp-2', '/apps/erp-2'],
  ])('BASE_PATH=%j → %j', (value, expected) => {
    expect(parseBasePath(value)).toBe(expected);
  });

  it.each(['erp', '/erp x', '/erp/../x', '//evil.example', '/erp?x'])('BASE_PATH=%j is refused at start', (value) => {
    expect(() => parseBasePath(value)).toThrow(/BASE_PATH/);
  });

  it.each([
    ['/erp/api/x', '/api/x'],
    ['/erp/', '/'],
    ['/erp', '/'],
    ['/erp?a=1', '/?a=1'],
    ['/erpx/api/x', '/.outside-base-path'],
    ['/api/x', '/.outside-base-path'],
  ])('under /erp, %s is routed as %s', (url, routed) => {
    expect(stripBasePath('/erp', url)).toBe(routed);
  });
});

describe('default: forwarded headers are not believed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ loginRateLimit: 3 });
  });
  afterAll(() => t.close());

  it('a forged X-Forwarded-For does not give a new rate-limit bucket', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await login(t, { remoteAddress: '10.1.1.7', forwardedFor: `203.0.113.${i}` })).statusCode);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
  });

  it('the audit log records the connection address, not the forged one', async () => {
    const rows = await t.database.db.selectFrom('audit_logs').select('ip').where('action', '=', 'LoginFailed').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.ip))).toEqual(new Set(['10.1.1.7']));
  });

  it('plain HTTP gets neither HSTS nor upgrade-insecure-requests, even with a forged X-Forwarded-Proto', async () => {
    for (const headers of [{}, { 'x-forwarded-proto': 'https' }]) {
      const res = await t.app.inject({ method: 'GET', url: PUBLIC, headers });
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-security-policy']).toContain("default-src 'self'");
    expect(docs.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });

  it('API answers over 1 KB travel compressed; small ones as they are', async () => {
    const big = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'br, gzip' } });
    expect(big.headers['content-encoding']).toBe('br');
    const doc = JSON.parse(brotliDecompressSync(big.rawPayload).toString('utf8'));
    expect(doc.paths['/api/Auth/Login']).toBeDefined();
    const gz = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const small = await t.app.inject({ method: 'GET', url: PUBLIC, headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('TRUST_PROXY set to the proxy address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ loginRateLimit: 3, trustProxy: ['10.0.0.1'] });
  });
  afterAll(() => t.close());

  it('X-Forwarded-For is honoured from the proxy: each client its own bucket', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await login(t, { remoteAddress: '10.0.0.1', forwardedFor: `198.51.100.${i}` })).statusCode).toBe(200);
    }
    const rows = await t.database.db.selectFrom('audit_logs').select('ip').where('action', '=', 'LoginFailed').execute();
    expect(rows.map((r) => r.ip).sort()).toEqual(['198.51.100.0', '198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']);
  });

  it('…and ignored from any other address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await login(t, { remoteAddress: '10.0.0.9', forwardedFor: `198.51.100.${50 + i}`, userName: 'someone' })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('HTTPS through the proxy gets HSTS and upgrade-insecure-requests; a forged proto from elsewhere does not', async () => {
    const viaProxy = await t.app.inject({ method: 'GET', url: PUBLIC, remoteAddress: '10.0.0.1', headers: { 'x-forwarded-proto': 'https' } });
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(viaProxy.headers['content-security-policy']).toMatch(/; upgrade-insecure-requests$/);
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/', remoteAddress: '10.0.0.1', headers: { 'x-forwarded-proto': 'https' } });
    expect(docs.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const forged = await t.app.inject({ method: 'GET', url: PUBLIC, remoteAddress: '10.0.0.9', headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('BASE_PATH=/erp behind a proxy that passes the prefix through', () => {
  let t: TestApp;
  let web: string;
  beforeAll(async () => {
    web = webDistFixture();
    t = await createTestApp({ basePath: '/erp', webDist: web });
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('a guarded route under the prefix answers 401 without a token, 200 with one', async () => {
    expect((await t.call(null, { method: 'GET', url: `/erp${CURRENT_USER}` })).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'POST', url: '/erp/api/Auth/Login', payload: { username: 'admin', password: TEST_ADMIN_PASSWORD } });
    const token = res.json().data.accessToken as string;
    const me = await t.call(token, { method: 'GET', url: `/erp${CURRENT_USER}` });
    expect(me.statusCode).toBe(200);
    expect(me.json().userName).toBe('admin');
  });

  it('nothing answers outside the prefix', async () => {
    for (const url of [CURRENT_USER, '/', '/assets/app-abc123.js', `/erpx${CURRENT_USER}`]) {
      const res = await t.call(null, { method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('RouteNotFound');
    }
  });

  it('serves the app under the prefix; /erp redirects to /erp/ so relative asset URLs resolve', async () => {
    const bare = await t.app.inject({ method: 'GET', url: '/erp' });
    expect(bare.statusCode).toBe(308);
    expect(bare.headers.location).toBe('/erp/');
    const index = await t.app.inject({ method: 'GET', url: '/erp/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toContain('text/html');
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it('assets: pre-compressed copy by content negotiation, cached for a year', async () => {
    const url = '/erp/assets/app-abc123.js';
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.equals(readFileSync(path.join(web, 'assets', 'app-abc123.js.br')))).toBe(true);
    const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('text 399');
  });

  it('the OpenAPI UI works under the prefix, and its redirects keep it', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/erp/api/docs/json' })).json().paths['/api/Auth/Login']).toBeDefined();
    const ui = await t.app.inject({ method: 'GET', url: '/erp/api/docs/' });
    expect(ui.statusCode).toBe(200);
    // Without the trailing slash its page links its files absolutely: under the prefix too.
    const bare = await t.app.inject({ method: 'GET', url: '/erp/api/docs' });
    expect(bare.body).toContain('src="/erp/api/docs/static/swagger-ui-bundle.js"');
    expect((await t.app.inject({ method: 'GET', url: '/erp/api/docs/static/swagger-ui-bundle.js' })).statusCode).toBe(200);
    const redirect = await t.app.inject({ method: 'GET', url: '/erp/api/docs/static/index.html' });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/erp/api/docs/');
  });
});

describe('HTTPS without a proxy (TLS_CERT / TLS_KEY)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  const tls = (http2: boolean) => ({ cert: readFileSync(certFile), key: readFileSync(keyFile), http2 });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const listen = async (t: TestApp) => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return (t.app.server.address() as { port: number }).port;
  };

  it('HTTP/1.1 over TLS: HSTS and upgrade-insecure-requests on its answers', async () => {
    const t = await createTestApp({ tls: tls(false) });
    try {
      const port = await listen(t);
      const res = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = httpsRequest({ host: '127.0.0.1', port, path: PUBLIC, rejectUnauthorized: false }, (r) => {
          let body = '';
          r.on('data', (d) => (body += d));
          r.on('end', () => resolve({ status: r.statusCode!, headers: r.headers, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.status).toBe(200);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await t.close();
    }
  });

  it('HTTP/2 when turned on; a request in flight when the server stops still gets its answer', async () => {
    let entered: () => void = () => {};
    let release: () => void = () => {};
    const inHandler = new Promise<void>((r) => (entered = r));
    const t = await createTestApp({ tls: tls(true) }, (app) => {
      app.get('/api/test/slow', {
        config: publicRoute(),
        handler: async () => {
          entered();
          await new Promise<void>((r) => (release = r));
          return { ok: true };
        },
      });
    });
    try {
      const port = await listen(t);
      const client = http2Connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
      const get = (p: string) =>
        new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
          const stream = client.request({ ':path': p });
          let headers: Record<string, unknown> = {};
          let body = '';
          stream.on('response', (h) => (headers = h));
          stream.on('data', (d) => (body += d));
          stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body }));
          stream.on('error', reject);
          stream.end();
        });
      const res = await get(PUBLIC);
      expect(res.status).toBe(200);
      expect(res.headers['strict-transport-security']).toBeDefined();
      expect((await get(CURRENT_USER)).status).toBe(401);
      // Shutdown: the graceful `connection: close` of HTTP/1.1 is not allowed in HTTP/2.
      const slow = get('/api/test/slow');
      await inHandler;
      const closing = t.app.close();
      release();
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ ok: true });
      client.close();
      await closing;
    } finally {
      await t.close();
    }
  });
});
