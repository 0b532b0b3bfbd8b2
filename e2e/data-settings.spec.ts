import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { productPerTry } from './product-per-try.ts';
import { screenshotPath, signInAs, type Product } from './product.ts';
import { apiToken } from './shell-helpers.ts';

// Each journey creates fixed codes (Priority, Orders, a rule): each try of each gets a product of its own.
let product: Product;
let token: string;
const perTry = productPerTry((p) => (product = p));
/** A fresh product for this try, and the administrator's token on it. */
async function freshProduct() {
  await perTry.forThisTry();
  token = await apiToken(product);
}

/** The machine is shared: give the UI time to answer before a check fails. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });
const api = async (path: string) => {
  const res = await fetch(`${product.url}/api${path}`, { headers: { authorization: `Bearer ${token}`, 'accept-language': 'zh-CN' } });
  expect(res.status, path).toBe(200);
  return res.json();
};

const apiCall = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
  const res = await fetch(`${product.url}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return res.json();
};

/** The codes of the item rows, top to bottom. */
const itemCodes = (drawer: Locator) => drawer.locator('[data-item-key] input[data-field="code"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));

/** Drags a row by its handle onto another row (dnd-kit needs real pointer moves). */
async function dragRow(page: Page, from: Locator, to: Locator) {
  const a = (await from.getByTestId('item-drag-handle').boundingBox())!;
  const b = (await to.getByTestId('item-drag-handle').boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 - 10, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2 - 4, { steps: 15 });
  await page.mouse.up();
}

describe('data settings', () => {
  it('creates a dictionary with items, reorders them by dragging, and pickers read them in that order', async () => {
    await freshProduct();
    const { page } = await product.newPage({ width: 1440, height: 900 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-settings-dictionary-failure') }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    await page.goto(`${product.url}/#/dataSet/dictionary`);
    await poll(() => page.locator('.ant-card-head-title').first().textContent()).toContain('业务字典');

    await page.getByRole('button', { name: '新建字典' }).click();
    const drawer = page.locator('.ant-drawer-open').last();
    await drawer.getByLabel('编码', { exact: true }).first().fill('Priority');
    await drawer.getByLabel('语言 zh-CN').fill('优先级');
    await drawer.getByLabel('语言 en-US').fill('Priority');
    const items = [
      ['H', '高', 'High'],
      ['M', '中', 'Medium'],
      ['L', '低', 'Low'],
    ];
    for (const [code, zh, en] of items) {
      await drawer.getByRole('button', { name: '添加项目' }).click();
      const row = drawer.locator('[data-item-key]').last();
      await row.locator('input[data-field="code"]').fill(code!);
      await row.locator('input[data-field="label-zh"]').fill(zh!);
      await row.locator('input[data-field="label-en"]').fill(en!);
    }
    // A colour tag on "High", and "Medium" switched off.
    await drawer.locator('[data-item-key]').first().getByLabel('颜色/标签').click();
    await page.locator('.ant-select-dropdown:visible').last().locator('.ant-select-item-option', { hasText: 'red' }).click();
    await drawer.locator('[data-item-key]').nth(1).getByRole('switch').click();
    await poll(() => itemCodes(drawer)).toEqual(['H', 'M', 'L']);

    // Drag "L" to the top.
    await dragRow(page, drawer.locator('[data-item-key]').nth(2), drawer.locator('[data-item-key]').first());
    await poll(() => itemCodes(drawer)).toEqual(['L', 'H', 'M']);
    await page.screenshot({ path: screenshotPath('data-settings-dictionary-editor') });

    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
    const row = page.getByTestId('dictionaries').locator('tbody tr', { hasText: 'Priority' });
    await poll(() => row.count()).toBe(1);
    await poll(() => row.textContent()).toContain('2 / 3');
    await page.screenshot({ path: screenshotPath('data-settings-dictionaries') });

    // Stored in the dragged order; the disabled item is left out of the picker options.
    const options = await api('/app/business-dictionary/options?dictionaryCode=Priority');
    expect(options.items.map((o: { value: string; label: string; color: string | null }) => [o.value, o.label, o.color])).toEqual([
      ['L', '低', null],
      ['H', '高', 'red'],
    ]);

    // Reopening shows the saved order; search narrows the list.
    await page.getByTestId('dictionary-Priority').click();
    const reopened = page.locator('.ant-drawer-open').last();
    await poll(() => itemCodes(reopened)).toEqual(['L', 'H', 'M']);
    // Saved item codes are what records store: they can no longer be edited.
    await poll(() => reopened.locator('[data-item-key]').first().locator('input[data-field="code"]').getAttribute('readonly')).not.toBeNull();
    // Excel: the exported file imports again as it is (every row matched by code, nothing added).
    const [download] = await Promise.all([page.waitForEvent('download'), reopened.getByRole('button', { name: '导出 Excel' }).click()]);
    const file = await download.path();
    await reopened.getByRole('button', { name: '导入 Excel' }).click();
    const importDialog = page.getByRole('dialog', { name: '从 Excel 导入项目' });
    await importDialog.locator('input[type=file]').setInputFiles({ name: 'Priority.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await readFile(file) });
    await poll(() => page.getByText('新增 0 项，更新 3 项').count()).toBeGreaterThan(0);
    await poll(() => itemCodes(reopened)).toEqual(['L', 'H', 'M']);
    await reopened.getByRole('button', { name: /取\s*消/ }).click();
    await reopened.waitFor({ state: 'hidden' });

    // A tree dictionary: a child added under the first item goes right below it.
    await page.getByRole('button', { name: '新建字典' }).click();
    const tree = page.locator('.ant-drawer-open').last();
    await tree.getByLabel('编码', { exact: true }).first().fill('Region');
    await tree.getByLabel('语言 zh-CN').fill('地区');
    await tree.getByRole('switch').first().click();
    for (const [code, zh] of [['zj', '浙江'], ['js', '江苏']]) {
      await tree.getByRole('button', { name: '添加项目' }).click();
      const item = tree.locator('[data-item-key]').last();
      await item.locator('input[data-field="code"]').fill(code!);
      await item.locator('input[data-field="label-zh"]').fill(zh!);
    }
    await tree.getByLabel('添加下级 zj').click();
    const child = tree.locator('[data-item-key]').nth(1);
    await child.locator('input[data-field="code"]').fill('hz');
    await child.locator('input[data-field="label-zh"]').fill('杭州');
    await poll(() => itemCodes(tree)).toEqual(['zj', 'hz', 'js']);
    await page.screenshot({ path: screenshotPath('data-settings-dictionary-tree') });
    await tree.getByRole('button', { name: /保\s*存/ }).click();
    await tree.waitFor({ state: 'hidden' });
    const regions = await api('/app/business-dictionary/options?dictionaryCode=Region');
    expect(regions.items.map((o: { value: string; parentValue: string | null }) => [o.value, o.parentValue])).toEqual([
      ['zj', null],
      ['hz', 'zj'],
      ['js', null],
    ]);
    await page.getByLabel('搜索编码、名称或描述').fill('nothing-like-this');
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    await poll(() => row.count()).toBe(0);
    await page.getByLabel('搜索编码、名称或描述').fill('优先');
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    await poll(() => row.count()).toBe(1);

    // Once a published page takes its options from the dictionary, deleting it is refused, naming the page.
    const master = { id: crypto.randomUUID(), code: 'Master', title: 'Master', viewType: 1, dataControls: [{ id: crypto.randomUUID(), code: 'priority', title: '优先级', controlType: 1001, options: { dictionaryCode: 'Priority' } }], viewButtons: [], viewControls: [] };
    const created = await apiCall('POST', '/app/page-definition', { code: 'Orders', name: { 'zh-CN': '采购订单' }, definition: { viewControls: [master], pageButtons: [], dataLinkages: [] } });
    await apiCall('POST', `/app/page-definition/${created.id}/publish`, {});
    await page.getByLabel('删除 Priority').click();
    await page.locator('.ant-modal-confirm:visible').getByRole('button', { name: /确\s*定/ }).click();
    const refusal = page.getByTestId('dictionary-in-use');
    await poll(() => refusal.textContent()).toContain('采购订单');
    // The dialog zooms in: wait for its full size before the screenshot.
    await poll(async () => (await refusal.boundingBox())?.width ?? 0).toBeGreaterThan(250);
    await page.screenshot({ path: screenshotPath('data-settings-dictionary-in-use') });
    await page.getByRole('button', { name: '知道了' }).click();
    await refusal.waitFor({ state: 'hidden' });
    // The delete confirmation closed when it was answered: no dialog is left open.
    await poll(() => page.locator('.ant-modal-confirm:visible').count()).toBe(0);
    await poll(() => row.count()).toBe(1);

    // The read-only system dictionaries.
    await page.getByRole('tab', { name: '系统字典' }).click();
    await poll(() => page.getByTestId('sys-dictionaries').locator('tbody tr', { hasText: 'TimeUnit' }).count()).toBe(1);
  });

  it('creates a document-number rule, previews the next three numbers, and fetched numbers follow the preview', async () => {
    await freshProduct();
    const { page } = await product.newPage({ width: 1440, height: 900 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-settings-docno-failure') }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    await page.goto(`${product.url}/#/dataSet/documentNumber`);
    await poll(() => page.locator('.ant-card-head-title').first().textContent()).toContain('编号设置');

    await page.getByRole('button', { name: '新建规则' }).click();
    const drawer = page.locator('.ant-drawer-open').last();
    const preview = drawer.getByTestId('preview-number');
    // The default rule previews at once: NO + date + '-' + a 4-digit serial.
    await poll(() => preview.allTextContents()).toEqual([expect.stringMatching(/^NO\d{8}-0001$/), expect.stringMatching(/-0002$/), expect.stringMatching(/-0003$/)]);

    await drawer.getByLabel('编码', { exact: true }).fill('PO');
    await drawer.getByLabel('名称', { exact: true }).fill('采购订单');
    await drawer.getByTestId('segment-0').getByLabel('文本').fill('PO');
    await drawer.getByTestId('segment-3').getByLabel('位数').fill('5');
    await poll(() => preview.allTextContents()).toEqual([
      expect.stringMatching(/^PO\d{8}-00001$/),
      expect.stringMatching(/^PO\d{8}-00002$/),
      expect.stringMatching(/^PO\d{8}-00003$/),
    ]);
    // A field segment shows as a placeholder; removing the date makes a daily reset invalid.
    await drawer.getByTestId('add-segment-field').click();
    await drawer.getByTestId('segment-4').getByLabel('控件编码').fill('dept');
    await poll(() => preview.first().textContent()).toMatch(/^PO\d{8}-00001\{dept\}$/);
    await drawer.getByTestId('segment-4').getByLabel('删除此段').click();
    await drawer.getByTestId('segment-1').getByLabel('删除此段').click();
    await poll(() => drawer.getByTestId('preview-error').textContent()).toContain('daily');
    await drawer.getByTestId('add-segment-date').click();
    await drawer.getByTestId('segment-3').getByLabel('上移').click();
    await drawer.getByTestId('segment-2').getByLabel('上移').click();
    // The preview follows the moves (it is debounced): wait for the final format.
    await poll(async () => (await preview.allTextContents()).join(' ')).toMatch(/^PO\d{8}-00001 PO\d{8}-00002 PO\d{8}-00003$/);
    const expected = await preview.allTextContents();
    await page.screenshot({ path: screenshotPath('data-settings-docno-editor') });

    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
    await poll(() => page.getByTestId('next-PO').textContent()).toBe(expected[0]);

    // Fetch numbers as a page does when a record is created: they are the previewed ones.
    const fetched = [];
    for (let i = 0; i < 3; i++) fetched.push((await api('/app/document-number/PO/doc-no')).docNo);
    expect(fetched).toEqual(expected);
    await page.reload();
    await poll(() => page.getByTestId('next-PO').textContent()).toBe(expected[0]!.replace(/00001$/, '00004'));
    await page.screenshot({ path: screenshotPath('data-settings-docno-list') });

    // The fetched numbers are recorded (reserved until a save uses them).
    await page.getByLabel('取号记录 PO').click();
    const reservations = page.getByTestId('reservations');
    await poll(() => reservations.locator('tbody tr', { hasText: '已预留' }).count()).toBe(3);
    await page.screenshot({ path: screenshotPath('data-settings-docno-reservations') });
    await page.locator('.ant-drawer-open').last().locator('.ant-drawer-close').click();

    // The editor's preview now continues from the counter, and the sequence is fixed.
    await page.getByTestId('rule-PO').click();
    const again = page.locator('.ant-drawer-open').last();
    await poll(() => again.getByTestId('preview-number').allTextContents()).toEqual(['00004', '00005', '00006'].map((n) => expected[0]!.replace(/00001$/, n)));
    await poll(() => again.getByText('此规则已发放过编号').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('data-settings-docno-issued') });
  });
});
