import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ADMIN_PASSWORD, screenshotPath, startProduct, type Product } from './product.ts';
import { apiCall, apiToken, createPlainUser, currentPath, openPage, poll, signInToConsole, tokenOf, waitForHash } from './shell-helpers.ts';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

describe('routes and navigation (issue 4)', () => {
  it('sends a signed-out visitor to login with the full path and brings them back after signing in', async () => {
    const { page, context } = await product.newPage();
    await page.goto(`${product.url}/#/builtIn/role?keep=1`);
    await waitForHash(page, /#\/login\?redirect=/);
    const redirect = new URLSearchParams(new URL(page.url()).hash.split('?')[1]).get('redirect');
    expect(redirect).toBe('/builtIn/role?keep=1');
    await poll(() => page.title()).toBe('登录 - Tessera');
    await page.getByPlaceholder('请输入账号或邮箱').waitFor();
    await page.screenshot({ path: screenshotPath('shell-login') });

    await page.getByPlaceholder('请输入账号或邮箱').fill('admin');
    await page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await waitForHash(page, /#\/builtIn\/role\?keep=1$/);
    await page.locator('[data-testid="page-tab"][aria-current="page"]', { hasText: '角色管理' }).waitFor();
    // spec §2: title + suffix; the dashboard tab is always first.
    await poll(() => page.title()).toBe('角色管理 - Tessera');
    await context.close();
  });

  it('redirects area roots, shows 404 for unknown paths and 403 for pages the user may not open, each with a way home', async () => {
    const adminToken = await apiToken(product);
    // A user of this try only (a retry must not meet the first try's user).
    const clerk = `clerk${Date.now().toString(36)}`;
    await createPlainUser(product, adminToken, clerk, 'Clerk#2026-e2e');
    const { page, context } = await product.newPage();
    await signInToConsole(page, product, clerk, 'Clerk#2026-e2e');

    // spec §2: / → dashboard-console; /dataSet → source.
    await page.goto(`${product.url}/#/`);
    await waitForHash(page, /#\/dashboard\/console$/);

    await page.goto(`${product.url}/#/no/such/page`);
    await page.getByTestId('error-404').waitFor();
    expect(await page.getByTestId('error-404').textContent()).toContain('抱歉，你访问的页面不存在');
    await page.getByRole('button', { name: '返回首页' }).click();
    await waitForHash(page, /#\/dashboard\/console$/);

    // A user without the users permission: the page is not theirs (spec §6 → /403).
    await page.goto(`${product.url}/#/builtIn/user`);
    await waitForHash(page, /#\/403$/);
    expect(await page.getByTestId('error-403').textContent()).toContain('抱歉，你无权访问该页面');
    await page.screenshot({ path: screenshotPath('shell-403') });
    await page.getByRole('button', { name: '返回首页' }).click();
    await waitForHash(page, /#\/dashboard\/console$/);

    await page.goto(`${product.url}/#/500`);
    expect(await page.getByTestId('error-500').textContent()).toContain('抱歉，服务器出错了');

    // The sider lists only what the clerk may open: no user management.
    await page.goto(`${product.url}/#/dashboard/console`);
    await page.getByTestId('sider-menu').waitFor();
    expect(await page.getByTestId('sider-menu').textContent()).not.toContain('用户管理');
    await context.close();
  });

  it('gives up on a page chunk that has not loaded after 120 s with the spec message and a retry that reloads', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-chunk-timeout-failure') }).then(() => undefined));
    await page.clock.install();
    await signInToConsole(page, product);
    // The users page's chunk never arrives.
    let asked = false;
    await page.route(/\/assets\/UsersPage-[^/]*\.js$/, () => {
      asked = true;
    });
    await page.goto(`${product.url}/#/builtIn/user`);
    await poll(() => asked).toBe(true);
    await page.clock.runFor(119_000);
    expect(await page.getByText('页面加载超时（超过 120 秒），请检查网络后重试').count()).toBe(0);
    await page.clock.runFor(2_000);
    await poll(() => page.getByText('页面加载超时（超过 120 秒），请检查网络后重试').count()).toBe(1);
    // Retry reloads the page: with the chunk reachable again the page opens.
    await page.unroute(/\/assets\/UsersPage-[^/]*\.js$/);
    await page.getByRole('button', { name: /重\s*试/ }).click();
    await poll(() => page.getByRole('button', { name: '刷新' }).count()).toBe(1);
    await context.close();
  });

  it('shows the empty state naming the module for pages no module provides yet', async () => {
    const { page, context } = await product.newPage();
    await signInToConsole(page, product);
    await page.goto(`${product.url}/#/design/dataTransmission`);
    await page.getByTestId('module-empty-state').waitFor();
    expect(await page.getByTestId('module-empty-state').textContent()).toContain('数据传输');
    // The console counts the to-do tasks the workflow API answers (none for a fresh administrator).
    await page.goto(`${product.url}/#/dashboard/console`);
    await poll(() => page.getByTestId('todo-count').locator('.ant-statistic-content-value').textContent()).toBe('0');
    expect(await page.getByTestId('todo-unavailable').count()).toBe(0);
    await context.close();
  });

  it('asks to sign in again when the token cookie is gone and the page reloads its data (issue 28, defect 3)', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-cookie-gone-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    await page.goto(`${product.url}/#/builtIn/role`);
    await page.locator('.ant-table-row').first().waitFor();
    // The token cookie lives a day: the browser drops it while the tab stays open.
    await context.clearCookies({ name: 'token' });
    expect((await context.cookies()).map((c) => c.name)).not.toContain('token');
    // The next request the page makes (a search) is refused: the dialog, not a toast over stale data.
    await page.getByPlaceholder('搜索角色名称或描述').fill('adm');
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    expect(await dialog.locator('.ant-modal-confirm-content').textContent()).toBe('您的登录已过期，请重新登陆');
    await dialog.getByRole('button').click();
    await waitForHash(page, /#\/login\?redirect=%2FbuiltIn%2Frole$/);
    await context.close();
  });

  it('asks to sign in again when the session was revoked on the server (401), then returns to the page', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-401-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    const token = await tokenOf(page);
    // The session ends on the server (as when an administrator revokes it or it is signed out elsewhere).
    await apiCall(product, token, 'POST', '/Auth/Logout');

    await page.goto(`${product.url}/#/builtIn/user`);
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    expect(await dialog.locator('.ant-modal-confirm-title').textContent()).toBe('提示信息');
    expect(await dialog.locator('.ant-modal-confirm-content').textContent()).toBe('您的登录已过期，请重新登陆');
    await page.screenshot({ path: screenshotPath('shell-401') });
    await dialog.getByRole('button').click();

    await waitForHash(page, /#\/login\?redirect=%2FbuiltIn%2Fuser$/);
    const names = (await context.cookies()).map((c) => c.name);
    expect(names).not.toContain('token');
    expect(names).not.toContain('uuid');
    // Only one dialog, however many calls failed.
    await poll(() => page.locator('.ant-modal-confirm:visible').count()).toBe(0);

    await page.getByPlaceholder('请输入账号或邮箱').fill('admin');
    await page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await waitForHash(page, /#\/builtIn\/user$/);

    // spec §8: the failure was logged as a 数据请求异常 entry; the front-end log lists it.
    await page.goto(`${product.url}/#/log`);
    const row = page.locator('.ant-table-row', { hasText: '数据请求异常' }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('401');
    // spec §2: the system entry (/log) hides the sider.
    expect(await page.getByTestId('shell-sider').count()).toBe(0);
    await context.close();
  });

  it('changes the password in the modal: cleared fields, the server\'s refusal at the field, success closes it', async () => {
    const adminToken = await apiToken(product);
    // A user of this try only: a retry must not meet the first try's user (or its changed password).
    const writer = `writer${Date.now().toString(36)}`;
    await createPlainUser(product, adminToken, writer, 'Writer#2026-e2e');
    const { page, context } = await product.newPage();
    await signInToConsole(page, product, writer, 'Writer#2026-e2e');
    // spec §8: no logs yet.
    await page.getByTestId('log-indicator').hover();
    await poll(() => page.locator('.ant-tooltip:visible').last().textContent()).toBe('没有日志或异常');

    const openModal = async () => {
      await page.getByTestId('user-menu').hover();
      await page.locator('.ant-dropdown:visible').last().getByText('修改密码').click();
      const modal = page.locator('.ant-modal', { hasText: '修改密码' });
      await modal.waitFor();
      return modal;
    };
    let modal = await openModal();
    const inputs = modal.locator('input[type="password"]');
    await inputs.nth(0).fill('not-my-password');
    await inputs.nth(1).fill('Writer#2026-new');
    await inputs.nth(2).fill('Writer#2026-new');
    await page.getByTestId('password-submit').click();
    // The server refuses the current password; the modal stays open with the reason.
    await modal.locator('.ant-form-item-explain-error').first().waitFor();
    expect(await modal.isVisible()).toBe(true);
    await modal.getByRole('button', { name: /取\s*消/ }).click();
    await modal.waitFor({ state: 'hidden' });

    // Reopened: the fields are empty again.
    modal = await openModal();
    expect(await modal.locator('input[type="password"]').evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value))).toEqual(['', '', '']);
    await modal.locator('input[type="password"]').nth(0).fill('Writer#2026-e2e');
    await modal.locator('input[type="password"]').nth(1).fill('Writer#2026-new');
    await modal.locator('input[type="password"]').nth(2).fill('Writer#2026-new');
    await page.getByTestId('password-submit').click();
    // (The sign-in's own success toast may still be showing beside it.)
    await page.locator('.ant-message-success', { hasText: '密码' }).waitFor();
    await modal.waitFor({ state: 'hidden' });
    expect(await apiToken(product, writer, 'Writer#2026-new')).toMatch(/\./);

    // The refused request was logged (spec §8 数据请求异常) and the indicator says so.
    await page.getByTestId('log-indicator').hover();
    await poll(() => page.locator('.ant-tooltip:visible').last().textContent()).toBe('共 1 条日志，其中 1 条异常');
    await context.close();
  });

  it('keeps the unread count in the title and lists notifications in the header', async () => {
    const { page, context } = await product.newPage();
    await signInToConsole(page, product);
    const token = await tokenOf(page);
    const me = await apiCall<{ userId: string }>(product, token, 'GET', '/app/sys-function/current-user');
    await apiCall(product, token, 'POST', '/app/notifications', { type: 'notice', title: '系统维护通知', content: '今晚 22:00 维护', userIds: [me.userId] });
    await page.reload();
    await poll(() => page.title()).toBe('(1条消息) 主控台 - Tessera');
    await poll(() => page.getByTestId('unread-count').textContent()).toContain('1');

    await page.getByTestId('notifications').click();
    const item = page.getByTestId('notification-item').filter({ hasText: '系统维护通知' });
    await item.waitFor();
    await item.click();
    await poll(() => page.title()).toBe('主控台 - Tessera');
    await context.close();
  });

  it('switches the language between zh-CN, en-US, zh-Hant and Vietnamese and keeps the choice', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-language-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    const sider = page.getByTestId('sider-menu');
    await poll(() => sider.textContent()).toContain('仪表盘');

    await page.getByTestId('language-selector').click();
    await page.locator('.ant-dropdown:visible').last().getByText('English').click();
    await poll(() => sider.textContent()).toContain('Dashboard');
    await poll(() => page.title()).toBe('Console - Tessera');
    await poll(() => page.getByTestId('greeting').textContent()).toMatch(/^Good /);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    await page.screenshot({ path: screenshotPath('shell-english') });

    await page.reload();
    await poll(() => page.getByTestId('sider-menu').textContent()).toContain('Dashboard');
    await poll(() => page.locator('[data-testid="page-tab"]').first().textContent()).toContain('Console');

    await page.getByTestId('language-selector').click();
    await page.locator('.ant-dropdown:visible').last().getByText('简体中文').click();
    await poll(() => page.getByTestId('sider-menu').textContent()).toContain('仪表盘');
    await poll(() => page.title()).toBe('主控台 - Tessera');

    // Traditional Chinese: the built-in texts converted from Simplified, kept across a reload (the
    // converter is a large chunk: a loaded machine takes a while to fetch and parse it).
    await page.getByTestId('language-selector').click();
    await page.locator('.ant-dropdown:visible').last().getByText('繁體中文').click();
    await poll(() => page.getByTestId('sider-menu').textContent(), 45_000).toContain('儀表盤');
    await poll(() => page.title()).toBe('主控臺 - Tessera');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-Hant');
    await page.screenshot({ path: screenshotPath('shell-traditional') });
    await page.reload();
    await poll(() => page.getByTestId('sider-menu').textContent(), 45_000).toContain('儀表盤');
    // One term for signing in (issue 28, defect 6): the converted page title says 登入 as the
    // hand-written button does, not 登錄.
    await page.goto(`${product.url}/#/login`);
    await poll(() => page.title(), 45_000).toBe('登入 - Tessera');
    expect((await page.locator('form button[type="submit"]').textContent())?.replace(/\s/g, '')).toBe('登入');
    await page.goto(`${product.url}/#/dashboard/console`);
    await poll(() => page.getByTestId('sider-menu').textContent(), 45_000).toContain('儀表盤');

    // Vietnamese: its own texts (a chunk fetched for it), kept across a reload.
    await page.getByTestId('language-selector').click();
    await page.locator('.ant-dropdown:visible').last().getByText('Tiếng Việt').click();
    await poll(() => page.getByTestId('sider-menu').textContent()).toContain('Bảng điều khiển');
    await poll(() => page.title()).toBe('Bàn điều khiển - Tessera');
    await page.reload();
    await poll(() => page.getByTestId('sider-menu').textContent()).toContain('Bảng điều khiển');
    await context.close();
  });

  it('shows the full name, and never takes the next user to the previous user’s page (issue 12, defects 8 and 9)', async () => {
    const adminToken = await apiToken(product);
    // Fresh accounts per try (a retry must not trip over the first try's users).
    const zhang = `zhang.${Date.now()}`;
    const ann = `ann.${Date.now()}`;
    await apiCall(product, adminToken, 'POST', '/identity/users', { userName: zhang, name: '三', surname: '张', email: `${zhang}@example.com`, password: 'Zhang#2026-e2e', roleNames: [] });
    await apiCall(product, adminToken, 'POST', '/identity/users', { userName: ann, name: 'Ann', surname: 'Lee', email: `${ann}@example.com`, password: 'AnnLee#2026-e2e', roleNames: [] });
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-next-user-failure') }).then(() => undefined));
    const signInHere = async (userName: string, password: string) => {
      await page.getByPlaceholder('请输入账号或邮箱').fill(userName);
      await page.getByPlaceholder('请输入密码').fill(password);
      await page.keyboard.press('Enter');
    };
    const logout = async () => {
      await page.getByTestId('user-menu').hover();
      await page.locator('.ant-dropdown:visible').last().getByText('退出登录').click();
      await page.getByTestId('logout-confirm').click();
    };

    // The administrator works on the roles page and logs out: the sign-in page keeps no redirect.
    await signInToConsole(page, product);
    await openPage(page, product, '/builtIn/role');
    await logout();
    await waitForHash(page, /#\/login$/);
    // The next user lands on the console, greeted by full name (surname first, no space).
    await signInHere(zhang, 'Zhang#2026-e2e');
    await waitForHash(page, /#\/dashboard\/console$/);
    await poll(() => page.getByTestId('greeting').textContent()).toMatch(/，张三$/);
    expect(await page.getByTestId('user-menu').textContent()).toContain('张三');
    await logout();
    await waitForHash(page, /#\/login$/);

    // The administrator's session ends on the server while on the users page: the redirect is
    // theirs. Another user signing in goes to the console; the administrator would go back.
    await signInToConsole(page, product);
    await openPage(page, product, '/builtIn/user');
    await apiCall(product, await tokenOf(page), 'POST', '/Auth/Logout');
    await page.goto(`${product.url}/#/builtIn/role`);
    await page.locator('.ant-modal-confirm').getByRole('button').click();
    await waitForHash(page, /#\/login\?redirect=%2FbuiltIn%2Frole$/);
    await signInHere(ann, 'AnnLee#2026-e2e');
    await waitForHash(page, /#\/dashboard\/console$/);
    // A Latin-script name in the Chinese interface: surname first; in English the given name first.
    await poll(() => page.getByTestId('greeting').textContent()).toMatch(/，Lee Ann$/);
    await page.getByTestId('language-selector').click();
    await page.locator('.ant-dropdown:visible').last().getByText('English').click();
    await poll(() => page.getByTestId('greeting').textContent()).toMatch(/, Ann Lee$/);
    expect(await page.getByTestId('user-menu').textContent()).toContain('Ann Lee');
    await context.close();
  });

  it('asks before logging out, keeps the session on cancel, and keeps tabs for the next sign-in', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-logout-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    await page.goto(`${product.url}/#/builtIn/role`);
    await page.locator('[data-testid="page-tab"][data-path="/builtIn/role"]').waitFor();

    const logout = async () => {
      await page.getByTestId('user-menu').hover();
      await page.locator('.ant-dropdown:visible').last().getByText('退出登录').click();
      return page.locator('.ant-modal-confirm');
    };
    let dialog = await logout();
    await dialog.waitFor();
    expect(await dialog.locator('.ant-modal-confirm-title').textContent()).toBe('退出登录确认');
    expect(await dialog.locator('.ant-modal-confirm-content').textContent()).toBe('您确定退出登录当前账户吗？打开的标签页和个人设置将会保存。');
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(currentPath(page)).toBe('/builtIn/role');
    expect((await context.cookies()).map((c) => c.name)).toContain('token');

    dialog = await logout();
    await page.getByTestId('logout-confirm').click();
    await waitForHash(page, /#\/login/);
    const names = (await context.cookies()).map((c) => c.name);
    for (const name of ['token', 'uuid', 'isAdmin']) expect(names).not.toContain(name);
    // Signed out: pages send the visitor to login.
    await page.getByPlaceholder('请输入账号或邮箱').waitFor();
    await page.goto(`${product.url}/#/builtIn/role`);
    await waitForHash(page, /#\/login\?redirect=/);

    await signInToConsole(page, product);
    await page.locator('[data-testid="page-tab"][data-path="/builtIn/role"]').waitFor();
    await context.close();
  });
});
