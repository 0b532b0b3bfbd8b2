/**
 * Web shell budget (issues 4 and 24), in headless Chromium against the real server (embedded
 * database). Every timing is a median of RUNS cold runs (a new browser context each: empty cache,
 * no cookies) and is printed with its multiple of the baseline — a plain HTML page with the same two
 * inputs served by the same server, measured in the same run before and after the cases.
 *
 * - login route JavaScript: gzip (level 9) of every `.js` the cold `/#/login` loads, budget ≤ 250 KB;
 *   every page under web/src/modules (but the login page) a lazy chunk the login route never loads
 *   (checked on the build manifest).
 * - bytes that travel: for the login route, the sign-in to the console, the first business page
 *   opened from the menu and a cold load of that page's URL — per kind of resource the bytes on the
 *   wire (CDP `Network.loadingFinished` encodedDataLength: compressed body and headers) next to the
 *   decoded size.
 * - navigation → visible login form (target ≤ 0.6 s).
 * - sign-in → usable console (target ≤ 1.5 s): from pressing Enter on the filled form to the later of
 *   (a) the console's greeting (data-testid `greeting`), the sider (`shell-sider`) and the tab bar
 *   (first `page-tab`) all visible, and (b) the end of the last `/api/` request started after Enter,
 *   taken once no `/api/` request has been in flight for 300 ms (so the shell's menus, current user,
 *   language dictionary, unread counts… are all answered; the quiet window itself is not counted).
 * - business page reload → rows visible (target ≤ 1.0 s): a page with 30 rows (bench/web/business-page.ts)
 *   open in the signed-in console; from `page.reload()` to its first table row visible.
 *
 *   npx tsx bench/web/shell.bench.ts                 builds the web app into a temporary folder
 *   WEB_DIST=/tmp/x npx tsx bench/web/shell.bench.ts  measures an existing build (built with --manifest)
 *   PROFILE=/tmp/sign-in.cpuprofile …                 also writes a CPU profile of one sign-in (Enter → usable)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, startProduct, type Product } from '../../e2e/product.ts';
import { createBenchBusinessPage } from './business-page.ts';
import { byKind, NetworkLog, type RequestEntry } from './network-log.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUDGET_KB = 250;
const TARGETS = { form: 600, usable: 1500, reload: 1000 };
const RUNS = Number(process.env.RUNS ?? 5);
const USER_PLACEHOLDER = '请输入账号或邮箱';

function ensureBuild(): string {
  if (process.env.WEB_DIST) return process.env.WEB_DIST;
  const out = mkdtempSync(path.join(tmpdir(), 'tessera-web-bench-'));
  execFileSync('npx', ['vite', 'build', '--manifest', '--outDir', out, '--emptyOutDir'], { cwd: path.join(ROOT, 'web'), stdio: 'ignore' });
  return out;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const kb = (n: number) => (n / 1024).toFixed(1);
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');

/** JS responses a page loads, with their gzip sizes at level 9 (independent of what the server sends). */
function collectScripts(page: Page) {
  const scripts: { url: string; raw: number; gzip: number }[] = [];
  const pending: Promise<void>[] = [];
  let stopped = false;
  page.on('response', (response) => {
    const url = response.url();
    if (stopped) return;
    if (!url.endsWith('.js')) return;
    pending.push(
      response
        .body()
        .then((body) => void scripts.push({ url, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }))
        .catch(() => undefined),
    );
  });
  return {
    scripts,
    /** Stops collecting and waits for the bodies already asked for. */
    settled: () => {
      stopped = true;
      return Promise.all(pending);
    },
  };
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
}

async function visible(page: Page, selector: ReturnType<Page['getByTestId']>) {
  await selector.first().waitFor({ state: 'visible', timeout: 30_000 });
}

async function fillLogin(page: Page) {
  await page.getByPlaceholder(USER_PLACEHOLDER).fill('admin');
  await page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
}

/** Enter on the filled form → usable console; returns the parts (ms after Enter). */
async function signInToUsableConsole(page: Page, log: NetworkLog) {
  const t0 = performance.now();
  await page.keyboard.press('Enter');
  await visible(page, page.getByTestId('greeting'));
  await visible(page, page.getByTestId('shell-sider'));
  await visible(page, page.getByTestId('page-tab'));
  const ui = performance.now();
  const apiEnd = await log.apiSettled(t0);
  return { ui: ui - t0, api: apiEnd - t0, usable: Math.max(ui, apiEnd) - t0 };
}

function printBytes(title: string, entries: RequestEntry[]) {
  const { kinds, total } = byKind(entries);
  console.log(`${title}: ${total.count} requests, ${kb(total.transferred)} KB transferred, ${kb(total.decoded)} KB decoded`);
  for (const [kind, k] of [...kinds].sort((a, b) => b[1].decoded - a[1].decoded)) {
    console.log(`  ${kind.padEnd(12)} ${String(k.count).padStart(3)} × ${kb(k.transferred).padStart(8)} KB transferred ${kb(k.decoded).padStart(8)} KB decoded`);
  }
  const encodings = new Set(entries.filter((e) => e.decoded > 1024).map((e) => e.encoding ?? 'identity'));
  console.log(`  content encodings of bodies > 1 KB: ${[...encodings].join(', ') || '—'}`);
}

async function baselineRuns(product: Product, baseline: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await product.newPage();
    const t0 = performance.now();
    await run.page.goto(`${product.url}/${baseline}`, { waitUntil: 'commit' });
    await run.page.getByPlaceholder(USER_PLACEHOLDER).waitFor({ state: 'visible' });
    times.push(performance.now() - t0);
    await run.context.close();
  }
  return times;
}

/** Self time by script (and top functions) of a CDP CPU profile. */
function summariseProfile(profile: { nodes: { id: number; callFrame: { functionName: string; url: string }; hitCount?: number }[]; samples: number[]; timeDeltas: number[] }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byUrl = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const [id, ms] of self) {
    const { url, functionName } = byId.get(id)!.callFrame;
    const file = url ? path.basename(new URL(url, 'http://x').pathname) : `(${functionName || 'native'})`;
    byUrl.set(file, (byUrl.get(file) ?? 0) + ms);
    const fn = `${functionName || '(anonymous)'} ${file}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log('CPU profile of one sign-in, self time by script:');
  for (const [f, ms] of top(byUrl, 12)) console.log(`  ${f.padEnd(48)} ${ms.toFixed(0).padStart(6)} ms`);
  console.log('  top functions:');
  for (const [f, ms] of top(byFn, 15)) console.log(`  ${f.slice(0, 70).padEnd(72)} ${ms.toFixed(0).padStart(6)} ms`);
}

const dist = ensureBuild();
process.env.WEB_DIST = dist;
// The baseline page must exist before the server starts (it lists the static files then).
const BASELINE = '__bench_baseline.html';
writeFileSync(
  path.join(dist, BASELINE),
  '<!doctype html><html><head><meta charset="utf-8"><title>baseline</title></head><body><form><input placeholder="请输入账号或邮箱"><input type="password" placeholder="请输入密码"></form></body></html>',
);
const manifestPath = path.join(dist, '.vite', 'manifest.json');
const manifest: Record<string, ManifestChunk> | null = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : null;
const loadBefore = load();
const product = await startProduct();
try {
  const business = await createBenchBusinessPage(product.url, 30);

  // 1. What the login route loads (fresh browser context: nothing cached).
  const { page, context } = await product.newPage();
  const collected = collectScripts(page);
  const loginLog = await NetworkLog.attach(page);
  await page.goto(`${product.url}/#/login`);
  await page.getByPlaceholder(USER_PLACEHOLDER).waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
  await collected.settled();
  const loginEntries = loginLog.list();
  // 1b. The sign-in, then the first business page opened from the sider, in the same context.
  await fillLogin(page);
  loginLog.reset();
  await signInToUsableConsole(page, loginLog);
  const signInEntries = loginLog.list();
  loginLog.reset();
  const t0 = performance.now();
  await page.getByRole('menuitem', { name: '基准订单' }).first().click();
  await page.locator('.ant-table-row').first().waitFor({ state: 'visible' });
  await loginLog.apiSettled(t0);
  const firstBusinessEntries = loginLog.list();
  const storage = await context.storageState();
  await context.close();
  // 1c. A cold load of the business page's URL by a signed-in user (empty cache).
  const coldContext = await product.browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'zh-CN', storageState: storage });
  const coldPage = await coldContext.newPage();
  const coldLog = await NetworkLog.attach(coldPage);
  const t1 = performance.now();
  await coldPage.goto(`${product.url}/#${business.route}`);
  await coldPage.locator('.ant-table-row').first().waitFor({ state: 'visible' });
  await coldLog.apiSettled(t1);
  const coldBusinessEntries = coldLog.list();
  await coldContext.close();

  const loginGzip = collected.scripts.reduce((n, s) => n + s.gzip, 0);
  const loginRaw = collected.scripts.reduce((n, s) => n + s.raw, 0);
  const allChunks = readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  const loadedNames = collected.scripts.map((s) => path.basename(new URL(s.url).pathname));
  const pageChunksLoaded = loadedNames.filter((n) => /Page-[\w-]+\.js$/.test(n) && !/^LoginPage-/.test(n));
  // Module pages: each its own dynamic chunk, none loaded by the login route.
  const modulePages = manifest ? Object.entries(manifest).filter(([src]) => /^src\/modules\/.+\/pages\/.+\.tsx$/.test(src) && !/LoginPage\.tsx$/.test(src)) : [];
  const notLazy = modulePages.filter(([, c]) => !c.isDynamicEntry).map(([src]) => src);
  const loadedModulePages = modulePages.filter(([, c]) => loadedNames.includes(path.basename(c.file))).map(([src]) => src);

  // 2. Timings, cold (a new context each run). Baseline first and last.
  const baseline = await baselineRuns(product, BASELINE);
  const toForm: number[] = [];
  const usable: { ui: number; api: number; usable: number }[] = [];
  const reload: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await product.newPage();
    const log = await NetworkLog.attach(run.page);
    const tForm = performance.now();
    await run.page.goto(`${product.url}/#/login`, { waitUntil: 'commit' });
    await run.page.getByPlaceholder(USER_PLACEHOLDER).waitFor({ state: 'visible' });
    toForm.push(performance.now() - tForm);
    await fillLogin(run.page);
    usable.push(await signInToUsableConsole(run.page, log));
    // The business page open, then reloaded.
    await run.page.goto(`${product.url}/#${business.route}`);
    await run.page.locator('.ant-table-row').first().waitFor({ state: 'visible' });
    await log.apiSettled(performance.now());
    const tReload = performance.now();
    await run.page.reload({ waitUntil: 'commit' });
    await run.page.locator('.ant-table-row').first().waitFor({ state: 'visible' });
    reload.push(performance.now() - tReload);
    await log.detach();
    await run.context.close();
  }
  const baselineAfter = await baselineRuns(product, BASELINE);

  if (process.env.PROFILE) {
    const run = await product.newPage();
    const log = await NetworkLog.attach(run.page);
    await run.page.goto(`${product.url}/#/login`);
    await run.page.getByPlaceholder(USER_PLACEHOLDER).waitFor({ state: 'visible' });
    await run.page.waitForLoadState('networkidle');
    await fillLogin(run.page);
    await log.cdp.send('Profiler.enable');
    await log.cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await log.cdp.send('Profiler.start');
    const parts = await signInToUsableConsole(run.page, log);
    const { profile } = await log.cdp.send('Profiler.stop');
    writeFileSync(process.env.PROFILE, JSON.stringify(profile));
    console.log(`profiled sign-in: usable after ${parts.usable.toFixed(0)} ms (ui ${parts.ui.toFixed(0)}, api ${parts.api.toFixed(0)}); profile in ${process.env.PROFILE}`);
    summariseProfile(profile as never);
    await run.context.close();
  }

  const loadAfter = load();
  const base = median([...baseline, ...baselineAfter]);
  const report = (title: string, values: number[], target?: number) => {
    const m = median(values);
    const verdict = target === undefined ? '' : m <= target ? `  ≤ ${target} ms: met` : `  > ${target} ms: NOT met`;
    console.log(
      `${title.padEnd(44)} median ${m.toFixed(0).padStart(5)} ms  (${(m / base).toFixed(1)}× baseline; min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})${verdict}`,
    );
  };

  console.log(`load average (1, 5, 15 min): before ${loadBefore}, after ${loadAfter}`);
  console.log(`login route JS: ${collected.scripts.length} files, ${kb(loginRaw)} KB raw, ${kb(loginGzip)} KB gzip (budget ${BUDGET_KB} KB) → ${loginGzip / 1024 <= BUDGET_KB ? 'within budget' : 'OVER BUDGET'}`);
  for (const s of collected.scripts.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${path.basename(new URL(s.url).pathname).padEnd(44)} ${kb(s.gzip).padStart(7)} KB gzip`);
  console.log(`chunks in the build: ${allChunks.length}; loaded by the login route: ${loadedNames.length}; page chunks loaded there: ${pageChunksLoaded.length ? pageChunksLoaded.join(', ') : 'none'}`);
  if (manifest) {
    console.log(`module pages in the build: ${modulePages.length}; not a lazy chunk: ${notLazy.length ? notLazy.join(', ') : 'none'}; loaded by the login route: ${loadedModulePages.length ? loadedModulePages.join(', ') : 'none'}`);
  } else {
    console.log('no build manifest (build with --manifest, or let the bench build): module pages checked by chunk name only');
  }
  printBytes('bytes, login route (cold)', loginEntries);
  printBytes('bytes, sign-in → usable console (login route cached)', signInEntries);
  printBytes('bytes, first business page from the menu (console loaded)', firstBusinessEntries);
  printBytes('bytes, business page URL, cold cache, signed in', coldBusinessEntries);
  console.log(`baseline: plain HTML form page (cold, ${RUNS} runs before and ${RUNS} after): median ${base.toFixed(0)} ms (before ${median(baseline).toFixed(0)}, after ${median(baselineAfter).toFixed(0)})`);
  report('navigation → visible login form', toForm, TARGETS.form);
  report('sign-in (Enter) → usable console', usable.map((u) => u.usable), TARGETS.usable);
  report('  of which: greeting + sider + tab bar visible', usable.map((u) => u.ui));
  report('  of which: last shell API answer', usable.map((u) => u.api));
  report(`business page (${business.rows} rows) reload → rows visible`, reload, TARGETS.reload);
  if (loginGzip / 1024 > BUDGET_KB || pageChunksLoaded.length || notLazy.length || loadedModulePages.length) process.exitCode = 1;
} finally {
  await product.stop();
  rmSync(path.join(dist, BASELINE), { force: true });
}
