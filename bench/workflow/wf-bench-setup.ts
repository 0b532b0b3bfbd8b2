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

export async function workflowBenchSetup(url: string, pool: pg.Pool, adminPassword = WF_BENCH_PASSWORD) {
  const admin = await login(url, 'admin', adminPassword);
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

/** The password of the setup's users `ini` and `a` (the browser benches sign in as them). */
export const WF_USER_PASSWORD = USER_PASSWORD;

/**
 * Seeds, set-based (INSERT … SELECT generate_series), `historic` completed tasks of `a` (approved,
 * rejected, returned, transferred; four per finished instance) and `open` pending ones (one per
 * running instance), one node visit per instance, started by `ini`; then VACUUM ANALYZE.
 */
export async function seedUserTasks(pool: pg.Pool, s: Awaited<ReturnType<typeof workflowBenchSetup>>, historic: number, open: number) {
  // Ids derive from the series number, so instances, visits and tasks link without a lookup.
  const [H, O, T] = [Math.ceil(historic / 4), open, historic].map((n) => Math.trunc(n));
  await pool.query(`
    insert into workflow_instances (id, definition_id, version, page_id, record_id, record_title, initiator_id, status, started_time, ended_time)
    select md5('i' || g)::uuid, $1, 1, $2, md5('r' || g)::uuid, 'Expense ' || g, $3,
      case when g <= ${H} then (array['approved','approved','rejected','withdrawn'])[1 + g % 4] else 'running' end,
      now() - ((${H + O} - g) * interval '1 minute'), case when g <= ${H} then now() - ((${H + O} - g) * interval '1 minute') + interval '50 minutes' end
    from generate_series(1, ${H + O}) as g`, [s.definitionId, s.pageId, s.users.ini]);
  await pool.query(`
    insert into workflow_node_states (id, instance_id, node_id, node_type, status, entered_time, completed_time)
    select md5('s' || g)::uuid, md5('i' || g)::uuid, 'n1', 'approval', case when g <= ${H} then 'completed' else 'active' end,
      now() - ((${H + O} - g) * interval '1 minute'), case when g <= ${H} then now() - ((${H + O} - g) * interval '1 minute') + interval '50 minutes' end
    from generate_series(1, ${H + O}) as g`);
  await pool.query(`
    insert into workflow_tasks (id, instance_id, node_state_id, node_id, kind, assignee_id, status, seq, creation_time, completed_time)
    select gen_random_uuid(), md5('i' || (1 + (g - 1) / 4))::uuid, md5('s' || (1 + (g - 1) / 4))::uuid, 'n1', 'approve', $1,
      (array['approved','approved','rejected','returned','transferred','approved','approved'])[1 + g % 7], 0,
      now() - ((${H + O} - (1 + (g - 1) / 4)) * interval '1 minute'), now() - ((${H + O} - (1 + (g - 1) / 4)) * interval '1 minute') + interval '10 minutes' + (g % 4) * interval '1 minute'
    from generate_series(1, ${T}) as g`, [s.users.a]);
  await pool.query(`
    insert into workflow_tasks (id, instance_id, node_state_id, node_id, kind, assignee_id, status, seq, creation_time)
    select gen_random_uuid(), md5('i' || g)::uuid, md5('s' || g)::uuid, 'n1', 'approve', $1, 'pending', 0, now() - ((${H + O} - g) * interval '1 minute')
    from generate_series(${H + 1}, ${H + O}) as g`, [s.users.a]);
  await pool.query('vacuum analyze workflow_instances, workflow_node_states, workflow_tasks');
}

/** Latency percentiles of sorted milliseconds. */
export const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
