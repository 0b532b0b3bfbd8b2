import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ADMIN_PASSWORD, BROWSER_TIME_ZONE, screenshotPath, signInAs, startProduct, type Product } from './product.ts';
import { attemptSuffix } from './shell-helpers.ts';

// The business runtime from a staff member's point of view: the purchase-order page (created and
// published through the API here, as the designer would) opened from its business menu.

let product: Product;
let token: string;
const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(fn, { timeout: 20_000, interval: 100, ...options });

async function apiCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${product.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const control = (code: string, title: string, controlType: number, extra: object = {}) => ({ id: randomUUID(), code, title, controlType, isDisplayed: true, isEdit: true, ...extra });
const view = (code: string, title: string, dataControls: object[], extra: object = {}) => ({ id: randomUUID(), code, title, viewType: 1, dataControls, viewButtons: [], viewControls: [] as object[], ...extra });

async function publish(code: string, name: string, definition: object): Promise<string> {
  const page = await apiCall<{ id: string }>('POST', '/app/page-definition', { code, name: { 'zh-CN': name, 'en-US': name }, definition });
  await apiCall('POST', `/app/page-definition/${page.id}/publish`, {});
  return page.id;
}

let menuId = '';
let ruleId = '';
let orders = { pageId: '', viewId: '' };
beforeAll(async () => {
  product = await startProduct();
  const login = await fetch(`${product.url}/api/Auth/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
  token = (await login.json()).data.accessToken;
  const rule = await apiCall<{ id: string }>('POST', '/app/document-number', { code: 'PO', name: '采购订单号', resetPeriod: 'never', timeZone: 'UTC', segments: [{ type: 'text', value: 'PO-' }, { type: 'serial', width: 5, start: 1, step: 1 }] });
  ruleId = rule.id;
  const supplier = view('Supplier', '供应商', [control('SupplierName', '供应商名称', 1001), control('City', '城市', 1001)]);
  const supplierPage = await publish('Supplier', '供应商', { viewControls: [supplier], pageButtons: [], dataLinkages: [] });
  for (const [name, city] of [['North Ltd', 'Oslo'], ['South Inc', 'Rome']]) {
    await apiCall('POST', '/app/business-data/save-page', { pageId: supplierPage, viewDataList: [{ viewId: supplier.id, dataList: [{ SupplierName: name, City: city }] }] });
  }
  const c = {
    orderNo: control('OrderNo', '单号', 2001, { docNoOccasion: 1, extraProperties: { documentNumberRuleId: rule.id } }),
    supplier: control('Supplier', '供应商', 1010, { extraProperties: { dataSourceId: supplier.id, dataSourceTitle: 'SupplierName', mapFields: [{ sourceCode: 'SupplierName', targetCode: 'SupplierName' }] } }),
    supplierName: control('SupplierName', '供应商名称', 1001),
    total: control('Total', '合计', 1003, { valueTakingType: 2, extraProperties: { accuracy: 2, summary: 'sum' } }),
    note: control('Note', '备注', 1001),
    product: control('Product', '物料', 1001),
    quantity: control('Quantity', '数量', 1002),
    price: control('Price', '单价', 1003, { extraProperties: { accuracy: 2 } }),
    amount: control('Amount', '金额', 1003, { valueTakingType: 2, extraProperties: { accuracy: 2, summary: 'sum' } }),
  };
  const master = view('Order', '订单', [c.orderNo, c.supplier, c.supplierName, c.total, c.note]);
  const lines = view('Lines', '明细', [c.product, c.quantity, c.price, c.amount], { viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId' });
  master.viewControls = [lines];
  const pageId = await publish('PurchaseOrder', '采购订单', {
    viewControls: [master],
    pageButtons: [],
    dataLinkages: [
      { id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: c.quantity.id, triggerFormula: 'TRUE' }, { dataControlId: c.price.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: c.amount.id, assignmentFormula: 'ROUND({Quantity} * {Price}, 2)' }] },
      { id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: c.amount.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: c.total.id, assignmentFormula: 'SUM({Lines.Amount})' }] },
    ],
  });
  // An older order (it draws PO-00001), so the filter has something to leave out.
  await apiCall('POST', '/app/business-data/save-page', { pageId, viewDataList: [{ viewId: master.id, dataList: [{ SupplierName: 'South Inc', Note: 'old' }] }] });
  orders = { pageId, viewId: master.id };
  menuId = (await apiCall<{ id: string }>('POST', '/app/business-menu', { title: { 'zh-CN': '采购订单', 'en-US': 'Purchase orders' }, pageDefinitionId: pageId, isJump: true })).id;
}, 120_000);
afterAll(() => product?.stop());

describe('business runtime: purchase orders', () => {
  it('opens the menu, creates an order with five lines, saves, filters, edits, sees the history, exports and re-imports', async () => {
    const { page } = await product.newPage();
    onTestFailed(async () => {
      await page.screenshot({ path: screenshotPath('business-runtime-failure'), fullPage: true });
    });
    await signInAs(page, product.url);
    await page.getByRole('menuitem', { name: '采购订单' }).first().click();
    await poll(() => page.url()).toContain(`/menu/${menuId}/params/${menuId}`);
    await poll(() => page.locator('.ant-table-row').count()).toBe(1);

    // A new order: the document number appears, a supplier is picked in the lookup window.
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await poll(() => page.locator('#f-Order-OrderNo').inputValue()).toBe('PO-00002');
    await page.getByRole('button', { name: '选择数据 供应商' }).click();
    await page.getByRole('dialog').getByRole('cell', { name: 'North Ltd' }).click();
    await poll(() => page.locator('#f-Order-SupplierName').inputValue()).toBe('North Ltd');

    // Five lines typed from the keyboard: Enter / Tab move through the cells, Shift+Enter goes back,
    // Enter on the last cell adds the next line. Amounts and the total update live.
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    await page.getByRole('button', { name: /新增行/ }).click();
    for (let i = 0; i < 5; i++) {
      await page.locator(`#f-Lines-${i}-Product`).fill(`Item ${i + 1}`);
      await page.keyboard.press('Enter');
      await poll(focused).toBe(`f-Lines-${i}-Quantity`);
      await page.keyboard.type(String(i + 1));
      await page.keyboard.press('Enter');
      await poll(focused).toBe(`f-Lines-${i}-Price`);
      if (i === 0) {
        await page.keyboard.press('Shift+Enter');
        await poll(focused).toBe('f-Lines-0-Quantity');
        await page.keyboard.press('Tab');
        await poll(focused).toBe('f-Lines-0-Price');
      }
      await page.keyboard.type(String(10 + i));
      // The amount is computed: read-only, and the keyboard goes past it to the next line.
      if (i < 4) {
        await page.keyboard.press('Enter');
        await poll(focused).toBe(`f-Lines-${i + 1}-Product`);
      }
    }
    await poll(() => page.locator('[data-view-code="Lines"] .ant-table-row').count()).toBe(5);
    await poll(() => page.locator('#f-Order-Total').inputValue()).toBe('190.00');
    await poll(() => page.locator('[data-view-code="Lines"] [data-summary="Amount"]').textContent()).toBe('合计 190.00');
    await poll(() => page.locator('#f-Lines-0-Amount').isDisabled()).toBe(true);
    await poll(() => page.locator('#f-Order-Total').isDisabled()).toBe(true);
    await poll(() => page.locator('[data-view-code="Lines"] th [data-computed]').count()).toBe(1);

    // Clicking a number cell selects it: typing replaces the 10 instead of joining it. More decimals
    // than the price holds is an error at the cell, never rounded; a whole number in its place clears it.
    const price = page.locator('#f-Lines-0-Price');
    const reenterPrice = async (text: string) => {
      await page.locator('#f-Lines-0-Product').click();
      await price.click();
      await page.keyboard.type(text);
    };
    await reenterPrice('2.5');
    await poll(() => price.inputValue()).toBe('2.5');
    await poll(() => page.locator('#f-Order-Total').inputValue()).toBe('182.50');
    await reenterPrice('0.125');
    await poll(() => price.inputValue()).toBe('0.125');
    await poll(() => page.locator('[data-view-code="Lines"] .ant-input-number-status-error').count()).toBe(1);
    await reenterPrice('10');
    await poll(() => price.inputValue()).toBe('10');
    await poll(() => page.locator('[data-view-code="Lines"] .ant-input-number-status-error').count()).toBe(0);
    await poll(() => page.locator('#f-Order-Total').inputValue()).toBe('190.00');
    await page.screenshot({ path: screenshotPath('business-runtime-form') });

    // Ctrl+S saves.
    await page.keyboard.press('Control+s');
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
    await poll(() => page.getByRole('button', { name: /修改记录/ }).count()).toBe(1);

    // Back in the list: find it with a filter on the document number.
    await page.getByRole('button', { name: '返回列表' }).click();
    await poll(() => page.locator('.ant-table-row').count()).toBe(2);
    await page.getByRole('button', { name: /筛选条件/ }).click();
    await page.getByRole('button', { name: /添加条件/ }).click();
    await page.getByLabel('值').fill('PO-00002');
    await page.getByTestId('filter-panel').getByRole('button', { name: /查\s*询/ }).click();
    await poll(() => page.locator('.ant-table-row').count()).toBe(1);
    // The list's totals row sums every filtered order.
    await poll(() => page.locator('[data-summary="Total"]').textContent()).toBe('合计 190.00');
    await page.screenshot({ path: screenshotPath('business-runtime-list') });
    // Orders having a line with a given item: a condition on a field of the lines.
    const filterPanel = page.getByTestId('filter-panel');
    await filterPanel.getByRole('button', { name: /重\s*置/ }).click();
    await poll(() => page.locator('.ant-table-row').count()).toBe(2);
    await filterPanel.getByRole('button', { name: /添加条件/ }).click();
    const byLine = filterPanel.getByTestId('filter-row').first();
    await byLine.getByRole('combobox', { name: '字段' }).click();
    // The list of fields is long (the order's, the system columns, the lines'): search it.
    await page.keyboard.type('明细·物料');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '明细·物料' }).click();
    await byLine.getByLabel('值').fill('Item 3');
    await filterPanel.getByRole('button', { name: /查\s*询/ }).click();
    await poll(() => page.locator('.ant-table-row').count()).toBe(1);
    await poll(() => page.locator('.ant-table-row').first().innerText()).toContain('PO-00002');

    // Read the order first: every field read-only, no save; 编辑 switches the same record to editing.
    await page.locator('.ant-table-row').first().getByRole('button', { name: /查\s*看/ }).click();
    await poll(() => page.locator('#f-Order-Note').isDisabled()).toBe(true);
    await poll(() => page.locator('#f-Lines-0-Quantity').isDisabled()).toBe(true);
    expect(await page.getByTestId('record-save').count()).toBe(0);
    await page.getByTestId('record-edit').click();
    await poll(() => page.locator('#f-Order-Note').isDisabled()).toBe(false);

    // Edit a line; the total follows; save.
    await poll(() => page.locator('#f-Lines-0-Quantity').inputValue()).toBe('1');
    await page.locator('#f-Lines-0-Quantity').fill('10');
    await page.locator('#f-Lines-0-Quantity').press('Tab');
    await poll(() => page.locator('#f-Order-Total').inputValue()).toBe('280.00');
    await page.getByTestId('record-save').click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);

    // The history: created, then changed (quantity 1 → 10).
    await page.getByRole('button', { name: /修改记录/ }).click();
    await poll(() => page.getByTestId('history-entry').count()).toBe(2);
    const drawer = page.getByRole('dialog');
    await poll(() => drawer.getByRole('row', { name: /明细 第1行\s*数量\s*1\s*10/ }).count()).toBe(1);
    await page.screenshot({ path: screenshotPath('business-runtime-history') });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '返回列表' }).click();

    // A new order left unsaved: the number it showed is voided, not kept reserved.
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await poll(() => page.locator('#f-Order-OrderNo').inputValue()).toBe('PO-00003');
    await page.getByRole('button', { name: '返回列表' }).click();
    const statusOf = async (docNo: string) =>
      (await apiCall<{ items: { docNo: string; status: string }[] }>('GET', `/app/document-number/${ruleId}/reservations?MaxResultCount=50`)).items.find((r) => r.docNo === docNo)?.status;
    await poll(() => statusOf('PO-00003')).toBe('void');
    expect(await statusOf('PO-00002')).toBe('used');

    // System columns: who created the orders and when, chosen in the column settings.
    await page.getByRole('button', { name: '列设置' }).click();
    // The choice is saved with the user's list settings, then shown.
    await page.getByRole('checkbox', { name: '创建人' }).click();
    await poll(() => page.getByRole('checkbox', { name: '创建人' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: '创建时间' }).click();
    await poll(() => page.getByRole('checkbox', { name: '创建时间' }).isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('columnheader', { name: /创建人/ }).count()).toBe(1);
    await poll(() => page.locator('.ant-table-row').first().textContent()).toMatch(/管理员.*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

    // Export every order to Excel and import the file again: two more orders.
    await poll(() => page.locator('.ant-table-row').count()).toBe(2);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导\s*出/ }).click()]);
    const file = await download.path();
    const content = await readFile(file);
    expect(content.subarray(0, 2).toString()).toBe('PK');
    await page.locator('input[type=file]').setInputFiles({ name: 'orders.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: content });
    await poll(() => page.getByText('已导入 2 条').count()).toBeGreaterThan(0);
    await poll(() => page.locator('.ant-table-row').count()).toBe(4);
    await page.screenshot({ path: screenshotPath('business-runtime-imported') });
  }, 240_000);
});

describe('business runtime: server date, DICT() and cascading drop-downs', () => {
  it('a date default is the server date, DICT() shows the label live, a child drop-down lists the items under its parent', async ({ task }) => {
    // Codes of this try only: a retry must not meet the first try's dictionary and page.
    const tag = attemptSuffix(task);
    await apiCall('POST', '/app/business-dictionary', {
      code: `e2eRegion${tag}`,
      title: { 'zh-CN': '地区', 'en-US': 'Region' },
      isTree: true,
      items: [
        { code: 'CN', label: { 'zh-CN': '中国', 'en-US': 'China' } },
        { code: 'CN-BJ', label: { 'zh-CN': '北京', 'en-US': 'Beijing' }, parentCode: 'CN' },
        { code: 'US', label: { 'zh-CN': '美国', 'en-US': 'USA' } },
        { code: 'US-NY', label: { 'zh-CN': '纽约', 'en-US': 'New York' }, parentCode: 'US' },
      ],
    });
    const c = {
      date: control('VisitDate', '拜访日期', 1004, { defaultValue: '1', extraProperties: { dateType: 2 } }),
      country: control('Country', '国家', 1006, { options: { dictionaryCode: `e2eRegion${tag}` } }),
      city: control('City', '城市', 1006, { options: { dictionaryCode: `e2eRegion${tag}` }, extraProperties: { parentCode: 'Country' } }),
      countryName: control('CountryName', '国家名称', 1001, { valueTakingType: 2 }),
    };
    const visit = view('Visit', '拜访', [c.date, c.country, c.city, c.countryName]);
    const pageId = await publish(`Visit${tag}`, '拜访', {
      viewControls: [visit],
      pageButtons: [],
      dataLinkages: [{ id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: c.country.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: c.countryName.id, assignmentFormula: `DICT("e2eRegion${tag}", {Country})` }] }],
    });
    const visitMenu = (await apiCall<{ id: string }>('POST', '/app/business-menu', { title: { 'zh-CN': '拜访', 'en-US': 'Visits' }, pageDefinitionId: pageId, isJump: true })).id;

    const { page } = await product.newPage();
    onTestFailed(async () => {
      await page.screenshot({ path: screenshotPath('business-runtime-context-failure'), fullPage: true });
    });
    // The browser's clock runs 400 days ahead (ahead: the session cookie's expiry is set from it);
    // the date default must still be the server's day.
    const browserNow = Date.now() + 400 * 86_400_000;
    await page.clock.setFixedTime(browserNow);
    await signInAs(page, product.url);
    expect(await page.evaluate(() => Date.now())).toBe(browserNow);
    const { date: serverDate } = await apiCall<{ date: string }>('GET', '/app/sys-function/system-date');
    // The server's clock, on the calendar of the user's zone.
    const serverDay = new Date(serverDate).toLocaleDateString('sv-SE', { timeZone: BROWSER_TIME_ZONE });
    await page.getByRole('menuitem', { name: '拜访' }).first().click();
    await poll(() => page.url()).toContain(`/menu/${visitMenu}/params/${visitMenu}`);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await poll(() => page.locator('#f-Visit-VisitDate').inputValue()).toBe(serverDay);

    // DICT() resolves in the browser as on the server.
    await page.locator('#f-Visit-Country').click();
    await page.locator('.ant-select-dropdown:visible').last().locator('.ant-select-item-option[title="中国"]').click();
    await poll(() => page.locator('#f-Visit-CountryName').inputValue()).toBe('中国');

    // The city drop-down lists only the items under the chosen country.
    await page.locator('#f-Visit-City').click();
    const cities = page.locator('.ant-select-dropdown:visible').last();
    await poll(() => cities.locator('.ant-select-item-option').allInnerTexts()).toEqual(['北京']);
    // (the only option is the active one; Enter picks it)
    await page.keyboard.press('Enter');
    await poll(() => page.locator('#f-Visit-City').locator('xpath=ancestor::*[contains(@class,"ant-select ")][1]').innerText()).toContain('北京');
    await page.screenshot({ path: screenshotPath('business-runtime-context') });

    await page.getByTestId('record-save').click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
    await poll(() => page.locator('#f-Visit-CountryName').inputValue()).toBe('中国');
    await poll(() => page.locator('#f-Visit-VisitDate').inputValue()).toBe(serverDay);
  }, 120_000);
});

describe('business runtime: a dictionary field reads as its label (issue 12)', () => {
  it('the list, the history and the Excel export show the item’s label; the record keeps the code', async ({ task }) => {
    // Codes of this try only: a retry must not meet the first try's dictionary and page.
    const tag = attemptSuffix(task);
    await apiCall('POST', '/app/business-dictionary', {
      code: `e2eVendor${tag}`,
      title: { 'zh-CN': '供应商', 'en-US': 'Vendor' },
      items: [
        { code: 'S001', label: { 'zh-CN': '供应商甲', 'en-US': 'Vendor A' } },
        { code: 'S002', label: { 'zh-CN': '供应商乙', 'en-US': 'Vendor B' } },
        { code: 'S003', label: { 'zh-CN': '供应商丙', 'en-US': 'Vendor C' } },
      ],
    });
    const contract = view('Contract', '合同', [control('Subject', '标的', 1001), control('Vendor', '供应商', 1006, { options: { dictionaryCode: `e2eVendor${tag}` } })]);
    const pageId = await publish(`Contract${tag}`, '合同', { viewControls: [contract], pageButtons: [], dataLinkages: [] });
    const contractMenu = (await apiCall<{ id: string }>('POST', '/app/business-menu', { title: { 'zh-CN': '合同', 'en-US': 'Contracts' }, pageDefinitionId: pageId, isJump: true })).id;
    const id = randomUUID();
    await apiCall('POST', '/app/business-data/save-page', { pageId, viewDataList: [{ viewId: contract.id, dataList: [{ Id: id, Subject: '钢材', Vendor: 'S003' }] }] });

    const { page } = await product.newPage();
    onTestFailed(async () => {
      await page.screenshot({ path: screenshotPath('business-runtime-labels-failure'), fullPage: true });
    });
    await signInAs(page, product.url);
    await page.getByRole('menuitem', { name: '合同' }).first().click();
    await poll(() => page.url()).toContain(`/menu/${contractMenu}/params/${contractMenu}`);
    // The list shows the label, not the code.
    const row = page.locator('.ant-table-row').first();
    await poll(() => row.innerText()).toContain('供应商丙');
    expect(await row.innerText()).not.toContain('S003');

    // Choose another supplier in the form (by its label) and save.
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    await poll(() => page.locator('#f-Contract-Vendor').locator('xpath=ancestor::*[contains(@class,"ant-select ")][1]').innerText()).toContain('供应商丙');
    await page.locator('#f-Contract-Vendor').click();
    await page.locator('.ant-select-dropdown:visible').last().locator('.ant-select-item-option[title="供应商甲"]').click();
    await page.getByTestId('record-save').click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);

    // The history names the labels: 供应商 供应商丙 → 供应商甲.
    await page.getByRole('button', { name: /修改记录/ }).click();
    await poll(() => page.getByTestId('history-entry').count()).toBe(2);
    const drawer = page.getByRole('dialog');
    await poll(() => drawer.getByRole('row', { name: /供应商\s*供应商丙\s*供应商甲/ }).count()).toBe(1);
    expect(await drawer.innerText()).not.toContain('S001');
    await page.screenshot({ path: screenshotPath('business-runtime-labels-history') });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '返回列表' }).click();
    await poll(() => page.locator('.ant-table-row').first().innerText()).toContain('供应商甲');

    // The export holds the label; the record still holds the code.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导\s*出/ }).click()]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile(await download.path())) as unknown as ArrayBuffer);
    const cells: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((r) => cells.push((r.values as unknown[]).slice(1)));
    expect(cells).toEqual([['标的', '供应商'], ['钢材', '供应商甲']]);
    const stored = await apiCall<{ viewDataList: { dataList: { Vendor: string }[] }[] }>('POST', '/app/business-data/query-page-data', { pageId, id });
    expect(stored.viewDataList[0]!.dataList[0]!.Vendor).toBe('S001');
  }, 120_000);
});

describe('business runtime: filters that follow the field (issue 12, defect 3)', () => {
  it('filters a dictionary field by its labels, a date by a range and a user field with the user picker, in the filter panel and the quick-search row', async ({ task }) => {
    // Codes of this try only: a retry must not meet the first try's dictionary and page.
    const tag = attemptSuffix(task);
    await apiCall('POST', '/app/business-dictionary', {
      code: `e2eCarrier${tag}`,
      title: { 'zh-CN': '承运商', 'en-US': 'Carrier' },
      items: [
        { code: 'C01', label: { 'zh-CN': '顺丰', 'en-US': 'SF' } },
        { code: 'C02', label: { 'zh-CN': '圆通', 'en-US': 'YTO' } },
        { code: 'C03', label: { 'zh-CN': '中通', 'en-US': 'ZTO' } },
      ],
    });
    const delivery = view('Delivery', '发货单', [
      control('DeliveryNo', '发货单号', 1001),
      control('Carrier', '承运商', 1006, { options: { dictionaryCode: `e2eCarrier${tag}` } }),
      control('ShipDate', '发货日期', 1004, { extraProperties: { dateType: 2 } }),
      control('Qty', '件数', 1002),
      control('Handler', '经办人', 4001, { extraProperties: { selectionType: 3, multiple: false } }),
    ]);
    const pageId = await publish(`Delivery${tag}`, '发货单', { viewControls: [delivery], pageButtons: [], dataLinkages: [] });
    const deliveryMenu = (await apiCall<{ id: string }>('POST', '/app/business-menu', { title: { 'zh-CN': '发货单', 'en-US': 'Deliveries' }, pageDefinitionId: pageId, isJump: true })).id;
    const records = [
      ['D1', 'C01', '2026-03-02', 1],
      ['D2', 'C02', '2026-03-10', 2],
      ['D3', 'C03', '2026-04-01', 3],
      ['D4', 'C01', '2026-04-15', 4],
    ] as const;
    const [admin] = await apiCall<{ id: string; title: string }[]>('GET', '/identity/selection-items?type=3&filter=admin');
    for (const [no, carrier, date, qty] of records) {
      const handler = qty % 2 === 1 ? [{ id: admin!.id, title: admin!.title, type: 3 }] : [];
      await apiCall('POST', '/app/business-data/save-page', { pageId, viewDataList: [{ viewId: delivery.id, dataList: [{ DeliveryNo: no, Carrier: carrier, ShipDate: date, Qty: qty, Handler: handler }] }] });
    }

    const { page } = await product.newPage();
    onTestFailed(async () => {
      await page.screenshot({ path: screenshotPath('business-runtime-filter-failure'), fullPage: true });
    });
    await signInAs(page, product.url);
    await page.getByRole('menuitem', { name: '发货单' }).first().click();
    await poll(() => page.url()).toContain(`/menu/${deliveryMenu}/params/${deliveryMenu}`);
    const rows = page.locator('.ant-table-row');
    const shownNumbers = async () => (await rows.allInnerTexts()).map((text) => /D\d/.exec(text)?.[0] ?? text).sort();
    await poll(() => rows.count()).toBe(4);
    const pick = async (title: string) => page.locator('.ant-select-dropdown:visible').last().locator(`.ant-select-item-option[title="${title}"]`).click();
    const typeRange = async (scope: ReturnType<typeof page.locator>, from: string, to: string) => {
      const inputs = scope.locator('.ant-picker-range input');
      await inputs.first().click();
      await inputs.first().fill(from);
      await inputs.first().press('Enter');
      await inputs.nth(1).fill(to);
      await inputs.nth(1).press('Enter');
    };

    // The filter panel: the carrier is "one of" a select of its labels, never a code typed in.
    await page.getByRole('button', { name: /筛选条件/ }).click();
    const panel = page.getByTestId('filter-panel');
    await panel.getByRole('button', { name: /添加条件/ }).click();
    const first = panel.getByTestId('filter-row').first();
    await first.getByRole('combobox', { name: '字段' }).click();
    await pick('承运商 (Carrier)');
    await first.getByRole('combobox', { name: '条件' }).click();
    await pick('属于');
    await first.getByRole('combobox', { name: '值' }).click();
    const offered = page.locator('.ant-select-dropdown:visible').last().locator('.ant-select-item-option');
    await poll(() => offered.allInnerTexts()).toEqual(['顺丰', '圆通', '中通']);
    await pick('顺丰');
    await pick('中通');
    await page.keyboard.press('Escape');
    await panel.getByRole('button', { name: /查\s*询/ }).click();
    await poll(shownNumbers).toEqual(['D1', 'D3', 'D4']);
    expect(await rows.first().innerText()).not.toMatch(/C0\d/);

    // A second condition: a text box for the number until the field becomes the date; the typed
    // value goes with the old field. "Between" on a date is a range picker.
    await panel.getByRole('button', { name: /添加条件/ }).click();
    const second = panel.getByTestId('filter-row').nth(1);
    await second.getByLabel('值').fill('D');
    await second.getByRole('combobox', { name: '字段' }).click();
    await pick('发货日期 (ShipDate)');
    await poll(() => second.locator('.ant-picker').count()).toBe(1);
    expect(await second.locator('.ant-picker input').inputValue()).toBe('');
    await second.getByRole('combobox', { name: '条件' }).click();
    await pick('介于');
    await typeRange(second, '2026-03-01', '2026-03-31');
    await page.screenshot({ path: screenshotPath('business-runtime-filter-panel') });
    await panel.getByRole('button', { name: /查\s*询/ }).click();
    await poll(shownNumbers).toEqual(['D1']);
    await panel.getByRole('button', { name: /重\s*置/ }).click();
    await poll(() => rows.count()).toBe(4);

    // A user picker field is filtered with the user picker: orders this user handles.
    await panel.getByRole('button', { name: /添加条件/ }).click();
    const byUser = panel.getByTestId('filter-row').first();
    await byUser.getByRole('combobox', { name: '字段' }).click();
    await pick('经办人 (Handler)');
    await poll(() => byUser.getByRole('combobox', { name: '条件' }).locator('xpath=ancestor::*[contains(@class,"ant-select ")][1]').innerText()).toContain('包含');
    await byUser.getByRole('combobox', { name: '值' }).click();
    await page.locator('.ant-select-dropdown:visible').last().locator('.ant-select-item-option', { hasText: admin!.title }).first().click();
    await panel.getByRole('button', { name: /查\s*询/ }).click();
    await poll(shownNumbers).toEqual(['D1', 'D3']);
    await panel.getByRole('button', { name: /重\s*置/ }).click();
    await poll(() => rows.count()).toBe(4);
    await page.getByRole('button', { name: /筛选条件/ }).click();

    // The quick-search row: the first text, dictionary and date fields, ANDed.
    const quick = page.getByTestId('quick-search');
    await quick.getByRole('combobox', { name: '承运商' }).click();
    await pick('顺丰');
    await page.keyboard.press('Escape');
    await quick.getByRole('button', { name: /查\s*询/ }).click();
    await poll(shownNumbers).toEqual(['D1', 'D4']);
    await typeRange(quick, '2026-04-01', '2026-04-30');
    await quick.getByRole('button', { name: /查\s*询/ }).click();
    await poll(shownNumbers).toEqual(['D4']);
    await page.screenshot({ path: screenshotPath('business-runtime-quick-search') });
    // Enter in a text box applies; reset shows every row again.
    await quick.getByRole('button', { name: /重\s*置/ }).click();
    await poll(() => rows.count()).toBe(4);
    await quick.getByLabel('发货单号').fill('D2');
    await quick.getByLabel('发货单号').press('Enter');
    await poll(shownNumbers).toEqual(['D2']);
    await quick.getByRole('button', { name: /重\s*置/ }).click();
    await poll(() => rows.count()).toBe(4);
  }, 120_000);
});

/** An .xlsx of the order sheet (header + `rows`), written by ExcelJS's streaming writer. */
async function orderWorkbook(rows: number, row: (i: number) => unknown[]): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = writer.addWorksheet('订单');
  sheet.addRow(['供应商名称', '备注']).commit();
  for (let i = 1; i <= rows; i++) sheet.addRow(row(i)).commit();
  sheet.commit();
  await writer.commit();
  return Buffer.concat(chunks);
}

describe('business runtime: imports that go wrong answer in words (issue 27)', () => {
  it('a file that is not a workbook, a file past the row cap and a bad cell are refused with their reason; a large valid file imports', async () => {
    const { page } = await product.newPage();
    onTestFailed(async () => {
      await page.screenshot({ path: screenshotPath('import-refusals-failure'), fullPage: true });
    });
    await signInAs(page, product.url);
    await page.getByRole('menuitem', { name: '采购订单' }).first().click();
    await poll(() => page.url()).toContain(`/menu/${menuId}/params/${menuId}`);
    await poll(() => page.locator('.ant-table-row').count()).toBeGreaterThan(0);
    const count = async () => (await apiCall<{ totalCount: number }>('POST', '/app/business-data/query-view-data', { ...orders, MaxResultCount: 1 })).totalCount;
    const totalBefore = await count();
    const upload = (name: string, buffer: Buffer) => page.locator('input[type=file]').setInputFiles({ name, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    const failure = page.locator('.ant-modal-confirm-error');
    const closeFailure = async () => {
      await failure.getByRole('button').last().click();
      await poll(() => failure.count()).toBe(0);
    };

    // A CSV saved with an .xlsx name.
    await upload('orders.xlsx', Buffer.from('供应商名称,备注\nNorth Ltd,csv\n'));
    await poll(() => failure.textContent()).toContain('文件不是有效的 Excel 工作簿（.xlsx）');
    await closeFailure();

    // 100,001 rows: refused at the first row past the cap, while the file is read.
    await upload('too-many.xlsx', await orderWorkbook(100_001, (i) => [`Bulk ${i}`, 'cap']));
    await poll(() => failure.textContent(), { timeout: 60_000 }).toContain('文件数据超过 100000 行（工作表“订单”第 100002 行），请分批导入');
    await page.screenshot({ path: screenshotPath('import-over-cap') });
    await closeFailure();

    // A cell Excel escaped as NUL: the cell is named.
    await upload('nul.xlsx', await orderWorkbook(3, (i) => [i === 2 ? 'bad_x0000_' : `Ok ${i}`, 'nul']));
    await poll(() => failure.textContent()).toContain('工作表“订单”的单元格 A3 包含空字符（U+0000）或不成对的代理项');
    await closeFailure();

    // 5,000 valid rows import in one go; nothing of the refused files was written.
    await upload('orders-5000.xlsx', await orderWorkbook(5000, (i) => [`Batch ${i}`, '批量']));
    await poll(() => page.getByText('已导入 5000 条').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await count()).toBe(totalBefore + 5000);
    await poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('import-5000') });
  }, 240_000);
});

describe('business runtime on a phone (issue 12)', () => {
  it('lists records as cards with infinite scroll, shows the form in one column and the lines as cards', async () => {
    // 35 more orders (past one page of cards), the newest with two lines.
    for (let i = 0; i < 35; i++) {
      await apiCall('POST', '/app/business-data/save-page', { pageId: orders.pageId, viewDataList: [{ viewId: orders.viewId, dataList: [{ SupplierName: `Phone batch ${i}`, Note: 'phone' }] }] });
    }
    const definition = (await apiCall<{ definition: { viewControls: { viewControls: { id: string }[] }[] } }>('GET', `/app/business-data/page-runtime?pageId=${orders.pageId}`)).definition;
    const linesViewId = definition.viewControls[0]!.viewControls[0]!.id;
    await apiCall('POST', '/app/business-data/save-page', {
      pageId: orders.pageId,
      viewDataList: [
        { viewId: orders.viewId, dataList: [{ SupplierName: 'Phone Co', Note: 'phone' }] },
        { viewId: linesViewId, dataList: [{ Product: 'Screen', Quantity: 2, Price: 100 }, { Product: 'Case', Quantity: 1, Price: 20 }] },
      ],
    });
    const { page } = await product.newPage({ width: 390, height: 844 });
    onTestFailed(async () => {
      await page.screenshot({ path: screenshotPath('business-runtime-phone-failure'), fullPage: true });
    });
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    await page.goto(`${product.url}/#/menu/${menuId}/params/${menuId}`);
    const cards = page.getByTestId('record-card');
    await poll(() => cards.count()).toBe(30);
    expect(await page.locator('.ant-table-row').count()).toBe(0);
    // The newest first: its card shows the supplier and the computed total.
    await poll(() => cards.first().innerText()).toContain('Phone Co');
    expect(await cards.first().innerText()).toContain('220.00');
    await page.screenshot({ path: screenshotPath('business-runtime-phone-list') });
    // Scrolling to the end loads the next page of cards.
    await cards.last().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 5000);
    await poll(() => cards.count()).toBeGreaterThan(30);

    // Edit the newest order: the form in one column, its lines as cards; a new line opens.
    await page.evaluate(() => window.scrollTo(0, 0));
    await cards.first().getByRole('button', { name: /编\s*辑/ }).click();
    await poll(() => page.locator('#f-Order-SupplierName').inputValue()).toBe('Phone Co');
    const boxes = await Promise.all(['#f-Order-SupplierName', '#f-Order-Note'].map((s) => page.locator(s).boundingBox()));
    expect(Math.abs(boxes[0]!.x - boxes[1]!.x)).toBeLessThan(2);
    expect(boxes[0]!.width).toBeGreaterThan(250);
    const lines = page.getByTestId('row-card');
    await poll(() => lines.count()).toBe(2);
    expect(await lines.first().innerText()).toMatch(/第 1 行 · Screen/);
    await page.getByTestId('row-cards').getByRole('button', { name: /新增行/ }).click();
    await poll(() => lines.count()).toBe(3);
    await page.locator('#f-Lines-2-Product').fill('Charger');
    await page.locator('#f-Lines-2-Quantity').fill('3');
    await page.locator('#f-Lines-2-Price').fill('10');
    await page.locator('#f-Lines-2-Price').press('Tab');
    await poll(() => page.locator('#f-Order-Total').inputValue()).toBe('250.00');
    await page.screenshot({ path: screenshotPath('business-runtime-phone-form'), fullPage: true });
    await page.getByTestId('record-save').click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
  });
});
