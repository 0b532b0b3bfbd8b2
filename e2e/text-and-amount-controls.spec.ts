import { describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, signInAs, type Product } from './product.ts';
import { productPerTry } from './product-per-try.ts';
import { apiCall as apiCallFor, poll, tokenOf } from './shell-helpers.ts';
import { drag, palette, props, name } from './designer-helpers.ts';

// Issue 12, the control types missing from the palette: a designer puts a multi-line text, a rich
// text and a currency amount (with Chinese capitals) on a page and publishes it; a clerk writes a
// note with two lines, a bold word and an amount, saves it, sees the list show the amount with
// thousands separators and the rich text as plain text, and finds the bold word kept on reopening.

let product: Product;
const products = productPerTry((p) => (product = p));

const apiCall = <T>(token: string, method: string, path: string, body?: unknown) => apiCallFor<T>(product, token, method, path, body);

describe('multi-line text, rich text and currency amount', () => {
  it('designs, publishes, fills in, saves, lists and reopens a note', { timeout: 300_000 }, async () => {
    // A retry (vitest.config.ts) gets a fresh product: the first try's pages hold the codes.
    await products.forThisTry();
    const { page } = await product.newPage({ width: 1440, height: 960 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('text-and-amount-failure') }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    const token = await tokenOf(page);

    // The designer: a form with a title, a multi-line text, a rich text and an amount in capitals.
    const notes = await apiCall<{ id: string }>(token, 'POST', '/app/page-definition', { code: 'notes', name: { 'zh-CN': '便签', 'en-US': 'Notes' } });
    await page.goto(`${product.url}/#/pageDefinition?id=${notes.id}`);
    await page.getByTestId('page-designer').waitFor();
    await drag(page, palette(page, '表单视图'), page.getByTestId('designer-canvas'));
    await poll(() => page.locator('.dz-view').count()).toBe(1);
    await name(page, 'main', '便签');
    const body = page.locator('.dz-view[data-view-code="main"] .dz-view-body').first();
    const add = async (type: string, code: string, title: string) => {
      await drag(page, palette(page, type), body);
      await poll(() => props(page).locator('#prop-code').inputValue()).not.toBe('');
      await name(page, code, title);
      await poll(() => page.locator(`.dz-card[data-control-code="${code}"]`).count()).toBe(1);
    };
    await add('文本', 'title', '标题');
    await add('多行文本', 'memo', '说明');
    await add('富文本', 'content', '正文');
    await add('金额', 'amount', '金额');
    await poll(() => props(page).locator('#prop-extraProperties-accuracy').inputValue()).toBe('2');
    await props(page).locator('#prop-extraProperties-capitals').click();
    await poll(() => props(page).locator('#prop-extraProperties-capitals').getAttribute('aria-checked')).toBe('true');
    // A grid of lines with a multi-line text and an amount (edited in cells).
    await drag(page, palette(page, '表格视图'), body);
    await poll(() => page.locator('.dz-view').count()).toBe(2);
    await name(page, 'lines', '明细');
    const lines = page.locator('.dz-view[data-view-code="lines"]');
    const addLine = async (type: string, code: string, title: string, count: number) => {
      await drag(page, palette(page, type), lines.locator('.dz-view-body').first());
      await poll(() => lines.locator('.dz-card').count()).toBe(count);
      await name(page, code, title);
      await poll(() => lines.locator(`.dz-card[data-control-code="${code}"]`).count()).toBe(1);
    };
    await addLine('多行文本', 'detail', '明细说明', 1);
    await addLine('金额', 'price', '单价', 2);
    await page.screenshot({ path: screenshotPath('text-and-amount-1-designer') });

    await page.getByRole('button', { name: /发\s*布/ }).click();
    const dialog = page.getByTestId('publish-dialog');
    await poll(() => dialog.getByTestId('publish-changes').textContent()).toMatch(/新建数据表：视图 main/);
    await page.getByTestId('publish-confirm').click();
    await poll(() => dialog.textContent()).toMatch(/已发布第 1 版/);
    await page.locator('.ant-modal-footer:visible').getByRole('button', { name: /关\s*闭/ }).click();

    // The business page, from its menu.
    await apiCall(token, 'POST', '/app/business-menu', { title: { 'zh-CN': '便签', 'en-US': 'Notes' }, pageDefinitionId: notes.id, isJump: true });
    await page.goto(`${product.url}/#/dashboard/console`);
    await page.reload();
    await page.getByRole('menuitem', { name: '便签' }).first().click();
    await page.getByRole('button', { name: /新\s*增/ }).click();

    await page.locator('#f-main-title').fill('First note');
    // Two lines: Enter is a new line in the text area.
    await page.locator('#f-main-memo').click();
    await page.keyboard.type('first line');
    await page.keyboard.press('Enter');
    await page.keyboard.type('second line');
    await poll(() => page.locator('#f-main-memo').inputValue()).toBe('first line\nsecond line');

    // Rich text: the editor loads on demand; a word made bold with the toolbar.
    const editor = page.locator('#f-main-content');
    await editor.waitFor();
    await editor.click();
    await page.keyboard.type('Plain and ');
    await page.getByRole('button', { name: '加粗' }).click();
    await page.keyboard.type('bold');
    await poll(() => editor.innerHTML()).toContain('<strong>bold</strong>');

    // The amount: capitals under it; left, it shows thousands separators and two decimals.
    await page.locator('#f-main-amount').fill('1234.5');
    await poll(() => page.getByTestId('currency-capitals').textContent()).toBe('大写：壹仟贰佰叁拾肆元伍角整');
    await page.locator('#f-main-title').click();
    await poll(() => page.locator('#f-main-amount').inputValue()).toBe('1,234.50');

    // A grid cell of several lines: its editor opens in a pop-up where Enter is a new line; Escape
    // gives the focus back to the cell, and Enter there moves on to the next cell as usual.
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    await page.getByRole('button', { name: /新增行/ }).click();
    const detail = page.locator('#f-lines-0-detail');
    await detail.click();
    const area = page.locator('.ant-popover:visible textarea');
    await area.waitFor();
    await page.keyboard.type('line a');
    await page.keyboard.press('Enter');
    await page.keyboard.type('line b');
    await poll(() => area.inputValue()).toBe('line a\nline b');
    await page.screenshot({ path: screenshotPath('text-and-amount-2-grid-editor') });
    await page.keyboard.press('Escape');
    await poll(focused).toBe('f-lines-0-detail');
    await poll(() => detail.inputValue()).toBe('line a …');
    await page.keyboard.press('Enter');
    await poll(focused).toBe('f-lines-0-price');
    await page.keyboard.type('12345.6');
    await page.keyboard.press('Shift+Enter');
    await poll(focused).toBe('f-lines-0-detail');
    await poll(() => page.locator('#f-lines-0-price').inputValue()).toBe('12,345.60');
    await page.screenshot({ path: screenshotPath('text-and-amount-2-form'), fullPage: true });

    await page.getByTestId('record-save').click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);

    // The list: the amount as everywhere else, the rich text as its plain text.
    await page.getByRole('button', { name: '返回列表' }).click();
    await poll(() => page.locator('.ant-table-row').count()).toBe(1);
    const row = page.locator('.ant-table-row').first();
    await poll(() => row.textContent()).toContain('1,234.50');
    await poll(() => row.textContent()).toContain('Plain and bold');
    expect(await row.locator('strong').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('text-and-amount-3-list') });

    // Read-only: the rich text is shown as (cleaned) HTML, not as an editor.
    await row.getByRole('button', { name: /查\s*看/ }).click();
    await poll(() => page.locator('#f-main-content.tz-rich-text-view').innerHTML()).toBe('<p>Plain and <strong>bold</strong></p>');
    await poll(() => page.getByTestId('currency-capitals').textContent()).toBe('大写：壹仟贰佰叁拾肆元伍角整');
    await page.screenshot({ path: screenshotPath('text-and-amount-4-read-only'), fullPage: true });
    await page.getByRole('button', { name: '返回列表' }).click();

    // Reopened: the bold word is kept, the lines are kept.
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    await poll(() => page.locator('#f-main-content').innerHTML()).toContain('<strong>bold</strong>');
    await poll(() => page.locator('#f-main-memo').inputValue()).toBe('first line\nsecond line');
    await poll(() => page.locator('#f-main-amount').inputValue()).toBe('1,234.50');
    await poll(() => page.getByTestId('currency-capitals').textContent()).toBe('大写：壹仟贰佰叁拾肆元伍角整');
    await poll(() => page.locator('#f-lines-0-detail').inputValue()).toBe('line a …');
    await poll(() => page.locator('#f-lines-0-price').inputValue()).toBe('12,345.60');
  });
});
