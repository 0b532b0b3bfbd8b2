/**
 * Screenshots of the first screens (for comparing a build before and after a performance change):
 * the login page, the console (dark theme, the default), the console in the light theme, the console
 * with another primary colour, and a business list page with rows.
 *
 *   OUT=/tmp/shots npx tsx bench/web/shell-screens.ts     (web/dist must exist: npm run build)
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { signInAs, startProduct } from '../../e2e/product.ts';
import { createBenchBusinessPage } from './business-page.ts';

const OUT = process.env.OUT ?? '/tmp/tessera-shots';
mkdirSync(OUT, { recursive: true });
const shot = (name: string) => ({ path: path.join(OUT, `${name}.png`) });

const product = await startProduct();
try {
  const business = await createBenchBusinessPage(product.url, 12);
  const { page } = await product.newPage();
  await page.goto(`${product.url}/#/login`);
  await page.getByPlaceholder('请输入账号或邮箱').waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
  await page.screenshot(shot('1-login'));
  await signInAs(page, product.url);
  await page.getByTestId('greeting').waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(800);
  await page.screenshot(shot('2-console-dark'));

  await page.getByTestId('open-settings').click();
  await page.locator('.settings-drawer .ant-drawer-content-wrapper').waitFor();
  await page.waitForTimeout(500);
  await page.screenshot(shot('3-settings-drawer'));
  await page.getByTestId('setting-darkTheme').click();
  await page.waitForTimeout(500);
  await page.screenshot(shot('4-settings-light'));
  // Another preset primary colour (the drawer's swatches).
  await page.locator('.settings-drawer .ant-color-picker-trigger').click();
  await page.locator('.ant-color-picker-presets-color').nth(2).click();
  await page.waitForTimeout(500);
  await page.locator('.settings-drawer').getByText('主色', { exact: true }).click(); // header in the primary colour
  await page.screenshot(shot('5-settings-purple-light'));
  await page.keyboard.press('Escape'); // the colour picker's popup
  await page.locator('.settings-drawer .ant-drawer-close').click();
  await page.waitForTimeout(600);
  await page.screenshot(shot('6-console-purple-light'));
  await page.getByTestId('open-settings').click();
  await page.getByTestId('setting-darkTheme').click();
  await page.locator('.settings-drawer .ant-drawer-close').click();
  await page.waitForTimeout(600);
  await page.screenshot(shot('7-console-purple-dark'));

  await page.goto(`${product.url}/#${business.route}`);
  await page.locator('.ant-table-row').first().waitFor();
  await page.waitForTimeout(800);
  await page.screenshot(shot('8-business-list-purple-dark'));
  console.log(`screenshots in ${OUT}`);
} finally {
  await product.stop();
}
