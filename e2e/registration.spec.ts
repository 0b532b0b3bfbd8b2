import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, signInAs, startProduct, type Product } from './product.ts';

// Issue 25 items 4–5: registration is off on a new installation; an administrator opens it on the
// system settings page; a visitor then registers through the proof-of-work captcha and is signed
// in at once. The visitor opens the product by a LAN host name over plain http — not a secure
// context, so no crypto.subtle: the captcha must work without it.

const HOST = 'erp.office.test';
let product: Product;
let lanUrl = '';

beforeAll(async () => {
  product = await startProduct({ browserArgs: [`--host-resolver-rules=MAP ${HOST} 127.0.0.1`] });
  lanUrl = `http://${HOST}:${product.port}`;
});
afterAll(() => product?.stop());

const shootOnFailure = (page: Page, name: string) =>
  onTestFailed(async () => {
    await page.screenshot({ path: screenshotPath(`${name}-failure`) }).catch(() => {});
  });

describe('registration', () => {
  it('is closed on a new installation: no link on the login page', async () => {
    const { page, context } = await product.newPage();
    shootOnFailure(page, 'registration-closed');
    await page.goto(`${lanUrl}/#/login`);
    await page.getByPlaceholder('请输入账号或邮箱').waitFor();
    const options = await page.evaluate(() => fetch('./api/register/options').then((r) => r.json()));
    expect(options.isEnabled).toBe(false);
    expect(await page.getByRole('link', { name: '没有账号？注册' }).count()).toBe(0);
    await page.goto(`${lanUrl}/#/register`);
    await expect.poll(() => page.getByText('系统未开放注册').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await context.close();
  });

  it('an administrator opens it on the system settings page', async () => {
    const { page, context } = await product.newPage();
    shootOnFailure(page, 'registration-settings');
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    await page.goto(`${product.url}/#/system/settings`);
    const form = page.getByRole('form', { name: '系统设置' });
    await form.waitFor({ timeout: 30_000 });
    const open = form.getByRole('switch');
    await expect.poll(() => open.getAttribute('aria-checked')).toBe('false');
    await open.click();
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => page.getByText('设置已保存').count()).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('system-settings') });
    await context.close();
  });

  it('a visitor registers over plain http by host name with the proof-of-work captcha and is signed in at once', async () => {
    const { page, context } = await product.newPage();
    shootOnFailure(page, 'registration-visitor');
    await page.goto(`${lanUrl}/#/login`);
    expect(await page.evaluate(() => ({ secure: window.isSecureContext, subtle: typeof crypto.subtle }))).toEqual({ secure: false, subtle: 'undefined' });
    await page.getByRole('link', { name: '没有账号？注册' }).click();
    await page.waitForURL(/#\/register/);
    const form = page.getByRole('form', { name: '注册账号' });
    await form.waitFor({ timeout: 30_000 });
    await form.getByLabel('邮箱').fill('visitor@example.com');
    await form.getByLabel('手机号').fill('13800000009');
    await form.getByLabel('密码', { exact: true }).fill('Visit0r!Pass');
    await form.getByLabel('确认密码').fill('Visit0r!Pass');
    // Sending before the verification is refused in the browser.
    await form.getByRole('button', { name: /注\s*册/ }).click();
    await expect.poll(() => page.getByText('请先完成人机验证').count()).toBeGreaterThan(0);
    await form.getByRole('checkbox', { name: '我不是机器人' }).click();
    await expect.poll(() => page.locator('.pow-captcha').getAttribute('data-state'), { timeout: 60_000 }).toBe('verified');
    await expect.poll(() => page.getByText('请先完成人机验证').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('registration-form') });
    await form.getByRole('button', { name: /注\s*册/ }).click();
    await page.waitForURL(/#\/dashboard\/console/, { timeout: 30_000 });
    await expect.poll(() => page.getByTestId('greeting').textContent(), { timeout: 30_000 }).toContain('visitor');
    const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
    expect(cookies.isAdmin).toBe('false');
    expect(cookies.token?.split('.')).toHaveLength(3);
    await context.close();
  });
});
