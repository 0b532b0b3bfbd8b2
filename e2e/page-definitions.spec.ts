import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { productPerTry } from './product-per-try.ts';
import { screenshotPath, signInAs, type Product } from './product.ts';

// The page-definition list (`/design/form`): search, paging, create, copy, rename, export,
// import, version history with rollback, delete refused while a business menu uses the page,
// delete, and opening the designer.

// The journey creates fixed codes (PurchaseOrder, Bulk00…): a retry gets a product of its own.
let product: Product;
const perTry = productPerTry((p) => (product = p));

const eventually = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });
const dialog = (page: Page) => page.locator('.ant-modal-wrap:visible').last();
const okButton = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal-footer .ant-btn-primary').last();
const confirmOk = (page: Page) => page.locator('.ant-modal-confirm:visible .ant-modal-confirm-btns .ant-btn-primary').last();
const rowOf = (page: Page, code: string) => page.locator('.ant-table-row').filter({ has: page.getByTestId(`open-${code}`) });
const codes = (page: Page) => page.locator('.ant-table-row [data-testid^="open-"]').allInnerTexts();

async function tokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
  return decodeURIComponent(cookie!.value);
}

async function apiCall<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${product.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? null : await res.json()) as T;
}

const control = (code: string, controlType: number) => ({ id: randomUUID(), code, title: code, controlType, isDisplayed: true, isEdit: true });

async function moreAction(page: Page, code: string, label: string) {
  await page.getByTestId(`more-${code}`).click();
  await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item').filter({ hasText: label }).last().click();
}

describe('page definitions list (/design/form)', () => {
  it('search, paging, create, copy, rename, export, import, versions with rollback, delete', async () => {
    await perTry.forThisTry();
    const { page } = await product.newPage();
    await signInAs(page, product.url);
    await page.waitForURL(/dashboard/);
    const token = await tokenOf(page);

    await page.goto(`${product.url}/#/design/form`);
    await page.getByText('暂无页面，点击“新建页面”开始设计').waitFor();

    // Create.
    await page.getByRole('button', { name: /新建页面/ }).click();
    await dialog(page).getByTestId('page-code').fill('1bad');
    await okButton(page).click();
    await dialog(page).getByText('字母开头，只含字母、数字和下划线，最多 40 个字符').first().waitFor();
    await dialog(page).getByTestId('page-code').fill('PurchaseOrder');
    await dialog(page).locator('input').nth(1).fill('采购订单');
    await dialog(page).locator('input').nth(2).fill('Purchase order');
    await okButton(page).click();
    // The new page opens in the designer; back to the list.
    await page.waitForURL(/#\/pageDefinition\?id=/);
    await page.getByTestId('page-designer').waitFor();
    await page.goto(`${product.url}/#/design/form`);
    await eventually(() => rowOf(page, 'PurchaseOrder').count()).toBe(1);
    await expect(rowOf(page, 'PurchaseOrder').innerText()).resolves.toContain('草稿');

    // A taken code is refused at the field (the server's answer).
    await page.getByRole('button', { name: /新建页面/ }).click();
    await dialog(page).getByTestId('page-code').fill('purchaseorder');
    await dialog(page).locator('input').nth(1).fill('重复');
    await okButton(page).click();
    await dialog(page).getByText('页面编码“purchaseorder”已被使用').waitFor();
    await dialog(page).getByRole('button', { name: /取\s*消/ }).click();

    // Paging: 21 more pages → two pages of 20.
    for (let i = 0; i < 21; i++) await apiCall(token, 'POST', '/app/page-definition', { code: `Bulk${String(i).padStart(2, '0')}`, name: { 'zh-CN': `批量${i}` } });
    await page.getByRole('button', { name: '刷新' }).click();
    await page.getByText('共 22 条').waitFor();
    await eventually(async () => (await codes(page)).length).toBe(20);
    await page.locator('.ant-pagination-item-2').click();
    await eventually(async () => (await codes(page)).length).toBe(2);

    // Search.
    const search = page.getByPlaceholder('搜索编码、名称或描述');
    await search.fill('采购');
    await search.press('Enter');
    await eventually(() => codes(page)).toEqual(['PurchaseOrder']);

    // Copy.
    await moreAction(page, 'PurchaseOrder', '复制');
    await dialog(page).getByText('副本是一个新页面').waitFor();
    await dialog(page).getByTestId('page-code').fill('PurchaseOrderCopy');
    await okButton(page).click();
    await eventually(async () => (await codes(page)).sort()).toEqual(['PurchaseOrder', 'PurchaseOrderCopy']);

    // Rename the copy.
    await moreAction(page, 'PurchaseOrderCopy', '重命名');
    await dialog(page).locator('input').nth(1).fill('采购订单（测试）');
    await okButton(page).click();
    await eventually(() => rowOf(page, 'PurchaseOrderCopy').innerText()).toContain('采购订单（测试）');

    // Publish version 1 and 2 through the API (the designer's job), then look at the history.
    const list = await apiCall<{ items: { id: string; code: string; concurrencyStamp: string }[] }>(token, 'GET', '/app/page-definition?Filter=PurchaseOrder');
    const po = list.items.find((p) => p.code === 'PurchaseOrder')!;
    const master = { id: randomUUID(), code: 'Main', title: 'Main', viewType: 1, dataControls: [control('OrderNo', 2001), control('Amount', 1003)], viewButtons: [], viewControls: [] };
    const v1 = { viewControls: [master], pageButtons: [], dataLinkages: [] };
    let saved = await apiCall<{ concurrencyStamp: string }>(token, 'PUT', `/app/page-definition/${po.id}`, { definition: v1, concurrencyStamp: po.concurrencyStamp });
    await apiCall(token, 'POST', `/app/page-definition/${po.id}/publish`, {});
    const v2 = structuredClone(v1);
    v2.viewControls[0]!.dataControls.push(control('Remark', 1001));
    v2.viewControls[0]!.dataControls[1]!.code = 'TotalAmount';
    saved = await apiCall<{ concurrencyStamp: string }>(token, 'PUT', `/app/page-definition/${po.id}`, { definition: v2, concurrencyStamp: saved.concurrencyStamp });
    await apiCall(token, 'POST', `/app/page-definition/${po.id}/publish`, {});
    await page.getByRole('button', { name: '刷新' }).click();
    await eventually(() => rowOf(page, 'PurchaseOrder').innerText()).toContain('v2');

    await rowOf(page, 'PurchaseOrder').getByRole('button', { name: /版本历史/ }).click();
    const drawer = page.locator('.ant-drawer-content-wrapper:visible');
    await drawer.getByTestId('version-2').waitFor();
    await expect(drawer.getByTestId('version-summary-2').innerText()).resolves.toMatch(/新增控件[\s\S]*Main\.Remark/);
    await expect(drawer.getByTestId('version-summary-2').innerText()).resolves.toContain('Main.Amount → Main.TotalAmount');
    await expect(drawer.getByTestId('version-2').innerText()).resolves.toContain('admin');
    await page.screenshot({ path: screenshotPath('page-definitions-versions') });
    await drawer.getByTestId('version-1').getByRole('button', { name: /回滚到此版本/ }).click();
    await page.locator('.ant-modal-confirm:visible .ant-modal-confirm-title').getByText('回滚到版本 1？').waitFor();
    await confirmOk(page).click();
    await page.getByText('已回滚，发布为版本 3').waitFor();
    await drawer.getByTestId('version-3').waitFor();
    await expect(drawer.getByTestId('version-3').innerText()).resolves.toContain('回滚自版本 1');
    await expect(drawer.getByTestId('version-summary-3').innerText()).resolves.toContain('Main.TotalAmount → Main.Amount');
    await drawer.locator('.ant-drawer-close').click();

    // Export the published version, then import it back under another code.
    const [download] = await Promise.all([page.waitForEvent('download'), moreAction(page, 'PurchaseOrder', '导出已发布版本')]);
    expect(download.suggestedFilename()).toBe('PurchaseOrder.v3.page.json');
    const file = await download.path();
    const exported = JSON.parse(await readFile(file, 'utf8'));
    expect(exported).toMatchObject({ format: 'tessera.page-definition', page: { code: 'PurchaseOrder' } });
    expect(exported.definition.viewControls[0].dataControls.map((c: { code: string }) => c.code)).toEqual(['OrderNo', 'Amount']);

    await page.getByRole('button', { name: /导\s*入/ }).click();
    await dialog(page).locator('input[type=file]').setInputFiles(file);
    await dialog(page).getByText('PurchaseOrder · 采购订单').waitFor();
    await okButton(page).click();
    // The code is taken on this instance: the server says so at the field.
    await dialog(page).getByText('页面编码“PurchaseOrder”已被使用').waitFor();
    await dialog(page).getByTestId('import-code').fill('PurchaseOrderImported');
    await okButton(page).click();
    await page.getByText('页面已导入').waitFor();
    await eventually(async () => (await codes(page)).sort()).toEqual(['PurchaseOrder', 'PurchaseOrderCopy', 'PurchaseOrderImported']);
    await expect(rowOf(page, 'PurchaseOrderImported').innerText()).resolves.toContain('草稿');

    // Delete is refused while a business menu opens the page, naming it.
    await apiCall(token, 'POST', '/app/business-menu', { title: { 'zh-CN': '采购订单录入' }, pageDefinitionId: po.id });
    await moreAction(page, 'PurchaseOrder', '删除');
    await page.locator('.ant-modal-confirm:visible .ant-modal-confirm-title').getByText('确定删除页面“采购订单”？').waitFor();
    await confirmOk(page).click();
    await page.getByTestId('page-in-use').waitFor();
    await expect(page.getByTestId('page-in-use').innerText()).resolves.toContain('采购订单录入');
    await page.screenshot({ path: screenshotPath('page-definitions-in-use') });
    await confirmOk(page).click();
    expect(await codes(page)).toContain('PurchaseOrder');

    // An unused page is deleted after confirmation.
    await moreAction(page, 'PurchaseOrderCopy', '删除');
    await confirmOk(page).click();
    await page.getByText('页面已删除').waitFor();
    await eventually(async () => (await codes(page)).sort()).toEqual(['PurchaseOrder', 'PurchaseOrderImported']);

    // Opening a row goes to the designer.
    await page.getByTestId('open-PurchaseOrderImported').click();
    await page.waitForURL(/#\/pageDefinition\?id=/);
    const imported = (await apiCall<{ items: { id: string; code: string }[] }>(token, 'GET', '/app/page-definition?Filter=PurchaseOrderImported')).items[0]!;
    expect(decodeURIComponent(page.url())).toContain(`id=${imported.id}`);
  }, 180_000);
});
