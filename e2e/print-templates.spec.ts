import { randomUUID } from 'node:crypto';
import type { Download, Locator, Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { productPerTry } from './product-per-try.ts';
import { screenshotPath, type Product } from './product.ts';
import { apiCall as apiCallFor, apiToken, attemptSuffix, poll, signInToConsole } from './shell-helpers.ts';

// Issue 15: a designer makes a print template for the purchase order in the sheet designer
// (fields from the picker, the order lines as a table), saves and publishes it; a clerk prints one
// order from its page (the count follows) and three orders from the list, merged into one PDF.

let product: Product;
let adminToken = '';
let menuId = '';
const call = <T>(method: string, path: string, body?: unknown) => apiCallFor<T>(product, adminToken, method, path, body);
const control = (code: string, title: string, controlType: number, extra: object = {}) => ({ id: randomUUID(), code, title, controlType, isDisplayed: true, isEdit: true, ...extra });

// A retry starts from a product of its own: the first try's template would turn the print button into a menu.
const perTry = productPerTry((p) => (product = p));

/** The purchase-order page, its menu and three orders. */
async function setUp() {
  adminToken = await apiToken(product);
  const order = {
    id: randomUUID(), code: 'Order', title: '订单', viewType: 1, viewButtons: [], viewControls: [] as object[],
    dataControls: [control('Title', '事由', 1001), control('Supplier', '供应商', 1001), control('Total', '金额', 1003, { extraProperties: { accuracy: 2 } })],
  };
  const lines = {
    id: randomUUID(), code: 'Lines', title: '明细', viewType: 2, parentViewControlId: order.id, associateForeignKeyCode: 'ParentViewDataId', viewButtons: [], viewControls: [],
    dataControls: [control('Product', '品名', 1001), control('Quantity', '数量', 1002), control('Amount', '小计', 1003, { extraProperties: { accuracy: 2 } })],
  };
  order.viewControls = [lines];
  const page = await call<{ id: string }>('POST', '/app/page-definition', { code: 'PrintPurchaseOrder', name: { 'zh-CN': '采购订单', 'en-US': 'Purchase orders' }, definition: { viewControls: [order], pageButtons: [], dataLinkages: [] } });
  await call('POST', `/app/page-definition/${page.id}/publish`, {});
  const role = await call<{ id: string }>('POST', '/identity/roles', { name: '采购员', description: '', isDefault: false, isPublic: true });
  menuId = (await call<{ menu: { id: string } }>('POST', '/app/business-menu/for-page', { pageDefinitionId: page.id, title: { 'zh-CN': '采购订单', 'en-US': 'Purchase orders' }, roleIds: [role.id] })).menu.id;
  for (const [i, supplier] of ['上海文具有限公司', '北京纸业', '广州办公用品'].entries()) {
    await call('POST', '/app/business-data/save-page', {
      pageId: page.id,
      viewDataList: [
        { viewId: order.id, dataList: [{ Title: `办公用品采购 ${i + 1}`, Supplier: supplier, Total: 100 * (i + 1) }] },
        { viewId: lines.id, dataList: Array.from({ length: 3 + i }, (_, j) => ({ Product: `钢笔 ${j + 1}`, Quantity: j + 1, Amount: 2.5 * (j + 1) })) },
      ],
    });
  }
}

/** The orders' list (from another page: the record form shares the list's route). */
async function openList(page: Page) {
  await page.goto(`${product.url}/#/dashboard/console`);
  await page.getByTestId('greeting').waitFor();
  await page.goto(`${product.url}/#/menu/${menuId}/params/${menuId}`);
  await page.locator('.ant-table-row').first().waitFor();
}

/** Records PDF answers of the print API (status and size) as the page fetches them. */
function pdfAnswers(page: Page) {
  const answers: { url: string; status: number; type: string; bytes: number }[] = [];
  page.on('response', async (res) => {
    if (!/\/api\/app\/print-template\/.*(render|preview)$/.test(res.url())) return;
    const body = await res.body().catch(() => Buffer.alloc(0));
    answers.push({ url: res.url(), status: res.status(), type: res.headers()['content-type'] ?? '', bytes: body.length });
  });
  return answers;
}

/** The download a click starts; a click that the busy page swallowed is made again. */
async function downloadOf(page: Page, button: Locator): Promise<Download> {
  for (let attempt = 1; ; attempt++) {
    const download = page.waitForEvent('download', { timeout: 15_000 });
    await button.click();
    try {
      return await download;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

describe('print templates (issue 15)', () => {
  it('designs a template for the purchase order, prints one order and a batch of three from the list', async (ctx) => {
    await perTry.forThisTry();
    await setUp();
    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('print-templates-failure') }).then(() => undefined));
    const answers = pdfAnswers(page);
    await signInToConsole(page, product);
    const name = `采购订单打印${attemptSuffix(ctx.task)}`;

    // Create the template from the list: name and the bound page; the designer opens.
    await page.goto(`${product.url}/#/design/sheetIndex`);
    await page.getByTestId('print-template-create').click();
    await page.getByTestId('print-template-name').fill(name);
    await page.getByTestId('print-template-page').click();
    await page.keyboard.type('PrintPurchase');
    await page.locator('.ant-select-item-option', { hasText: '采购订单' }).click();
    await page.getByRole('dialog').getByRole('button', { name: /确\s*定|创\s*建/ }).click();
    await page.waitForURL(/#\/sheet\?id=/);

    // Fields from the picker, the lines as a table; save, publish.
    for (const code of ['Title', 'Supplier', 'Total']) await page.getByTestId(`print-field-${code}`).click();
    await page.getByTestId('print-view-Lines').click();
    await poll(() => page.locator('[data-testid^="print-element-"]').count()).toBeGreaterThanOrEqual(4);
    // The new table is selected: a subtotal at the foot of every page it fills, shown on the canvas.
    await page.getByTestId('print-table-subtotal').fill('本页小计');
    await poll(() => page.locator('[data-testid^="print-element-"]', { hasText: '本页小计' }).count()).toBe(1);
    await page.screenshot({ path: screenshotPath('print-designer-subtotal') });
    await page.getByTestId('print-save').click();
    await poll(() => page.getByTestId('print-save-state').textContent()).toContain('已保存');
    await page.getByTestId('print-publish').click();
    await poll(async () => (await call<{ items: { name: string; publishedVersion: number | null }[] }>('GET', `/app/print-template?Filter=${encodeURIComponent(name)}`)).items[0]?.publishedVersion ?? null).toBe(1);
    const [saved] = (await call<{ items: { id: string }[] }>('GET', `/app/print-template?Filter=${encodeURIComponent(name)}`)).items;
    const design = await call<{ layout: { elements: { type: string; subtotalLabel?: string | null }[] } }>('GET', `/app/print-template/${saved!.id}`);
    expect(design.layout.elements.find((e) => e.type === 'table')?.subtotalLabel).toBe('本页小计');

    // The designer's preview: the server's PDF with sample values.
    await page.getByTestId('print-preview').click();
    await page.getByTestId('print-preview-frame').waitFor({ timeout: 30_000 });
    expect(answers.at(-1)).toMatchObject({ status: 200, type: 'application/pdf' });
    await page.screenshot({ path: screenshotPath('print-designer-preview') });
    await page.keyboard.press('Escape');

    // One order from its page: the PDF opens, the record says it was printed once.
    await openList(page);
    await page.locator('.ant-table-row', { hasText: '办公用品采购 1' }).dblclick();
    await page.getByTestId('record-print').click();
    await page.getByTestId('print-frame').waitFor({ timeout: 30_000 });
    expect(answers.at(-1)).toMatchObject({ status: 200, type: 'application/pdf' });
    expect((await downloadOf(page, page.getByTestId('print-download'))).suggestedFilename()).toMatch(/\.pdf$/);
    await page.keyboard.press('Escape');
    await poll(() => page.getByTestId('print-count').textContent()).toBe('已打印 1 次');

    // Three orders from the list, merged into one PDF.
    await openList(page);
    const boxes = page.locator('.ant-table-row .ant-checkbox-input');
    for (let i = 0; i < 3; i++) await boxes.nth(i).check();
    const before = answers.length;
    await page.getByTestId('list-print').click();
    await page.getByTestId('print-frame').waitFor({ timeout: 30_000 });
    await poll(() => answers.length).toBe(before + 1);
    expect(answers.at(-1)).toMatchObject({ status: 200, type: 'application/pdf' });
    expect(await page.getByRole('dialog').textContent()).toContain('3 条记录');
    await page.screenshot({ path: screenshotPath('print-list-batch') });
  }, 180_000);
});
