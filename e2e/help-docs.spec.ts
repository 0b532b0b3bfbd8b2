import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, signInAs, startProduct, type Product } from './product.ts';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

/** The machine is shared: give the UI time to answer before a check fails. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

const READER_PASSWORD = 'Reader#2026-e2e';
/** A 1×1 PNG. */
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Markdown with the classic payloads beside ordinary content. */
const PAYLOAD = [
  '# 采购流程',
  '',
  '提交 **采购申请** 后由部门负责人审批。',
  '',
  '<script>window.__xss = "script"</script>',
  '<img src="x" onerror="window.__xss = \'onerror\'">',
  '<a href="javascript:window.__xss=\'href\'" id="bad-html-link">HTML 链接</a>',
  '[Markdown 链接](javascript:window.__xss=\'md\')',
  '<svg onload="window.__xss=\'svg\'"><circle r="5"/></svg>',
  '<iframe src="javascript:window.__xss=\'iframe\'"></iframe>',
  '<div style="background:url(javascript:alert(1))" onclick="window.__xss=\'click\'">点我</div>',
  '',
  '| 步骤 | 负责人 |',
  '|---|---|',
  '| 审批 | 部门负责人 |',
].join('\n');

/** Nothing on the page ran a payload, and the document holds no active content. */
async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
  const doc = page.getByTestId('help-document').locator('.help-html');
  expect(await doc.locator('script, iframe, object, embed, style').count()).toBe(0);
  const attributes = await doc.evaluate((root) =>
    Array.from(root.querySelectorAll('*')).flatMap((el) => Array.from(el.attributes).map((a) => `${a.name}=${a.value}`)),
  );
  expect(attributes.filter((a) => /^on/i.test(a) || /javascript:/i.test(a) || /^style=/i.test(a))).toEqual([]);
}

async function tokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
  if (!cookie) throw new Error('not signed in');
  return cookie.value;
}

describe('help documents', () => {
  it('an administrator writes a document with XSS payloads; it renders safely, is searchable, and every signed-in user reads it', async () => {
    const { page: admin } = await product.newPage();
    onTestFailed(() => admin.screenshot({ path: screenshotPath('help-docs-failure') }).then(() => undefined));
    await signInAs(admin, product.url);
    await admin.waitForURL(/#\/dashboard\/console/);
    await admin.goto(`${product.url}/#/system/documentation`);
    // The seeded guides.
    await poll(() => admin.getByTestId('help-node-localization').count()).toBe(1);
    await poll(() => admin.getByTestId('help-node-help-documents').count()).toBe(1);

    // A new document with the payloads; the preview is rendered (and sanitised) by the server.
    await admin.getByRole('button', { name: '新建文档' }).click();
    const form = admin.getByTestId('help-form');
    await form.getByLabel('键').fill('purchasing');
    await form.getByLabel('标题 (zh-CN)').fill('采购指南');
    await form.getByLabel('标题 (en-US)').fill('Purchasing guide');
    await admin.getByTestId('help-markdown').fill(PAYLOAD);
    // An image: uploaded, linked in the Markdown, shown in the preview.
    await form.locator('input[type=file]').first().setInputFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1PX, 'base64') });
    await poll(() => admin.getByTestId('help-markdown').inputValue()).toMatch(/!\[diagram\]\(\/api\/app\/help-documents\/images\/[0-9a-f-]+\.png\)/);
    const preview = admin.getByTestId('help-preview');
    await poll(() => preview.locator('img[alt=diagram]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await poll(() => preview.locator('h1').textContent()).toBe('采购流程');
    await poll(() => preview.locator('table td').count()).toBe(2);
    expect(await preview.locator('script, iframe').count()).toBe(0);
    await admin.screenshot({ path: screenshotPath('help-docs-editor') });
    await admin.getByTestId('help-save').click();
    await poll(() => admin.getByText('保存成功').count()).toBeGreaterThan(0);

    // Read view: the content is there, nothing ran, nothing active survived.
    const doc = admin.getByTestId('help-document');
    await poll(() => doc.locator('h1').textContent()).toBe('采购流程');
    await poll(() => admin.getByTestId('help-pane-title').textContent()).toBe('采购指南');
    expect(await doc.locator('strong').textContent()).toBe('采购申请');
    await poll(() => doc.locator('img[alt=diagram]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await expectInert(admin);
    // Clicking what used to be javascript: links does nothing either.
    await doc.getByText('Markdown 链接').click();
    await doc.getByText('HTML 链接').click();
    await doc.getByText('点我').click();
    await expectInert(admin);
    await admin.screenshot({ path: screenshotPath('help-docs-read') });

    // A sub-document under it, then search finds it by a word of its body and keeps the parent.
    await admin.getByRole('button', { name: '新建子文档' }).click();
    await form.getByLabel('键').fill('purchasing.approval');
    await form.getByLabel('标题 (zh-CN)').fill('审批规则');
    await admin.getByTestId('help-markdown').fill('超过 **五万元** 的采购需要总经理审批。');
    await admin.getByTestId('help-save').click();
    await poll(() => admin.getByTestId('help-pane-title').textContent()).toBe('审批规则');
    await admin.getByPlaceholder('搜索标题或正文').fill('五万元');
    await poll(() => admin.getByTestId('help-node-localization').count()).toBe(0);
    await poll(() => admin.getByTestId('help-node-purchasing.approval').count()).toBe(1);
    expect(await admin.getByTestId('help-node-purchasing').count()).toBe(1);
    expect(await admin.getByTestId('help-node-purchasing.approval').locator('mark').first().textContent()).toBe('五万元');
    await admin.screenshot({ path: screenshotPath('help-docs-search') });

    // A user without any grant: reads the tree and the document, cannot edit.
    const adminToken = await tokenOf(admin);
    const created = await fetch(`${product.url}/api/identity/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'reader', name: 'Reader', email: 'reader@example.com', password: READER_PASSWORD, isActive: true, roleNames: [] }),
    });
    expect(created.status).toBe(200);

    const { page: reader } = await product.newPage();
    onTestFailed(() => reader.screenshot({ path: screenshotPath('help-docs-reader-failure') }).then(() => undefined));
    await signInAs(reader, product.url, 'reader', READER_PASSWORD);
    await reader.waitForURL(/#\/dashboard\/console/);
    // The page a help link opens: by key.
    await reader.goto(`${product.url}/#/system/documentation?key=purchasing`);
    await poll(() => reader.getByTestId('help-document').locator('h1').textContent()).toBe('采购流程');
    await expectInert(reader);
    await poll(() => reader.getByTestId('help-document').locator('img[alt=diagram]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(await reader.getByRole('button', { name: '编辑' }).count()).toBe(0);
    expect(await reader.getByRole('button', { name: '新建文档' }).count()).toBe(0);
    // The page's own help link opens its guide in a drawer.
    await reader.getByRole('button', { name: '帮助' }).click();
    const drawer = reader.getByRole('dialog');
    await poll(() => drawer.locator('.help-html h1').first().textContent()).toBe('帮助文档');
    expect(await drawer.getByRole('link', { name: '在帮助文档中打开' }).count()).toBe(1);
    await reader.screenshot({ path: screenshotPath('help-docs-reader') });

    // The server refuses the reader's writes.
    const write = await fetch(`${product.url}/api/app/help-documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tokenOf(reader)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'sneaky', title: 'x', markdown: 'x' }),
    });
    expect(write.status).toBe(403);
  });

  it('a document has one body per language: each reader sees theirs (issue 28, defect 6)', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('help-docs-languages-failure') }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    const body = page.getByTestId('help-document').locator('.help-html');
    // The built-in guide: the Chinese reader no longer meets an English half.
    await page.goto(`${product.url}/#/system/documentation?key=localization`);
    await poll(() => body.locator('h1').first().textContent()).toBe('语言管理');
    expect(await body.textContent()).not.toContain('Languages');

    // A writer gives a document an English body in its own tab.
    const key = `bilingual-${Date.now()}`;
    await page.getByRole('button', { name: '新建文档' }).click();
    const form = page.getByTestId('help-form');
    await form.getByLabel('键').fill(key);
    await form.getByLabel('标题 (zh-CN)').fill('报销流程');
    await form.getByLabel('标题 (en-US)').fill('Expense claims');
    await page.getByTestId('help-markdown').fill('# 报销\n\n先填写报销单。');
    await page.getByTestId('help-body-tabs').getByRole('tab', { name: 'English' }).click();
    await page.getByTestId('help-en-US-markdown').fill('# Claims\n\nFill in a claim first.');
    await page.getByTestId('help-save').click();
    await poll(() => body.locator('h1').first().textContent()).toBe('报销');

    // In English, both read in English.
    await page.getByTestId('language-selector').click();
    await page.locator('.ant-dropdown:visible').last().getByText('English').click();
    await poll(() => body.locator('h1').first().textContent()).toBe('Claims');
    expect(await body.textContent()).not.toContain('报销');
    await page.goto(`${product.url}/#/system/documentation?key=localization`);
    await poll(() => body.locator('h1').first().textContent()).toBe('Languages');
    expect(await body.textContent()).not.toContain('语言管理');
    await page.screenshot({ path: screenshotPath('help-docs-english') });
    await context.close();
  });

  it("every page's header help opens the document whose key is the route name", async () => {
    const { page } = await product.newPage();
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    const token = await tokenOf(page);
    const res = await fetch(`${product.url}/api/app/help-documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'builtin-user', title: { 'zh-CN': '用户管理指南', 'en-US': 'Users guide' }, markdown: '在这里**新建用户**。' }),
    });
    expect(res.status).toBe(200);
    await page.goto(`${product.url}/#/builtIn/user`);
    await page.getByTestId('page-help').getByRole('button').click();
    const drawer = page.getByRole('dialog');
    await poll(() => drawer.getByText('用户管理指南', { exact: true }).count()).toBe(1);
    await poll(() => drawer.getByText('新建用户').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('help-header-link') });
  });
});
