import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { card, cascade, props } from './designer-helpers.ts';
import { screenshotPath, signInAs, startProduct, type Product } from './product.ts';
import { asWriter, MARIADB } from './data-source-fixtures.ts';
import { apiCall as apiCallFor, apiToken, attemptSuffix, poll } from './shell-helpers.ts';

// Issue 16: a designer feeds a lookup and a drop-down of an order page from saved queries of the
// MariaDB on this machine (a customer table of 60 rows, read-only): in the properties panel they
// pick the query, the display field and a mapping. After publishing, a clerk opens the order form
// from its menu, searches the customers in the lookup window (the search runs on MariaDB), picks
// one, picks a grade from the drop-down and saves; the list shows the customer's and the grade's
// names, not their codes.

let product: Product;
let token = '';
const call = <T>(method: string, path: string, body?: unknown) => apiCallFor<T>(product, token, method, path, body);
const table = `tessera_e2e_customers_${randomUUID().slice(0, 8)}`;
const cities = ['上海', '北京', '广州', '深圳', '杭州', '南京'];


const control = (code: string, title: string, controlType: number, extra: object = {}) => ({ id: randomUUID(), code, title, controlType, isDisplayed: true, isEdit: true, ...extra });
let sourceName = '';

beforeAll(async () => {
  product = await startProduct();
  token = await apiToken(product);
  const rows = Array.from({ length: 60 }, (_, i) => `('K${String(i + 1).padStart(3, '0')}', '${cities[i % cities.length]}客户${i + 1}号', ${(i + 1) * 1000})`).join(', ');
  await asWriter(product, token, table, `create table ${table} (code varchar(10) primary key, name varchar(40) not null, credit int)`, `insert into ${table} values ${rows}`);
  sourceName = `客户库 ${table.slice(-8)}`;
  const source = await call<{ id: string }>('POST', '/app/data-source', { ...MARIADB, name: sourceName });
  await call('POST', `/app/data-source/${source.id}/method`, { code: 'customers', name: '客户', sql: `select code, name, credit from ${table}` });
  await call('POST', `/app/data-source/${source.id}/method`, { code: 'grades', name: '客户等级', sql: `select 'A' as grade, '甲级' as title union all select 'B', '乙级'`, cacheSeconds: 60 });
}, 120_000);
afterAll(async () => {
  if (token) await asWriter(product, token, table, `drop table if exists ${table}`).catch(() => undefined);
  await product?.stop();
});

async function pick(page: Page, select: Locator, option: string) {
  await select.click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).last().click();
}

describe('lookups and drop-downs fed by a data source (issue 16)', () => {
  it('a designer points a lookup and a drop-down at saved queries; a clerk searches, picks and saves; the list shows names', { timeout: 240_000 }, async ({ task }) => {
    // A retry designs, publishes and fills a page of its own: the first try's is half done.
    const tag = attemptSuffix(task);
    const master = { id: randomUUID(), code: 'main', title: '销售订单', viewType: 1, dataControls: [control('title', '标题', 1001), control('customer', '客户', 1010), control('customerName', '客户名称', 1001), control('grade', '等级', 1006, { options: [] })], viewButtons: [], viewControls: [] };
    const pageId = (await call<{ id: string }>('POST', '/app/page-definition', { code: `salesOrder${tag}`, name: { 'zh-CN': `销售订单${tag}`, 'en-US': 'Sales order' }, definition: { viewControls: [master], pageButtons: [], dataLinkages: [] } })).id;
    const { page } = await product.newPage({ width: 1600, height: 960 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-source-lookup-failure'), fullPage: true }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);

    // The designer: the customer lookup reads the `customers` query, shows `name` and maps it.
    await page.goto(`${product.url}/#/pageDefinition?id=${pageId}`);
    await page.getByTestId('page-designer').waitFor();
    await card(page, 'customer').click();
    await cascade(page, props(page).locator('#prop-extraProperties-sourceQuery'), sourceName, '客户 (customers)');
    await poll(() => props(page).textContent()).toContain('code · ');
    await pick(page, props(page).locator('#prop-extraProperties-dataSourceTitle'), 'name');
    await props(page).getByRole('button', { name: /添加映射/ }).click();
    await pick(page, props(page).getByLabel('源字段 1'), 'name');
    await pick(page, props(page).getByLabel('目标控件 1'), '客户名称 (customerName)');
    await page.screenshot({ path: screenshotPath('data-source-lookup-designer') });

    // The grade drop-down reads `grades`: value `grade`, label `title`.
    await card(page, 'grade').click();
    await cascade(page, props(page).locator('#prop-extraProperties-sourceQuery'), sourceName, '客户等级 (grades)');
    await poll(() => props(page).textContent()).toContain('title · ');

    await poll(() => page.getByTestId('save-state').getAttribute('data-state')).toBe('saved');
    await page.getByRole('button', { name: /发\s*布/ }).click();
    const dialog = page.getByTestId('publish-dialog');
    await page.getByTestId('publish-confirm').click();
    await poll(() => dialog.textContent(), 30_000).toMatch(/已发布第 1 版/);
    const published = await call<{ definition: { viewControls: { dataControls: { code: string; extraProperties?: Record<string, unknown> }[] }[] } }>('GET', `/app/page-definition/${pageId}/versions/1`);
    const customer = published.definition.viewControls[0]!.dataControls.find((c) => c.code === 'customer')!;
    expect(customer.extraProperties).toMatchObject({ sourceQuery: { methodCode: 'customers', valueColumn: 'code' }, dataSourceTitle: 'name', mapFields: [{ sourceCode: 'name', targetCode: 'customerName' }] });

    // A clerk's form: the window pages 60 customers and searches them on MariaDB.
    const menu = await call<{ id: string }>('POST', '/app/business-menu', { title: { 'zh-CN': `销售订单${tag}`, 'en-US': 'Sales orders' }, pageDefinitionId: pageId, isJump: true });
    await page.goto(`${product.url}/#/menu/${menu.id}/params/${menu.id}`);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.locator('#f-main-title').fill('首单');
    await page.getByRole('button', { name: '选择数据 客户' }).click();
    const window = page.getByRole('dialog');
    await poll(() => window.locator('.ant-table-row').count()).toBe(10);
    await poll(() => window.locator('.ant-pagination').textContent()).toContain('6');
    await window.getByPlaceholder(/搜索/).fill('北京客户2');
    await window.getByPlaceholder(/搜索/).press('Enter');
    // 北京: customers 2, 8, 14, 20, 26, … — of those, 北京客户2号 and 北京客户20号, 26号 contain "北京客户2".
    await poll(() => window.locator('.ant-table-row').allInnerTexts()).toEqual(['北京客户20号', '北京客户26号', '北京客户2号']);
    await page.screenshot({ path: screenshotPath('data-source-lookup-window') });
    await window.getByRole('cell', { name: '北京客户26号' }).click();
    await poll(() => page.locator('#f-main-customerName').inputValue()).toBe('北京客户26号');

    await pick(page, page.locator('#f-main-grade'), '乙级');
    await page.keyboard.press('Control+s');
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);

    // The list: names, not codes; the record stores the codes.
    await page.getByRole('button', { name: '返回列表' }).click();
    await poll(() => page.locator('.ant-table-row').count()).toBe(1);
    const row = await page.locator('.ant-table-row').first().innerText();
    expect(row).toContain('北京客户26号');
    expect(row).toContain('乙级');
    expect(row).not.toContain('K026');
    await page.screenshot({ path: screenshotPath('data-source-lookup-list') });
    const data = await call<{ items: { customer: string; grade: string }[] }>('POST', '/app/business-data/query-view-data', { pageId, viewId: (await call<{ definition: { viewControls: { id: string }[] } }>('GET', `/app/page-definition/${pageId}/versions/1`)).definition.viewControls[0]!.id, filterConditions: [] });
    expect(data.items[0]).toMatchObject({ customer: 'K026', grade: 'B' });
  });
});
