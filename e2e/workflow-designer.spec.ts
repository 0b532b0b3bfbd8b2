import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, signInAs, type Product } from './product.ts';
import { productPerTry } from './product-per-try.ts';
import { apiCall as apiCallFor, poll, tokenOf } from './shell-helpers.ts';

// Browser journey of issue 13 (definitions and designer): an administrator creates a workflow
// bound to the published purchase-order page in `/design/workflow`, draws start → manager
// approval → condition (total > 10000 → director approval; default → end) → end on the `/flow`
// canvas, sets the approvers, saves, publishes, and sees version 1 in the list.

let product: Product;
const products = productPerTry((p) => (product = p));
const apiCall = <T>(token: string, method: string, path: string, body?: unknown) => apiCallFor<T>(product, token, method, path, body);

const control = (code: string, title: string, controlType: number) => ({ id: randomUUID(), code, title, controlType });

/** The purchase-order page: a master form (title, total, applicant picker) with a child grid of lines. */
async function publishPurchaseOrderPage(token: string) {
  const masterId = randomUUID();
  const lines = {
    id: randomUUID(),
    code: 'lines',
    title: '明细',
    viewType: 2,
    parentViewControlId: masterId,
    associateForeignKeyCode: 'ParentViewDataId',
    dataControls: [control('product', '产品', 1001), control('amount', '金额', 1015)],
    viewButtons: [],
    viewControls: [],
  };
  const master = {
    id: masterId,
    code: 'order',
    title: '采购订单',
    viewType: 1,
    dataControls: [control('title', '标题', 1001), control('total', '总金额', 1015), control('applicant', '申请人', 4001)],
    viewButtons: [],
    viewControls: [lines],
  };
  const page = await apiCall<{ id: string }>(token, 'POST', '/app/page-definition', {
    code: 'purchaseOrder',
    name: { 'zh-CN': '采购订单', 'en-US': 'Purchase order' },
    definition: { viewControls: [master], pageButtons: [], dataLinkages: [] },
  });
  await apiCall(token, 'POST', `/app/page-definition/${page.id}/publish`, {});
  return page.id;
}

const dropdown = (page: Page) => page.locator('.ant-select-dropdown:visible, .ant-dropdown:visible').last();

async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await dropdown(page).getByText(option, { exact: true }).first().click();
}

/** Adds an approver rule of a kind to the selected approval node. */
async function addAssignee(page: Page, kind: string) {
  await page.getByTestId('add-assignee').click();
  await page.locator('.ant-dropdown:visible').getByText(kind, { exact: true }).click();
}

const node = (page: Page, id: string) => page.getByTestId(`wf-node-${id}`);

describe('designing an approval workflow', () => {
  it('draws a two-level approval with a condition on the total, saves and publishes it', { timeout: 300_000 }, async () => {
    await products.forThisTry();
    const { page } = await product.newPage({ width: 1440, height: 900 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('workflow-designer-failure') }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    const token = await tokenOf(page);
    const pageId = await publishPurchaseOrderPage(token);

    // The list: empty, then a new definition bound to the purchase-order page opens in the designer.
    await page.goto(`${product.url}/#/design/workflow`);
    await page.getByText('暂无流程，点击“新建流程”开始设计').waitFor();
    await page.getByTestId('workflow-create').click();
    const modal = page.locator('.ant-modal:visible');
    await modal.getByTestId('workflow-name').fill('采购审批');
    await choose(page, modal.getByTestId('workflow-page'), '采购订单 (purchaseOrder)');
    await modal.getByRole('button', { name: '确 定' }).or(modal.getByRole('button', { name: '确定' })).click();
    await page.waitForURL(/#\/flow\?id=/);
    const id = new URL(page.url().replace('#/', '')).searchParams.get('id')!;
    await node(page, 'start').waitFor();
    await node(page, 'end').waitFor();

    // start → manager approval (click the palette with the start selected) …
    await node(page, 'start').click();
    await page.getByTestId('wf-palette-approval').click();
    await node(page, 'approval-1').waitFor();
    await page.getByTestId('wf-node-name').fill('部门经理审批');
    await addAssignee(page, '发起人的主管');
    await expect.poll(() => node(page, 'approval-1').textContent()).toContain('直属主管');

    // … → a condition branch group after it (its first branch is the default, to the end) …
    await page.getByTestId('wf-palette-exclusive').click();
    await node(page, 'exclusive-1').waitFor();
    await page.getByTestId('wf-node-name').fill('金额判断');
    // … with a second branch: the director's approval, for orders over 10,000.
    await page.getByTestId('wf-palette-approval').click();
    await node(page, 'approval-2').waitFor();
    await page.getByTestId('wf-node-name').fill('总监审批');
    await addAssignee(page, '角色');
    await choose(page, page.getByTestId('assignee-roles'), 'admin');
    await page.keyboard.press('Escape');
    await page.getByRole('radio', { name: '会签（所有人同意）' }).check();
    await expect.poll(() => node(page, 'approval-2').textContent()).toContain('admin');
    // The director may correct the total: field permissions list the bound page's controls.
    await page.getByRole('tab', { name: '字段权限' }).click();
    await page.locator('.wf-props tr', { hasText: '总金额' }).getByText('可编辑', { exact: true }).click();
    await page.locator('.wf-props tr', { hasText: '明细 · 金额' }).getByText('隐藏', { exact: true }).click();

    // The branch's condition: choose its label on the canvas, type the formula.
    await page.getByText('请设置条件', { exact: true }).click();
    const condition = page.getByTestId('wf-properties').getByLabel('条件公式');
    await condition.click();
    await page.keyboard.type('{total} > 10000', { delay: 15 });
    await page.keyboard.press('Escape');
    await page.getByText('默认', { exact: true }).first().waitFor();

    // Undo and redo the director's name, then no problems remain.
    await node(page, 'approval-2').click();
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+Shift+z');

    // The "+" on the edge start → manager inserts a CC there; Delete removes it, undo brings it back, undo again takes the insert back.
    const startEdge = await page.getByRole('group', { name: '从“发起人”到“部门经理审批”的连线' }).getAttribute('data-id');
    await page.getByTestId(`wf-edge-add-${startEdge}`).click();
    await page.locator('.ant-dropdown:visible').getByText('抄送人', { exact: true }).click();
    await node(page, 'cc-1').waitFor();
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await node(page, 'cc-1').click();
    await page.keyboard.press('Delete');
    await node(page, 'cc-1').waitFor({ state: 'detached' });
    await page.keyboard.press('Control+z');
    await node(page, 'cc-1').waitFor();
    await page.keyboard.press('Control+z');
    await node(page, 'cc-1').waitFor({ state: 'detached' });
    await page.getByTestId('wf-problems-tab').click();
    await page.getByTestId('wf-no-problems').waitFor();
    await page.screenshot({ path: screenshotPath('workflow-designer') });

    // Save, then publish: version 1.
    await page.getByTestId('wf-save').click();
    await poll(() => page.getByTestId('wf-save-state').textContent()).toBe('已保存');
    await page.getByTestId('wf-publish').click();
    await page.getByText('已发布版本 1').first().waitFor();
    await poll(() => page.getByTestId('wf-status').textContent()).toBe('版本 1');

    // What was saved: the graph as drawn.
    const saved = await apiCall<{
      publishedVersion: number;
      pageId: string;
      graph: { nodes: { id: string; type: string; name: string; config: { assignees?: { kind: string }[]; mode?: string; fieldPermissions?: Record<string, string> } }[]; edges: { source: string; target: string; condition?: string; isDefault?: boolean }[] };
    }>(token, 'GET', `/app/workflow-definition/${id}`);
    expect(saved.publishedVersion).toBe(1);
    expect(saved.pageId).toBe(pageId);
    const byName = (name: string) => saved.graph.nodes.find((n) => n.name === name)!;
    expect(byName('部门经理审批').config.assignees).toEqual([{ kind: 'initiatorLeader', level: 1 }]);
    expect(byName('总监审批').config).toMatchObject({ mode: 'all', assignees: [{ kind: 'role' }], fieldPermissions: { total: 'editable', 'lines.amount': 'hidden' } });
    const branches = saved.graph.edges.filter((e) => e.source === byName('金额判断').id);
    expect(branches.map((e) => ({ target: e.target, condition: e.condition?.trim() || null, isDefault: Boolean(e.isDefault) })).sort((a, b) => a.target.localeCompare(b.target))).toEqual(
      [
        { target: byName('总监审批').id, condition: '{total} > 10000', isDefault: false },
        { target: 'end', condition: null, isDefault: true },
      ].sort((a, b) => a.target.localeCompare(b.target)),
    );

    // Back in the list: version 1, published.
    await page.goto(`${product.url}/#/design/workflow`);
    await poll(() => page.getByTestId(`workflow-version-${id}`).textContent()).toBe('v1');
    await page.getByText('已发布').first().waitFor();

    // Enable it, and copy it (a copy is a new draft).
    await page.getByRole('switch', { name: '启用 采购审批' }).click();
    await page.getByText('流程已启用').waitFor();
    await poll(async () => (await apiCall<{ enabled: boolean }>(token, 'GET', `/app/workflow-definition/${id}`)).enabled).toBe(true);
    await page.getByTestId(`more-workflow-${id}`).click();
    await page.locator('.ant-dropdown:visible').getByText('复制', { exact: true }).click();
    const copyModal = page.locator('.ant-modal:visible');
    await poll(() => copyModal.getByTestId('workflow-name').inputValue()).toBe('采购审批 (2)');
    await copyModal.getByRole('button', { name: '确 定' }).or(copyModal.getByRole('button', { name: '确定' })).click();
    await page.getByText('采购审批 (2)', { exact: true }).waitFor();

    // Its versions: version 1 opens read-only on the canvas.
    await page.getByTestId(`more-workflow-${id}`).click();
    await page.locator('.ant-dropdown:visible').getByText('版本历史', { exact: true }).click();
    await page.getByTestId('version-1').waitFor();
    await page.locator('.ant-drawer').getByRole('button', { name: /查看/ }).click();
    await page.waitForURL(/readonly=1/);
    await node(page, 'end').waitFor();
    await page.getByText('只读', { exact: true }).waitFor();
    expect(await page.getByTestId('wf-palette-approval').count()).toBe(0);

    // Export and import: the exported JSON comes back as a new draft of the same page.
    const exported = await apiCall<unknown>(token, 'GET', `/app/workflow-definition/${id}/export?source=published`);
    await page.goto(`${product.url}/#/design/workflow`);
    await page.getByRole('button', { name: /导入/ }).click();
    const importModal = page.locator('.ant-modal:visible');
    await importModal.locator('input[type=file]').setInputFiles({ name: 'purchase.workflow.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await importModal.getByLabel('流程名称').fill('采购审批（导入）');
    await importModal.getByRole('button', { name: /导\s*入/ }).click();
    await page.getByText('采购审批（导入）', { exact: true }).waitFor();
  });
});
