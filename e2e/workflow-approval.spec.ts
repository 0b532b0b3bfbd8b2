import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { newWorkflowEdge, newWorkflowNode } from '../packages/core/src/workflow/defaults.ts';
import { screenshotPath, signInAs, startProduct, type Product } from './product.ts';
import { apiCall as apiCallFor, apiToken, attemptSuffix } from './shell-helpers.ts';

// Issue 13: a two-level approval with a condition on the order total, bound to the purchase-order
// page (drawn on the canvas by workflow-designer.spec.ts; made through the same API here), run from
// the record page by the people it names: the buyer submits, the manager approves, and orders over
// 10 000 go on to the director. The record's approval status follows, in the record and the list.
// The manager's node lets the manager correct the total (editable), shows the subject read-only
// and hides the budget code; the server enforces the same on the manager's save.

let product: Product;
let adminToken = '';
const PASSWORD = 'Approver#2026';
const call = <T>(method: string, path: string, body?: unknown) => apiCallFor<T>(product, adminToken, method, path, body);
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });

const control = (code: string, title: string, controlType: number, extra: object = {}) => ({ id: randomUUID(), code, title, controlType, isDisplayed: true, isEdit: true, ...extra });
let menuId = '';
let pageId = '';
let orderViewId = '';
let roleId = '';

beforeAll(async () => {
  product = await startProduct();
  adminToken = await apiToken(product);
  const order = { id: randomUUID(), code: 'Order', title: '订单', viewType: 1, viewButtons: [], viewControls: [], dataControls: [control('Title', '事由', 1001), control('Total', '金额', 1003, { extraProperties: { accuracy: 2 } }), control('Budget', '预算科目', 1001)] };
  const page = await call<{ id: string }>('POST', '/app/page-definition', { code: 'PurchaseOrder', name: { 'zh-CN': '采购订单', 'en-US': 'Purchase orders' }, definition: { viewControls: [order], pageButtons: [], dataLinkages: [] } });
  await call('POST', `/app/page-definition/${page.id}/publish`, {});
  pageId = page.id;
  orderViewId = order.id;

  const role = await call<{ id: string }>('POST', '/identity/roles', { name: '员工', description: '', isDefault: false, isPublic: true });
  roleId = role.id;
  menuId = (await call<{ menu: { id: string } }>('POST', '/app/business-menu/for-page', { pageDefinitionId: page.id, title: { 'zh-CN': '采购订单', 'en-US': 'Purchase orders' }, roleIds: [role.id] })).menu.id;
  const user = (userName: string, surname: string, name: string) =>
    call<{ id: string }>('POST', '/identity/users', { userName, name, surname, email: `${userName}@example.com`, password: PASSWORD, roleNames: ['员工'] });
  await user('buyer', '王', '采购');
  const manager = await user('manager', '李', '经理');
  const director = await user('director', '赵', '总监');

  // Start → 部门经理审批 → 金额判断 (Total > 10000 → 总监审批; otherwise the end) → end.
  const approval = (id: string, name: string, userId: string, fieldPermissions: Record<string, 'hidden' | 'readonly' | 'editable'> = {}) => {
    const node = newWorkflowNode('approval', id, { x: 0, y: 0 }, name);
    node.config.assignees = [{ kind: 'user', userIds: [userId] }];
    node.config.fieldPermissions = fieldPermissions;
    return node;
  };
  const graph = {
    nodes: [
      newWorkflowNode('start', 'start', { x: 0, y: 0 }, '发起人'),
      approval('manager', '部门经理审批', manager.id, { Total: 'editable', Title: 'readonly', Budget: 'hidden' }),
      newWorkflowNode('exclusive', 'amount', { x: 0, y: 240 }, '金额判断'),
      approval('director', '总监审批', director.id),
      newWorkflowNode('end', 'end', { x: 0, y: 480 }, '结束'),
    ],
    edges: [
      newWorkflowEdge('e1', 'start', 'manager'),
      newWorkflowEdge('e2', 'manager', 'amount'),
      newWorkflowEdge('e3', 'amount', 'director', { condition: '{Total} > 10000', priority: 1, name: '超过一万' }),
      newWorkflowEdge('e4', 'amount', 'end', { isDefault: true }),
      newWorkflowEdge('e5', 'director', 'end'),
    ],
  };
  const definition = await call<{ id: string }>('POST', '/app/workflow-definition', { name: '采购审批', pageId: page.id, graph });
  await call('POST', `/app/workflow-definition/${definition.id}/publish`, {});
  await call('POST', `/app/workflow-definition/${definition.id}/enable`, {});
}, 120_000);
afterAll(() => product?.stop());

async function signedIn(userName: string) {
  const { page, context } = await product.newPage();
  await signInAs(page, product.url, userName, PASSWORD);
  await page.waitForURL(/#\/dashboard\/console/);
  return { page, context };
}

const status = (page: Page) => page.getByTestId('flow-status').textContent();

/** The orders' list (from another page: the record form shares the list's route). */
async function openList(page: Page) {
  await page.goto(`${product.url}/#/dashboard/console`);
  await page.getByTestId('greeting').waitFor();
  await page.goto(`${product.url}/#/menu/${menuId}/params/${menuId}`);
}

/** Opens an order from the list (to read it). */
async function openOrder(page: Page, title: string) {
  await openList(page);
  const row = page.locator('.ant-table-row', { hasText: title });
  await row.waitFor();
  await row.getByRole('button', { name: /查\s*看/ }).click();
  await page.getByTestId('record-approval').waitFor();
}

async function decide(page: Page, comment: string) {
  await page.getByTestId('workflow-approve').click();
  const dialog = page.getByTestId('workflow-action-modal');
  await dialog.getByLabel('审批意见').fill(comment);
  await page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();
  await poll(() => page.getByTestId('workflow-approve').count()).toBe(0);
}

/** On the orders' list: a new order with these fields (control code → text), saved as a draft, then submitted. */
async function submitNewOrder(page: Page, fields: Record<string, string>) {
  await openList(page);
  await page.getByRole('button', { name: /新\s*增/ }).click();
  for (const [code, value] of Object.entries(fields)) await page.locator(`#f-Order-${code}`).fill(value);
  await page.getByTestId('record-save').click();
  await poll(() => status(page)).toBe('草稿');
  await page.getByTestId('workflow-submit').click();
  await page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();
  await poll(() => status(page)).toBe('审批中');
}

describe('approval of a purchase order (issue 13)', () => {
  it('the buyer submits, the manager and — over 10 000 — the director approve; the status follows', async () => {
    const buyer = await signedIn('buyer');
    onTestFailed(() => buyer.page.screenshot({ path: screenshotPath('workflow-approval-failure') }).then(() => undefined));

    // A new order, saved, then submitted from its page.
    await submitNewOrder(buyer.page, { Title: '笔记本电脑 20 台', Total: '20000' });
    // In approval: read-only, with a notice; nothing to save.
    await buyer.page.getByTestId('record-in-approval').waitFor();
    expect(await buyer.page.getByTestId('record-save').count()).toBe(0);
    await buyer.page.screenshot({ path: screenshotPath('workflow-submitted') });

    // The manager approves; the order is over 10 000, so it waits for the director.
    const manager = await signedIn('manager');
    await openOrder(manager.page, '笔记本电脑 20 台');
    await poll(() => manager.page.getByTestId('record-approval').textContent()).toContain('待我审批：部门经理审批');
    await decide(manager.page, '同意采购');
    await poll(() => status(manager.page)).toBe('审批中');

    // The director approves: approved.
    const director = await signedIn('director');
    await openOrder(director.page, '笔记本电脑 20 台');
    await poll(() => director.page.getByTestId('record-approval').textContent()).toContain('待我审批：总监审批');
    await decide(director.page, '预算内');
    await poll(() => status(director.page)).toBe('已通过');

    // The buyer sees it approved in the list (the status column appears once a record went into a
    // flow) and the history in the progress drawer.
    await openList(buyer.page);
    await poll(() => buyer.page.locator('.ant-table-row', { hasText: '笔记本电脑 20 台' }).textContent()).toContain('已通过');
    await openOrder(buyer.page, '笔记本电脑 20 台');
    await buyer.page.getByTestId('workflow-progress').click();
    const history = buyer.page.getByTestId('workflow-history');
    await poll(() => history.textContent()).toContain('预算内');
    const text = (await history.textContent()) ?? '';
    expect(text.indexOf('发起审批')).toBeLessThan(text.indexOf('同意采购'));
    expect(text.indexOf('同意采购')).toBeLessThan(text.indexOf('预算内'));
    expect(await buyer.page.getByTestId('workflow-instance-status').textContent()).toBe('已通过');
    await buyer.page.screenshot({ path: screenshotPath('workflow-approved') });
    for (const s of [buyer, manager, director]) await s.context.close();
  });

  it('a small order needs the manager only; a rejected one can be changed and submitted again', async ({ task }) => {
    // A retry orders with a title of its own (the first try's orders are still in the list).
    const title = `订书机 5 个${attemptSuffix(task)}`;
    const buyer = await signedIn('buyer');
    onTestFailed(() => buyer.page.screenshot({ path: screenshotPath('workflow-approval-small-failure') }).then(() => undefined));
    await submitNewOrder(buyer.page, { Title: title, Total: '150' });

    // The manager rejects (a reason is required), then the buyer changes and submits it again.
    const manager = await signedIn('manager');
    await openOrder(manager.page, title);
    await manager.page.getByTestId('workflow-reject').click();
    await manager.page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();
    await poll(() => manager.page.getByText('请填写驳回理由').count()).toBeGreaterThan(0);
    await manager.page.getByTestId('workflow-action-modal').getByLabel('审批意见').fill('请写明用途');
    await manager.page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();
    await poll(() => status(manager.page)).toBe('已驳回');

    await openOrder(buyer.page, title);
    await poll(() => status(buyer.page)).toBe('已驳回');
    await buyer.page.getByTestId('record-edit').click();
    await buyer.page.locator('#f-Order-Title').fill(`${title}（会议室用）`);
    await buyer.page.getByTestId('record-save').click();
    await buyer.page.getByTestId('workflow-submit').click();
    await buyer.page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();
    await poll(() => status(buyer.page)).toBe('审批中');

    // Under 10 000: the manager's approval ends it.
    await openOrder(manager.page, `${title}（会议室用）`);
    await decide(manager.page, '可以');
    await poll(() => status(manager.page)).toBe('已通过');
    for (const s of [buyer, manager]) await s.context.close();
  });

  it('the manager corrects the total their node makes editable, saves, approves; the subject stays read-only, the budget hidden', async () => {
    const buyer = await signedIn('buyer');
    onTestFailed(() => buyer.page.screenshot({ path: screenshotPath('workflow-field-permissions-failure') }).then(() => undefined));
    await submitNewOrder(buyer.page, { Title: '显示器 3 台', Total: '3000', Budget: 'IT-2026' });
    // The initiator's form stays read-only while the approval runs.
    await buyer.page.getByTestId('record-in-approval').waitFor();
    expect(await buyer.page.locator('#f-Order-Total').isDisabled()).toBe(true);

    const manager = await signedIn('manager');
    onTestFailed(() => manager.page.screenshot({ path: screenshotPath('workflow-field-permissions-manager-failure') }).then(() => undefined));
    await openOrder(manager.page, '显示器 3 台');
    await manager.page.getByTestId('record-approver-editing').waitFor();
    await poll(() => manager.page.locator('#f-Order-Total').isEnabled()).toBe(true);
    expect(await manager.page.locator('#f-Order-Title').isDisabled()).toBe(true);
    expect(await manager.page.locator('#f-Order-Budget').count()).toBe(0);
    await manager.page.locator('#f-Order-Total').fill('2800');
    await manager.page.getByTestId('record-save').click();
    await poll(() => manager.page.getByText('保存成功').count()).toBeGreaterThan(0);
    await manager.page.screenshot({ path: screenshotPath('workflow-field-permissions') });
    await decide(manager.page, '按实际报价');
    await poll(() => status(manager.page)).toBe('已通过');
    // Approved: read-only again for the manager.
    await poll(() => manager.page.getByTestId('record-save').count()).toBe(0);

    // Stored: the corrected total, the subject and the hidden budget code as the buyer wrote them.
    const list = await call<{ items: Record<string, unknown>[] }>('POST', '/app/business-data/query-view-data', { pageId, viewId: orderViewId, filterConditions: [{ key: 'Title', judgmentMethod: 'eq', value: '显示器 3 台' }] });
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ Total: 2800, Budget: 'IT-2026', FlowStatus: 2 });
    for (const s of [buyer, manager]) await s.context.close();
  });
});

/** Picks a user in a flow's user picker (the searchable drop-down labelled `label` in the open dialog). */
async function pickUser(page: Page, label: string, search: string, name: string) {
  await page.getByRole('dialog').getByLabel(label).click();
  await page.keyboard.type(search);
  await page.locator('.ant-select-item-option', { hasText: name }).click();
  await page.keyboard.press('Escape');
}

describe('delegate, take back and remind (issue 13)', () => {
  it('the buyer picks the approver at submit and reminds; the manager delegates, approves, then takes the approval back', async ({ task }) => {
    // A retry runs on the same product: its page, flow and claim get names of their own.
    const tag = attemptSuffix(task);
    const viewCode = `Claim${tag}`;
    const subject = `差旅费${tag}`;
    // A reimbursement page whose first approver the submitter picks; the manager's node allows delegating.
    const form = { id: randomUUID(), code: viewCode, title: '报销单', viewType: 1, viewButtons: [], viewControls: [], dataControls: [control('Title', '事由', 1001), control('Total', '金额', 1003)] };
    const claims = await call<{ id: string }>('POST', '/app/page-definition', { code: viewCode, name: { 'zh-CN': `报销单${tag}`, 'en-US': `Claims${tag}` }, definition: { viewControls: [form], pageButtons: [], dataLinkages: [] } });
    await call('POST', `/app/page-definition/${claims.id}/publish`, {});
    const claimMenu = (await call<{ menu: { id: string } }>('POST', '/app/business-menu/for-page', { pageDefinitionId: claims.id, title: { 'zh-CN': `报销单${tag}`, 'en-US': `Claims${tag}` }, roleIds: [roleId] })).menu.id;
    const [director] = await call<{ id: string }[]>('GET', '/identity/selection-items?type=3&filter=director');
    const first = newWorkflowNode('approval', 'first', { x: 0, y: 0 }, '主管审批');
    first.config.assignees = [{ kind: 'chosenAtSubmit' }];
    first.config.actions = { ...first.config.actions, delegate: true, addSigner: true, removeSigner: true };
    const finance = newWorkflowNode('approval', 'finance', { x: 0, y: 0 }, '财务审批');
    finance.config.assignees = [{ kind: 'user', userIds: [director.id] }];
    const graph = {
      nodes: [newWorkflowNode('start', 'start', { x: 0, y: 0 }, '发起人'), first, finance, newWorkflowNode('end', 'end', { x: 0, y: 0 }, '结束')],
      edges: [newWorkflowEdge('e1', 'start', 'first'), newWorkflowEdge('e2', 'first', 'finance'), newWorkflowEdge('e3', 'finance', 'end')],
    };
    const definition = await call<{ id: string }>('POST', '/app/workflow-definition', { name: `报销审批${tag}`, pageId: claims.id, graph });
    await call('POST', `/app/workflow-definition/${definition.id}/publish`, {});
    await call('POST', `/app/workflow-definition/${definition.id}/enable`, {});
    const openClaim = async (page: Page) => {
      await page.goto(`${product.url}/#/dashboard/console`);
      await page.getByTestId('greeting').waitFor();
      await page.goto(`${product.url}/#/menu/${claimMenu}/params/${claimMenu}`);
      const row = page.locator('.ant-table-row', { hasText: subject });
      await row.waitFor();
      await row.getByRole('button', { name: /查\s*看/ }).click();
      await page.getByTestId('record-approval').waitFor();
    };
    const ok = (page: Page) => page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();

    // The buyer saves a claim and submits it, picking the manager as the first approver.
    const buyer = await signedIn('buyer');
    onTestFailed(() => buyer.page.screenshot({ path: screenshotPath('workflow-actions-failure') }).then(() => undefined));
    await buyer.page.goto(`${product.url}/#/menu/${claimMenu}/params/${claimMenu}`);
    await buyer.page.getByRole('button', { name: /新\s*增/ }).click();
    await buyer.page.locator(`#f-${viewCode}-Title`).fill(subject);
    await buyer.page.locator(`#f-${viewCode}-Total`).fill('860');
    await buyer.page.getByTestId('record-save').click();
    await buyer.page.getByTestId('workflow-submit').click();
    await buyer.page.getByTestId('workflow-submit-modal').getByRole('dialog').waitFor();
    await ok(buyer.page);
    await poll(() => buyer.page.getByText('请为“主管审批”选择审批人').count()).toBeGreaterThan(0);
    await pickUser(buyer.page, '“主管审批”的审批人', '经理', '李经理');
    await ok(buyer.page);
    await poll(() => status(buyer.page)).toBe('审批中');
    // A reminder to the manager.
    await buyer.page.getByTestId('workflow-urge').click();
    await buyer.page.getByTestId('workflow-urge-modal').getByRole('textbox').fill('出差报销，请尽快');
    await ok(buyer.page);
    await poll(() => buyer.page.getByText('已催办').count()).toBeGreaterThan(0);

    // The manager got the reminder, and delegates the task to the director for an opinion.
    const manager = await signedIn('manager');
    await manager.page.getByTestId('notifications').click();
    await manager.page.getByTestId('notification-tab-todo').click();
    await poll(() => manager.page.getByTestId('notification-item').filter({ hasText: `催办：${subject}` }).count()).toBe(1);
    await manager.page.keyboard.press('Escape');
    await openClaim(manager.page);
    await poll(() => manager.page.getByTestId('record-approval').textContent()).toContain('待我审批：主管审批');
    await manager.page.getByTestId('workflow-more').click();
    await manager.page.getByTestId('workflow-delegate').click();
    await pickUser(manager.page, '委派给', '总监', '赵总监');
    await ok(manager.page);
    await poll(() => manager.page.getByTestId('workflow-approve').count()).toBe(0);

    // The director gives the opinion and hands the task back.
    const directorSession = await signedIn('director');
    await openClaim(directorSession.page);
    await poll(() => directorSession.page.getByTestId('record-approval').textContent()).toContain('委派给我：主管审批');
    await directorSession.page.getByTestId('workflow-approve').click();
    await directorSession.page.getByTestId('workflow-action-modal').getByLabel('审批意见').fill('金额合理');
    await ok(directorSession.page);
    await poll(() => directorSession.page.getByTestId('workflow-approve').count()).toBe(0);

    // Back with the manager, who approves, then takes it back before finance acted.
    await openClaim(manager.page);
    await decide(manager.page, '同意');
    await manager.page.getByTestId('workflow-reclaim').click();
    await ok(manager.page);
    await poll(() => manager.page.getByTestId('record-approval').textContent()).toContain('待我审批：主管审批');
    await manager.page.getByTestId('workflow-progress').click();
    const history = manager.page.getByTestId('workflow-history');
    await poll(() => history.textContent()).toContain('拿回');
    const text = (await history.textContent()) ?? '';
    for (const entry of ['发起审批', '催办 → 李经理', '出差报销，请尽快', '委派 → 赵总监', '金额合理', '拿回']) expect(text).toContain(entry);
    // The pinned graph: the start done, the first approval current again, finance not reached.
    await manager.page.getByTestId('workflow-progress-graph').waitFor();
    await poll(() => manager.page.getByTestId('wf-node-first').getAttribute('class')).toContain('is-active');
    expect(await manager.page.getByTestId('wf-node-start').getAttribute('class')).toContain('is-done');
    expect(await manager.page.getByTestId('wf-node-finance').getAttribute('class')).toContain('is-pending');
    // The connections are drawn between the nodes (not collapsed to a point).
    const connection = await manager.page.getByTestId('workflow-progress-graph').getByTestId('rf__edge-e2').boundingBox();
    expect(connection?.height ?? 0).toBeGreaterThan(20);
    await manager.page.screenshot({ path: screenshotPath('workflow-actions-history') });
    for (const s of [buyer, manager, directorSession]) await s.context.close();
  });
});
