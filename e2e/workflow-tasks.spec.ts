import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { apiCall as apiCallFor, apiToken } from './shell-helpers.ts';
import { approvalNode, control, createFlowPage, FLOW_USER_PASSWORD, flowLine, publishFlow, signedInUser } from './workflow-fixtures.ts';

// Issue 14, first slice: the task centre. The buyer submits an order from its page; the approver
// finds it under 待办任务 in the sider, opens it (a drawer with the approval bar), approves with a
// comment, and it moves to 已办; the buyer sees it approved under 我发起的. A notification's link
// (`/flows/assignTask?taskId=`) opens its task directly; a copy (抄送) is unread until opened.

let product: Product;
let adminToken = '';
const PASSWORD = FLOW_USER_PASSWORD;
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });
let menuId = '';
let colleagueId = '';

beforeAll(async () => {
  product = await startProduct();
  adminToken = await apiToken(product);
  const page = await createFlowPage(product, adminToken, {
    code: 'ExpenseClaim',
    name: { 'zh-CN': '报销单', 'en-US': 'Expense claims' },
    view: { code: 'Order', title: '订单' },
    controls: [control('Title', '事由', 1001)],
    roleName: '员工',
    users: { claimant: ['王', '员工'], manager: ['李', '经理'], colleague: ['张', '会计'] },
  });
  menuId = page.menuId;
  colleagueId = page.userIds.colleague!;
  // Start → 部门经理审批 → end.
  await publishFlow(product, adminToken, '报销审批', page.pageId, flowLine(approvalNode('manager', '部门经理审批', [page.userIds.manager!])));
}, 120_000);
afterAll(() => product?.stop());

const signedIn = (userName: string, viewport?: { width: number; height: number }) => signedInUser(product, userName, { viewport });

/** On the claims' list: a new claim, saved as a draft, then submitted from its page. */
async function submitClaim(page: Page, title: string) {
  await page.goto(`${product.url}/#/menu/${menuId}/params/${menuId}`);
  await page.getByRole('button', { name: /新\s*增/ }).click();
  await page.locator('#f-Order-Title').fill(title);
  await page.getByTestId('record-save').click();
  await poll(() => page.getByTestId('flow-status').textContent()).toBe('草稿');
  await page.getByTestId('workflow-submit').click();
  await page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();
  await poll(() => page.getByTestId('flow-status').textContent()).toBe('审批中');
}

/** A task-centre page from the sider (the 流程中心 group opens first when it is folded). */
async function fromSider(page: Page, item: string) {
  const sider = page.getByTestId('sider-menu');
  const link = sider.getByText(item, { exact: true });
  if (!(await link.isVisible())) await sider.getByText('流程中心', { exact: true }).click();
  await link.click();
}

/** Approve in the open drawer with a comment; the drawer closes. */
async function approveInDrawer(page: Page, comment: string) {
  const drawer = page.getByTestId('task-drawer');
  await drawer.getByTestId('workflow-approve').click();
  await page.getByTestId('workflow-action-modal').getByLabel('审批意见').fill(comment);
  await page.getByTestId('workflow-action-modal').getByRole('button', { name: /确\s*定|OK/ }).click();
  await poll(() => page.getByTestId('task-drawer').count()).toBe(0);
}

describe('the task centre (issue 14)', () => {
  it('the approver handles a claim from the to-do list; it moves to completed; the claimant sees it approved', async () => {
    const claimant = await signedIn('claimant');
    onTestFailed(() => claimant.page.screenshot({ path: screenshotPath('workflow-tasks-claimant-failure') }).then(() => undefined));
    await submitClaim(claimant.page, '差旅报销 上海');

    const manager = await signedIn('manager');
    onTestFailed(() => manager.page.screenshot({ path: screenshotPath('workflow-tasks-manager-failure') }).then(() => undefined));
    // The console counts the task; the sider opens the list.
    await poll(() => manager.page.getByTestId('todo-count').locator('.ant-statistic-content-value').textContent()).toBe('1');
    await fromSider(manager.page, '待办任务');
    const row = manager.page.getByTestId('todo-table').locator('.ant-table-row', { hasText: '差旅报销 上海' });
    await poll(() => row.textContent()).toContain('报销审批');
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('部门经理审批');
    expect(text).toContain('王员工');
    await row.getByRole('button', { name: /办\s*理/ }).click();
    const drawer = manager.page.getByTestId('task-drawer');
    await poll(() => drawer.getByTestId('task-record-title').textContent()).toBe('差旅报销 上海');
    await poll(() => drawer.getByTestId('record-approval').textContent()).toContain('待我审批：部门经理审批');
    await drawer.getByTestId('workflow-approve').waitFor({ state: 'visible' });
    await manager.page.screenshot({ path: screenshotPath('workflow-tasks-drawer') });
    await approveInDrawer(manager.page, '票据齐全');
    await poll(() => row.count()).toBe(0);

    // 已办: the task with the flow's status now (approved: the manager was the only step).
    await fromSider(manager.page, '已办任务');
    const done = manager.page.getByTestId('done-table').locator('.ant-table-row', { hasText: '差旅报销 上海' });
    await poll(() => done.textContent()).toContain('已同意');
    expect(await done.textContent()).toContain('已通过');

    // 我发起的: the claimant's flow, approved; its progress shows the comment.
    await fromSider(claimant.page, '已办任务');
    await claimant.page.getByTestId('tab-started').click();
    const mine = claimant.page.getByTestId('started-table').locator('.ant-table-row', { hasText: '差旅报销 上海' });
    await poll(() => mine.textContent()).toContain('已通过');
    await mine.getByRole('button', { name: /查\s*看/ }).click();
    await claimant.page.getByTestId('started-drawer').getByTestId('workflow-progress').click();
    await poll(() => claimant.page.getByTestId('workflow-history').textContent()).toContain('票据齐全');
    await claimant.page.screenshot({ path: screenshotPath('workflow-tasks-started') });
    for (const s of [claimant, manager]) await s.context.close();
  });

  it("on a phone: the to-do list as cards; a notification's link opens its task's drawer", async () => {
    const claimant = await signedIn('claimant');
    onTestFailed(() => claimant.page.screenshot({ path: screenshotPath('workflow-tasks-link-claimant-failure') }).then(() => undefined));
    await submitClaim(claimant.page, '办公用品报销');
    const managerToken = await apiToken(product, 'manager', PASSWORD);
    const todo = await apiCallFor<{ items: { id: string; recordTitle: string }[] }>(product, managerToken, 'GET', '/app/workflow-task/todo');
    const task = todo.items.find((x) => x.recordTitle === '办公用品报销')!;
    expect(task).toBeTruthy();

    const manager = await signedIn('manager', { width: 390, height: 844 });
    onTestFailed(() => manager.page.screenshot({ path: screenshotPath('workflow-tasks-link-failure') }).then(() => undefined));
    await manager.page.goto(`${product.url}/#/flows/assignTask`);
    await poll(() => manager.page.getByTestId('todo-cards').textContent()).toContain('办公用品报销');
    await manager.page.screenshot({ path: screenshotPath('workflow-tasks-phone') });
    await manager.page.goto(`${product.url}/#/flows/assignTask?taskId=${task.id}`);
    await poll(() => manager.page.getByTestId('task-drawer').getByTestId('task-record-title').textContent()).toBe('办公用品报销');
    await approveInDrawer(manager.page, '同意');
    await poll(async () => (await manager.page.getByTestId('todo-cards').count()) === 0 || !(await manager.page.getByTestId('todo-cards').textContent())?.includes('办公用品报销')).toBe(true);
    for (const s of [claimant, manager]) await s.context.close();
  });

  it('live: a new claim reaches the open to-do page, the sider badge and the header within 2 s; filters; batch approve', async () => {
    const manager = await signedIn('manager');
    onTestFailed(() => manager.page.screenshot({ path: screenshotPath('workflow-tasks-live-failure') }).then(() => undefined));
    await fromSider(manager.page, '待办任务');
    const table = manager.page.getByTestId('todo-table');
    await table.waitFor();
    const badge = () => manager.page.getByTestId('sider-menu').locator('.ant-badge-count').getAttribute('title', { timeout: 500 }).catch(() => null);
    const before = Number((await badge()) ?? 0);

    const claimant = await signedIn('claimant');
    onTestFailed(() => claimant.page.screenshot({ path: screenshotPath('workflow-tasks-live-claimant-failure') }).then(() => undefined));
    await submitClaim(claimant.page, '会议费报销 A');
    // Committed (the claimant's page shows 审批中): the manager's open page follows without a reload.
    const within2s = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 2000, interval: 50 });
    await within2s(() => table.textContent()).toContain('会议费报销 A');
    await within2s(() => badge()).toBe(String(before + 1));
    await claimant.page.goto(`${product.url}/#/dashboard/console`);
    await submitClaim(claimant.page, '会议费报销 B');
    await within2s(() => table.textContent()).toContain('会议费报销 B');
    await manager.page.getByTestId('notifications').click();
    await poll(() => manager.page.getByTestId('notification-tab-todo').textContent()).toContain(`(${before + 2})`);
    await manager.page.getByTestId('notification-tab-todo').click();
    await poll(() => manager.page.getByTestId('header-todo-summary').textContent()).toBe(`待办任务 ${before + 2} 条`);
    await manager.page.keyboard.press('Escape');

    // Filter by the flow and the initiator (choices with their numbers), then by overdue (none has a due time).
    await manager.page.getByTestId('todo-filter-initiator').click();
    await manager.page.locator('.ant-select-dropdown:visible').getByText(/^王员工 \(\d+\)$/).click();
    await poll(() => table.locator('.ant-table-row').count()).toBe(before + 2);
    await manager.page.getByTestId('todo-filter-overdue').click();
    await poll(() => table.textContent()).toContain('暂无待办任务');
    await manager.page.getByTestId('todo-filter-overdue').click();
    await poll(() => table.locator('.ant-table-row').count()).toBe(before + 2);

    // Batch approve the two new claims with one comment.
    for (const title of ['会议费报销 A', '会议费报销 B']) await table.locator('.ant-table-row', { hasText: title }).locator('.ant-checkbox-input').check();
    await manager.page.getByTestId('todo-batch-approve').click();
    await manager.page.getByTestId('todo-batch-comment').fill('会议已召开，同意');
    await manager.page.screenshot({ path: screenshotPath('workflow-tasks-batch') });
    await manager.page.getByTestId('todo-batch-ok').click();
    await poll(() => table.textContent()).not.toContain('会议费报销');
    await poll(() => badge()).toBe(before ? String(before) : null);
    // The claimant's list shows both approved.
    const claimantToken = await apiToken(product, 'claimant', PASSWORD);
    const started = await apiCallFor<{ items: { recordTitle: string; status: string }[] }>(product, claimantToken, 'GET', '/app/workflow-instance?Filter=会议费报销');
    expect(started.items.map((i) => i.status)).toEqual(['approved', 'approved']);
    for (const s of [claimant, manager]) await s.context.close();
  });

  it('a copy sent to me is unread under 抄送我的 until I open it', async () => {
    const claimant = await signedIn('claimant');
    onTestFailed(() => claimant.page.screenshot({ path: screenshotPath('workflow-tasks-cc-claimant-failure') }).then(() => undefined));
    await submitClaim(claimant.page, '培训费报销');
    const managerToken = await apiToken(product, 'manager', PASSWORD);
    const todo = await apiCallFor<{ items: { id: string; recordTitle: string }[] }>(product, managerToken, 'GET', '/app/workflow-task/todo');
    const task = todo.items.find((x) => x.recordTitle === '培训费报销')!;
    await apiCallFor(product, managerToken, 'POST', `/app/workflow-task/${task.id}/cc`, { userIds: [colleagueId], clientRequestId: randomUUID() });

    const colleague = await signedIn('colleague');
    onTestFailed(() => colleague.page.screenshot({ path: screenshotPath('workflow-tasks-cc-failure') }).then(() => undefined));
    await fromSider(colleague.page, '已办任务');
    await colleague.page.getByTestId('tab-cc').click();
    const row = colleague.page.getByTestId('cc-table').locator('.ant-table-row', { hasText: '培训费报销' });
    await poll(() => row.textContent()).toContain('未读');
    await row.getByRole('button', { name: /查\s*看/ }).click();
    await colleague.page.getByTestId('cc-drawer').getByTestId('task-record-title').waitFor();
    await colleague.page.locator('.ant-drawer-open').last().locator('.ant-drawer-close').click();
    await poll(() => row.textContent()).toContain('已读');
    for (const s of [claimant, colleague]) await s.context.close();
  });
});
