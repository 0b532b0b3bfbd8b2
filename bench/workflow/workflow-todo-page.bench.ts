/**
 * Issue 14 budgets, in headless Chromium against the built product on PostgreSQL:
 *
 * - the to-do page: user `a` holds 1,000,000 historic and 50,000 open tasks; from navigating to
 *   `/flows/assignTask` in the signed-in app (a hash change from the console) to its first 20 rows
 *   visible — target ≤ 1 s; also from a cold reload of that URL. Baseline in the same run: the
 *   same navigation for user `ini`, who has no task (the page and its chunk without the data).
 * - the to-do count: with the to-do page open, `ini` submits a record (POST /api/app/workflow-instance);
 *   from sending the request, and from its answer, until the sider's 待办任务 badge shows the new
 *   count — target ≤ 2 s from the task's creation (it exists when the answer arrives).
 *
 * Needs a build (`npm run build`) and PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/workflow/workflow-todo-page.bench.ts
 * (`BENCH_HISTORIC`, `BENCH_OPEN`, `RUNS` shrink it).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, signInAs, startProduct } from '../../e2e/product.ts';
import { createThrowawayDatabase, dropThrowawayDatabase } from '../lib/throwaway-database.ts';
import { call, seedUserTasks, WF_USER_PASSWORD, workflowBenchSetup } from './wf-bench-setup.ts';

const HISTORIC = Number(process.env.BENCH_HISTORIC ?? 1_000_000);
const OPEN = Number(process.env.BENCH_OPEN ?? 50_000);
const RUNS = Number(process.env.RUNS ?? 7);
const TARGETS = { page: 1000, count: 2000 };
const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) {
  console.log('bench/workflow/workflow-todo-page measures PostgreSQL: set DATABASE_URL=postgres://user@host:5432/db');
  process.exit(0);
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
console.log(`load average before: ${load()}`);

const dbUrl = await createThrowawayDatabase(baseUrl, 'wftodopage');
const product = await startProduct({ env: { DATABASE_URL: dbUrl } });
const pool = new pg.Pool({ connectionString: dbUrl, max: 4 });

/** From a hash change (the app already running) to `ready` visible: milliseconds. */
async function navigate(page: Page, hash: string, ready: string): Promise<number> {
  await page.goto(`${product.url}/#/dashboard/console`);
  await page.getByTestId('greeting').waitFor();
  await page.waitForTimeout(300);
  const t0 = Date.now();
  await page.evaluate((h) => (location.hash = h), hash);
  await page.locator(ready).first().waitFor({ state: 'visible' });
  return Date.now() - t0;
}

const ROW20 = '[data-testid=todo-table] .ant-table-row:nth-child(21)';
const EMPTY = '[data-testid=todo-table] .ant-table-placeholder';

try {
  const s = await workflowBenchSetup(product.url, pool, ADMIN_PASSWORD);
  console.log(`seeding ${HISTORIC} historic and ${OPEN} open tasks of one user…`);
  const t0 = performance.now();
  await seedUserTasks(pool, s, HISTORIC, OPEN);
  console.log(`seeded in ${Math.round((performance.now() - t0) / 1000)} s`);

  const signed = async (user: string) => {
    const { page, context } = await product.newPage();
    await signInAs(page, product.url, user, WF_USER_PASSWORD);
    await page.waitForURL(/#\/dashboard\/console/);
    return { page, context };
  };
  const ini = await signed('ini');
  const a = await signed('a');
  const baseline: number[] = [];
  const todo: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    baseline.push(await navigate(ini.page, '#/flows/assignTask', EMPTY));
    todo.push(await navigate(a.page, '#/flows/assignTask', ROW20));
  }
  const reload: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r0 = Date.now();
    await a.page.reload();
    await a.page.locator(ROW20).waitFor({ state: 'visible' });
    reload.push(Date.now() - r0);
  }
  const shown = await a.page.locator('.ant-pagination-total-text').first().textContent();
  console.log(`the page says: ${shown}`);

  // The count: a's to-do page open; ini submits records one after another.
  const badge = () => a.page.evaluate(() => document.querySelector('[data-testid=sider-menu] .ant-badge-count')?.getAttribute('title') ?? null);
  const fromSend: number[] = [];
  const fromAnswer: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const before = Number(await badge());
    const recordId = randomUUID();
    await pool.query(`insert into ${s.masterTable} ("Id", "ConcurrencyStamp", "CreationTime", "CreatorId", "Title", "Amount") values ($1, $2, now(), $3, $4, 1)`, [recordId, randomUUID(), s.users.ini, `Live ${i}`]);
    const sent = Date.now();
    const waiting = a.page.waitForFunction((n) => document.querySelector('[data-testid=sider-menu] .ant-badge-count')?.getAttribute('title') === String(n), before + 1, { polling: 'raf', timeout: 10_000 });
    await call(product.url, s.tokens.ini, 'POST', '/app/workflow-instance', { pageId: s.pageId, recordId, definitionId: s.definitionId, clientRequestId: randomUUID() });
    const answered = Date.now();
    await waiting;
    const seen = Date.now();
    fromSend.push(seen - sent);
    fromAnswer.push(seen - answered);
  }
  console.log(`\nload average after: ${load()}`);
  console.log('\n| case | runs (ms) | median ms | target |\n|---|---|---|---|');
  const row = (name: string, v: number[], target: string) => console.log(`| ${name} | ${v.join(', ')} | ${median(v)} | ${target} |`);
  row('baseline: navigate to an empty to-do (ini)', baseline, '—');
  row(`navigate → first 20 rows of ${OPEN} open tasks (a)`, todo, `≤ ${TARGETS.page} ms: ${median(todo) <= TARGETS.page ? 'met' : 'NOT met'} (${(median(todo) / median(baseline)).toFixed(2)}× baseline)`);
  row('cold reload → first 20 rows', reload, '—');
  row('submit sent → sider badge +1', fromSend, `≤ ${TARGETS.count} ms: ${Math.max(...fromSend) <= TARGETS.count ? 'met (every run)' : 'NOT met'}`);
  row('submit answered → sider badge +1', fromAnswer, '—');
} finally {
  await pool.end();
  await product.stop();
  await dropThrowawayDatabase(baseUrl, dbUrl);
}
