import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, signInAs, startProduct, type Product } from './product.ts';
import { apiCall as apiCallFor, poll, tokenOf } from './shell-helpers.ts';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

const BUYER_PASSWORD = 'Buyer#2026-e2e';


const apiCall = <T>(token: string, method: string, path: string, body?: unknown) => apiCallFor<T>(product, token, method, path, body);

/** What the signed-in browser gets from the runtime menu call (spec §7: SkipCount 0, MaxResultCount 100). */
const myMenus = (page: Page) =>
  page.evaluate(async () => {
    const token = document.cookie.split('; ').find((c) => c.startsWith('token='))!.slice(6);
    const res = await fetch('/api/app/business-menu?SkipCount=0&MaxResultCount=100', { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { items: { title: Record<string, string>; subBusinessMenus: unknown[] }[]; totalCount: number };
    return body.items.map((m) => m.title['zh-CN']);
  });

async function toggleGrant(page: Page, menuTitle: string) {
  await page.getByPlaceholder('搜索权限名称或编码').fill(menuTitle);
  const node = page.locator('.ant-tree-treenode', { hasText: menuTitle }).last();
  await node.locator('.ant-tree-checkbox').click();
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
}

describe('granting a business menu', () => {
  it('shows a user exactly the menu granted to their role, and hides it again once revoked', async () => {
    const { page: admin, context: adminContext } = await product.newPage();
    onTestFailed(() => admin.screenshot({ path: screenshotPath('authorization-failure') }).then(() => undefined));
    await signInAs(admin, product.url);
    await admin.waitForURL(/#\/dashboard\/console/);
    const adminToken = await tokenOf(admin);

    // A menu the buyer must never see.
    await apiCall(adminToken, 'POST', '/app/business-menu', { title: { 'zh-CN': '销售管理', 'en-US': 'Sales' }, url: 'DollarOutlined' });

    // The menu page: create "采购管理" with an icon from the picker.
    await admin.goto(`${product.url}/#/builtIn/menu`);
    await admin.getByRole('button', { name: /新建菜单/ }).first().click();
    await admin.getByLabel('语言 zh-CN').fill('采购管理');
    await admin.getByLabel('语言 en-US').fill('Purchasing');
    await admin.getByText('选择图标', { exact: true }).click();
    await admin.getByPlaceholder('搜索图标名称').fill('ShoppingCart');
    await admin.getByRole('option', { name: 'ShoppingCartOutlined' }).click();
    await admin.getByRole('button', { name: /保\s*存/ }).click();
    await poll(() => admin.getByTestId('menu-permission-code').count()).toBe(1);
    const code = (await admin.getByTestId('menu-permission-code').textContent())!.trim();
    expect(code).toMatch(/^Biz\.Menu\.[0-9a-f]{32}$/);
    await poll(() => admin.getByTestId('business-menu-tree').getByText('采购管理').count()).toBe(1);
    await admin.screenshot({ path: screenshotPath('business-menus') });

    // A role and a user with that role (identity API).
    await apiCall(adminToken, 'POST', '/identity/roles', { name: '采购员' });
    await apiCall(adminToken, 'POST', '/identity/users', {
      userName: 'buyer1',
      name: '采购员一',
      surname: '',
      email: 'buyer1@example.test',
      phoneNumber: '',
      isActive: true,
      lockoutEnabled: true,
      roleNames: ['采购员'],
      organizationUnitIds: [],
      password: BUYER_PASSWORD,
    });

    // Grant the role the menu's code on the authorization page.
    await admin.goto(`${product.url}/#/builtIn/authorization`);
    await admin.getByRole('button', { name: '采购员' }).click();
    await poll(() => admin.getByTestId('authorization-target').textContent()).toBe('采购员');
    await toggleGrant(admin, '采购管理');
    await admin.screenshot({ path: screenshotPath('authorization-granted') });

    // The permission tree names business menus in the interface language (issue 12, defect 10).
    await admin.getByPlaceholder('搜索权限名称或编码').fill('');
    const treeNode = (title: string) => admin.locator('.ant-tree-treenode', { hasText: title });
    await admin.getByTestId('language-selector').click();
    await admin.locator('.ant-dropdown:visible').last().getByText('English').click();
    await poll(() => treeNode('Purchasing').count()).toBeGreaterThan(0);
    expect(await treeNode('采购管理').count()).toBe(0);
    await admin.getByTestId('language-selector').click();
    await admin.locator('.ant-dropdown:visible').last().getByText('简体中文').click();
    await poll(() => treeNode('采购管理').count()).toBeGreaterThan(0);

    // The buyer sees exactly that menu.
    const { page: buyer, context: buyerContext } = await product.newPage();
    await signInAs(buyer, product.url, 'buyer1', BUYER_PASSWORD);
    await buyer.waitForURL(/#\/dashboard\/console/);
    expect(await myMenus(buyer)).toEqual(['采购管理']);
    const sider = buyer.locator('.ant-layout-sider');
    await poll(() => sider.getByText('采购管理').count()).toBeGreaterThan(0);
    expect(await sider.getByText('销售管理').count()).toBe(0);
    await buyer.screenshot({ path: screenshotPath('authorization-buyer-sider') });

    // Revoke; after a refresh the menu is gone.
    await toggleGrant(admin, '采购管理');
    await buyer.reload();
    await buyer.waitForURL(/#\/dashboard\/console/);
    expect(await myMenus(buyer)).toEqual([]);
    // The sider is back (the dashboard entry shows) and the menu is not in it.
    await poll(() => sider.getByText('仪表盘').count()).toBeGreaterThan(0);
    expect(await sider.getByText('采购管理').count()).toBe(0);

    // The audit page shows the grant and the revocation.
    await admin.goto(`${product.url}/#/system/audit`);
    await admin.getByPlaceholder('搜索对象、IP…').fill('R:');
    await admin.getByRole('button', { name: /查\s*询/ }).click();
    await poll(() => admin.locator('.ant-table-row').count()).toBe(2);
    // Object types in the interface language, not their codes (issue 28, defect 6).
    expect(await admin.locator('.ant-table-row').first().innerText()).toContain('授权');
    expect(await admin.locator('.ant-table-tbody').innerText()).not.toContain('PermissionGrant');
    await admin.locator('.ant-table-row').first().locator('.ant-table-row-expand-icon').click();
    await poll(() => admin.getByText('修改前').count()).toBeGreaterThan(0);
    await admin.screenshot({ path: screenshotPath('audit-log') });

    await buyerContext.close();
    await adminContext.close();
  });
});

describe('designing permissions and data scopes', () => {
  it('creates a business page’s codes, grants one to a role, shows it inherited on the user and sets a data scope', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('authorization-failure') }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);

    await page.goto(`${product.url}/#/design/authority`);
    await page.getByRole('button', { name: /新建页面权限/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('页面编码').fill('Orders');
    await dialog.getByLabel('语言 zh-CN').first().fill('订单');
    await dialog.getByRole('button', { name: /添加按钮/ }).click();
    await dialog.getByLabel('编码', { exact: true }).first().fill('Approve');
    await dialog.getByLabel('语言 zh-CN').nth(1).fill('审核');
    await dialog.getByRole('button', { name: /添加字段/ }).click();
    await dialog.getByLabel('编码', { exact: true }).nth(1).fill('Amount');
    await dialog.getByLabel('语言 zh-CN').nth(2).fill('金额');
    await poll(() => dialog.getByText('Biz.Orders.Field.Amount.Edit').count()).toBe(1);
    await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
    await poll(() => page.locator('.ant-table-row').count()).toBe(4);
    expect(await page.locator('.ant-table-row', { hasText: 'Biz.Orders.Approve' }).count()).toBe(1);
    await page.screenshot({ path: screenshotPath('permission-definitions') });

    // Grant the role the page's access code; the user inherits it.
    await page.goto(`${product.url}/#/builtIn/authorization`);
    await page.getByRole('button', { name: '采购员' }).click();
    await toggleGrant(page, '访问页面');
    await page.getByText('用户', { exact: true }).click();
    await page.getByRole('button', { name: /采购员一/ }).click();
    await poll(() => page.getByTestId('authorization-target').textContent()).toContain('buyer1');
    await page.getByPlaceholder('搜索权限名称或编码').fill('Biz.Orders');
    const inherited = page.locator('.ant-tree-treenode', { hasText: '访问页面' });
    await poll(() => inherited.locator('.ant-tag', { hasText: '角色' }).count(), 30_000).toBe(1);
    expect(await inherited.locator('.ant-tree-checkbox-disabled.ant-tree-checkbox-checked').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('authorization-user-inherited') });

    // A data scope for the role on that page.
    await page.getByText('角色', { exact: true }).first().click();
    await page.getByRole('button', { name: '采购员' }).click();
    await page.getByRole('tab', { name: '数据权限' }).click();
    await page.getByRole('button', { name: /添加页面/ }).click();
    await page.getByRole('combobox', { name: '业务页面' }).fill('Orders');
    await page.getByRole('combobox', { name: '数据范围' }).click();
    await page.getByTitle('本组织', { exact: true }).click();
    // A second page limited by custom conditions.
    await page.getByRole('button', { name: /添加页面/ }).click();
    await page.getByRole('combobox', { name: '业务页面' }).nth(1).fill('Quotes');
    await page.getByRole('combobox', { name: '数据范围' }).nth(1).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden):not([class*="-leave"]) .ant-select-item-option', { hasText: '自定义条件' }).click();
    await page.getByRole('button', { name: /0 个条件/ }).click();
    const conditions = page.getByRole('dialog');
    await conditions.getByPlaceholder('如 Region').fill('Region');
    await conditions.getByRole('combobox', { name: '比较方式' }).click();
    await conditions.getByRole('combobox', { name: '比较方式' }).fill('属于');
    await page.locator('.ant-select-item-option:visible', { hasText: '属于' }).first().click();
    await conditions.getByPlaceholder('多个值用逗号分隔').fill('East, West');
    await conditions.getByRole('button', { name: /确\s*定/ }).click();
    await poll(() => page.getByRole('button', { name: /1 个条件/ }).count()).toBe(1);
    await page.getByRole('tabpanel').getByRole('button', { name: /保\s*存/ }).click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
    const token = await tokenOf(page);
    const roles = await apiCall<{ items: { id: string; name: string }[] }>(token, 'GET', '/identity/roles?Filter=%E9%87%87%E8%B4%AD%E5%91%98');
    const scopes = await apiCall<{ items: unknown[] }>(token, 'GET', `/app/data-scopes?roleId=${roles.items[0]!.id}`);
    expect(scopes.items).toEqual([
      { pageKey: 'Orders', scope: 'ownUnit', customFilter: null },
      {
        pageKey: 'Quotes',
        scope: 'custom',
        customFilter: [{ key: 'Region', judgmentMethod: 'in', value: ['East', 'West'], leftBracket: '', rightBracket: '', linkCondition: 'and', sortNo: 1 }],
      },
    ]);
    await page.screenshot({ path: screenshotPath('authorization-data-scopes') });
    await context.close();
  });
});

describe('arranging business menus', () => {
  it('re-parents and reorders menus by drag and drop', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('authorization-failure') }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    const token = await tokenOf(page);
    await apiCall(token, 'POST', '/app/business-menu', { title: { 'zh-CN': '仓库' } });
    await apiCall(token, 'POST', '/app/business-menu', { title: { 'zh-CN': '盘点' } });
    await page.goto(`${product.url}/#/builtIn/menu`);
    const tree = page.getByTestId('business-menu-tree');
    const node = (title: string) => tree.locator('.ant-tree-treenode', { hasText: title }).last();
    await poll(() => node('盘点').count()).toBe(1);

    // antd's tree drops inside a node when the pointer ends right of where the drag started.
    const drag = async (title: string, onto: string, dx: number, where: 'top' | 'bottom') => {
      const from = (await node(title).locator('.ant-tree-node-content-wrapper').boundingBox())!;
      const to = (await node(onto).locator('.ant-tree-node-content-wrapper').boundingBox())!;
      const x = from.x + 20;
      await page.mouse.move(x, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(x + 5, from.y + from.height / 2, { steps: 2 });
      await page.mouse.move(x + dx, to.y + (where === 'top' ? 3 : to.height - 3), { steps: 8 });
      await page.mouse.up();
    };
    const under = async () => {
      const list = await apiCall<{ items: { title: Record<string, string>; subBusinessMenus: { title: Record<string, string> }[] }[] }>(token, 'GET', '/app/business-menu/all');
      return list.items.map((m) => [m.title['zh-CN'], m.subBusinessMenus.map((s) => s.title['zh-CN'])]);
    };
    await drag('盘点', '仓库', 60, 'bottom');
    await poll(under).toContainEqual(['仓库', ['盘点']]);

    // Out again, above the first top-level menu.
    const firstTitle = (await under())[0]![0] as string;
    await drag('盘点', firstTitle, 0, 'top');
    await poll(async () => (await under())[0]).toEqual(['盘点', []]);
    expect(await under()).toContainEqual(['仓库', []]);
    await page.screenshot({ path: screenshotPath('business-menus-dragged') });
    await context.close();
  });
});

describe('role permissions and system menus', () => {
  it('opens a role’s granted permissions from the role list and lists the system menus with their codes', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('authorization-failure') }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);

    // 采购员 holds the page access code granted above: its count opens the tree with it ticked.
    await page.goto(`${product.url}/#/builtIn/role`);
    await page.getByRole('button', { name: '“采购员”的权限与菜单' }).click();
    const drawer = page.locator('.ant-drawer-content-wrapper:visible');
    await poll(() => drawer.getByText('“采购员”的权限与菜单').count()).toBe(1);
    await drawer.getByPlaceholder('搜索权限名称或编码').fill('Biz.Orders');
    const access = drawer.locator('.ant-tree-treenode', { hasText: '访问页面' });
    await poll(() => access.locator('.ant-tree-checkbox-checked').count(), 30_000).toBe(1);
    await page.screenshot({ path: screenshotPath('identity-role-permissions') });
    // Closed with its close button: Escape goes to whichever popup opened last (a tooltip under the
    // pointer may have).
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });

    // The same tree for a user, from the user list: the role's grant shows as inherited.
    await page.goto(`${product.url}/#/builtIn/user`);
    await page.getByRole('button', { name: '更多 buyer1' }).click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: /权限与菜单/ }).click();
    await poll(() => drawer.getByText('“buyer1”的权限与菜单').count()).toBe(1);
    await drawer.getByPlaceholder('搜索权限名称或编码').fill('Biz.Orders');
    const inherited = drawer.locator('.ant-tree-treenode', { hasText: '访问页面' });
    await poll(() => inherited.locator('.ant-tag', { hasText: '角色' }).count()).toBe(1);
    expect(await inherited.locator('.ant-tree-checkbox-disabled.ant-tree-checkbox-checked').count()).toBe(1);
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });

    // The fixed system menus, read-only, each with the code a user needs to see it.
    await page.goto(`${product.url}/#/builtIn/menu`);
    await page.getByRole('tab', { name: '系统菜单' }).click();
    const row = page.getByTestId('system-menu-table').locator('tr', { hasText: '/builtIn/user' });
    await poll(() => row.count()).toBe(1);
    expect(await row.locator('.ant-tag', { hasText: 'Identity.Users' }).count()).toBe(1);
    expect(await page.getByTestId('system-menu-table').locator('tr', { hasText: '/dashboard/console' }).textContent()).toContain('所有登录用户');
    await page.screenshot({ path: screenshotPath('system-menus') });
    await context.close();
  });
});
