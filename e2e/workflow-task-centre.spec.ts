import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { TWorkflowNode } from '../packages/core/src/contracts/workflow.ts';
import { newWorkflowNode } from '../packages/core/src/workflow/defaults.ts';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { apiCall as apiCallFor, apiToken } from './shell-helpers.ts';
import { approvalNode, control, createFlowPage, FLOW_USER_PASSWORD, flowLine, publishFlow, signedInUser } from './workflow-fixtures.ts';

// Issue 14's journey: the initiator submits an order; approver A approves with a comment from the
// to-do list; approver B — on a phone — returns it to the initiator, who edits and submits it
// again; A and B approve; the initiator sees it approved under 我发起的 and in the order list's
// status column; the CC'd colleague sees it unread, then read.

let product: Product;
let adminToken = '';
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });
let menuId = '';

beforeAll(async () => {
  product = await startProduct();
  adminToken = await apiToken(product);
  const page = await createFlowPage(product, adminToken, {
    code: 'SalesOrder',
    name: { 'zh-CN': '销售订单', 'en-US': 'Sales orders' },
    view: { code: 'Order', title: '订单' },
    controls: [control('Title', '事由', 1001)],
    roleName: '销售',
    users: { seller: ['赵', '销售'], 'approver-a': ['钱', '主管'], 'approver-b': ['孙', '经理'], watcher: ['周', '助理'] },
  });
  menuId = page.menuId;
  const { userIds } = page;
  // Start → 主管审批 (A) → 经理审批 (B, may return to the initiator) → 抄送 (colleague) → end.
  const cc = newWorkflowNode('cc', 'cc', { x: 0, y: 0 }, '抄送助理');
  cc.config.recipients = [{ kind: 'user', userIds: [userIds.watcher!] }];
  const graph = flowLine(
    approvalNode('a', '主管审批', [userIds['approver-a']!]),
    approvalNode('b', '经理审批', [userIds['approver-b']!], (config) => {
      config.actions = { ...config.actions, return: true };
      config.returnTo = 'initiator';
    }),
    cc as TWorkflowNode,
  );
  await publishFlow(product, adminToken, '销售订单审批', page.pageId, graph);
}, 120_000);
afterAll(() => product?.stop());

async function signedIn(userName: string, viewport?: { width: number; height: number }) {
  const session = await signedInUser(product, userName, { viewport });
  onTestFailed(() => session.page.screenshot({ path: screenshotPath(`workflow-task-centre-${userName}-failure`) }).then(() => undefined));
  return session;
}

/** The order list (by way of the console: the same URL would keep an open record on screen). */
async function openList(page: Page) {
  await page.goto(`${product.url}/#/dashboard/console`);
  await page.goto(`${product.url}/#/menu/${menuId}/params/${menuId}`);
}
const status = (page: Page) => page.getByTestId('flow-status').textContent();

/** Opens my to-do task of `title` in the drawer (a table on a computer, a card on a phone). */
async function openTodo(page: Page, title: string, phone = false) {
  await page.goto(`${product.url}/#/flows/assignTask`);
  if (phone) {
    const card = page.getByTestId('todo-cards').locator('.ant-card', { hasText: title });
    await card.getByRole('button', { name: /办\s*理/ }).click();
  } else {
    const row = page.getByTestId('todo-table').locator('.ant-table-row', { hasText: title });
    await row.getByRole('button', { name: /办\s*理/ }).click();
  }
  await poll(() => page.getByTestId('task-drawer').getByTestId('task-record-title').textContent()).toBe(title);
}

/** An action of the drawer's approval bar with a comment, confirmed; the drawer closes. */
async function act(page: Page, button: string, comment: string) {
  const drawer = page.getByTestId('task-drawer');
  const target = drawer.getByTestId(button);
  if (!(await target.isVisible())) await drawer.getByTestId('workflow-more').click();
  await target.click();
  const modal = page.getByTestId('workflow-action-modal');
  await modal.getByLabel('审批意见').fill(comment);
  await modal.getByRole('button', { name: /确\s*定|OK/ }).click();
  await poll(() => page.getByTestId('task-drawer').count()).toBe(0);
}

describe('the task centre journey (issue 14)', () => {
  it('submit → A approves → B returns on a phone → the seller edits and resubmits → A, B approve → approved, CC read', async () => {
    const seller = await signedIn('seller');
    await openList(seller.page);
    await seller.page.getByRole('button', { name: /新\s*增/ }).click();
    await seller.page.locator('#f-Order-Title').fill('华东区 100 台');
    await seller.page.getByTestId('record-save').click();
    await poll(() => status(seller.page)).toBe('草稿');
    await seller.page.getByTestId('workflow-submit').click();
    await seller.page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();
    await poll(() => status(seller.page)).toBe('审批中');

    // A approves from the to-do list with a comment.
    const a = await signedIn('approver-a');
    await openTodo(a.page, '华东区 100 台');
    await act(a.page, 'workflow-approve', '价格合理');

    // B, on a phone, returns it to the seller.
    const b = await signedIn('approver-b', { width: 390, height: 844 });
    await openTodo(b.page, '华东区 100 台', true);
    await b.page.screenshot({ path: screenshotPath('workflow-task-centre-phone-drawer') });
    await act(b.page, 'workflow-return', '数量需要调整');

    // The seller finds it returned (已撤回: editable), changes it and submits again.
    await openList(seller.page);
    const row = seller.page.locator('.ant-table-row', { hasText: '华东区 100 台' });
    await poll(() => row.textContent()).toContain('已撤回');
    await row.getByRole('button', { name: /查\s*看/ }).click();
    await poll(() => status(seller.page)).toBe('已撤回');
    await seller.page.getByTestId('record-edit').click();
    await seller.page.locator('#f-Order-Title').fill('华东区 80 台');
    await seller.page.getByTestId('record-save').click();
    await seller.page.getByTestId('workflow-submit').click();
    await seller.page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();
    await poll(() => status(seller.page)).toBe('审批中');

    // A and B approve the new submission.
    await openTodo(a.page, '华东区 80 台');
    await act(a.page, 'workflow-approve', '已调整');
    await openTodo(b.page, '华东区 80 台', true);
    await act(b.page, 'workflow-approve', '同意');

    // The seller: approved under 我发起的 (the first submission: withdrawn by the return) and in the list.
    await seller.page.goto(`${product.url}/#/flows/completedTasks?tab=started`);
    const started = seller.page.getByTestId('started-table');
    await poll(() => started.locator('.ant-table-row', { hasText: '华东区 80 台' }).textContent()).toContain('已通过');
    await openList(seller.page);
    await poll(() => seller.page.locator('.ant-table-row', { hasText: '华东区 80 台' }).textContent()).toContain('已通过');

    // The colleague: a copy, unread, then read once opened.
    const watcher = await signedIn('watcher');
    await watcher.page.goto(`${product.url}/#/flows/completedTasks?tab=cc`);
    const copy = watcher.page.getByTestId('cc-table').locator('.ant-table-row', { hasText: '华东区 80 台' });
    await poll(() => copy.textContent()).toContain('未读');
    await copy.getByRole('button', { name: /查\s*看/ }).click();
    await watcher.page.getByTestId('cc-drawer').getByTestId('task-record-title').waitFor();
    await watcher.page.locator('.ant-drawer-open').last().locator('.ant-drawer-close').click();
    await poll(() => copy.textContent()).toContain('已读');

    // The history of the approved instance, through the API: both rounds' comments in order.
    const sellerToken = await apiToken(product, 'seller', FLOW_USER_PASSWORD);
    const mine = await apiCallFor<{ items: { id: string; recordTitle: string; status: string }[] }>(product, sellerToken, 'GET', '/app/workflow-instance');
    expect(mine.items.map((i) => i.status).sort()).toEqual(['approved', 'withdrawn']);
    for (const s of [seller, a, b, watcher]) await s.context.close();
  });
});
