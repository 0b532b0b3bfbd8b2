import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, signInAs, startProduct, type Product } from './product.ts';
import { apiCall as apiCallFor, apiToken, poll } from './shell-helpers.ts';

// Issue 25: a delegated administrator manages roles and their members, but does not hold
// `Tessera.AuditLogs`. Adding a colleague to a role that carries it is refused with a message that
// names what is missing; a role within reach works as before.

let product: Product;
let adminToken = '';
const PASSWORD = 'Operator#2026';
const call = <T>(method: string, path: string, body?: unknown) => apiCallFor<T>(product, adminToken, method, path, body);
const ids: Record<string, string> = {};

async function newRole(name: string, codes: string[]) {
  const role = await call<{ id: string }>('POST', '/identity/roles', { name, description: '', isDefault: false, isPublic: true });
  if (codes.length) await call('PUT', `/permission-management/permissions?providerName=R&providerKey=${role.id}`, { permissions: codes.map((name) => ({ name, isGranted: true })) });
  return role.id;
}

beforeAll(async () => {
  product = await startProduct();
  adminToken = await apiToken(product);
  const groups = await call<{ groups: { name: string; permissions: { name: string }[] }[] }>('GET', `/permission-management/permissions?providerName=R&providerKey=${await newRole('probe', [])}`);
  const operatorCodes = groups.groups.filter((g) => g.name === 'Identity' || g.name === 'Tessera.Authorization').flatMap((g) => g.permissions.map((p) => p.name));
  await newRole('operators', operatorCodes);
  ids.payroll = await newRole('payroll', ['Tessera.AuditLogs']);
  ids.basic = await newRole('basic', ['Identity.Users']);
  await call('POST', '/identity/users', { userName: 'operator', name: '运维小王', surname: '', email: 'operator@example.com', phoneNumber: '', password: PASSWORD, roleNames: ['operators'], organizationUnitIds: [] });
  ids.clerk = (await call<{ id: string }>('POST', '/identity/users', { userName: 'clerk', name: '职员小李', surname: '', email: 'clerk@example.com', phoneNumber: '', password: PASSWORD, roleNames: [], organizationUnitIds: [] })).id;
}, 180_000);
afterAll(() => product?.stop());

async function addMember(page: Page, role: string, userName: string) {
  await page.locator('.ant-table-tbody tr[data-row-key]', { hasText: role }).getByRole('button', { name: /成员/ }).click();
  const drawer = page.locator('.ant-drawer:visible');
  await drawer.getByRole('button', { name: /添加成员/ }).click();
  const modal = page.locator('.ant-modal:visible');
  await modal.getByRole('combobox', { name: '搜索并选择用户' }).click();
  await page.keyboard.type(userName);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: userName }).first().click();
  // A multiple select keeps its list open: close it by clicking the dialog's title.
  await modal.locator('.ant-modal-title').click();
  await poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
  await modal.getByRole('button', { name: /确\s*定/ }).click();
}

describe('delegated administration in the browser', () => {
  it('the operator is refused a role that carries more, with a clear message; a role within reach works', async () => {
    const { page } = await product.newPage();
    onTestFailed(async () => {
      await page.screenshot({ path: screenshotPath('delegation-failure'), fullPage: true });
    });
    await signInAs(page, product.url, 'operator', PASSWORD);
    await page.getByTestId('greeting').waitFor();
    await page.goto(`${product.url}/#/builtIn/role`);
    await poll(() => page.locator('.ant-table-tbody tr[data-row-key]', { hasText: 'payroll' }).count()).toBe(1);

    await addMember(page, 'payroll', '职员小李');
    const refusal = page.locator('.ant-message-notice', { hasText: '不能授予或管理超出您自身权限的内容：查看审计日志 (Tessera.AuditLogs)' });
    await refusal.waitFor();
    await page.screenshot({ path: screenshotPath('delegation-refused') });
    const clerk = await call<{ roleNames: string[] }>('GET', `/identity/users/${ids.clerk}`);
    expect(clerk.roleNames).toEqual([]);

    await page.keyboard.press('Escape');
    await page.locator('.ant-modal:visible').getByRole('button', { name: /取\s*消/ }).click().catch(() => undefined);
    await page.keyboard.press('Escape');
    await poll(() => page.locator('.ant-drawer:visible').count()).toBe(0);
    await addMember(page, 'basic', '职员小李');
    await page.locator('.ant-message-notice', { hasText: '已添加 1 名成员' }).waitFor();
    await poll(async () => (await call<{ roleNames: string[] }>('GET', `/identity/users/${ids.clerk}`)).roleNames).toEqual(['basic']);
  });
});
