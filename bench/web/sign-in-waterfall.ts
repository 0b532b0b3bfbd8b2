/**
 * The requests of one cold sign-in (Enter → usable console) as a waterfall, in ms after Enter —
 * for finding the request chains that hold the console back.
 *
 *   WEB_DIST=<build> npx tsx bench/web/sign-in-waterfall.ts
 */
import path from 'node:path';
import { ADMIN_PASSWORD, startProduct } from '../../e2e/product.ts';
import { NetworkLog } from './network-log.ts';

const product = await startProduct();
try {
  const { page, context } = await product.newPage();
  const log = await NetworkLog.attach(page);
  const printWaterfall = (t0: number) => {
    for (const e of log.list().sort((a, b) => a.start - b.start)) {
      const u = new URL(e.url);
      const name = u.pathname.includes('/api/') ? u.pathname + u.search : path.basename(u.pathname);
      console.log(`${(e.start - t0).toFixed(0).padStart(6)} → ${((e.end ?? NaN) - t0).toFixed(0).padStart(6)}  ${name}`);
    }
  };
  const tNav = performance.now();
  await page.goto(`${product.url}/#/login`, { waitUntil: 'commit' });
  await page.getByPlaceholder('请输入账号或邮箱').waitFor({ state: 'visible' });
  const formVisible = performance.now() - tNav;
  await page.waitForLoadState('networkidle');
  console.log('login route, ms after navigation:');
  printWaterfall(tNav);
  console.log(`visible login form: ${formVisible.toFixed(0)} ms\n\nsign-in, ms after Enter:`);
  await page.getByPlaceholder('请输入账号或邮箱').fill('admin');
  await page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
  log.reset();
  const t0 = performance.now();
  await page.keyboard.press('Enter');
  const marks: [string, number][] = [];
  for (const id of ['greeting', 'shell-sider', 'page-tab']) {
    await page.getByTestId(id).first().waitFor({ state: 'visible' });
    marks.push([id, performance.now() - t0]);
  }
  await log.apiSettled(t0);
  printWaterfall(t0);
  for (const [id, t] of marks) console.log(`visible ${id}: ${t.toFixed(0)} ms`);
  await context.close();
} finally {
  await product.stop();
}
