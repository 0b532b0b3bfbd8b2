import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ADMIN_PASSWORD, BROWSER_TIME_ZONE, screenshotPath, startProduct, type Product } from './product.ts';
import { apiCall as apiCallFor, apiToken, poll } from './shell-helpers.ts';

// Issue 24: the product as an office really runs it. A colleague opens it by the server's LAN name
// over plain http (not a secure context: no upgrade-insecure-requests, no crypto.randomUUID, no
// async clipboard), and through a TLS-terminating proxy that serves it under a sub-path.
// Chromium maps the made-up office host name to this machine.

const HOST = 'erp.office.test';
const BASE = '/erp';
let product: Product;
let proxy: { port: number; server: Server } | null = null;
let certDir = '';
let menuId = '';
let draftPageId = '';

/**
 * A TLS-terminating reverse proxy as nginx would be set up: passes the prefix through and tells
 * the server the original protocol, host and client address.
 */
function startTlsProxy(targetPort: number, cert: Buffer, key: Buffer): Promise<{ port: number; server: Server }> {
  const server = createHttpsServer({ cert, key }, (req, res) => {
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: targetPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-proto': 'https', 'x-forwarded-host': req.headers.host ?? '', 'x-forwarded-for': req.socket.remoteAddress ?? '' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as { port: number }).port, server })));
}

const control = (code: string, title: string, controlType: number) => ({ id: randomUUID(), code, title, controlType, isDisplayed: true, isEdit: true });

beforeAll(async () => {
  product = await startProduct({
    env: { BASE_PATH: BASE, TRUST_PROXY: '127.0.0.1' },
    browserArgs: [`--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  });
  const token = await apiToken(product);
  const call = <T>(method: string, p: string, body?: unknown) => apiCallFor<T>(product, token, method, p, body);
  // An order page with a grid of lines (rows can be copied), on a business menu.
  const lines = { id: randomUUID(), code: 'Lines', title: '明细', viewType: 2, dataControls: [control('Product', '物料', 1001), control('Quantity', '数量', 1002)], viewButtons: [], viewControls: [] as object[] };
  const order = { id: randomUUID(), code: 'Order', title: '订单', viewType: 1, dataControls: [control('Note', '备注', 1001)], viewButtons: [], viewControls: [{ ...lines, parentViewControlId: '', associateForeignKeyCode: 'ParentViewDataId' }] };
  order.viewControls[0]!.parentViewControlId = order.id;
  const page = await call<{ id: string }>('POST', '/app/page-definition', {
    code: 'OfficeOrder',
    name: { 'zh-CN': '办公订单', 'en-US': 'Office orders' },
    definition: { viewControls: [order], pageButtons: [], dataLinkages: [] },
  });
  await call('POST', `/app/page-definition/${page.id}/publish`, {});
  menuId = (await call<{ id: string }>('POST', '/app/business-menu', { title: { 'zh-CN': '办公订单', 'en-US': 'Office orders' }, pageDefinitionId: page.id, isJump: true })).id;
  draftPageId = (await call<{ id: string }>('POST', '/app/page-definition', { code: 'OfficeDraft', name: { 'zh-CN': '草稿页', 'en-US': 'Draft' } })).id;

  certDir = mkdtempSync(path.join(tmpdir(), 'tessera-proxy-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', path.join(certDir, 'key.pem'), '-out', path.join(certDir, 'cert.pem'), '-days', '1', '-subj', `/CN=${HOST}`], { stdio: 'ignore' });
  proxy = await startTlsProxy(product.port, readFileSync(path.join(certDir, 'cert.pem')), readFileSync(path.join(certDir, 'key.pem')));
}, 180_000);

afterAll(async () => {
  await new Promise((r) => (proxy ? proxy.server.close(r) : r(null)));
  await product?.stop();
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

async function newPage(https: boolean) {
  const context = await product.browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'zh-CN', timezoneId: BROWSER_TIME_ZONE, ignoreHTTPSErrors: https });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A request cut short by leaving the page is not a failure of the network.
  page.on('requestfailed', (r) => r.failure()?.errorText !== 'net::ERR_ABORTED' && errors.push(`${r.url()}: ${r.failure()?.errorText}`));
  return { context, page, errors };
}

/** The entry script's response, to see how it travelled. */
const entryScript = (page: Page) => page.waitForResponse((r: Response) => /\/assets\/index-[\w-]+\.js$/.test(r.url()));

async function signIn(page: Page, origin: string) {
  await page.getByPlaceholder('请输入账号或邮箱').fill('admin');
  await page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByTestId('greeting').waitFor({ timeout: 30_000 });
  expect(page.url().startsWith(`${origin}${BASE}/`)).toBe(true);
}

describe('an office LAN over plain http, by host name', () => {
  it('signs in, copies a row in a business page, adds a control in the designer, copies a generated password', async () => {
    const { page, errors } = await newPage(false);
    onTestFailed(async () => {
      await page.screenshot({ path: screenshotPath('office-lan-failure'), fullPage: true });
    });
    const origin = `http://${HOST}:${product.port}`;
    const script = entryScript(page);
    const index = await page.goto(`${origin}${BASE}/#/login`);
    expect(index?.headers()['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(index?.headers()['strict-transport-security']).toBeUndefined();
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    // Over http Chromium offers gzip, not brotli: the pre-compressed .gz copy travels.
    expect((await script).headers()['content-encoding']).toBe('gzip');
    await signIn(page, origin);
    const cookies = await page.context().cookies();
    const tokenCookie = cookies.find((c) => c.name === 'token')!;
    expect(tokenCookie.secure).toBe(false);
    expect(tokenCookie.path).toBe(`${BASE}/`);

    // A business page: a new order, a line, then the line copied.
    await page.getByRole('menuitem', { name: '办公订单' }).first().click();
    await poll(() => page.url()).toContain(`/menu/${menuId}/params/${menuId}`);
    await page.getByRole('button', { name: /新\s*增/ }).first().click();
    const linesView = page.locator('[data-view-code="Lines"]');
    await linesView.getByRole('button', { name: /新增行/ }).click();
    await poll(() => linesView.locator('.ant-table-row').count()).toBe(1);
    await page.locator('#f-Lines-0-Product').fill('Paper A4');
    await linesView.locator('.ant-table-row .ant-checkbox-input').first().check();
    await linesView.getByRole('button', { name: /复制行/ }).click();
    await poll(() => linesView.locator('.ant-table-row').count()).toBe(2);
    await poll(() => page.locator('#f-Lines-1-Product').inputValue()).toBe('Paper A4');
    await page.screenshot({ path: screenshotPath('office-lan-copied-row') });

    // The page designer: a view and a control added from the palette (each gets a new id).
    await page.goto(`${origin}${BASE}/#/pageDefinition?id=${draftPageId}`);
    await page.getByTestId('page-designer').waitFor();
    await page.locator('[data-palette]', { hasText: /^表单视图$/ }).first().dblclick();
    await poll(() => page.locator('.dz-view').count()).toBe(1);
    await page.locator('[data-palette]', { hasText: /^文本$/ }).first().dblclick();
    await poll(() => page.locator('.dz-card').count()).toBe(1);

    // Reset password → generate: the password is copied, with the async clipboard missing.
    await page.goto(`${origin}${BASE}/#/builtIn/user`);
    await page.getByRole('button', { name: '更多 admin' }).click();
    await page.getByRole('menuitem', { name: /重置密码/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: /随机生成/ }).click();
    await page.getByText('已复制').waitFor();
    expect(errors).toEqual([]);
  });
});

describe('behind a TLS-terminating proxy, under a sub-path', () => {
  it('redirects to the sub-path, serves assets, API and OpenAPI there, with Secure cookies and HSTS', async () => {
    const { page, errors } = await newPage(true);
    onTestFailed(async () => {
      await page.screenshot({ path: screenshotPath('office-proxy-failure'), fullPage: true });
    });
    const origin = `https://${HOST}:${proxy!.port}`;
    const script = entryScript(page);
    const index = await page.goto(`${origin}${BASE}`);
    expect(new URL(page.url()).pathname).toBe(`${BASE}/`);
    expect(index?.headers()['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(index?.headers()['content-security-policy']).toContain('upgrade-insecure-requests');
    expect((await script).headers()['content-encoding']).toBe('br');
    await page.getByPlaceholder('请输入账号或邮箱').waitFor();
    await signIn(page, origin);
    const tokenCookie = (await page.context().cookies()).find((c) => c.name === 'token')!;
    expect(tokenCookie.secure).toBe(true);
    expect(tokenCookie.path).toBe(`${BASE}/`);
    await page.screenshot({ path: screenshotPath('office-proxy-console') });

    // A guarded route under the prefix: 401 without the token, the user with it.
    const statuses = await page.evaluate(async (token) => {
      const bare = await fetch('./api/app/sys-function/current-user');
      const signed = await fetch('./api/app/sys-function/current-user', { headers: { authorization: `Bearer ${token}` } });
      return [bare.status, signed.status];
    }, tokenCookie.value);
    expect(statuses).toEqual([401, 200]);

    // The OpenAPI UI under the prefix.
    await page.goto(`${origin}${BASE}/api/docs`);
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });
    expect(await page.locator('.swagger-ui .info .title').textContent()).toContain('Tessera API');
    expect(errors).toEqual([]);
  });
});
