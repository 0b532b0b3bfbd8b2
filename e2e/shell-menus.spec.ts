import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { apiCall, attemptSuffix, chooseLanguage, currentPath, poll, signInToConsole, tabPaths, tokenOf } from './shell-helpers.ts';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

describe('menus, search and the front-end log (issue 4)', () => {
  it('shows business menus in the sider, jumps to the first /params/ path and titles tabs from the stored menu list', async ({ task }) => {
    // A retry meets the first try's page and menus: its own code and titles.
    const tag = attemptSuffix(task);
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-menus-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    const token = await tokenOf(page);
    if (tag) {
      // The first try's menus would be listed twice: a retry starts from none.
      const left = await apiCall<{ items: Array<{ id: string }> }>(product, token, 'GET', '/app/business-menu/all?MaxResultCount=1000');
      for (const menu of left.items) await apiCall(product, token, 'DELETE', `/app/business-menu/${menu.id}`);
    }
    // A published page for two of the menus; 出库单 opens none.
    const receipts = await apiCall<{ id: string }>(product, token, 'POST', '/app/page-definition', {
      code: `goodsReceipt${tag}`,
      name: { 'zh-CN': '入库单', 'en-US': 'Goods receipts' },
      definition: { viewControls: [{ id: crypto.randomUUID(), code: 'main', title: '入库单', viewType: 1, dataControls: [{ id: crypto.randomUUID(), code: 'no', title: '单号', controlType: 1001, isDisplayed: true, isEdit: true }], viewButtons: [], viewControls: [] }], pageButtons: [], dataLinkages: [] },
    });
    await apiCall(product, token, 'POST', `/app/page-definition/${receipts.id}/publish`, {});
    const group = await apiCall<{ id: string }>(product, token, 'POST', '/app/business-menu', {
      title: { 'zh-CN': '仓储管理', 'en-US': 'Warehousing' },
      url: 'InboxOutlined',
      isJump: true,
    });
    const inbound = await apiCall<{ id: string }>(product, token, 'POST', '/app/business-menu', {
      title: { 'zh-CN': '入库单', 'en-US': 'Goods receipts' },
      parentId: group.id,
      order: 1,
      pageDefinitionId: receipts.id,
    });
    await apiCall(product, token, 'POST', '/app/business-menu', { title: { 'zh-CN': '出库单', 'en-US': 'Goods issues' }, parentId: group.id, order: 2 });
    const jumpItem = await apiCall<{ id: string }>(product, token, 'POST', '/app/business-menu', {
      title: { 'zh-CN': '库存查询', 'en-US': 'Stock enquiry' },
      associateKey: 'stock',
      pageDefinitionId: receipts.id,
    });
    await page.reload();

    // The console lists the user's business menus as shortcuts.
    const shortcuts = page.getByTestId('business-shortcuts');
    await shortcuts.waitFor();
    for (const title of ['入库单', '库存查询']) expect(await shortcuts.textContent()).toContain(title);
    // A menu that opens no page is counted but not offered as a shortcut (issue 28, defect 9).
    expect(await shortcuts.textContent()).not.toContain('出库单');
    await poll(() => page.getByTestId('business-menu-count').textContent()).toContain('3');
    await page.screenshot({ path: screenshotPath('shell-console-business') });

    // spec §2: /menu/{id} goes to its first /params/ path; the tab is titled from the stored list.
    await page.goto(`${product.url}/#/menu/${group.id}`);
    const first = `/menu/${group.id}/params/${inbound.id}`;
    await poll(() => currentPath(page)).toBe(first);
    const tab = page.locator(`[data-testid="page-tab"][data-path="${first}"]`);
    await poll(() => tab.textContent()).toContain('入库单');
    await poll(() => page.title()).toBe('入库单 - Tessera');

    // A jump item (associateKey) lives at /menu/{id}/params/{id}.
    const sider = page.getByTestId('sider-menu');
    await sider.getByText('库存查询').click();
    await poll(() => currentPath(page)).toBe(`/menu/${jumpItem.id}/params/${jumpItem.id}`);

    // Collapsed (as on a tablet), a menu without an icon shows its first character, and its
    // name on hover (issue 28, defect 1).
    await page.getByTestId('sider-toggle').click();
    const stockItem = sider.locator('.ant-menu-item', { has: page.getByTestId('menu-initial') }).filter({ hasText: '库' }).first();
    await poll(() => stockItem.getByTestId('menu-initial').textContent()).toBe('库');
    const box = (await stockItem.boundingBox())!;
    expect(box.width).toBeGreaterThan(20);
    // The character sits inside its badge (a 40 px line height once pushed it below).
    // Both measured in one frame: the sider may still be sliding.
    const { badge, glyph } = await stockItem.getByTestId('menu-initial').evaluate((el) => {
      const b = el.getBoundingClientRect();
      const g = el.querySelector('span')!.getBoundingClientRect();
      return { badge: { y: b.y, height: b.height }, glyph: { y: g.y, height: g.height } };
    });
    expect(glyph.y).toBeGreaterThanOrEqual(badge.y - 1);
    expect(glyph.y + glyph.height).toBeLessThanOrEqual(badge.y + badge.height + 1);
    await stockItem.hover();
    await poll(() => page.locator('.ant-tooltip:visible').last().textContent()).toBe('库存查询');
    await page.screenshot({ path: screenshotPath('shell-collapsed-initials') });
    await page.getByTestId('sider-toggle').click();

    // After a reload the titles still come from the stored menu id/title list.
    await page.reload();
    await poll(() => tab.textContent()).toContain('入库单');
    expect(await tabPaths(page)).toEqual(['/dashboard/console', first, `/menu/${jumpItem.id}/params/${jumpItem.id}`]);

    // Recently visited pages appear on the console.
    await page.goto(`${product.url}/#/dashboard/console`);
    const recent = page.getByTestId('recent-visits');
    await recent.waitFor();
    expect(await recent.textContent()).toContain('库存查询');
    expect(await recent.textContent()).toContain('入库单');

    // Menu administration names a menu's parent in the interface language (issue 12, defect 10:
    // it showed the en-US title, the first key of the stored text).
    await page.goto(`${product.url}/#/builtIn/menu`);
    const tree = page.getByTestId('business-menu-tree');
    await tree.locator('.ant-tree-treenode', { hasText: '入库单' }).last().locator('.ant-tree-node-content-wrapper').click();
    await poll(() => page.getByTestId('menu-parent').textContent()).toBe('仓储管理');
    await chooseLanguage(page, 'English', 'en-US');
    await poll(() => page.getByTestId('menu-parent').textContent()).toBe('Warehousing');
    await chooseLanguage(page, '简体中文', 'zh-CN');
    await poll(() => page.getByTestId('menu-parent').textContent()).toBe('仓储管理');
    await context.close();
  });

  it('finds a menu by name in the header search and opens it with Enter', async () => {
    const { page, context } = await product.newPage();
    await signInToConsole(page, product);
    await page.getByTestId('menu-search').click();
    const input = page.getByPlaceholder('输入菜单名称或路径');
    await input.fill('角色');
    await page.locator('[role="option"]', { hasText: '角色管理' }).waitFor();
    await input.press('Enter');
    await poll(() => currentPath(page)).toBe('/builtIn/role');
    await context.close();
  });

  it('shows the spec text for each failed request status (404 with its address, 408, 501–505) and logs each one', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-status-texts-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    await page.goto(`${product.url}/#/builtIn/user`);
    await page.getByRole('button', { name: '刷新' }).waitFor();
    // The users list request answers with each status in turn (the browser side of spec §8 is under test).
    const texts: [number, string][] = [
      [404, '请求地址出错: /api/identity/users'],
      [408, '请求超时'],
      [501, '服务未实现'],
      [502, '网关错误'],
      [503, '服务不可用'],
      [504, '网关超时'],
      [505, 'HTTP版本不受支持'],
    ];
    for (const [status, text] of texts) {
      await page.route('**/api/identity/users?*', (route) => route.fulfill({ status, contentType: 'application/json', body: '{}' }));
      await page.getByRole('button', { name: '刷新' }).click();
      await poll(() => page.locator('.ant-message-notice').filter({ hasText: text }).count()).toBeGreaterThan(0);
      await page.unroute('**/api/identity/users?*');
    }
    await page.getByTestId('log-indicator').hover();
    await poll(() => page.locator('.ant-tooltip:visible').last().textContent()).toBe(`共 ${texts.length} 条日志，其中 ${texts.length} 条异常`);
    await page.goto(`${product.url}/#/log`);
    await poll(() => page.locator('.ant-table-row').filter({ hasText: '数据请求异常' }).count()).toBe(texts.length);
    await context.close();
  });

  it('logs uncaught errors and lists, filters and clears entries on the front-end log page', async () => {
    const { page, context } = await product.newPage();
    await signInToConsole(page, product);
    // spec §8: the global error handler logs an entry of type error.
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('e2e uncaught failure');
      });
    });
    await page.getByTestId('log-indicator').hover();
    await poll(() => page.locator('.ant-tooltip:visible').last().textContent()).toBe('共 1 条日志，其中 1 条异常');
    await page.getByTestId('log-indicator').click();
    await poll(() => currentPath(page)).toBe('/log');
    const rows = page.locator('.ant-table-row');
    await poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('e2e uncaught failure');
    expect(await rows.first().textContent()).toContain('异常');

    await page.getByPlaceholder('筛选日志内容').fill('no such text');
    await poll(() => rows.count()).toBe(0);
    await page.getByPlaceholder('筛选日志内容').fill('uncaught');
    await poll(() => rows.count()).toBe(1);

    await page.getByRole('button', { name: '清空日志' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
    await poll(() => rows.count()).toBe(0);
    await page.getByTestId('log-indicator').hover();
    await poll(() => page.locator('.ant-tooltip:visible').last().textContent()).toBe('没有日志或异常');
    await context.close();
  });
});

describe('forms submitted empty (issue 28, defect 2)', () => {
  it('show their messages at the fields and leave the front-end log without exceptions', async () => {
    const { page } = await product.newPage({ width: 1440, height: 900 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-empty-forms-failure') }).then(() => undefined));
    const rejections: string[] = [];
    page.on('pageerror', (e) => rejections.push(e.message));
    await signInToConsole(page, product);
    const submit = /^(确\s*定|保\s*存|创\s*建|提\s*交|导\s*入)$/;
    const forms: [route: string, opener: RegExp][] = [
      ['/builtIn/role', /新建角色/],
      ['/builtIn/user', /新建用户/],
      ['/builtIn/organization', /新建顶级机构/],
      ['/dataSet/dictionary', /新建字典/],
      ['/dataSet/documentNumber', /新建规则/],
      ['/design/form', /新建页面/],
      ['/design/authority', /新建权限/],
      ['/system/documentation', /新建文档/],
    ];
    for (const [route, opener] of forms) {
      await page.goto(`${product.url}/#${route}`);
      // This form's dialog is found as the last visible one: the previous page's must be gone.
      await poll(() => page.locator('.ant-modal-wrap:visible, .ant-drawer-content-wrapper:visible').count()).toBe(0);
      await page.getByRole('button', { name: opener }).first().click();
      // A modal or drawer; the help document form opens in the page itself.
      const dialog = route === '/system/documentation' ? page.locator('.ant-card', { hasText: '正文' }).last() : page.locator('.ant-modal-wrap:visible, .ant-drawer-content-wrapper:visible').last();
      await dialog.getByRole('button', { name: submit }).last().click();
      await poll(() => dialog.locator('.ant-form-item-explain-error').count()).toBeGreaterThan(0);
      await page.keyboard.press('Escape');
      // A drawer's save button sits under the header's user menu: move away so it does not open.
      await page.mouse.move(700, 600);
    }
    // The password change from the user menu.
    await page.getByTestId('user-menu').hover();
    await page.locator('.ant-dropdown:visible').last().getByText('修改密码').click();
    const password = page.locator('.ant-modal-wrap:visible').last();
    await password.getByRole('button', { name: submit }).last().click();
    await poll(() => password.locator('.ant-form-item-explain-error').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    // Nothing was thrown: the log's badge counts no exception.
    await page.waitForTimeout(300);
    expect(rejections).toEqual([]);
    expect(await page.getByTestId('log-indicator').locator('.ant-badge-count').count()).toBe(0);
  });
});

describe('parent paths (issue 28, defect 7)', () => {
  it('redirect without ever titling the page "not found"; /index is the console', async () => {
    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-parent-paths-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    // Every title the document takes, recorded in the page as it changes.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { titles: string[] }).titles = seen;
      new MutationObserver(() => seen.push(document.title)).observe(document.querySelector('title')!, { childList: true, characterData: true, subtree: true });
    });
    for (const [from, to] of [['/builtIn', '/builtIn/user'], ['/design', '/design/form'], ['/system', '/system/localization'], ['/dataSet', '/dataSet/source'], ['/index', '/dashboard/console']]) {
      await page.evaluate((hash) => (window.location.hash = hash), `#${from}`);
      await poll(() => currentPath(page)).toBe(to);
    }
    const titles = await page.evaluate(() => (window as unknown as { titles: string[] }).titles);
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.filter((t) => t.includes('页面不存在'))).toEqual([]);
  });
});
