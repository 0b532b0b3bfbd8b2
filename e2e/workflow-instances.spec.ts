import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ADMIN_PASSWORD, screenshotPath, startProduct, type Product } from './product.ts';
import { apiCall as apiCallFor, apiToken } from './shell-helpers.ts';
import { approvalNode, control, createFlowPage, FLOW_USER_PASSWORD, flowLine, publishFlow, signedInUser, submitRecord } from './workflow-fixtures.ts';

// Issue 14, flow management (流程管理, `/flows/instance`): the administrator lists every flow,
// filters by flow, opens a claim's instance and reassigns (转办) the manager's pending task to a
// colleague with a reason; the colleague finds it in their to-do list, and the audit log holds the
// intervention with its reason.

let product: Product;
let adminToken = '';
const PASSWORD = FLOW_USER_PASSWORD;
const call = <T>(method: string, path: string, body?: unknown, token = adminToken) => apiCallFor<T>(product, token, method, path, body);
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });
let claimId = '';

beforeAll(async () => {
  product = await startProduct();
  adminToken = await apiToken(product);
  const page = await createFlowPage(product, adminToken, {
    code: 'TravelClaim',
    name: { 'zh-CN': '差旅报销', 'en-US': 'Travel claims' },
    view: { code: 'Claim', title: '报销' },
    controls: [control('Title', '事由', 1001)],
    roleName: '报销员工',
    users: { traveller: ['赵', '出差'], boss: ['钱', '经理'], deputy: ['孙', '副经理'] },
  });
  // Two flows on the page: 差旅审批 and 借款审批, each start → the manager → end.
  const definition = (name: string) => publishFlow(product, adminToken, name, page.pageId, flowLine(approvalNode('manager', '经理审批', [page.userIds.boss!])));
  const travel = await definition('差旅审批');
  const loan = await definition('借款审批');
  // The traveller saves two claims and submits one under each flow.
  const traveller = await apiToken(product, 'traveller', PASSWORD);
  const submit = (title: string, definitionId: string) => submitRecord(product, traveller, page, { Title: title }, definitionId);
  claimId = await submit('北京出差 三天', travel);
  await submit('备用金 借款', loan);
}, 120_000);
afterAll(() => product?.stop());

const signedIn = (userName: string, password = PASSWORD, viewport?: { width: number; height: number }) => signedInUser(product, userName, { password, viewport });

/** Picks a user in the open dialog's user picker labelled `label`. */
async function pickUser(page: Page, label: string, search: string, name: string) {
  await page.getByRole('dialog').getByLabel(label).click();
  await page.keyboard.type(search);
  await page.locator('.ant-select-item-option', { hasText: name }).click();
  await page.keyboard.press('Escape');
}

describe('flow management (issue 14)', () => {
  it('the administrator filters by flow, reassigns the pending task with a reason; the colleague has it to do; the audit log has it', async () => {
    const { page, context } = await signedIn('admin', ADMIN_PASSWORD, { width: 1280, height: 800 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('workflow-instances-failure') }).then(() => undefined));
    await page.goto(`${product.url}/#/flows/instance`);
    const table = page.getByTestId('instances-table');
    await poll(() => table.locator('.ant-table-row').count()).toBe(2);

    // Filter by flow: only the travel claim is left.
    await page.getByTestId('instances-filters').getByLabel('流程').click();
    await page.locator('.ant-select-item-option', { hasText: '差旅审批' }).click();
    await poll(() => table.locator('.ant-table-row').count()).toBe(1);
    const row = table.locator('.ant-table-row', { hasText: '北京出差 三天' });
    expect(await row.textContent()).toContain('钱经理');
    await page.keyboard.press('Escape');
    await page.screenshot({ path: screenshotPath('workflow-instances-list') });

    // Open it, reassign the manager's task to the deputy with a reason.
    await row.getByTestId(`instance-open-${claimId}`).click();
    const drawer = page.getByTestId('instance-drawer');
    await drawer.getByTestId('intervene-reassign').click();
    const modal = page.getByTestId('instance-intervention-modal');
    // The only open task is chosen already; without a reason the dialog refuses.
    await modal.getByRole('button', { name: /确\s*定|OK/ }).click();
    await poll(() => modal.getByText('请填写原因').count()).toBe(1);
    await pickUser(page, '转办给', 'deputy', '孙副经理');
    await modal.getByTestId('intervention-reason').fill('经理出差，由副经理审批');
    await modal.getByRole('button', { name: /确\s*定|OK/ }).click();
    await poll(() => page.getByTestId('instance-intervention-modal').count()).toBe(0);
    await poll(() => drawer.getByTestId('workflow-history').textContent()).toContain('经理出差，由副经理审批');
    expect(await drawer.getByTestId('workflow-history').textContent()).toContain('管理员转办');
    await page.screenshot({ path: screenshotPath('workflow-instances-drawer') });
    await page.keyboard.press('Escape');
    await poll(() => row.textContent()).toContain('孙副经理');

    // The deputy finds the claim under 待办任务.
    const deputy = await signedIn('deputy');
    await deputy.page.goto(`${product.url}/#/flows/assignTask`);
    await poll(() => deputy.page.getByTestId('todo-table').locator('.ant-table-row', { hasText: '北京出差 三天' }).count()).toBe(1);

    // The audit log: the intervention with its reason and who held the task before.
    const audit = await call<{ items: { action: string; entityId: string | null; details: Record<string, unknown> | null }[] }>('GET', '/app/audit-logs?Action=WorkflowReassigned');
    const entry = audit.items.find((e) => e.entityId === claimId);
    expect(entry?.details).toMatchObject({ reason: '经理出差，由副经理审批' });

    // A phone: the table scrolls sideways, the drawer takes the whole width.
    const phone = await signedIn('admin', ADMIN_PASSWORD, { width: 390, height: 844 });
    await phone.page.goto(`${product.url}/#/flows/instance`);
    await poll(() => phone.page.getByTestId('instances-table').locator('.ant-table-row').count()).toBe(2);
    await phone.page.screenshot({ path: screenshotPath('workflow-instances-phone') });
    for (const s of [deputy, phone]) await s.context.close();
    await context.close();
  });
});
