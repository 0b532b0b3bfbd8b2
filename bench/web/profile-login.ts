/**
 * A CPU profile of a cold login route (navigation → visible login form), summarised by package —
 * for finding where the login route's time goes. Build without minification for readable names:
 *
 *   (cd web && npx vite build --minify false --outDir /tmp/web-nomin) && WEB_DIST=/tmp/web-nomin npx tsx bench/web/profile-login.ts
 */
import { writeFileSync } from 'node:fs';
import { startProduct } from '../../e2e/product.ts';

const product = await startProduct();
try {
  const { page, context } = await product.newPage();
  const cdp = await context.newCDPSession(page);
  await page.goto('about:blank');
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const t0 = performance.now();
  await page.goto(`${product.url}/#/login`, { waitUntil: 'commit' });
  await page.getByPlaceholder('请输入账号或邮箱').waitFor({ state: 'visible' });
  const visible = performance.now() - t0;
  const { profile } = await cdp.send('Profiler.stop');
  const out = process.env.OUT ?? '/tmp/login.cpuprofile';
  writeFileSync(out, JSON.stringify(profile));
  console.log(`login form visible after ${visible.toFixed(0)} ms; profile in ${out}`);
  await context.close();
} finally {
  await product.stop();
}
