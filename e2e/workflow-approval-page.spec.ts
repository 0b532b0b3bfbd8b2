import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { apiCall as apiCallFor, apiToken } from './shell-helpers.ts';
import { approvalNode, control, createFlowPage, FLOW_USER_PASSWORD, flowLine, publishFlow, signedInUser, submitRecord } from './workflow-fixtures.ts';

// Issue 14, the approval page: the approver opens a to-do, reads the flow's timeline (submitted by
// the claimant) beside the form, approves with Alt+A and a comment; with "open the next one after
// acting" the next to-do opens, and the next-task button moves on again. The claimant gets the
// "approved" notification. The amount their node makes editable is corrected in the form and
// approved without pressing save: approve stores both (one transaction). On a phone the page is one
// column with the action bar fixed at the bottom.

let product: Product;
let adminToken = '';
let claimantToken = '';
let managerToken = '';
const PASSWORD = FLOW_USER_PASSWORD;
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });
let pageId = '';
let viewId = '';
let definitionId = '';

beforeAll(async () => {
  product = await startProduct();
  adminToken = await apiToken(product);
  const page = await createFlowPage(product, adminToken, {
    code: 'TravelClaim',
    name: { 'zh-CN': '差旅报销', 'en-US': 'Travel claims' },
    view: { code: 'Claim', title: '报销' },
    controls: [control('Title', '事由', 1001), control('Amount', '金额', 1003)],
    roleName: '员工',
    users: { claimant: ['王', '员工'], manager: ['李', '经理'] },
  });
  ({ pageId, viewId } = page);
  const approval = approvalNode('manager', '部门经理审批', [page.userIds.manager!], (config) => {
    config.actions = { ...config.actions, reject: true, transfer: true, return: false };
    config.fieldPermissions = { Amount: 'editable' };
  });
  definitionId = await publishFlow(product, adminToken, '差旅审批', pageId, flowLine(approval));
  claimantToken = await apiToken(product, 'claimant', PASSWORD);
  managerToken = await apiToken(product, 'manager', PASSWORD);
}, 120_000);
afterAll(() => product?.stop());

/** The claimant saves a claim and submits it (through the API: the journeys of submitting from the page are elsewhere). */
async function submitClaim(title: string) {
  await submitRecord(product, claimantToken, { pageId, viewId }, { Title: title, Amount: 320 }, definitionId);
}

const todoTitles = async () => (await apiCallFor<{ items: { id: string; recordTitle: string }[] }>(product, managerToken, 'GET', '/app/workflow-task/todo')).items;

const signedIn = (userName: string, viewport?: { width: number; height: number }) => signedInUser(product, userName, { viewport });

describe('the approval page (issue 14)', () => {
  it('timeline, Alt+A with a comment, the next to-do after acting and by the button; the claimant is notified', async () => {
    for (const title of ['上海出差 A', '北京出差 B', '广州出差 C']) await submitClaim(title);
    const first = (await todoTitles()).find((x) => x.recordTitle === '上海出差 A')!;
    expect(first).toBeTruthy();

    const manager = await signedIn('manager', { width: 1280, height: 800 });
    onTestFailed(() => manager.page.screenshot({ path: screenshotPath('workflow-approval-page-failure') }).then(() => undefined));
    await manager.page.goto(`${product.url}/#/flows/assignTask?taskId=${first.id}`);
    const drawer = manager.page.getByTestId('task-drawer');
    await poll(() => drawer.getByTestId('task-record-title').textContent()).toBe('上海出差 A');
    // The timeline: submitted by the claimant, the manager's step waiting.
    const timeline = drawer.getByTestId('flow-timeline');
    await poll(() => timeline.getByTestId('timeline-event-start').textContent()).toContain('王员工');
    expect(await timeline.getByTestId('timeline-event-start').textContent()).toContain('发起审批');
    await poll(() => timeline.getByTestId('timeline-visit').first().textContent()).toContain('部门经理审批');
    expect(await timeline.getByTestId('timeline-task').first().textContent()).toContain('待处理');
    // The bar shows what the node allows, with its shortcut.
    const bar = manager.page.getByTestId('approval-action-bar');
    await bar.getByTestId('workflow-approve').waitFor({ state: 'visible' });
    expect(await bar.getByTestId('workflow-approve').getAttribute('aria-keyshortcuts')).toBe('Alt+A');
    expect(await bar.getByTestId('workflow-reject').count()).toBe(1);
    expect(await bar.getByTestId('workflow-return').count()).toBe(0);
    await drawer.getByRole('tab', { name: '流程图' }).click();
    await drawer.getByTestId('workflow-progress-graph').waitFor({ state: 'visible' });
    await drawer.getByRole('tab', { name: '表单' }).click();
    await poll(() => drawer.getByRole('tab', { name: '表单' }).getAttribute('aria-selected')).toBe('true');
    await manager.page.waitForTimeout(400); // the tab's ink bar slides back
    await manager.page.screenshot({ path: screenshotPath('workflow-approval-page-desktop') });

    // Alt+A with a comment; "open the next one after acting" opens the next to-do.
    await bar.getByTestId('approval-auto-next').check();
    await manager.page.keyboard.press('Alt+KeyA');
    const modal = manager.page.getByTestId('workflow-action-modal');
    await modal.getByTestId('workflow-action-comment').fill('行程与票据一致');
    await manager.page.keyboard.press('Control+Enter');
    await poll(() => drawer.getByTestId('task-record-title').textContent()).not.toBe('上海出差 A');
    const second = await drawer.getByTestId('task-record-title').textContent();
    expect(['北京出差 B', '广州出差 C']).toContain(second);
    // The next-task button moves on to the last one.
    await bar.getByTestId('approval-next').click();
    await poll(() => drawer.getByTestId('task-record-title').textContent()).toBe(second === '北京出差 B' ? '广州出差 C' : '北京出差 B');

    // The claimant: the approved notification, and the comment in the flow's timeline.
    const notes = await apiCallFor<{ items: { type: string; title: string; link: string | null }[] }>(product, claimantToken, 'GET', '/app/notifications?MaxResultCount=20');
    const approved = notes.items.find((n) => n.title.startsWith('已通过') && n.title.includes('上海出差 A'));
    expect(approved).toMatchObject({ type: 'message', link: '/flows/completedTasks?tab=started' });
    const managerNotes = await apiCallFor<{ items: { type: string; title: string; link: string | null }[] }>(product, managerToken, 'GET', '/app/notifications?MaxResultCount=20');
    expect(managerNotes.items.find((n) => n.link === `/flows/assignTask?taskId=${first.id}`)).toMatchObject({ type: 'todo', title: '待审批：差旅审批 · 上海出差 A' });
    await manager.context.close();
  });

  it('the manager corrects the amount their node makes editable and approves without saving: both are stored', async () => {
    await submitClaim('杭州出差 E');
    const task = (await todoTitles()).find((x) => x.recordTitle === '杭州出差 E')!;
    const manager = await signedIn('manager', { width: 1280, height: 800 });
    onTestFailed(() => manager.page.screenshot({ path: screenshotPath('workflow-approval-page-edits-failure') }).then(() => undefined));
    await manager.page.goto(`${product.url}/#/flows/assignTask?taskId=${task.id}`);
    const drawer = manager.page.getByTestId('task-drawer');
    await poll(() => drawer.getByTestId('task-record-title').textContent()).toBe('杭州出差 E');
    const amount = drawer.locator('#f-Claim-Amount');
    await poll(() => amount.isEnabled()).toBe(true);
    expect(await drawer.locator('#f-Claim-Title').isDisabled()).toBe(true);
    await amount.fill('298.5');
    // Approve straight away (no save): the dialog says the change goes with the approval.
    await manager.page.getByTestId('approval-action-bar').getByTestId('workflow-approve').click();
    const modal = manager.page.getByTestId('workflow-action-modal');
    await modal.getByTestId('workflow-edits-included').waitFor({ state: 'visible' });
    await modal.getByTestId('workflow-action-comment').fill('按票据金额');
    await manager.page.keyboard.press('Control+Enter');
    await poll(async () => (await apiCallFor<{ status: string }>(product, managerToken, 'GET', `/app/workflow-task/${task.id}`)).status).toBe('approved');
    const list = await apiCallFor<{ items: Record<string, unknown>[] }>(product, claimantToken, 'POST', '/app/business-data/query-view-data', { pageId, viewId, filterConditions: [{ key: 'Title', judgmentMethod: 'eq', value: '杭州出差 E' }] });
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ Amount: 298.5, FlowStatus: 2 });
    // The record's history names the manager's change.
    const history = await apiCallFor<{ items: { userName: string | null; changes: { code: string; after: unknown }[] }[] }>(product, claimantToken, 'GET', `/app/business-data/record-history?pageId=${pageId}&id=${list.items[0]!.Id}`);
    expect(history.items.some((e) => e.userName?.includes('李') && e.changes.some((c) => c.code === 'Amount' && Number(c.after) === 298.5))).toBe(true);
    await manager.context.close();
  });

  it('on a phone: one column, the action bar fixed at the bottom and visible', async () => {
    await submitClaim('深圳出差 D');
    const task = (await todoTitles()).find((x) => x.recordTitle === '深圳出差 D')!;
    const manager = await signedIn('manager', { width: 390, height: 844 });
    onTestFailed(() => manager.page.screenshot({ path: screenshotPath('workflow-approval-page-phone-failure') }).then(() => undefined));
    await manager.page.goto(`${product.url}/#/flows/assignTask?taskId=${task.id}`);
    const drawer = manager.page.getByTestId('task-drawer');
    await poll(() => drawer.getByTestId('task-record-title').textContent()).toBe('深圳出差 D');
    const bar = manager.page.getByTestId('approval-action-bar');
    await bar.getByTestId('workflow-approve').waitFor({ state: 'visible' });
    await poll(() => drawer.getByTestId('flow-timeline').count()).toBe(1);
    const box = async () => (await bar.boundingBox())!;
    // At the bottom of the screen, inside it, and still there after the body scrolled.
    await poll(async () => Math.round((await box()).y + (await box()).height)).toBeGreaterThan(844 - 80);
    expect((await box()).y + (await box()).height).toBeLessThanOrEqual(844);
    expect((await box()).width).toBeGreaterThan(300);
    await drawer.locator('.ant-drawer-body').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    expect((await box()).y + (await box()).height).toBeLessThanOrEqual(844);
    expect((await box()).y).toBeGreaterThan(844 - 200);
    // One column: the timeline sits below the form, not beside it.
    const form = await drawer.getByRole('tab', { name: '表单' }).boundingBox();
    const timeline = await drawer.getByTestId('flow-timeline').boundingBox();
    expect(timeline!.y).toBeGreaterThan(form!.y);
    expect(timeline!.x).toBeLessThan(60);
    await drawer.locator('.ant-drawer-body').evaluate((el) => el.scrollTo(0, 0));
    await manager.page.screenshot({ path: screenshotPath('workflow-approval-page-phone') });
    await manager.context.close();
  });
});
