import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotPath, signInAs, startProduct, type Product } from './product.ts';
import { apiCall as apiCallFor, attemptSuffix, tokenOf } from './shell-helpers.ts';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.stop());

const NEW_USER_PASSWORD = 'Region#Mgr2026';
/** The machine is shared and slow at times: wait up to 15 s for the UI. */
const eventually = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** The open antd modal or drawer (there is one at a time in this journey). */
const dialog = (page: Page) => page.locator('.ant-modal-wrap:visible, .ant-drawer-content-wrapper:visible').last();
const okButton = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal-footer .ant-btn-primary').last();
const treeNode = (page: Page, name: string) => page.getByTestId(`unit-${name}`);

/** Waits until the searched drop-down shows only this option (results arrive after typing), then picks it. */
async function pickOnly(page: Page, title: string) {
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await eventually(async () => (await options.count()) === 1 && (await options.first().getAttribute('title'))).toBe(title);
  await options.first().click();
}

async function createUnit(page: Page, name: string, parent: string | null) {
  if (parent) {
    await treeNode(page, parent).click();
    await page.getByRole('button', { name: /新建下级/ }).last().click();
  } else {
    await page.getByRole('button', { name: /新建顶级机构/ }).click();
  }
  await dialog(page).getByLabel('名称').fill(name);
  await okButton(page).click();
  await eventually(() => treeNode(page, name).count()).toBe(1);
}

/**
 * Drags one tree node onto another with the HTML5 drag events the antd tree listens to (headless
 * Chromium does not turn mouse moves into native drag and drop here). Dropped a little below the
 * target's middle and without moving sideways: "into" the target.
 */
async function dragUnit(page: Page, source: string, target: string) {
  await page.evaluate(
    async ({ source, target }) => {
      const node = (name: string) => document.querySelector(`[data-testid="unit-${name}"]`)!.closest('.ant-tree-treenode')!;
      const from = node(source);
      const to = node(target);
      const data = new DataTransfer();
      const a = from.getBoundingClientRect();
      const b = to.getBoundingClientRect();
      const x = a.left + 40;
      const fire = (el: Element, type: string, clientY: number) =>
        el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data, clientX: x, clientY }));
      const pause = () => new Promise((r) => setTimeout(r, 60));
      fire(from, 'dragstart', a.top + a.height / 2);
      await pause();
      const y = b.top + b.height * 0.55;
      fire(to, 'dragenter', y);
      fire(to, 'dragover', y);
      await pause();
      fire(to, 'dragover', y);
      fire(to, 'drop', y);
      fire(from, 'dragend', y);
    },
    { source, target },
  );
}

describe('identity administration', () => {
  it('an administrator builds a unit tree, a role and a user in them; the user signs in', async () => {
    const { page, context } = await product.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);

    // Organisation: 华南区 › 深圳分公司, 研发中心 dragged under 华南区.
    await page.goto(`${product.url}/#/builtIn/organization`);
    await eventually(() => treeNode(page, '总部').count()).toBe(1);
    await createUnit(page, '华南区', null);
    await createUnit(page, '深圳分公司', '华南区');
    await createUnit(page, '研发中心', null);
    await dragUnit(page, '研发中心', '华南区');
    await eventually(() => page.getByText('将“研发中心”移动到“华南区”下？').count()).toBe(1);
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
    await eventually(() => page.getByText('已移动到新的上级').count()).toBeGreaterThan(0);
    await treeNode(page, '华南区').click();
    await eventually(() => page.locator('.ant-descriptions').getByText('下级机构').locator('..').textContent()).toContain('2');
    await page.screenshot({ path: screenshotPath('identity-organization') });

    // Role: 区域经理.
    await page.goto(`${product.url}/#/builtIn/role`);
    await page.getByRole('button', { name: /新建角色/ }).click();
    await dialog(page).getByLabel('角色名称').fill('区域经理');
    await dialog(page).getByLabel('描述').fill('负责华南区的业务');
    await okButton(page).click();
    await eventually(() => page.locator('.ant-table-tbody tr[data-row-key]', { hasText: '区域经理' }).count()).toBe(1);
    await eventually(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('identity-roles') });

    // User: in 深圳分公司 with 区域经理.
    await page.goto(`${product.url}/#/builtIn/user`);
    await eventually(() => page.locator('.ant-table-tbody tr[data-row-key]', { hasText: 'admin' }).count()).toBe(1);
    await page.getByRole('button', { name: /新建用户/ }).click();
    const drawer = page.locator('.ant-drawer-content-wrapper').filter({ hasText: '新建用户' });
    await drawer.getByLabel('用户名', { exact: true }).fill('wang.wu');
    await drawer.getByLabel('密码', { exact: true }).fill(NEW_USER_PASSWORD);
    await drawer.getByLabel('姓氏').fill('王');
    await drawer.getByLabel('名字').fill('五');
    await drawer.getByLabel('邮箱').fill('wang.wu@example.com');
    await drawer.getByLabel('角色', { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '区域经理' }).click();
    await page.keyboard.press('Escape');
    await drawer.getByLabel('组织机构', { exact: true }).click();
    await page.keyboard.type('深圳');
    await pickOnly(page, '深圳分公司');
    await page.keyboard.press('Escape');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await eventually(() => page.getByText('保存成功').count()).toBeGreaterThan(0);
    await drawer.waitFor({ state: 'hidden' });
    const row = page.locator('.ant-table-tbody tr[data-row-key]', { hasText: 'wang.wu' });
    await eventually(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('区域经理');
    expect(await row.textContent()).toContain('深圳分公司');
    expect(await row.textContent()).toContain('王五');

    // Filter by unit and below: 华南区 finds the user in 深圳分公司.
    await page.getByRole('combobox', { name: '组织机构 :' }).click();
    await page.keyboard.type('华南');
    await pickOnly(page, '华南区');
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    await eventually(() => page.locator('.ant-table-tbody tr[data-row-key]').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('identity-users') });

    // Deleting asks the spec's question.
    await page.getByRole('button', { name: '更多 wang.wu' }).click();
    await page.getByRole('menuitem', { name: /删除/ }).click();
    await eventually(() => page.locator('.ant-modal-confirm-title').textContent()).toBe('是否删除此数据？');
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /取\s*消/ }).click();
    expect(errors).toEqual([]);
    await context.close();

    // The new user signs in and lands on the dashboard.
    const { page: userPage, context: userContext } = await product.newPage();
    await signInAs(userPage, product.url, 'wang.wu', NEW_USER_PASSWORD);
    await userPage.waitForURL(/#\/dashboard\/console/);
    const me = await userPage.evaluate(async () => {
      const token = document.cookie.split('; ').find((c) => c.startsWith('token='))!.slice(6);
      const res = await fetch('/api/app/sys-function/current-user', { headers: { authorization: `Bearer ${token}` } });
      return res.json();
    });
    expect(me).toMatchObject({ userName: 'wang.wu', organizationUnitName: '深圳分公司', isAdmin: false });
    await userContext.close();
  });

  it('the role is granted a business menu: the user sees exactly that menu, and loses it after a revoke', async () => {
    const { page: admin, context: adminContext } = await product.newPage();
    await signInAs(admin, product.url);
    await admin.waitForURL(/#\/dashboard\/console/);
    const adminToken = await tokenOf(admin);
    // Two menus; only one will be granted.
    await apiCall(adminToken, 'POST', '/app/business-menu', { title: { 'zh-CN': '华南报表', 'en-US': 'South reports' }, url: 'BarChartOutlined' });
    await apiCall(adminToken, 'POST', '/app/business-menu', { title: { 'zh-CN': '总部财务', 'en-US': 'HQ finance' }, url: 'BankOutlined' });

    // What wang.wu sees before any grant.
    const { page: user, context: userContext } = await product.newPage();
    await signInAs(user, product.url, 'wang.wu', NEW_USER_PASSWORD);
    await user.waitForURL(/#\/dashboard\/console/);
    const baseline = await siderTitles(user);
    expect(baseline).toContain('仪表盘');
    expect(baseline).not.toContain('华南报表');
    expect(baseline).not.toContain('总部财务');
    expect(baseline).not.toContain('系统内置');

    // Grant the role 区域经理 the menu on the authorization page.
    await admin.goto(`${product.url}/#/builtIn/authorization`);
    await admin.getByRole('button', { name: '区域经理' }).click();
    await eventually(() => admin.getByTestId('authorization-target').textContent()).toBe('区域经理');
    await toggleGrant(admin, '华南报表');

    // After a refresh wang.wu has exactly one more top-level entry: that menu.
    await user.reload();
    await eventually(async () => (await siderTitles(user)).includes('华南报表')).toBe(true);
    const granted = await siderTitles(user);
    expect(granted.filter((title) => !baseline.includes(title))).toEqual(['华南报表']);
    expect(granted).not.toContain('总部财务');
    await user.screenshot({ path: screenshotPath('identity-user-menu-granted') });
    // The menu opens its page.
    await user.locator('.ant-layout-sider').getByText('华南报表').click();
    await user.waitForURL(/#\/menu\//);

    // Revoke; after a refresh it is gone again.
    await toggleGrant(admin, '华南报表');
    // The open menu page is no longer theirs: a refresh answers 403 ...
    await user.reload();
    await eventually(() => user.getByTestId('error-403').count()).toBe(1);
    // ... and the menu is gone from the sider.
    await user.goto(`${new URL(user.url()).origin}/#/dashboard/console`);
    await eventually(() => siderTitles(user)).toEqual(baseline);
    await userContext.close();
    await adminContext.close();
  });
});

describe('user administration actions', () => {
  it('locks and unlocks a user, imports from Excel (all or nothing) and exports', async (ctx) => {
    // A retry makes users of its own (the first try's are still there).
    const s = attemptSuffix(ctx.task);
    const { page, context } = await product.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    const token = await tokenOf(page);
    await apiCall(token, 'POST', '/identity/users', {
      userName: `temp${s}.lock`, name: '锁', surname: '测', email: '', phoneNumber: '', isActive: true, lockoutEnabled: true,
      roleNames: [], organizationUnitIds: [], password: NEW_USER_PASSWORD,
    });
    const signIn = (userName: string) =>
      fetch(`${product.url}/api/Auth/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: userName, password: NEW_USER_PASSWORD }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as { code?: number } }));
    expect((await signIn(`temp${s}.lock`)).body.code).toBe(0);

    // Lock for an hour: the row says so and the user cannot sign in.
    await page.goto(`${product.url}/#/builtIn/user`);
    const row = page.locator('.ant-table-tbody tr[data-row-key]', { hasText: `temp${s}.lock` });
    await eventually(() => row.count()).toBe(1);
    await page.getByRole('button', { name: `更多 temp${s}.lock` }).click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: /锁定/ }).click();
    await okButton(page).click();
    await eventually(() => row.locator('.ant-tag', { hasText: '已锁定' }).count()).toBe(1);
    expect((await signIn(`temp${s}.lock`)).body.code).not.toBe(0);
    // The tag is whole: inside its cell, left of the fixed actions column (issue 28, defect 5).
    const tag = (await row.locator('.ant-tag', { hasText: '已锁定' }).boundingBox())!;
    const actions = (await row.locator('td').last().boundingBox())!;
    expect(tag.x + tag.width).toBeLessThanOrEqual(actions.x);
    await page.screenshot({ path: screenshotPath('identity-users-locked') });

    // Unlock: the tag goes and signing in works again.
    await page.getByRole('button', { name: `更多 temp${s}.lock` }).click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: /解锁/ }).click();
    await eventually(() => row.locator('.ant-tag', { hasText: '已锁定' }).count()).toBe(0);
    expect((await signIn(`temp${s}.lock`)).body.code).toBe(0);

    // Import: one bad row → its errors are listed and nobody is imported.
    const header = ['用户名', '名字', '姓氏', '邮箱', '手机号', '密码', '角色', '组织机构', '启用'];
    const sheet = async (rows: string[][]) => {
      const book = new ExcelJS.Workbook();
      const ws = book.addWorksheet('users');
      ws.addRow(header);
      for (const r of rows) ws.addRow(r);
      const file = path.join(tmpdir(), `tessera-import-${Date.now()}-${Math.random().toString(36).slice(2)}.xlsx`);
      await book.xlsx.writeFile(file);
      return file;
    };
    await page.getByRole('button', { name: /导\s*入/ }).click();
    const modal = dialog(page);
    // A file that is not a workbook: the server's answer shows in the dialog.
    await modal.locator('input[type=file]').setInputFiles({ name: 'users.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from('用户名,密码\n') });
    await eventually(() => modal.getByText('文件不是有效的 Excel 工作簿（.xlsx）').count()).toBe(1);
    await modal.locator('input[type=file]').setInputFiles(
      await sheet([
        [`imp${s}.alpha`, '甲', '赵', `alpha${s}@example.com`, '', NEW_USER_PASSWORD, '区域经理', '华南区/深圳分公司', '是'],
        [`imp${s}.beta`, '乙', '钱', 'not-an-email', '', NEW_USER_PASSWORD, '', '', '是'],
      ]),
    );
    await eventually(() => modal.getByText('发现 1 处错误，未导入任何数据').count()).toBe(1);
    const errorRow = modal.locator('.ant-table-tbody tr', { hasText: '邮箱' });
    expect(await errorRow.locator('td').first().textContent()).toBe('3');
    expect((await apiCall<{ totalCount: number }>(token, 'GET', '/identity/users?Filter=imp.')).totalCount).toBe(0);

    // Fixed: both are imported at once.
    await modal.locator('input[type=file]').setInputFiles(
      await sheet([
        [`imp${s}.alpha`, '甲', '赵', `alpha${s}@example.com`, '', NEW_USER_PASSWORD, '区域经理', '华南区/深圳分公司', '是'],
        [`imp${s}.beta`, '乙', '钱', `beta${s}@example.com`, '', NEW_USER_PASSWORD, '', '', '是'],
      ]),
    );
    await eventually(() => page.getByText('成功导入 2 名用户').count()).toBe(1);
    await eventually(() => page.locator('.ant-table-tbody tr[data-row-key]', { hasText: `imp${s}.alpha` }).count()).toBe(1);
    expect(await page.locator('.ant-table-tbody tr[data-row-key]', { hasText: `imp${s}.alpha` }).textContent()).toContain('深圳分公司');

    // Export: an .xlsx with the listed users.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导\s*出/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const exported = new ExcelJS.Workbook();
    await exported.xlsx.readFile((await download.path())!);
    const names = exported.worksheets[0]!.getColumn(1).values.slice(2).map(String);
    expect(names).toEqual(expect.arrayContaining(['admin', 'wang.wu', `temp${s}.lock`, `imp${s}.alpha`, `imp${s}.beta`]));
    await page.screenshot({ path: screenshotPath('identity-users-imported') });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('deleting organisation units', () => {
  it('deletes an empty unit after the plain question, and a unit with content only after the cascade confirmation', async () => {
    const { page, context } = await product.newPage();
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    const token = await tokenOf(page);
    const units = '/identity/organization-units';
    const top = await apiCall<{ id: string }>(token, 'POST', units, { displayName: '临时区', parentId: null });
    await apiCall(token, 'POST', units, { displayName: '临时组', parentId: top.id });
    await apiCall(token, 'POST', units, { displayName: '空机构', parentId: null });
    const member = await apiCall<{ id: string }>(token, 'POST', '/identity/users', {
      userName: 'temp.member', name: '员', surname: '临', email: '', phoneNumber: '', isActive: true, lockoutEnabled: true,
      roleNames: [], organizationUnitIds: [top.id], password: NEW_USER_PASSWORD,
    });
    await page.goto(`${product.url}/#/builtIn/organization`);
    const confirm = page.locator('.ant-modal-confirm');
    const deleteSelected = async (name: string) => {
      await treeNode(page, name).click();
      await eventually(() => page.locator('.ant-card-head', { hasText: name }).count()).toBeGreaterThan(0);
      await page.locator('.ant-card-head', { hasText: name }).getByRole('button', { name: /删\s*除/ }).click();
      await confirm.waitFor();
    };

    // Empty: the spec's question, then gone.
    await deleteSelected('空机构');
    expect(await confirm.locator('.ant-modal-confirm-title').textContent()).toBe('是否删除此数据？');
    expect(await confirm.textContent()).toContain('删除“空机构”。');
    await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await eventually(() => treeNode(page, '空机构').count()).toBe(0);

    // With a sub-unit and a member: the cascade confirmation names both; cancelling keeps everything.
    await deleteSelected('临时区');
    expect(await confirm.textContent()).toContain('级联删除“临时区”？');
    expect(await confirm.textContent()).toContain('1 个下级机构和 1 名成员');
    await confirm.getByRole('button', { name: /取\s*消/ }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await treeNode(page, '临时组').count()).toBe(1);
    await deleteSelected('临时区');
    await confirm.getByRole('button', { name: '确认级联删除' }).click();
    await eventually(() => treeNode(page, '临时区').count()).toBe(0);
    expect(await treeNode(page, '临时组').count()).toBe(0);
    // The member stays a user, now without a unit.
    const user = await apiCall<{ organizationUnits: unknown[] }>(token, 'GET', `/identity/users/${member.id}`);
    expect(user.organizationUnits).toEqual([]);
    await context.close();
  });
});

/** The sider's top-level entries, once the menu is shown (it appears after 500 ms). */
async function siderTitles(page: Page): Promise<string[]> {
  const root = page.locator('.ant-layout-sider .ant-menu-root');
  await root.waitFor();
  await eventually(() => root.locator(':scope > li.ant-menu-item, :scope > li.ant-menu-submenu').count()).toBeGreaterThan(0);
  return root.locator(':scope > li.ant-menu-item, :scope > li.ant-menu-submenu').evaluateAll((items) =>
    items.map((li) => (li.querySelector('.ant-menu-title-content')?.textContent ?? '').trim()),
  );
}


const apiCall = <T>(token: string, method: string, path: string, body?: unknown) => apiCallFor<T>(product, token, method, path, body);

/** Ticks (or unticks) one node of the grant tree found by search, and saves. */
async function toggleGrant(page: Page, title: string) {
  await page.getByPlaceholder('搜索权限名称或编码').fill(title);
  const node = page.locator('.ant-tree-treenode', { hasText: title }).last();
  const checkbox = node.locator('.ant-tree-checkbox');
  const wasChecked = (await checkbox.getAttribute('class'))!.includes('ant-tree-checkbox-checked');
  await checkbox.click();
  const save = page.getByRole('button', { name: /保\s*存/ });
  await eventually(() => save.isEnabled()).toBe(true);
  await save.click();
  // Saved: the tree reloads from the server with the new state and nothing is left to save.
  await eventually(() => save.isDisabled()).toBe(true);
  expect((await checkbox.getAttribute('class'))!.includes('ant-tree-checkbox-checked')).toBe(!wasChecked);
}
