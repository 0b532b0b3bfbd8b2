import { describe, expect, it, onTestFailed } from 'vitest';
import { productPerTry } from './product-per-try.ts';
import { screenshotPath, type Product } from './product.ts';
import { poll, signInToConsole } from './shell-helpers.ts';

// Issue 29, personal API keys: the administrator makes a key from the user menu narrowed to the
// audit log, copies it from the one-time dialog, and another system (fetch, outside the browser)
// reads the audit log with it but not the users; the key's last use shows on the page; revoked,
// the key is refused at once; the administrators' list shows it revoked.

let product: Product;
const perTry = productPerTry((p) => (product = p));

const withKey = (key: string, path: string) => fetch(`${product.url}/api${path}`, { headers: { 'x-api-key': key } });

describe('personal API keys', () => {
  it('create a narrowed key in the profile, use it from outside, see its use, revoke it', async () => {
    await perTry.forThisTry();
    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('api-keys-failure') }).then(() => undefined));
    await signInToConsole(page, product);

    // The user menu leads to the key page, empty at first.
    await page.getByTestId('user-menu').hover();
    await page.getByRole('menuitem', { name: 'API 密钥' }).click();
    await poll(() => page.url()).toMatch(/#\/account\/apiKeys$/);
    // Away from the user menu, so its hover menu closes.
    await page.mouse.move(600, 500);
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').waitFor({ state: 'detached' }).catch(() => undefined);
    const list = page.getByTestId('my-api-keys');
    await list.getByText('还没有 API 密钥').waitFor();

    await page.getByRole('button', { name: '新建密钥' }).click();
    const dialog = page.getByRole('dialog', { name: '新建 API 密钥' });
    // A name is required.
    await dialog.getByRole('button', { name: /^创\s*建$/ }).click();
    await dialog.getByText('请输入名称').waitFor();
    await dialog.getByLabel('名称').fill('ERP 同步');
    await dialog.getByText('1 年').click();
    await dialog.getByText('只授予选中的权限').click();
    await dialog.getByLabel('搜索权限').fill('审计');
    await dialog.getByText('查看审计日志 (Tessera.AuditLogs)').click();
    await dialog.getByRole('button', { name: /^创\s*建$/ }).click();

    // Shown once, to copy.
    const secret = page.getByTestId('api-key-secret');
    await secret.waitFor();
    await page.getByText('关闭此窗口后将无法再次查看').waitFor();
    const key = await secret.inputValue();
    expect(key).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
    await page.screenshot({ path: screenshotPath('api-key-created') });
    await page.getByTestId('api-key-done').click();
    const row = list.locator('tr', { hasText: 'ERP 同步' });
    await row.getByText('1 项权限').waitFor();
    await row.getByText('从未使用').waitFor();
    await row.getByText('有效').waitFor();
    expect(await row.textContent()).toContain(key.slice(0, 12));
    expect(await page.content()).not.toContain(key);

    // Another system uses it: the audit log yes, the users no.
    expect((await withKey(key, '/app/audit-logs?MaxResultCount=1')).status).toBe(200);
    expect((await withKey(key, '/identity/users')).status).toBe(403);
    await page.reload();
    await poll(async () => (await list.locator('tr', { hasText: 'ERP 同步' }).textContent()) ?? '').toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d\s*127\.0\.0\.1/);
    await page.screenshot({ path: screenshotPath('api-keys-mine') });

    // Revoked: refused from the next call on.
    await list.getByRole('button', { name: '吊销 ERP 同步' }).click();
    await page.locator('.ant-modal-confirm-title', { hasText: '吊销密钥“ERP 同步”？' }).waitFor();
    await page.getByTestId('api-key-revoke-confirm').click();
    await list.locator('tr', { hasText: 'ERP 同步' }).getByText('已吊销').waitFor();
    expect((await withKey(key, '/app/audit-logs?MaxResultCount=1')).status).toBe(401);

    // On a phone the keys are cards, with the same facts.
    const phone = await product.newPage({ width: 390, height: 844 });
    await signInToConsole(phone.page, product);
    await phone.page.goto(`${product.url}/#/account/apiKeys`);
    const card = phone.page.getByTestId('api-key-cards').locator('.ant-card', { hasText: 'ERP 同步' });
    await card.getByText('已吊销').waitFor();
    expect(await card.textContent()).toContain('1 项权限');
    await phone.context.close();

    // The administrators' list: every user's keys, searchable, by status.
    await page.goto(`${product.url}/#/system/apiKeys`);
    const all = page.getByTestId('all-api-keys');
    await all.getByText('没有符合条件的 API 密钥').waitFor();
    await page.getByLabel('状态').click();
    await page.locator('.ant-select-item-option', { hasText: '已吊销' }).click();
    await page.getByPlaceholder('搜索名称、前缀或用户名').fill('ERP');
    await page.keyboard.press('Enter');
    const revokedRow = all.locator('tr', { hasText: 'ERP 同步' });
    await revokedRow.getByText('已吊销').waitFor();
    expect(await revokedRow.textContent()).toContain('admin');
    // Nothing went wrong in the page along the way (the front-end log is empty).
    expect(await page.getByTestId('log-indicator').locator('.ant-badge-count').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('api-keys-admin') });
  });
});
