import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, screenshotPath, signInAs, startProduct, type Product } from './product.ts';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

describe('signing in', () => {
  it('asks for complete information when a field is empty', async () => {
    const { page, context } = await product.newPage();
    await page.goto(`${product.url}/#/login`);
    await page.getByPlaceholder('请输入账号或邮箱').fill('admin');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await expect.poll(() => page.getByText('请填写完整信息').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('shows the server message for a wrong password and stays on the login page', async () => {
    const { page, context } = await product.newPage();
    await signInAs(page, product.url, 'admin', 'wrong-password');
    // The refusal comes after the password check (Argon2 at production cost: ~1 s on a loaded 2-core machine).
    await expect.poll(() => page.getByText('用户名或密码错误').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(page.url()).toContain('#/login');
    await context.close();
  });

  it('signs the admin in, sets the three cookies for a day and lands on the dashboard', async () => {
    const { page, context } = await product.newPage();
    await page.goto(`${product.url}/#/dashboard/console`);
    await page.waitForURL(/#\/login\?redirect=/);
    await signInAs(page, product.url, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/#\/dashboard\/console/);
    await expect.poll(() => page.getByTestId('greeting').textContent()).toContain('管理员');
    const cookies = await context.cookies();
    const byName = Object.fromEntries(cookies.map((c) => [c.name, c]));
    expect(byName.isAdmin?.value).toBe('true');
    expect(byName.token?.value.split('.')).toHaveLength(3);
    expect(byName.uuid?.value).toMatch(/^[0-9a-f-]{36}$/);
    const lifetime = byName.token!.expires - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(23 * 3600);
    expect(lifetime).toBeLessThan(25 * 3600);
    await page.screenshot({ path: screenshotPath('dashboard-desktop') });
    await context.close();
  });
});
