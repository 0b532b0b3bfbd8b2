import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../web/src/app/routes/route-table.ts';
import { startProduct, type Product } from './product.ts';
import { signInToConsole } from './shell-helpers.ts';

// Issue 28, test 2: the zh-CN interface of every route holds no English words. On a fresh server of
// its own (no user data from other journeys), each route's visible texts and placeholders, titles
// and accessible names are scanned for Latin-only words outside an allow-list of product names,
// codes and the seeded data's own names, so an English leak is caught when it appears.

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

/** Words a Chinese interface legitimately shows in Latin letters (case-insensitive). */
const ALLOWED = new Set(
  [
    // Product and technology names.
    'Tessera', 'Excel', 'Markdown', 'JSON', 'HTML', 'PDF', 'SQL', 'PostgreSQL', 'MySQL', 'MariaDB', 'Server', 'HTTP', 'REST', 'API', 'OpenAPI', 'URL', 'ID', 'IP', 'QR', 'UTC', 'GMT', 'CSV', 'PNG', 'JPEG', 'GIF', 'WebP', 'MB', 'KB', 'px',
    // Codes: cultures, permission groups and codes, the seeded administrator.
    'zh', 'CN', 'en', 'US', 'Hant', 'vi', 'th', 'km', 'my', 'VN', 'TH', 'KH', 'MM', 'admin', 'Biz', 'Action', 'Access', 'Identity',
    // Language names in the language selector and packs (each shown in its own language).
    'English', 'Tiếng', 'Việt',
  ].map((w) => w.toLowerCase()),
);

/** Latin-only words in the page: visible text plus placeholders, titles and aria-labels. */
async function latinWords(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [document.title, document.body.innerText];
    // Ant Design's icons name themselves in English (`aria-label="dashboard"`): the library's, left aside.
    for (const el of Array.from(document.querySelectorAll('[placeholder], [title], [aria-label]:not(.anticon)'))) {
      const box = (el as HTMLElement).getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      for (const attribute of ['placeholder', 'title', 'aria-label']) {
        const value = el.getAttribute(attribute);
        if (value) out.push(value);
      }
    }
    return out;
  });
  // A word of Latin letters; part of an email, a URL or a code with digits, dots or underscores is not one.
  const words = texts.join('\n').match(/(?<![\p{L}\d_.@/-])\p{Script=Latin}+(?![\p{L}\d_.@/-])/gu) ?? [];
  return [...new Set(words.filter((w) => w.length > 1 && !ALLOWED.has(w.toLowerCase())))];
}

/** The route's chunk rendered and its first answers arrived: text in the page, no loading mark left. */
async function settled(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const main = document.querySelector('.shell-page') ?? document.body;
          const loading = document.querySelector('.app-loading, .ant-spin-spinning, .ant-skeleton-active, #nprogress, [aria-busy="true"]');
          return !loading && (main as HTMLElement).innerText.trim().length > 0;
        }),
      { timeout: 20_000, interval: 100 },
    )
    .toBe(true);
  // Answers that arrive after the first paint (a table's rows, a tree) render within a moment.
  await page.waitForTimeout(400);
}

// The icon page is a catalogue of icon names to copy: identifiers, not texts.
const scanned = ROUTES.filter((r) => r.layout !== 'public' && !/[:*]/.test(r.path) && !['refreshHelper', 'redirectHelper', 'icons'].includes(r.own ?? ''));

describe('zh-CN texts', () => {
  it('no route shows English words to a Chinese user', async () => {
    expect(scanned.length).toBeGreaterThan(30);
    const { page, context } = await product.newPage({ width: 1440, height: 900 });
    await signInToConsole(page, product);
    const leaks: Record<string, string[]> = {};
    for (const route of scanned) {
      await page.goto(`${product.url}/#${route.path}`);
      await settled(page);
      const words = await latinWords(page);
      if (words.length) leaks[route.path] = words;
    }
    // The login page, signed out.
    await context.clearCookies();
    await page.goto(`${product.url}/#/login`);
    await page.getByRole('button', { name: '登 录' }).or(page.getByRole('button', { name: '登录' })).waitFor();
    const login = await latinWords(page);
    if (login.length) leaks['/login'] = login;
    expect(Object.entries(leaks).map(([path, words]) => `${path}: ${words.join(' ')}`)).toEqual([]);
    await context.close();
  });
});
