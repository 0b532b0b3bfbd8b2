/** Helpers the shell journeys share (issue 4): API calls beside the browser, waits, settings. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { ADMIN_PASSWORD, signInAs, type Product } from './product.ts';

/**
 * A suffix for the codes and names a journey creates, so a retried test (vitest.config.ts) does not
 * meet what its first try left behind: '' on the first try, 'r1' on the first retry, and so on.
 */
export const attemptSuffix = (task: { result?: { retryCount?: number } }) => (task.result?.retryCount ? `r${task.result.retryCount}` : '');

/** The machine is shared: give the UI time to answer before a check fails. */
export const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

export async function tokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
  if (!cookie) throw new Error('not signed in');
  return cookie.value;
}

export async function apiCall<T>(product: Product, token: string | null, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${product.url}/api${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Signs in over the API (no browser) and returns the access token. */
export async function apiToken(product: Product, userName = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  const res = await apiCall<{ code: number; data: { accessToken: string } | null }>(product, null, 'POST', '/Auth/Login', { username: userName, password });
  if (res.code !== 0 || !res.data) throw new Error(`login of ${userName} failed: ${JSON.stringify(res)}`);
  return res.data.accessToken;
}

/** A user with no roles (so no access codes at all). */
export async function createPlainUser(product: Product, adminToken: string, userName: string, password: string) {
  return apiCall<{ id: string }>(product, adminToken, 'POST', '/identity/users', {
    userName,
    name: userName,
    email: `${userName}@example.com`,
    password,
    roleNames: [],
  });
}

/** Signs in through the form and waits for the console. */
export async function signInToConsole(page: Page, product: Product, userName = 'admin', password = ADMIN_PASSWORD) {
  await signInAs(page, product.url, userName, password);
  await page.waitForURL(/#\/dashboard\/console/);
  await page.getByTestId('greeting').waitFor();
}

/** The paths of the open tabs, in order. */
export const tabPaths = (page: Page) => page.getByTestId('page-tab').evaluateAll((els) => els.map((el) => el.getAttribute('data-path')));

/** The path of the current page (the hash without the query). */
export const currentPath = (page: Page) => new URL(page.url()).hash.replace(/^#/, '').split('?')[0];

/** Opens a page by URL and waits for its tab to become the active one. */
export async function openPage(page: Page, product: Product, path: string) {
  await page.goto(`${product.url}/#${path}`);
  await page.locator(`[data-testid="page-tab"][data-path="${path}"][aria-current="page"]`).waitFor();
}

export async function openSettings(page: Page) {
  await page.getByTestId('open-settings').click();
  await page.locator('.settings-drawer .ant-drawer-section').waitFor({ state: 'visible' });
}

export const settingSwitch = (page: Page, key: string) => page.getByTestId(`setting-${key}`);
export const isChecked = async (page: Page, key: string) => (await settingSwitch(page, key).getAttribute('aria-checked')) === 'true';
export const isDisabled = (page: Page, key: string) => settingSwitch(page, key).isDisabled();

/** Waits until the page's URL matches (in-app hash changes, including router redirects with replace). */
export const waitForHash = (page: Page, pattern: RegExp) => poll(() => page.url()).toMatch(pattern);

/**
 * Switches the interface language from the header's selector: the item of the open language menu
 * (not the last visible drop-down, which may be another one still closing), then waits for the
 * document's language.
 */
export async function chooseLanguage(page: Page, label: string, lang: string) {
  await page.getByTestId('language-selector').click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: label, exact: true }).click();
  await poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}
