import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, signInAs, type Product } from './product.ts';
import { productPerTry } from './product-per-try.ts';
import { apiCall as apiCallFor, poll, tokenOf } from './shell-helpers.ts';
import { drag, palette, props } from './designer-helpers.ts';

// Issue 12, attachment and image controls: a designer puts both on a page and publishes it; a
// clerk uploads a contract and a photo on the business page, saves, sees the file's name and the
// photo's thumbnail in the list, and downloads the contract under its Chinese name.

let product: Product;
const products = productPerTry((p) => (product = p));

const apiCall = <T>(token: string, method: string, path: string, body?: unknown) => apiCallFor<T>(product, token, method, path, body);

describe('attachments and images', () => {
  it('designs a page with both, uploads a contract and a photo, lists them and downloads the contract', { timeout: 300_000 }, async () => {
    // A retry (vitest.config.ts) gets a fresh product: the first try's pages hold the codes.
    await products.forThisTry();
    const { page } = await product.newPage({ width: 1440, height: 900 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('attachments-failure'), fullPage: true }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    const token = await tokenOf(page);

    // Design: a form with a subject, an attachment and an image control, published.
    const contract = await apiCall<{ id: string }>(token, 'POST', '/app/page-definition', { code: 'contract', name: { 'zh-CN': '合同', 'en-US': 'Contract' } });
    await page.goto(`${product.url}/#/pageDefinition?id=${contract.id}`);
    await page.getByTestId('page-designer').waitFor();
    await drag(page, palette(page, '表单视图'), page.getByTestId('designer-canvas'));
    await poll(() => page.locator('.dz-view').count()).toBe(1);
    await props(page).locator('#prop-code').fill('main');
    const body = page.locator('.dz-view[data-view-code="main"] .dz-view-body').first();
    for (const [type, code, title] of [['文本', 'subject', '标的'], ['附件', 'files', '合同文件'], ['图片', 'photos', '现场照片']] as const) {
      await drag(page, palette(page, type), body);
      await poll(() => props(page).locator('#prop-code').inputValue()).not.toBe('');
      await props(page).locator('#prop-code').fill(code);
      await props(page).locator('[data-property="title"]').getByLabel('语言 zh-CN').or(props(page).locator('#prop-title')).first().fill(title);
      await poll(() => page.locator(`.dz-card[data-control-code="${code}"]`).count()).toBe(1);
    }
    // The image control's own property: at most three photos.
    await poll(() => props(page).locator('#prop-extraProperties-maxFiles').count()).toBe(1);
    await props(page).locator('#prop-extraProperties-maxFiles').fill('3');
    await page.getByRole('button', { name: /发\s*布/ }).click();
    const dialog = page.getByTestId('publish-dialog');
    await poll(() => dialog.getByTestId('publish-changes').textContent()).toMatch(/新建数据表：视图 main/);
    await page.getByTestId('publish-confirm').click();
    await poll(() => dialog.textContent()).toMatch(/已发布第 1 版/);
    const published = await apiCall<{ definition: { viewControls: { dataControls: { code: string; extraProperties?: { maxFiles?: number } }[] }[] } }>(token, 'GET', `/app/page-definition/${contract.id}/versions/1`);
    expect(published.definition.viewControls[0]!.dataControls.find((c) => c.code === 'photos')?.extraProperties?.maxFiles).toBe(3);

    // The business page, opened from its menu.
    const menu = (await apiCall<{ id: string }>(token, 'POST', '/app/business-menu', { title: { 'zh-CN': '合同管理', 'en-US': 'Contracts' }, pageDefinitionId: contract.id, isJump: true })).id;
    await page.goto(`${product.url}/#/dashboard/console`);
    await page.reload();
    await page.getByRole('menuitem', { name: '合同管理' }).first().click();
    await poll(() => page.url()).toContain(`/menu/${menu}/params/${menu}`);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.locator('#f-main-subject').fill('钢材采购');

    // Upload a contract (PDF) and a photo (a real PNG).
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const png = await sharp({ create: { width: 480, height: 320, channels: 3, background: '#2f7d5b' } }).png().toBuffer();
    await page.locator('[data-control-code="files"] input[type=file]').setInputFiles({ name: '采购合同.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.locator('[data-control-code="photos"] input[type=file]').setInputFiles({ name: '现场.png', mimeType: 'image/png', buffer: png });
    await poll(() => page.locator('[data-control-code="files"] .ant-upload-list-item-done').innerText()).toContain('采购合同.pdf');
    await poll(() => page.locator('[data-control-code="photos"] .ant-upload-list-item-done img').count()).toBe(1);
    await poll(() => page.locator('[data-control-code="photos"] .ant-upload-list-item-done img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    // The finished upload has replaced the one in progress (antd animates the swap).
    await poll(() => page.locator('[data-control-code="photos"] .ant-upload-list-item').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('attachments-form') });

    await page.getByTestId('record-save').click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: '返回列表' }).click();

    // The list: the contract's name as a download link, the photo as a thumbnail.
    const row = page.locator('.ant-table-row').first();
    await poll(() => row.innerText()).toContain('采购合同.pdf');
    await poll(() => row.locator('.tsr-file-thumb img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('attachments-list') });
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByText('采购合同.pdf').click()]);
    expect(download.suggestedFilename()).toBe('采购合同.pdf');
    expect((await readFile((await download.path())!)).equals(pdf)).toBe(true);

    // The read-only view: the files without upload or remove; the photo opens a preview.
    await row.getByRole('button', { name: /查\s*看/ }).click();
    await poll(() => page.locator('[data-control-code="files"]').innerText()).toContain('采购合同.pdf');
    expect(await page.locator('[data-control-code="files"] input[type=file]').count()).toBe(0);
    expect(await page.locator('[data-control-code="files"], [data-control-code="photos"]').getByRole('button', { name: '删除文件' }).count()).toBe(0);
    await poll(() => page.locator('[data-control-code="photos"] img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await page.locator('[data-control-code="photos"] img').click();
    await poll(() => page.locator('.ant-modal img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
    await page.getByRole('dialog', { name: '现场.png' }).waitFor();
    await page.waitForTimeout(500); // the dialog's zoom-in animation
    await page.screenshot({ path: screenshotPath('attachments-view') });
  });

  it('a child grid cell takes photos through a popover and shows their thumbnails', { timeout: 180_000 }, async () => {
    const { page } = await product.newPage({ width: 1440, height: 900 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('attachments-grid-failure'), fullPage: true }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    const token = await tokenOf(page);
    const control = (code: string, title: string, controlType: number) => ({ id: randomUUID(), code, title, controlType, isDisplayed: true, isEdit: true });
    const master = { id: randomUUID(), code: 'Visit', title: '巡检', viewType: 1, dataControls: [control('Site', '地点', 1001)], viewButtons: [], viewControls: [] as object[] };
    const lines = { id: randomUUID(), code: 'Checks', title: '检查项', viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId', dataControls: [control('Item', '项目', 1001), control('Shot', '照片', 1014)], viewButtons: [], viewControls: [] };
    master.viewControls = [lines];
    const page0 = await apiCall<{ id: string }>(token, 'POST', '/app/page-definition', { code: 'visit', name: { 'zh-CN': '巡检', 'en-US': 'Visit' }, definition: { viewControls: [master], pageButtons: [], dataLinkages: [] } });
    await apiCall(token, 'POST', `/app/page-definition/${page0.id}/publish`, {});
    const menu = (await apiCall<{ id: string }>(token, 'POST', '/app/business-menu', { title: { 'zh-CN': '巡检记录', 'en-US': 'Visits' }, pageDefinitionId: page0.id, isJump: true })).id;
    await page.reload();
    await page.getByRole('menuitem', { name: '巡检记录' }).first().click();
    await poll(() => page.url()).toContain(`/menu/${menu}/params/${menu}`);
    await page.getByRole('button', { name: /新\s*增/ }).first().click();
    await page.locator('#f-Visit-Site').fill('一号仓库');
    await page.getByRole('button', { name: /新增行/ }).click();
    await page.locator('#f-Checks-0-Item').fill('消防栓');

    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c0392b' } }).png().toBuffer();
    const cell = page.locator('[data-view-code="Checks"] .ant-table-row').first();
    await cell.getByRole('button', { name: '照片' }).click();
    const popover = page.locator('.ant-popover:visible');
    await popover.locator('input[type=file]').setInputFiles({ name: '消防栓.png', mimeType: 'image/png', buffer: png });
    await poll(() => popover.locator('.ant-upload-list-item-done img').count()).toBe(1);
    await page.locator('#f-Visit-Site').click();
    await popover.waitFor({ state: 'hidden' });
    await poll(() => cell.locator('.tsr-file-thumb img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('attachments-grid') });

    await page.getByTestId('record-save').click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
    const saved = await apiCall<{ items: { Id: string }[] }>(token, 'POST', '/app/business-data/query-view-data', { pageId: page0.id, viewId: master.id });
    const record = await apiCall<{ viewDataList: { viewId: string; dataList: Record<string, unknown>[] }[] }>(token, 'POST', '/app/business-data/query-page-data', { pageId: page0.id, id: saved.items[0]!.Id });
    const shots = JSON.parse(String(record.viewDataList.find((v) => v.viewId === lines.id)!.dataList[0]!.Shot)) as { name: string; type: string }[];
    expect(shots).toEqual([expect.objectContaining({ name: '消防栓.png', type: 'image/png' })]);
  });
});
