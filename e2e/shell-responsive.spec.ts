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

  it('shows the breadcrumb only while it fits in the header width minus 560px and in the room beside the header buttons, never clipped', async () => {
    const { page, context } = await product.newPage({ width: 1366, height: 800 });
    await signInToConsole(page, product);
    await page.goto(`${product.url}/#/builtIn/user`);
    await page.getByTestId('breadcrumb').waitFor();
    const state = () =>
      page.evaluate(() => {
        const shown = document.querySelector('[data-testid="breadcrumb"]');
        const anchor = document.querySelector('.shell-breadcrumb-anchor');
        const left = anchor?.parentElement?.getBoundingClientRect();
        return {
          shown: Boolean(shown),
          natural: document.querySelector('.shell-breadcrumb-measure')?.scrollWidth ?? 0,
          header: document.querySelector('[data-testid="shell-header"]')?.clientWidth ?? 0,
          room: left && anchor ? left.right - anchor.getBoundingClientRect().left : 0,
          // A shown breadcrumb ends inside the header's left part (the part clips what overflows it).
          clipped: Boolean(shown && left && shown.getBoundingClientRect().right > left.right + 0.5),
        };
      });
    const seen = new Set<boolean>();
    for (const width of [1366, 1200, 1100, 1040, 1000, 900, 800, 760, 720, 700]) {
      await page.setViewportSize({ width, height: 800 });
      // Wait for the layout to settle at this width, then the rule must hold exactly.
      await poll(async () => {
        const s = await state();
        return s.shown === (s.natural <= s.header - 560 && s.natural + 12 <= s.room);
      }).toBe(true);
      const settledState = await state();
      expect(settledState.clipped, `clipped at ${width}px`).toBe(false);
      seen.add(settledState.shown);
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

describe('admin pages on a phone (issue 28, defect 4)', () => {
  const ROUTES = [
    '/dashboard/console',
    '/builtIn/organization',
    '/builtIn/user',
    '/builtIn/role',
    '/builtIn/authorization',
    '/builtIn/menu',
    '/design/authority',
    '/design/form',
    '/design/workflow',
    '/dataSet/dictionary',
    '/dataSet/documentNumber',
    '/dataSet/source',
    '/dataSet/storedProcedure',
    '/system/localization',
    '/system/documentation',
    '/system/audit',
    '/system/settings',
  ];
  it('every admin page fits 390 px without sideways scrolling, and every header button is whole', async () => {
    const { page, context } = await product.newPage({ width: 390, height: 844 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-phone-admin-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    const problems: string[] = [];
    for (const route of ROUTES) {
      await page.goto(`${product.url}/#${route}`);
      await poll(() => currentPath(page)).toBe(route);
      await page.getByTestId('shell-page').waitFor();
      await page.waitForTimeout(600);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) problems.push(`${route}: ${overflow}px wider than the screen`);
      // Every header button inside the header (the header clips its content, so overflow alone misses a cut icon).
      const clipped = await page.evaluate(() => {
        const header = document.querySelector('[data-testid="shell-header"]') ?? document.querySelector('header');
        if (!header) return ['no header'];
        const box = header.getBoundingClientRect();
        return Array.from(header.querySelectorAll("button"))
          .filter((b) => b.getBoundingClientRect().width > 0)
          .filter((b) => {
            const r = b.getBoundingClientRect();
            // The button inside the header, and its icon inside the button.
            const icon = b.querySelector('svg')?.getBoundingClientRect();
            const iconCut = icon ? icon.left < r.left - 0.5 || icon.right > r.right + 0.5 : false;
            return r.left < box.left - 0.5 || r.right > box.right + 0.5 || iconCut;
          })
          .map((b) => b.getAttribute('aria-label') ?? b.textContent ?? '?');
      });
      if (clipped.length) problems.push(`${route}: header buttons cut: ${clipped.join(', ')}`);
      // The header's left part hides what does not fit (the reload arrow once showed as a "C").
      const leftCut = await page.evaluate(() => {
        const left = document.querySelector('.shell-header-left');
        return left ? left.scrollWidth - left.clientWidth : 0;
      });
      if (leftCut > 0) problems.push(`${route}: the header's left part cuts ${leftCut}px`);
      // …and no header button lies over another (a cut icon: the reload arrow showed as a "C").
      const overlapping = await page.evaluate(() => {
        const rects = Array.from(document.querySelectorAll('[data-testid="shell-header"] button'))
          .map((b) => ({ name: b.getAttribute('aria-label') ?? '?', r: b.getBoundingClientRect() }))
          .filter((b) => b.r.width > 0);
        const out: string[] = [];
        for (let i = 0; i < rects.length; i++)
          for (let j = i + 1; j < rects.length; j++) {
            const [a, b] = [rects[i]!.r, rects[j]!.r];
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${rects[i]!.name} / ${rects[j]!.name}`);
          }
        return out;
      });
      if (overlapping.length) problems.push(`${route}: header buttons overlap: ${overlapping.join(', ')}`);
      await page.screenshot({ path: screenshotPath(`phone${route.replace(/\//g, '-')}`) });
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
