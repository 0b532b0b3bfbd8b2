import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { apiToken, createPlainUser, currentPath, openPage, poll, signInToConsole, tabPaths } from './shell-helpers.ts';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

const CONSOLE = '/dashboard/console';
const USER = '/builtIn/user';
const ROLE = '/builtIn/role';
const ORG = '/builtIn/organization';
const AUDIT = '/system/audit';
const FORM = '/design/form';

const tab = (page: Page, path: string) => page.locator(`[data-testid="page-tab"][data-path="${path}"]`);

async function openAll(page: Page, paths: string[]) {
  for (const path of paths) await openPage(page, product, path);
}

/** Right-click a tab and choose an operation of its menu. */
async function tabMenu(page: Page, path: string, label: string) {
  await tab(page, path).click({ button: 'right' });
  // Only the menu that is open, not one still animating away from an earlier right-click.
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden):not([class*="-leave"])').getByText(label, { exact: true }).click();
}

describe('page tabs (issue 4)', () => {
  it('opens one tab per page, updates an existing one, and closes with the spec rules', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-tabs-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    await openAll(page, [USER, ROLE, ORG]);
    expect(await tabPaths(page)).toEqual([CONSOLE, USER, ROLE, ORG]);
    // The console tab cannot be closed.
    expect(await tab(page, CONSOLE).getByTestId('page-tab-close').count()).toBe(0);

    // Opening an existing path updates that tab (its query), no new tab.
    await page.goto(`${product.url}/#${USER}?q=x`);
    await poll(() => tab(page, USER).getAttribute('href')).toBe(`#${USER}?q=x`);
    expect(await tabPaths(page)).toEqual([CONSOLE, USER, ROLE, ORG]);

    // Clicking another tab opens it (with its query).
    await tab(page, ROLE).click();
    await poll(() => currentPath(page)).toBe(ROLE);
    // The tab bar may still shift as the role page's title settles: click until the page follows.
    await poll(async () => {
      await tab(page, USER).click();
      return page.url();
    }).toContain(`#${USER}?q=x`);
    await page.locator(`[data-testid="page-tab"][data-path="${USER}"][aria-current="page"]`).waitFor();

    // Closing a tab that is not the current one stays on the page.
    await tab(page, ROLE).getByTestId('page-tab-close').click();
    await poll(() => tabPaths(page)).toEqual([CONSOLE, USER, ORG]);
    expect(currentPath(page)).toBe(USER);

    // Closing the current tab in the middle activates the next one…
    await tab(page, USER).getByTestId('page-tab-close').click();
    await poll(() => currentPath(page)).toBe(ORG);
    expect(await tabPaths(page)).toEqual([CONSOLE, ORG]);
    // …and the current last one activates the previous one.
    await openPage(page, product, AUDIT);
    await tab(page, AUDIT).getByTestId('page-tab-close').click();
    await poll(() => currentPath(page)).toBe(ORG);
    await tab(page, ORG).getByTestId('page-tab-close').click();
    await poll(() => currentPath(page)).toBe(CONSOLE);
    expect(await tabPaths(page)).toEqual([CONSOLE]);
    await context.close();
  });

  it('closes left, right, other and all from the tab menu; the first tab stays and closing all goes to the dashboard', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-tabs-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    await openAll(page, [USER, ROLE, ORG, AUDIT, FORM]);
    expect(await tabPaths(page)).toEqual([CONSOLE, USER, ROLE, ORG, AUDIT, FORM]);
    await page.screenshot({ path: screenshotPath('shell-tabs') });

    // Close right of ROLE while FORM is current: the current page went, so ROLE becomes current.
    await tabMenu(page, ROLE, '关闭右侧');
    await poll(() => tabPaths(page)).toEqual([CONSOLE, USER, ROLE]);
    await poll(() => currentPath(page)).toBe(ROLE);

    // Close left of ROLE: the console stays.
    await tabMenu(page, ROLE, '关闭左侧');
    await poll(() => tabPaths(page)).toEqual([CONSOLE, ROLE]);
    expect(currentPath(page)).toBe(ROLE);

    // Close other from the tab bar's menu (it acts on the current tab).
    await openAll(page, [ORG, AUDIT]);
    await tab(page, ORG).click();
    await poll(() => currentPath(page)).toBe(ORG);
    await page.getByTestId('tab-actions').click();
    await page.locator('.ant-dropdown:visible').last().getByText('关闭其它', { exact: true }).click();
    await poll(() => tabPaths(page)).toEqual([CONSOLE, ORG]);
    expect(currentPath(page)).toBe(ORG);

    // Close all: only the first tab, and the dashboard is shown.
    await openPage(page, product, USER);
    await tabMenu(page, USER, '关闭全部');
    await poll(() => tabPaths(page)).toEqual([CONSOLE]);
    await poll(() => currentPath(page)).toBe(CONSOLE);
    await context.close();
  });

  it('reloads the current page by clicking its tab or the menu, and reorders tabs by dragging', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-tabs-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    await openAll(page, [USER, ROLE, ORG]);
    const reloadKey = () => page.getByTestId('shell-page').getAttribute('data-reload');
    const before = Number(await reloadKey());
    // The page remounts: mark its DOM and watch the mark disappear.
    await page.getByTestId('shell-page').evaluate((el) => el.firstElementChild?.setAttribute('data-e2e-mark', '1'));
    await tab(page, ORG).click();
    await poll(async () => Number(await reloadKey())).toBe(before + 1);
    await poll(() => page.locator('[data-e2e-mark]').count()).toBe(0);
    expect(currentPath(page)).toBe(ORG);
    await tabMenu(page, ORG, '重新加载');
    await poll(async () => Number(await reloadKey())).toBe(before + 2);

    // Drag ORG onto USER's place (tabsOrder is on by default).
    const from = (await tab(page, ORG).boundingBox())!;
    const to = (await tab(page, USER).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) {
      await page.mouse.move(from.x + from.width / 2 + ((to.x - from.x) * i) / 12, from.y + from.height / 2);
    }
    await page.mouse.up();
    await poll(() => tabPaths(page)).toEqual([CONSOLE, ORG, USER, ROLE]);

    // The first tab cannot be displaced.
    const first = (await tab(page, CONSOLE).boundingBox())!;
    const role = (await tab(page, ROLE).boundingBox())!;
    await page.mouse.move(role.x + role.width / 2, role.y + role.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(role.x + role.width / 2 + ((first.x - role.x) * i) / 12, role.y + role.height / 2);
    await page.mouse.up();
    await poll(async () => (await tabPaths(page))[0]).toBe(CONSOLE);

    // Persisted: a reload restores the same tabs in the same order.
    const order = await tabPaths(page);
    await page.reload();
    await tab(page, CONSOLE).waitFor();
    await poll(() => tabPaths(page)).toEqual(order);
    await context.close();
  });

  it('keeps tabs per user and drops a stored tab whose page the user may no longer open', async () => {
    const adminToken = await apiToken(product);
    // A user of this try only (a retry must not meet the first try's user).
    const tabber = `tabber${Date.now().toString(36)}`;
    await createPlainUser(product, adminToken, tabber, 'Tabber#2026-e2e');
    const { page, context } = await product.newPage();
    await signInToConsole(page, product, tabber, 'Tabber#2026-e2e');
    await openPage(page, product, '/log');
    const userId = await page.evaluate(() => (JSON.parse(localStorage.getItem('tessera.user')!) as { userId: string }).userId);
    // A tab for the user list that this user has no permission for (e.g. a revoked role).
    await page.evaluate(
      ([id, path]) => {
        const key = `tessera.tabs.${id}`;
        const tabs = JSON.parse(localStorage.getItem(key)!) as unknown[];
        tabs.push({ name: 'builtIn-user', path, fullPath: path, params: {}, query: {}, meta: { title: 'menu:user', closable: true } });
        localStorage.setItem(key, JSON.stringify(tabs));
      },
      [userId, USER] as const,
    );
    await page.reload();
    await tab(page, '/log').waitFor();
    expect(await tabPaths(page)).toEqual([CONSOLE, '/log']);

    // The admin's tabs are the admin's own.
    await page.evaluate(() => {
      for (const name of ['token', 'uuid', 'isAdmin']) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    });
    await signInToConsole(page, product);
    expect(await tabPaths(page)).not.toContain('/log');
    await context.close();
  });
});
