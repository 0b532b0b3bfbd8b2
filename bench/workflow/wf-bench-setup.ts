/**
 * What the workflow benches need on the server they started (bench/workflow/wf-server.ts): an
 * expense page, a submitter `ini` (the page's work codes), an approver `a`, and a published, enabled
 * definition start → one or-sign approval by `a` → end. Everything through the API, as a designer
 * and an administrator would; answers ids, the master table's name and signed-in tokens.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { bizPermission, BIZ_ACTIONS } from '@tessera/core/contracts/permissions';
import type { TWorkflowGraph, TWorkflowNode } from '@tessera/core/contracts/workflow';
import { newWorkflowEdge as edge, newWorkflowNode as node } from '@tessera/core/workflow/defaults';
import { WF_BENCH_PASSWORD } from '../lib/constants.ts';

const USER_PASSWORD = 'Bench#Approver2026';

export async function login(url: string, userName: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/Auth/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: userName, password }) });
  const body = (await res.json()) as { code: number; data: { accessToken: string } };
  if (body.code !== 0) throw new Error(`login ${userName}: ${JSON.stringify(body)}`);
  return body.data.accessToken;
}

export async function call<T>(url: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

export async function workflowBenchSetup(url: string, pool: pg.Pool) {
  const admin = await login(url, 'admin', WF_BENCH_PASSWORD);
  const control = (code: string, controlType: number) => ({ id: randomUUID(), code, title: code, controlType, isDisplayed: true, isEdit: true });
  const master = { id: randomUUID(), code: 'Master', title: 'Master', viewType: 1, dataControls: [control('Title', 1001), control('Amount', 1003)], viewButtons: [], viewControls: [] };
  const page = await call<{ id: string }>(url, admin, 'POST', '/app/page-definition', { code: 'BenchExpense', name: { 'zh-CN': '报销', 'en-US': 'Expense' }, definition: { viewControls: [master], pageButtons: [], dataLinkages: [] } });
  await call(url, admin, 'POST', `/app/page-definition/${page.id}/publish`, {});
  const role = await call<{ id: string }>(url, admin, 'POST', '/identity/roles', { name: 'submitters' });
  await pool.query(`insert into permission_grants (name, provider_name, provider_key) select unnest($1::text[]), 'R', $2`, [[bizPermission.access('BenchExpense'), ...BIZ_ACTIONS.map((a) => bizPermission.action('BenchExpense', a))], role.id]);
  const user = (userName: string, roleNames: string[]) =>
    call<{ id: string }>(url, admin, 'POST', '/identity/users', { userName, name: userName, surname: '', email: `${userName}@example.test`, phoneNumber: '', password: USER_PASSWORD, roleNames, isActive: true });
  const ini = await user('ini', ['submitters']);
  const a = await user('a', []);
  const approval = node('approval', 'n1', { x: 0, y: 0 }, 'Manager');
  approval.config = { ...approval.config, assignees: [{ kind: 'user', userIds: [a.id] }], commentRequiredOnReject: false };
  const nodes: TWorkflowNode[] = [node('start', 'start') as TWorkflowNode, approval as TWorkflowNode, node('end', 'end') as TWorkflowNode];
  const graph: TWorkflowGraph = { nodes, edges: [edge('e1', 'start', 'n1'), edge('e2', 'n1', 'end')] };
  const definition = await call<{ id: string }>(url, admin, 'POST', '/app/workflow-definition', { name: 'Expense approval', pageId: page.id, graph });
  await call(url, admin, 'POST', `/app/workflow-definition/${definition.id}/publish`, {});
  await call(url, admin, 'POST', `/app/workflow-definition/${definition.id}/enable`);
  return {
    admin,
    pageId: page.id,
    masterTable: `biz."v_${master.id.replace(/-/g, '')}"`,
    definitionId: definition.id,
    users: { ini: ini.id, a: a.id },
    tokens: { ini: await login(url, 'ini', USER_PASSWORD), a: await login(url, 'a', USER_PASSWORD) },
  };
}

/** Latency percentiles of sorted milliseconds. */
export const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
