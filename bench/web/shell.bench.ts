/**
 * Web shell budget (issue 4): the gzip JavaScript the login route loads (budget ≤ 250 KB, every
 * module page a lazy chunk) and, in headless Chromium, the time from navigation to a visible
 * login form and from pressing Enter on the form to a rendered dashboard. Baseline in the same run:
 * a plain HTML page with the same two inputs served by the same server (what any page costs here).
 * "Every module a lazy chunk" is checked on the build's manifest: each page under web/src/modules
 * (but the login page) must be a dynamic entry whose file the login route never loads.
 *
 *   npx tsx bench/web/shell.bench.ts            builds the web app into a temporary folder
 *   WEB_DIST=/tmp/x npx tsx bench/web/shell.bench.ts   measures an existing build
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, startProduct } from '../../e2e/product.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUDGET_KB = 250;
const RUNS = Number(process.env.RUNS ?? 5);

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

/** JS responses a page loads, with their gzip sizes (the server sends them uncompressed). */
function collectScripts(page: Page) {
  const scripts: { url: string; raw: number; gzip: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const url = response.url();
    if (!url.endsWith('.js')) return;
    pending.push(
      response
        .body()
        .then((body) => void scripts.push({ url, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }))
        .catch(() => undefined),
    );
  });
  return { scripts, settled: () => Promise.all(pending) };
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
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
const product = await startProduct();
try {
  // 1. What the login route loads (fresh browser context: nothing cached).
  const { page, context } = await product.newPage();
  const collected = collectScripts(page);
  await page.goto(`${product.url}/#/login`);
  await page.getByPlaceholder('请输入账号或邮箱').waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
  await collected.settled();
  await context.close();
  const loginGzip = collected.scripts.reduce((n, s) => n + s.gzip, 0);
  const loginRaw = collected.scripts.reduce((n, s) => n + s.raw, 0);
  const allChunks = readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  const loadedNames = collected.scripts.map((s) => path.basename(new URL(s.url).pathname));
  const pageChunksLoaded = loadedNames.filter((n) => /Page-[\w-]+\.js$/.test(n) && !/^LoginPage-/.test(n));

  // Module pages: each its own dynamic chunk, none loaded by the login route.
  const modulePages = manifest ? Object.entries(manifest).filter(([src]) => /^src\/modules\/.+\/pages\/.+\.tsx$/.test(src) && !/LoginPage\.tsx$/.test(src)) : [];
  const notLazy = modulePages.filter(([, c]) => !c.isDynamicEntry).map(([src]) => src);
  const loadedModulePages = modulePages.filter(([, c]) => loadedNames.includes(path.basename(c.file))).map(([src]) => src);

  // 2. Navigation → visible login form, cold (new context each run); the baseline page alike.
  const toForm: number[] = [];
  const toBaseline: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await product.newPage();
    const t0 = performance.now();
    await run.page.goto(`${product.url}/${BASELINE}`, { waitUntil: 'commit' });
    await run.page.getByPlaceholder('请输入账号或邮箱').waitFor({ state: 'visible' });
    toBaseline.push(performance.now() - t0);
    await run.context.close();
  }
  const toDashboard: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await product.newPage();
    const t0 = performance.now();
    await run.page.goto(`${product.url}/#/login`, { waitUntil: 'commit' });
    await run.page.getByPlaceholder('请输入账号或邮箱').waitFor({ state: 'visible' });
    toForm.push(performance.now() - t0);
    // 3. Enter on the filled form → the console's greeting and the sider menu are on screen.
    await run.page.getByPlaceholder('请输入账号或邮箱').fill('admin');
    await run.page.getByPlaceholder('请输入密码').fill(ADMIN_PASSWORD);
    const t1 = performance.now();
    await run.page.keyboard.press('Enter');
    await run.page.getByTestId('greeting').waitFor({ state: 'visible' });
    await run.page.getByTestId('shell-sider').waitFor({ state: 'visible' });
    toDashboard.push(performance.now() - t1);
    await run.context.close();
  }

  const kb = (n: number) => (n / 1024).toFixed(1);
  console.log(`login route JS: ${collected.scripts.length} files, ${kb(loginRaw)} KB raw, ${kb(loginGzip)} KB gzip (budget ${BUDGET_KB} KB) → ${loginGzip / 1024 <= BUDGET_KB ? 'within budget' : 'OVER BUDGET'}`);
  for (const s of collected.scripts.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${path.basename(new URL(s.url).pathname).padEnd(44)} ${kb(s.gzip).padStart(7)} KB gzip`);
  console.log(`chunks in the build: ${allChunks.length}; loaded by the login route: ${loadedNames.length}; page chunks loaded there: ${pageChunksLoaded.length ? pageChunksLoaded.join(', ') : 'none'}`);
  if (manifest) {
    console.log(`module pages in the build: ${modulePages.length}; not a lazy chunk: ${notLazy.length ? notLazy.join(', ') : 'none'}; loaded by the login route: ${loadedModulePages.length ? loadedModulePages.join(', ') : 'none'}`);
  } else {
    console.log('no build manifest (build with --manifest, or let the bench build): module pages checked by chunk name only');
  }
  console.log(`baseline: plain HTML form page (cold, ${RUNS} runs): median ${median(toBaseline).toFixed(0)} ms, min ${Math.min(...toBaseline).toFixed(0)}, max ${Math.max(...toBaseline).toFixed(0)}`);
  console.log(`navigation → visible login form (cold, ${RUNS} runs): median ${median(toForm).toFixed(0)} ms, min ${Math.min(...toForm).toFixed(0)}, max ${Math.max(...toForm).toFixed(0)}`);
  console.log(`sign-in (Enter) → rendered dashboard (${RUNS} runs): median ${median(toDashboard).toFixed(0)} ms, min ${Math.min(...toDashboard).toFixed(0)}, max ${Math.max(...toDashboard).toFixed(0)}`);
  if (loginGzip / 1024 > BUDGET_KB || pageChunksLoaded.length || notLazy.length || loadedModulePages.length) process.exitCode = 1;
} finally {
  await product.stop();
  rmSync(path.join(dist, BASELINE), { force: true });
}
