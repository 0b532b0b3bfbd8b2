import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { isChecked, isDisabled, openPage, openSettings, poll, settingSwitch, signInToConsole } from './shell-helpers.ts';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

describe('layout settings drawer (issue 4)', () => {
  it('starts from the spec defaults and disables dependent switches unless their parent is on', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-settings-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    // spec §9: dark theme on, primary #51d6a9.
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.style.getPropertyValue('--tessera-primary'))).toBe('#51d6a9');

    await openSettings(page);
    const drawer = page.locator('.settings-drawer .ant-drawer-content-wrapper');
    expect(Math.round((await drawer.boundingBox())!.width)).toBe(280);
    expect(await isChecked(page, 'menuAccordion')).toBe(true);
    expect(await isChecked(page, 'darkTheme')).toBe(true);
    await page.screenshot({ path: screenshotPath('shell-settings') });

    // headerFix → headerHide and headerStick.
    expect(await isDisabled(page, 'headerHide')).toBe(false);
    await settingSwitch(page, 'headerFix').click();
    await poll(() => isDisabled(page, 'headerHide')).toBe(true);
    expect(await isDisabled(page, 'headerStick')).toBe(true);
    await settingSwitch(page, 'headerFix').click();
    await poll(() => isDisabled(page, 'headerHide')).toBe(false);
    expect(await isDisabled(page, 'headerStick')).toBe(false);

    // showBreadcrumb → showBreadcrumbIcon; the breadcrumb goes at once.
    expect(await page.getByTestId('breadcrumb').count()).toBe(1);
    await settingSwitch(page, 'showBreadcrumb').click();
    await poll(() => isDisabled(page, 'showBreadcrumbIcon')).toBe(true);
    expect(await page.getByTestId('breadcrumb').count()).toBe(0);
    await settingSwitch(page, 'showBreadcrumb').click();
    await poll(() => page.getByTestId('breadcrumb').count()).toBe(1);

    // The head menu makes the global breadcrumb ineffective (spec §5).
    await settingSwitch(page, 'headerMenu').click();
    await poll(() => page.getByTestId('breadcrumb').count()).toBe(0);
    expect(await page.locator('.settings-drawer').textContent()).toContain('开启顶部菜单栏时无效');
    await settingSwitch(page, 'headerMenu').click();
    await poll(() => page.getByTestId('breadcrumb').count()).toBe(1);

    // tabs → showTabsIcon and tabsFix; the tab bar goes at once.
    await settingSwitch(page, 'tabs').click();
    await poll(() => isDisabled(page, 'showTabsIcon')).toBe(true);
    expect(await isDisabled(page, 'tabsFix')).toBe(true);
    expect(await page.getByTestId('page-tab').count()).toBe(0);
    await settingSwitch(page, 'tabs').click();
    await poll(() => page.getByTestId('page-tab').count()).toBe(1);
    await context.close();
  });

  it('applies every change at once and keeps it across reloads', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('shell-settings-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    await openSettings(page);

    await page.locator('.settings-drawer').getByText('亮色').first().click(); // sider theme light
    await poll(() => page.locator('.shell-sider.ant-layout-sider-light').count()).toBe(1);
    await page.locator('.settings-drawer').getByText('主色', { exact: true }).click(); // header theme primary
    // The header takes the theme's primary colour (as a checked switch shows it).
    const primary = await page.locator('.settings-drawer .ant-switch-checked').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    await poll(() => page.getByTestId('shell-header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(primary);
    await settingSwitch(page, 'showReload').click();
    await poll(() => page.getByTestId('reload-page').count()).toBe(0);
    await settingSwitch(page, 'showI18n').click();
    await poll(() => page.getByTestId('language-selector').count()).toBe(0);
    await settingSwitch(page, 'tabs').click();
    await poll(() => page.getByTestId('page-tab').count()).toBe(0);
    await settingSwitch(page, 'darkTheme').click();
    await poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await settingSwitch(page, 'watermark').click();
    // spec §9: tiled at 320px, z-index 2000, never in the way of clicks.
    const mark = page.getByTestId('watermark');
    await mark.waitFor({ state: 'attached' });
    expect(await mark.evaluate((el) => [getComputedStyle(el).backgroundSize, getComputedStyle(el).zIndex, getComputedStyle(el).pointerEvents])).toEqual([
      '320px 320px',
      '2000',
      'none',
    ]);
    await page.keyboard.press('Escape');
    await page.screenshot({ path: screenshotPath('shell-settings-light') });

    await page.reload();
    await page.getByTestId('greeting').waitFor();
    expect(await page.locator('.shell-sider.ant-layout-sider-light').count()).toBe(1);
    expect(await page.getByTestId('reload-page').count()).toBe(0);
    expect(await page.getByTestId('language-selector').count()).toBe(0);
    expect(await page.getByTestId('page-tab').count()).toBe(0);
    expect(await page.getByTestId('watermark').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await openSettings(page);
    expect(await isChecked(page, 'tabs')).toBe(false);
    expect(await isDisabled(page, 'tabsFix')).toBe(true);
    expect(await isChecked(page, 'watermark')).toBe(true);

    // Back to the defaults in one go.
    await page.locator('.settings-drawer').getByRole('button', { name: '恢复默认设置' }).click();
    await poll(() => page.getByTestId('page-tab').count()).toBe(1);
    expect(await page.getByTestId('watermark').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await context.close();
  });

  it('hides the header when scrolling down past 300px (headerFix and headerHide) and shows it on the way up', async () => {
    const { page, context } = await product.newPage({ width: 1366, height: 700 });
    await signInToConsole(page, product);
    await openSettings(page);
    await settingSwitch(page, 'headerHide').click();
    await poll(() => isChecked(page, 'headerHide')).toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('.settings-drawer .ant-drawer-section').waitFor({ state: 'hidden' });
    await openPage(page, product, '/log');
    // A long page: room below the log page to scroll (outside React's tree, so no re-render drops it).
    await page.evaluate(() => (document.body.style.paddingBottom = '3000px'));
    await poll(() => page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(3000);
    const hidden = () => page.getByTestId('shell-top').evaluate((el) => el.classList.contains('shell-top-hidden'));
    const scrollY = () => page.evaluate(() => window.scrollY);
    // Scroll as a user does, with the wheel over the page.
    await page.mouse.move(700, 400);
    await page.mouse.wheel(0, 200);
    await poll(scrollY).toBe(200);
    expect(await hidden()).toBe(false);
    await page.mouse.wheel(0, 400);
    await poll(scrollY).toBe(600);
    await poll(hidden).toBe(true);
    await page.mouse.wheel(0, -150);
    await poll(scrollY).toBe(450);
    await poll(hidden).toBe(false);
    await context.close();
  });
});
