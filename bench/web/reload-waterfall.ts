/**
 * One reload of a signed-in business page as a waterfall (ms after `reload()`): scripts and API
 * requests with their start and end, and when the first row shows — for finding what holds the
 * rows back.
 *
 *   WEB_DIST=<build> npx tsx bench/web/reload-waterfall.ts
 */
import path from 'node:path';
import { ADMIN_PASSWORD, startProduct } from '../../e2e/product.ts';
import { createBenchBusinessPage } from './business-page.ts';
import { NetworkLog } from './network-log.ts';

const product = await startProduct();
try {
  const business = await createBenchBusinessPage(product.url);
  const { page } = await product.newPage();
  await page.goto(`${product.url}/#/login`);
  await page.getByPlaceholder('请输入账号或邮箱').fill('admin');
  await page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByTestId('greeting').waitFor();
  await page.goto(`${product.url}/#${business.route}`);
  await page.locator('.ant-table-row').first().waitFor();
  for (let run = 0; run < 3; run++) {
    await page.waitForTimeout(500);
    const log = await NetworkLog.attach(page);
    const t0 = performance.now();
    await page.reload({ waitUntil: 'commit' });
    await page.locator('.ant-table-row').first().waitFor();
    const rows = performance.now() - t0;
    const dcl = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { dcl: nav.domContentLoadedEventEnd - nav.startTime, load: nav.loadEventEnd - nav.startTime };
    });
    if (run === 2) {
      for (const e of log.list().sort((a, b) => a.start - b.start)) {
        const u = new URL(e.url);
        const name = u.pathname.includes('/api/') ? u.pathname : path.basename(u.pathname);
        console.log(`${(e.start - t0).toFixed(0).padStart(6)} → ${((e.end ?? NaN) - t0).toFixed(0).padStart(6)}  ${e.fromCache ? '(cache) ' : ''}${name}`);
      }
    }
    if (run === 2) {
      const scripts = log.list((e) => e.url.endsWith('.js')).sort((a, b) => b.decoded - a.decoded);
      const kb = (n: number) => (n / 1024).toFixed(1);
      console.log(`scripts: ${scripts.length}, ${kb(scripts.reduce((n, e) => n + e.decoded, 0))} KB decoded; largest:`);
      for (const e of scripts.slice(0, 25)) console.log(`  ${kb(e.decoded).padStart(8)} KB  ${path.basename(new URL(e.url).pathname)}`);
    }
    console.log(`run ${run}: rows visible ${rows.toFixed(0)} ms; DOMContentLoaded ${dcl.dcl.toFixed(0)} ms, load ${dcl.load.toFixed(0)} ms; ${log.list().length} requests`);
    await log.detach();
  }
} finally {
  await product.stop();
}
