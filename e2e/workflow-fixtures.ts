import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { newWorkflowEdge, newWorkflowNode } from '../packages/core/src/workflow/defaults.ts';
import type { TWorkflowGraph, TWorkflowNode } from '../packages/core/src/contracts/workflow.ts';
import { signInAs, type Product } from './product.ts';
import { apiCall } from './shell-helpers.ts';

/**
 * What the workflow journeys share: a published page with one form view, a business menu for a
 * role and users in it; definitions built as a line of approval / CC nodes, published and enabled;
 * a user signed in through the login form.
 */
export const FLOW_USER_PASSWORD = 'Approver#2026';

export const control = (code: string, title: string, controlType: number) => ({ id: randomUUID(), code, title, controlType, isDisplayed: true, isEdit: true });

export interface FlowPageSpec {
  code: string;
  name: { 'zh-CN': string; 'en-US': string };
  view: { code: string; title: string };
  controls: ReturnType<typeof control>[];
  roleName: string;
  /** userName → [surname, given name]. */
  users: Record<string, [string, string]>;
}

export interface FlowPage {
  pageId: string;
  viewId: string;
  menuId: string;
  /** userName → id. */
  userIds: Record<string, string>;
}

export async function createFlowPage(product: Product, adminToken: string, spec: FlowPageSpec): Promise<FlowPage> {
  const call = <T>(method: string, path: string, body?: unknown) => apiCall<T>(product, adminToken, method, path, body);
  const view = { id: randomUUID(), code: spec.view.code, title: spec.view.title, viewType: 1, viewButtons: [], viewControls: [], dataControls: spec.controls };
  const page = await call<{ id: string }>('POST', '/app/page-definition', { code: spec.code, name: spec.name, definition: { viewControls: [view], pageButtons: [], dataLinkages: [] } });
  await call('POST', `/app/page-definition/${page.id}/publish`, {});
  const role = await call<{ id: string }>('POST', '/identity/roles', { name: spec.roleName, description: '', isDefault: false, isPublic: true });
  const menu = await call<{ menu: { id: string } }>('POST', '/app/business-menu/for-page', { pageDefinitionId: page.id, title: spec.name, roleIds: [role.id] });
  const userIds: Record<string, string> = {};
  for (const [userName, [surname, name]] of Object.entries(spec.users)) {
    userIds[userName] = (await call<{ id: string }>('POST', '/identity/users', { userName, name, surname, email: `${userName}@example.com`, password: FLOW_USER_PASSWORD, roleNames: [spec.roleName] })).id;
  }
  return { pageId: page.id, viewId: view.id, menuId: menu.menu.id, userIds };
}

/** An approval node of `userIds`; `configure` changes its settings (actions, return target…). */
export function approvalNode(id: string, name: string, userIds: string[], configure?: (config: Extract<TWorkflowNode, { type: 'approval' }>['config']) => void): TWorkflowNode {
  const n = newWorkflowNode('approval', id, { x: 0, y: 0 }, name);
  n.config.assignees = [{ kind: 'user', userIds }];
  configure?.(n.config);
  return n as TWorkflowNode;
}

/** Start → the nodes in a line → end, laid out top to bottom. */
export function flowLine(...nodes: TWorkflowNode[]): TWorkflowGraph {
  const all = [newWorkflowNode('start', 'start', { x: 0, y: 0 }, '发起人') as TWorkflowNode, ...nodes, newWorkflowNode('end', 'end', { x: 0, y: 0 }, '结束') as TWorkflowNode];
  all.forEach((n, i) => (n.position = { x: 0, y: i * 120 }));
  return { nodes: all, edges: all.slice(1).map((n, i) => newWorkflowEdge(`e${i + 1}`, all[i]!.id, n.id)) };
}

/** Creates, publishes and enables a definition on the page: its id. */
export async function publishFlow(product: Product, adminToken: string, name: string, pageId: string, graph: TWorkflowGraph): Promise<string> {
  const call = <T>(method: string, path: string, body?: unknown) => apiCall<T>(product, adminToken, method, path, body);
  const d = await call<{ id: string }>('POST', '/app/workflow-definition', { name, pageId, graph });
  await call('POST', `/app/workflow-definition/${d.id}/publish`, {});
  await call('POST', `/app/workflow-definition/${d.id}/enable`, {});
  return d.id;
}

/** A user signed in through the login form, on the console. */
export async function signedInUser(product: Product, userName: string, options: { password?: string; viewport?: { width: number; height: number } } = {}): Promise<{ page: Page; context: BrowserContext }> {
  const { page, context } = await product.newPage(options.viewport);
  await signInAs(page, product.url, userName, options.password ?? FLOW_USER_PASSWORD);
  await page.waitForURL(/#\/dashboard\/console/);
  return { page, context };
}

/** `token`'s user saves a record with `values` on the page's view and submits it to the definition: the instance id. */
export async function submitRecord(product: Product, token: string, page: Pick<FlowPage, 'pageId' | 'viewId'>, values: Record<string, unknown>, definitionId: string): Promise<string> {
  const saved = await apiCall<{ viewDataList: { dataList: { Id: string }[] }[] }>(product, token, 'POST', '/app/business-data/save-page', { pageId: page.pageId, viewDataList: [{ viewId: page.viewId, dataList: [values] }] });
  const recordId = saved.viewDataList[0]!.dataList[0]!.Id;
  return (await apiCall<{ id: string }>(product, token, 'POST', '/app/workflow-instance', { pageId: page.pageId, recordId, definitionId, clientRequestId: randomUUID() })).id;
}
