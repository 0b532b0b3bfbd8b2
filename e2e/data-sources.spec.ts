import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { card, cascade, props } from './designer-helpers.ts';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { asWriter, MARIADB } from './data-source-fixtures.ts';
import { apiCall as apiCallFor, apiToken, attemptSuffix, poll, signInToConsole } from './shell-helpers.ts';

// Issue 16: an administrator connects the product to the MariaDB on this machine (127.0.0.1:3306,
// database `test`, user root without a password), read-only. They try the connection before
// saving, open the query workbench from the list, browse the `test` schema and a table in it, run
// a query with a named parameter, save it as a query with a cache, open and run it again (the
// second answer from the cache) and delete it, are refused a DDL statement, and delete the source again.

let product: Product;
let adminToken = '';
const call = <T>(method: string, path: string, body?: unknown) => apiCallFor<T>(product, adminToken, method, path, body);
/** A table of this run's own: the tree lists a schema only through its tables, and `test` may have none. */
const table = `tessera_e2e_orders_${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  product = await startProduct();
  adminToken = await apiToken(product);
  await asWriter(product, adminToken, table, `create table ${table} (id int primary key, customer varchar(40) not null)`, `insert into ${table} values (1, '上海文具'), (2, '北京纸业'), (3, '广州办公')`);
}, 120_000);
afterAll(async () => {
  if (adminToken) await asWriter(product, adminToken, table, `drop table if exists ${table}`).catch(() => undefined);
  await product?.stop();
});

/** The open drop-down's option (the form's and the workbench's selects share the page). */
const option = (page: Page, text: string) => page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first();

const sqlText = (page: Page) => page.locator('[data-testid="data-source-sql"] .cm-content').textContent();

/** Replaces the workbench's SQL, then leaves the editor so no completion covers what comes next. */
async function writeSql(page: Page, sql: string) {
  await page.locator('[data-testid="data-source-sql"] .cm-content').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(sql);
  await poll(() => sqlText(page)).toBe(sql);
  await page.locator('.ant-drawer-title').click();
}

describe('data sources (issue 16)', () => {
  it('connects a read-only MariaDB, queries it with a parameter, saves and reruns the query, is refused a DDL, deletes it', async (ctx) => {
    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-sources-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    const name = `MariaDB 测试库${attemptSuffix(ctx.task)}`;

    // A new source: MySQL / MariaDB brings its port; read-only is on by default.
    await page.goto(`${product.url}/#/dataSet/source`);
    await page.getByTestId('data-source-create').click();
    await page.getByTestId('data-source-name').fill(name);
    await page.getByTestId('data-source-kind').click();
    await option(page, 'MySQL / MariaDB').click();
    await poll(() => page.getByTestId('data-source-port').inputValue()).toBe('3306');
    await page.getByTestId('data-source-host').fill('127.0.0.1');
    await page.getByTestId('data-source-database').fill('test');
    await page.getByTestId('data-source-user').fill('root');
    expect(await page.getByTestId('data-source-password').inputValue()).toBe('');
    expect(await page.getByTestId('data-source-read-only').getAttribute('aria-checked')).toBe('true');

    // The connection, tried before saving: the server's version.
    await page.getByTestId('data-source-form-test').click();
    const tested = page.getByTestId('data-source-form-test-result');
    await poll(() => tested.getAttribute('data-ok'), 30_000).toBe('true');
    expect(await tested.textContent()).toContain('MariaDB');
    await page.screenshot({ path: screenshotPath('data-sources-form') });
    await page.getByTestId('data-source-save').click();
    await page.getByTestId('data-source-form').waitFor({ state: 'detached' });

    const listed = await call<{ items: { id: string; kind: string; readOnly: boolean; hasPassword: boolean }[] }>('GET', `/app/data-source?Filter=${encodeURIComponent(name)}`);
    expect(listed.items).toHaveLength(1);
    const source = listed.items[0]!;
    expect(source).toMatchObject({ kind: 'mysql', readOnly: true, hasPassword: false });
    await poll(() => page.getByTestId(`data-source-access-${source.id}`).textContent()).toBe('只读');
    await page.screenshot({ path: screenshotPath('data-sources-list') });

    // The workbench: the `test` schema opens in the tree.
    await page.getByTestId(`data-source-query-${source.id}`).click();
    const schema = page.getByTestId('data-source-schema-test');
    await schema.waitFor({ timeout: 30_000 });
    await schema.click();
    await poll(() => schema.getAttribute('data-expanded')).toBe('true');

    // A table's columns (the key marks the primary key); clicking its name writes a query for it.
    const tableTitle = page.getByTestId(`data-source-table-test.${table}`);
    // While the schema's children slide open, antd draws copies of them that take no clicks.
    await poll(() => page.locator('.ant-tree-treenode-motion').count()).toBe(0);
    await page.locator('.ant-tree-treenode', { has: tableTitle }).locator('.ant-tree-switcher').click();
    await poll(() => page.getByTestId('data-source-objects').textContent(), 30_000).toContain('customer');
    expect(await page.getByTestId('data-source-objects').locator('.anticon-key').count()).toBe(1);
    await tableTitle.click();
    await poll(() => sqlText(page)).toBe(`select * from test.${table}`);
    await page.getByTestId('data-source-run').click();
    await poll(() => page.getByTestId('data-source-result-status').textContent(), 30_000).toMatch(/^3 行 · \d+ ms$/);
    expect(await page.getByTestId('data-source-result').locator('.ant-table-tbody').textContent()).toContain('北京纸业');

    // A query with a named parameter, bound as a number.
    await writeSql(page, 'select :n + 1 as answer');
    await page.getByTestId('data-source-param-type-n').click();
    await option(page, '数字').click();
    await page.getByTestId('data-source-param-value-n').fill('41');
    await page.getByTestId('data-source-run').click();
    await poll(() => page.getByTestId('data-source-result').locator('.ant-table-tbody').textContent(), 30_000).toContain('42');
    expect(await page.getByTestId('data-source-result-status').textContent()).toMatch(/^1 行 · \d+ ms$/);
    await page.screenshot({ path: screenshotPath('data-sources-query') });

    // That query saved (保存为查询) as `plus_one` with a minute's cache, :n a number defaulting to 1:
    // it is listed with its code and cache, and is the open query.
    await page.getByTestId('data-source-save-method').click();
    const methodForm = page.getByTestId('data-source-method-form');
    await methodForm.waitFor();
    await page.getByTestId('data-source-method-code').fill('plus_one');
    await page.getByTestId('data-source-method-name').fill('加一');
    await page.getByTestId('data-source-method-cache').fill('60');
    await page.getByTestId('data-source-method-param-default-n').fill('1');
    await page.screenshot({ path: screenshotPath('data-sources-save-query') });
    await page.getByTestId('data-source-method-submit').click();
    await methodForm.waitFor({ state: 'detached', timeout: 30_000 });
    const opened = page.getByTestId('data-source-method-open');
    await poll(() => opened.textContent()).toContain('已打开：加一');
    const savedQuery = page.getByTestId('data-source-method-plus_one');
    await savedQuery.waitFor();
    expect(await page.getByTestId('data-source-methods').textContent()).toContain('缓存 60 秒');
    const methods = await call<{ items: { code: string }[] }>('GET', `/app/data-source/${source.id}/method`);
    expect(methods.items).toEqual([
      expect.objectContaining({
        code: 'plus_one',
        name: '加一',
        sql: 'select :n + 1 as answer',
        cacheSeconds: 60,
        parameters: [{ name: 'n', type: 'number', defaultValue: 1, required: false }],
      }),
    ]);

    // The editor cleared (the open query is then edited), the query opened again from the list:
    // its SQL, its default as the value; run by its id, then answered again from its cache.
    await page.locator('[data-testid="data-source-sql"] .cm-content').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.getByTestId('data-source-no-parameters').waitFor();
    expect(await opened.getAttribute('data-edited')).toBe('true');
    await savedQuery.click();
    await poll(() => sqlText(page)).toBe('select :n + 1 as answer');
    await page.locator('.ant-drawer-title').click();
    expect(await page.getByTestId('data-source-param-value-n').inputValue()).toBe('1');
    expect(await opened.getAttribute('data-edited')).toBe('false');
    expect(await page.getByTestId('data-source-result').count()).toBe(0);
    await page.getByTestId('data-source-run').click();
    const answer = page.getByTestId('data-source-result').locator('.ant-table-tbody');
    await poll(() => answer.textContent(), 30_000).toContain('2');
    expect(await page.getByTestId('data-source-result-status').textContent()).toMatch(/^1 行 · \d+ ms$/);
    await page.getByTestId('data-source-run').click();
    await poll(() => page.getByTestId('data-source-result-status').textContent(), 30_000).toMatch(/^1 行 · \d+ ms（缓存）$/);
    expect(await answer.textContent()).toContain('2');
    await page.screenshot({ path: screenshotPath('data-sources-saved-query') });

    // Deleted after the confirmation: gone from the list, no longer open.
    await page.getByTestId('data-source-method-delete-plus_one').click();
    await page.getByTestId('data-source-method-delete-ok').click();
    await savedQuery.waitFor({ state: 'detached' });
    await opened.waitFor({ state: 'detached' });
    await page.getByTestId('data-source-methods-empty').waitFor();
    expect((await call<{ items: unknown[] }>('GET', `/app/data-source/${source.id}/method`)).items).toEqual([]);

    // DDL on a read-only source: refused, and nothing was created.
    await writeSql(page, 'create table tessera_e2e_refused (x int)');
    await page.getByTestId('data-source-run').click();
    const refusal = page.getByTestId('data-source-query-error');
    await refusal.waitFor({ timeout: 30_000 });
    expect(await refusal.getAttribute('data-code')).toBe('DataSource.ReadOnly');
    expect(await page.getByTestId('data-source-result').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('data-sources-read-only') });
    const created = await call<{ rows: Record<string, unknown>[] }>('POST', `/app/data-source/${source.id}/query`, {
      sql: "select count(*) as n from information_schema.tables where table_schema = 'test' and table_name = 'tessera_e2e_refused'",
      parameters: {},
    });
    expect(Number(created.rows[0]?.n)).toBe(0);

    // Escape closes the workbench; the source goes, after the confirmation.
    await page.keyboard.press('Escape');
    await page.getByTestId('data-source-sql').waitFor({ state: 'detached' });
    await page.getByTestId(`data-source-delete-${source.id}`).click();
    await page.getByTestId('data-source-delete-ok').click();
    await page.getByTestId(`data-source-delete-${source.id}`).waitFor({ state: 'detached' });
    expect((await call<{ totalCount: number }>('GET', `/app/data-source?Filter=${encodeURIComponent(name)}`)).totalCount).toBe(0);
  }, 180_000);

  it('reads the product’s own database: a published page’s view browsed, queried, another table refused', async (ctx) => {
    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-sources-own-failure') }).then(() => undefined));
    // A published page of this try's own, with two records.
    const tag = `Own${randomUUID().slice(0, 6)}`;
    const viewId = randomUUID();
    const controls = [
      { id: randomUUID(), code: 'Code', title: '编码', controlType: 1001, isDisplayed: true, isEdit: true },
      { id: randomUUID(), code: 'Name', title: '名称', controlType: 1001, isDisplayed: true, isEdit: true },
    ];
    const definition = { viewControls: [{ id: viewId, code: 'Item', title: '物料', viewType: 1, dataControls: controls, viewButtons: [], viewControls: [] }], pageButtons: [], dataLinkages: [] };
    const pageId = (await call<{ id: string }>('POST', '/app/page-definition', { code: tag, name: { 'zh-CN': `物料${tag}`, 'en-US': 'Items' }, definition })).id;
    await call('POST', `/app/page-definition/${pageId}/publish`, {});
    await call('POST', '/app/business-data/save-page', { pageId, viewDataList: [{ viewId, dataList: [{ Code: 'M1', Name: '螺丝' }] }] });
    await call('POST', '/app/business-data/save-page', { pageId, viewDataList: [{ viewId, dataList: [{ Code: 'M2', Name: '垫片' }] }] });

    await signInToConsole(page, product);
    const name = `本系统${attemptSuffix(ctx.task)}`;
    await page.goto(`${product.url}/#/dataSet/source`);
    await page.getByTestId('data-source-create').click();
    await page.getByTestId('data-source-name').fill(name);
    await page.getByTestId('data-source-kind').click();
    await option(page, '本系统数据库').click();
    // No connection to fill in: what the source reads is said instead; read-only cannot be turned off.
    await page.getByTestId('data-source-own-help').waitFor();
    expect(await page.getByTestId('data-source-host').count()).toBe(0);
    expect(await page.getByTestId('data-source-read-only').isDisabled()).toBe(true);
    await page.getByTestId('data-source-form-test').click();
    const tested = page.getByTestId('data-source-form-test-result');
    await poll(() => tested.getAttribute('data-ok'), 30_000).toBe('true');
    expect(await tested.textContent()).toContain('PostgreSQL');
    await page.screenshot({ path: screenshotPath('data-sources-own-form') });
    await page.getByTestId('data-source-save').click();
    await page.getByTestId('data-source-form').waitFor({ state: 'detached' });
    const source = (await call<{ items: { id: string }[] }>('GET', `/app/data-source?Filter=${encodeURIComponent(name)}`)).items[0]!;

    // The workbench lists the page's view with what it shows; a click writes its query.
    await page.getByTestId(`data-source-query-${source.id}`).click();
    const schema = page.getByTestId('data-source-schema-biz_views');
    await schema.waitFor({ timeout: 30_000 });
    await schema.click();
    const viewTitle = page.getByTestId(`data-source-table-biz_views.${tag}__Item`);
    await viewTitle.waitFor();
    expect(await viewTitle.textContent()).toContain(`物料${tag} · 物料`);
    await poll(() => page.locator('.ant-tree-treenode-motion').count()).toBe(0);
    await viewTitle.click();
    await poll(() => sqlText(page)).toBe(`select * from biz_views."${tag}__Item"`);
    await writeSql(page, `select "Code", "Name" from "${tag}__Item" where "Name" <> :skip order by "Code"`);
    await page.getByTestId('data-source-param-value-skip').fill('垫片');
    await page.getByTestId('data-source-run').click();
    await poll(() => page.getByTestId('data-source-result-status').textContent(), 30_000).toMatch(/^1 行 · \d+ ms$/);
    expect(await page.getByTestId('data-source-result').locator('.ant-table-tbody').textContent()).toContain('螺丝');
    await page.screenshot({ path: screenshotPath('data-sources-own-query') });

    // The product's own tables are not there to read.
    await writeSql(page, 'select * from users');
    await page.getByTestId('data-source-run').click();
    const refusal = page.getByTestId('data-source-query-error');
    await refusal.waitFor({ timeout: 30_000 });
    expect(await refusal.getAttribute('data-code')).toBe('DataSource.Refused');
    expect(await refusal.textContent()).toContain('“users”不是已发布页面的视图');
    await page.screenshot({ path: screenshotPath('data-sources-own-refused') });

    await page.keyboard.press('Escape');
    await page.getByTestId('data-source-sql').waitFor({ state: 'detached' });
    await page.getByTestId(`data-source-delete-${source.id}`).click();
    await page.getByTestId('data-source-delete-ok').click();
    await page.getByTestId(`data-source-delete-${source.id}`).waitFor({ state: 'detached' });
  }, 180_000);

  it('a designer takes a new order’s exchange rate from a query of the product’s own database; the clerk’s new order shows it and saves it', async () => {
    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-sources-default-failure') }).then(() => undefined));
    const tag = `Fx${randomUUID().slice(0, 6)}`;
    const field = (code: string, title: string, controlType: number, extra: object = {}) => ({ id: randomUUID(), code, title, controlType, isDisplayed: true, isEdit: true, ...extra });
    const rateView = { id: randomUUID(), code: 'rate', title: '汇率', viewType: 1, dataControls: [field('currency', '币种', 1001), field('value', '汇率', 1003, { extraProperties: { accuracy: 2 } })], viewButtons: [], viewControls: [] };
    const ratesPage = (await call<{ id: string }>('POST', '/app/page-definition', { code: `${tag}Rates`, name: { 'zh-CN': '汇率表', 'en-US': 'Rates' }, definition: { viewControls: [rateView], pageButtons: [], dataLinkages: [] } })).id;
    await call('POST', `/app/page-definition/${ratesPage}/publish`, {});
    for (const [currency, value] of [['EUR', '7.62'], ['USD', '7.10'], ['EUR', '7.81']] as const) {
      await call('POST', '/app/business-data/save-page', { pageId: ratesPage, viewDataList: [{ viewId: rateView.id, dataList: [{ currency, value }] }] });
    }
    const source = await call<{ id: string }>('POST', '/app/data-source', { name: `本系统 ${tag}`, kind: 'own' });
    await call('POST', `/app/data-source/${source.id}/method`, {
      code: 'latest_rate',
      name: '最新汇率',
      sql: `select value from "${tag}Rates__rate" where currency = :cur order by "CreationTime" desc`,
      parameters: [{ name: 'cur', type: 'text', defaultValue: 'USD' }],
    });
    const order = {
      id: randomUUID(),
      code: 'order',
      title: '订单',
      viewType: 1,
      dataControls: [
        field('subject', '摘要', 1001),
        field('currency', '币种', 1001, { defaultValue: 'EUR' }),
        field('rate', '汇率', 1003, { extraProperties: { accuracy: 2 } }),
      ],
      viewButtons: [],
      viewControls: [],
    };
    const orderPage = (await call<{ id: string }>('POST', '/app/page-definition', { code: `${tag}Orders`, name: { 'zh-CN': '外币订单', 'en-US': 'FX orders' }, definition: { viewControls: [order], pageButtons: [], dataLinkages: [] } })).id;
    await signInToConsole(page, product);

    // The designer: the rate's default is the query's `value`, its :cur the record's currency.
    await page.goto(`${product.url}/#/pageDefinition?id=${orderPage}`);
    await page.getByTestId('page-designer').waitFor();
    await card(page, 'rate').click();
    await cascade(page, props(page).locator('#prop-extraProperties-defaultSourceQuery'), `本系统 ${tag}`, '最新汇率 (latest_rate)');
    await poll(() => props(page).textContent()).toContain('取值的列');
    await props(page).getByLabel(':cur').fill('={currency}');
    await page.screenshot({ path: screenshotPath('data-sources-default-designer') });
    await poll(() => page.getByTestId('save-state').getAttribute('data-state'), 30_000).toBe('saved');
    await page.getByRole('button', { name: /发\s*布/ }).click();
    await page.getByTestId('publish-confirm').click();
    await poll(() => page.getByTestId('publish-dialog').textContent(), 30_000).toMatch(/已发布第 1 版/);
    const published = await call<{ definition: { viewControls: { dataControls: { code: string; extraProperties?: Record<string, unknown> }[] }[] } }>('GET', `/app/page-definition/${orderPage}/versions/1`);
    expect(published.definition.viewControls[0]!.dataControls.find((c) => c.code === 'rate')!.extraProperties?.defaultSourceQuery).toEqual({
      sourceId: source.id,
      methodCode: 'latest_rate',
      valueColumn: 'value',
      labelColumn: null,
      parameters: [{ name: 'cur', value: '={currency}' }],
    });
    const menu = await call<{ id: string }>('POST', '/app/business-menu', { title: { 'zh-CN': `外币订单${tag}`, 'en-US': 'FX orders' }, pageDefinitionId: orderPage, isJump: true });
    await page.goto(`${product.url}/#/menu/${menu.id}/params/${menu.id}`);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    // The newest EUR rate, asked of the database for the record's currency.
    await poll(() => page.locator('#f-order-rate').inputValue(), 30_000).toBe('7.81');
    expect(await page.locator('#f-order-currency').inputValue()).toBe('EUR');
    await page.locator('#f-order-subject').fill('进口设备');
    await page.screenshot({ path: screenshotPath('data-sources-default-value') });
    await page.keyboard.press('Control+s');
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
    const saved = await call<{ items: { subject: string; rate: unknown }[] }>('POST', '/app/business-data/query-view-data', { pageId: orderPage, viewId: order.id, filterConditions: [] });
    expect(saved.items.map((i) => [i.subject, String(i.rate)])).toEqual([['进口设备', '7.81']]);
  }, 180_000);
});
