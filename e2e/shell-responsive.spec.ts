import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { currentPath, poll, signInToConsole } from './shell-helpers.ts';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

const device = (page: Page) => page.locator('#root').getAttribute('data-device');
const siderWidth = (page: Page) => page.getByTestId('shell-sider').evaluate((el) => Math.round(el.getBoundingClientRect().width));

describe('device classes and responsive layout (issue 4)', () => {
  it('classifies the spec breakpoints: Mobile ≤ 600px, Tablet ≤ 992px, Desktop otherwise', async () => {
    const { page, context } = await product.newPage({ width: 1366, height: 800 });
    await signInToConsole(page, product);
    for (const [width, expected] of [
      [600, 'Mobile'],
      [601, 'Tablet'],
      [992, 'Tablet'],
      [993, 'Desktop'],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await poll(() => device(page)).toBe(expected);
      expect(await page.locator(`#root.app-device-${expected.toLowerCase()}`).count()).toBe(1);
    }
    await context.close();
  });

  it('collapses the sider on tablets and expands it on desktops, following resizes', async () => {
    const { page, context } = await product.newPage({ width: 1366, height: 800 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-responsive-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    await page.getByTestId('sider-menu').waitFor();
    await page.screenshot({ path: screenshotPath('shell-desktop') });
    expect(await siderWidth(page)).toBe(200);

    await page.setViewportSize({ width: 900, height: 1000 });
    await poll(() => siderWidth(page)).toBe(80);
    await page.locator('.shell-sider .ant-menu-inline-collapsed').waitFor();
    await page.screenshot({ path: screenshotPath('shell-tablet') });
    // The toggle still expands it on a tablet when the user asks.
    await page.getByTestId('sider-toggle').click();
    await poll(() => siderWidth(page)).toBe(200);

    await page.setViewportSize({ width: 1280, height: 800 });
    await poll(() => siderWidth(page)).toBe(200);
    await page.getByTestId('sider-toggle').click();
    await poll(() => siderWidth(page)).toBe(80);
    await context.close();
  });

  it('puts the menu in a drawer on mobiles that closes on route change; the user menu opens on click', async () => {
    const { page, context } = await product.newPage({ width: 390, height: 844 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-responsive-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    expect(await device(page)).toBe('Mobile');
    expect(await page.getByTestId('shell-sider').count()).toBe(0);
    // No design jump or full screen on mobiles.
    expect(await page.getByTestId('jump-to-design').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('shell-mobile') });

    await page.getByTestId('mobile-menu-button').click();
    const drawer = page.locator('.shell-mobile-drawer .ant-drawer-section');
    await drawer.waitFor({ state: 'visible' });
    await drawer.getByText('系统内置').click();
    await drawer.getByText('角色管理').click();
    await poll(() => currentPath(page)).toBe('/builtIn/role');
    await drawer.waitFor({ state: 'hidden' });
    await page.screenshot({ path: screenshotPath('shell-mobile-page') });

    // The user menu opens on click (hover on desktops).
    await page.getByTestId('user-menu').click();
    await page.locator('.ant-dropdown:visible').last().getByText('退出登录').waitFor();
    await context.close();
  });

  it('opens the user menu on hover on desktops', async () => {
    const { page, context } = await product.newPage({ width: 1366, height: 800 });
    await signInToConsole(page, product);
    await page.getByTestId('user-menu').hover();
    const menu = page.locator('.ant-dropdown:visible').last();
    await menu.getByText('我的主页').waitFor();
    for (const label of ['设置', '修改密码', '退出登录']) expect(await menu.textContent()).toContain(label);
    // Setting opens the layout drawer.
    await menu.getByText('设置', { exact: true }).click();
    await page.locator('.settings-drawer .ant-drawer-section').waitFor({ state: 'visible' });
    await context.close();
  });

  it('shows the breadcrumb only while it fits in the header width minus 560px, following resizes', async () => {
    const { page, context } = await product.newPage({ width: 1366, height: 800 });
    await signInToConsole(page, product);
    await page.goto(`${product.url}/#/builtIn/user`);
    await page.getByTestId('breadcrumb').waitFor();
    const state = () =>
      page.evaluate(() => ({
        shown: Boolean(document.querySelector('[data-testid="breadcrumb"]')),
        natural: document.querySelector('.shell-breadcrumb-measure')?.scrollWidth ?? 0,
        header: document.querySelector('[data-testid="shell-header"]')?.clientWidth ?? 0,
      }));
    const seen = new Set<boolean>();
    for (const width of [1366, 1100, 1000, 900, 800, 760, 720, 700]) {
      await page.setViewportSize({ width, height: 800 });
      // Wait for the layout to settle at this width, then the rule must hold exactly.
      await poll(async () => {
        const s = await state();
        return s.shown === s.natural <= s.header - 560;
      }).toBe(true);
      seen.add((await state()).shown);
    }
    expect([...seen].sort()).toEqual([false, true]);
    await context.close();
  });

  it('toggles full screen, and warns when the browser cannot', async () => {
    const { page, context } = await product.newPage({ width: 1366, height: 800 });
    await signInToConsole(page, product);
    await page.getByTestId('fullscreen').click();
    await poll(() => page.evaluate(() => Boolean(document.fullscreenElement))).toBe(true);
    await poll(() => page.getByTestId('fullscreen').getAttribute('aria-label')).toBe('退出全屏');
    await page.getByTestId('fullscreen').click();
    await poll(() => page.evaluate(() => Boolean(document.fullscreenElement))).toBe(false);
    await context.close();

    // A browser without the Fullscreen API.
    const second = await product.newPage({ width: 1366, height: 800 });
    await second.context.addInitScript(() => Object.defineProperty(Document.prototype, 'fullscreenEnabled', { configurable: true, get: () => false }));
    await signInToConsole(second.page, product);
    await second.page.getByTestId('fullscreen').click();
    await poll(() => second.page.locator('.ant-message-notice').filter({ hasText: '当前浏览器不支持全屏' }).count()).toBe(1);
    expect(await second.page.evaluate(() => Boolean(document.fullscreenElement))).toBe(false);
    await second.context.close();
  });
});
