import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { apiCall as apiCallFor, apiToken, attemptSuffix, poll, signInToConsole } from './shell-helpers.ts';

// Issue 16: an administrator connects the product to an HTTP/REST API (a small server this spec
// starts on 127.0.0.1) with a bearer token, tries the connection before saving, opens the
// workbench, sends a GET with a path parameter and a query parameter, sees the rows its rows path
// picks in the grid, and saves the request as a query. The API saw the token and the parameters,
// URL-encoded; the token is never answered by the product.

let product: Product;
let adminToken = '';
let server: Server;
let origin = '';
const received: { url: string; authorization: string | undefined }[] = [];
const call = <T>(method: string, path: string, body?: unknown) => apiCallFor<T>(product, adminToken, method, path, body);

const customers = [
  { code: 'C1', name: '上海文具', region: 'east' },
  { code: 'C2', name: '北京纸业', region: 'north' },
  { code: 'C3', name: '杭州办公', region: 'east' },
];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    received.push({ url: req.url ?? '', authorization: req.headers.authorization });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.headers.authorization !== 'Bearer e2e-token') return send(401, { error: 'no token' });
    if (url.pathname === '/api/health') return send(200, { ok: true });
    const region = /^\/api\/regions\/([^/]+)\/customers$/.exec(url.pathname);
    if (region) {
      const q = url.searchParams.get('q') ?? '';
      return send(200, { data: { items: customers.filter((c) => c.region === decodeURIComponent(region[1]!) && c.name.includes(q)) } });
    }
    send(404, { error: 'no such route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  product = await startProduct();
  adminToken = await apiToken(product);
}, 120_000);
afterAll(async () => {
  await product?.stop();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

const option = (page: Page, text: string) => page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first();

describe('HTTP data sources (issue 16)', () => {
  it('connects an HTTP API with a bearer token, sends a request with parameters, sees its rows and saves it as a query', async (ctx) => {
    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-sources-http-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    const name = `客户接口${attemptSuffix(ctx.task)}`;

    // A new source of kind HTTP / REST: its own fields replace host, port and database.
    await page.goto(`${product.url}/#/dataSet/source`);
    await page.getByTestId('data-source-create').click();
    await page.getByTestId('data-source-name').fill(name);
    await page.getByTestId('data-source-kind').click();
    await option(page, 'HTTP / REST').click();
    await page.getByTestId('data-source-base-url').waitFor();
    expect(await page.getByTestId('data-source-host').count()).toBe(0);
    await page.getByTestId('data-source-base-url').fill(`${origin}/api`);
    // No secret field until the authentication needs one.
    expect(await page.getByTestId('data-source-password').count()).toBe(0);
    await page.getByTestId('data-source-auth-kind').click();
    await option(page, 'Bearer 令牌').click();
    await page.getByTestId('data-source-password').fill('e2e-token');
    await page.getByTestId('data-source-test-path').fill('/health');
    // Two requests to this API at a time at most (the others wait their turn).
    await page.getByLabel('同时请求数').fill('2');

    // The connection, tried before saving: the API's status.
    await page.getByTestId('data-source-form-test').click();
    const tested = page.getByTestId('data-source-form-test-result');
    await poll(() => tested.getAttribute('data-ok'), 30_000).toBe('true');
    expect(await tested.textContent()).toContain('HTTP 200');
    await page.screenshot({ path: screenshotPath('data-sources-http-form') });
    await page.getByTestId('data-source-save').click();
    await page.getByTestId('data-source-form').waitFor({ state: 'detached' });

    const listed = await call<{ items: { id: string; kind: string; hasPassword: boolean; poolSize: number; http: { auth: { kind: string } } }[] }>('GET', `/app/data-source?Filter=${encodeURIComponent(name)}`);
    expect(listed.items).toHaveLength(1);
    const source = listed.items[0]!;
    expect(source).toMatchObject({ kind: 'http', hasPassword: true, poolSize: 2, http: { auth: { kind: 'bearer' } } });
    expect(JSON.stringify(listed)).not.toContain('e2e-token');

    // The workbench shows a request editor, not tables: a path parameter and a query parameter.
    await page.getByTestId(`data-source-query-${source.id}`).click();
    await page.getByTestId('http-request-editor').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('data-source-objects').count()).toBe(0);
    await page.getByTestId('http-path').fill('/regions/:region/customers');
    await page.getByTestId('http-add-query').click();
    await page.getByTestId('http-query-name-0').fill('q');
    await page.getByTestId('http-query-value-0').fill('{{q}}');
    await page.getByTestId('http-rows-path').fill('data.items');
    await page.getByTestId('data-source-param-value-region').fill('east');
    await page.getByTestId('data-source-param-value-q').fill('文具');
    await page.getByTestId('data-source-run').click();
    await poll(() => page.getByTestId('data-source-result-status').textContent(), 30_000).toMatch(/^1 行 · \d+ ms$/);
    const grid = page.getByTestId('data-source-result').locator('.ant-table-tbody');
    expect(await grid.textContent()).toContain('上海文具');
    expect(await grid.textContent()).not.toContain('杭州办公');
    expect(received.at(-1)).toEqual({ url: `/api/regions/east/customers?q=${encodeURIComponent('文具')}`, authorization: 'Bearer e2e-token' });
    await page.screenshot({ path: screenshotPath('data-sources-http-request') });

    // Saved as a query: code, name, the parameters' defaults; its columns read from the API.
    await page.getByTestId('data-source-save-method').click();
    const methodForm = page.getByTestId('data-source-method-form');
    await methodForm.waitFor();
    await page.getByTestId('data-source-method-code').fill('customers_by_region');
    await page.getByTestId('data-source-method-name').fill('按地区查客户');
    await page.getByTestId('data-source-method-submit').click();
    await methodForm.waitFor({ state: 'detached', timeout: 30_000 });
    await poll(() => page.getByTestId('data-source-method-open').textContent()).toContain('已打开：按地区查客户');
    await page.getByTestId('data-source-method-customers_by_region').waitFor();
    const methods = await call<{ items: unknown[] }>('GET', `/app/data-source/${source.id}/method`);
    expect(methods.items).toEqual([
      expect.objectContaining({
        code: 'customers_by_region',
        sql: '',
        request: expect.objectContaining({ method: 'GET', path: '/regions/:region/customers', query: [{ name: 'q', value: '{{q}}' }], rowsPath: 'data.items' }),
        parameters: [
          { name: 'region', type: 'text', defaultValue: 'east', required: false },
          { name: 'q', type: 'text', defaultValue: '文具', required: false },
        ],
        columns: [
          { name: 'code', dataType: 'text' },
          { name: 'name', dataType: 'text' },
          { name: 'region', dataType: 'text' },
        ],
      }),
    ]);

    // The saved query runs by its id with other values.
    await page.getByTestId('data-source-param-value-q').fill('');
    await page.getByTestId('data-source-run').click();
    await poll(() => page.getByTestId('data-source-result-status').textContent(), 30_000).toMatch(/^2 行 · \d+ ms$/);
    await page.screenshot({ path: screenshotPath('data-sources-http-saved') });
  }, 180_000);
});
