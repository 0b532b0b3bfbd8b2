/**
 * The crash run's world (test/workflow-crash-run.ts), made in the run's process on its database
 * before any server process starts: migrations and seed, an expense page, the submitter `ini` and
 * approvers a–e, four published definitions and the records.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { TAssignee, TWorkflowGraph, TWorkflowNode, TWorkflowNodeOf } from '@tessera/core/contracts/workflow';
import { newWorkflowEdge as edge, newWorkflowNode as node } from '@tessera/core/workflow/defaults';
import { bizTable, bizTableName, nextCreationTime } from '../src/modules/pages/index.ts';
import { prepareServer } from '../src/server.ts';
import { createRole, createUser, grant, pageWorkCodes } from './access-fixtures.ts';

type ApprovalConfig = TWorkflowNodeOf<'approval'>['config'];
export const APPROVERS = ['a', 'b', 'c', 'd', 'e'] as const;
/** The seeded PRNG's draws the setup uses. */
interface Rnd {
  next(): number;
  int(n: number): number;
}

export interface RecordState {
  id: string;
  amount: number;
  instanceId: string | null;
  status: string | null;
}

export interface World {
  pageId: string;
  masterViewId: string;
  users: Record<string, string>;
  definitions: string[];
  records: RecordState[];
}

export async function setUpCrashWorld(o: { databaseUrl?: string; pgliteDir?: string; jwtSecret: string; adminPassword: string; records: number; rnd: Rnd }): Promise<World> {
  const running = await prepareServer(
    {
      port: 0,
      host: '127.0.0.1',
      databaseUrl: o.databaseUrl,
      dataDir: '/tmp',
      jwtSecret: new TextEncoder().encode(o.jwtSecret),
      adminPassword: o.adminPassword,
      logLevel: 'silent',
      bodyLimit: 1024 * 1024,
      loginRateLimit: 1_000_000,
      captchaMaxCounter: 2000,
      webDist: undefined,
      pgliteDataDir: o.pgliteDir ?? 'memory://',
      argon2: { memoryCost: 1024, timeCost: 1 },
      trustProxy: false,
      basePath: '',
    },
    { logger: false },
  );
  try {
    const db = running.database.db;
    const inject = async (token: string | null, method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await running.app.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (res.statusCode !== 200) throw new Error(`setup: ${method} ${url} → ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const adminToken = (await inject(null, 'POST', '/api/Auth/Login', { username: 'admin', password: o.adminPassword })).data.accessToken as string;
    const control = (code: string, controlType: number) => ({ id: randomUUID(), code, title: code, controlType, isDisplayed: true, isEdit: true });
    const master = { id: randomUUID(), code: 'Master', title: 'Master', viewType: 1, dataControls: [control('Title', 1001), control('Amount', 1003)], viewButtons: [], viewControls: [] };
    const page = await inject(adminToken, 'POST', '/api/app/page-definition', { code: 'CrashExpense', name: { 'zh-CN': '报销', 'en-US': 'Expense' }, definition: { viewControls: [master], pageButtons: [], dataLinkages: [] } });
    await inject(adminToken, 'POST', `/api/app/page-definition/${page.id}/publish`, {});

    const users: Record<string, string> = {};
    const submitters = await createRole(db, 'CrashSubmitters');
    await grant(db, 'R', submitters, pageWorkCodes('CrashExpense'));
    users.ini = await createUser(db, 'ini', { roles: [submitters] });
    for (const name of APPROVERS) users[name] = await createUser(db, name);
    users.admin = (await db.selectFrom('users').select('id').where('user_name', '=', 'admin').executeTakeFirstOrThrow()).id;

    const definitions: string[] = [];
    for (const [name, graph] of Object.entries(crashGraphs(users))) {
      const d = await inject(adminToken, 'POST', '/api/app/workflow-definition', { name, pageId: page.id, graph });
      await inject(adminToken, 'POST', `/api/app/workflow-definition/${d.id}/publish`, {});
      await inject(adminToken, 'POST', `/api/app/workflow-definition/${d.id}/enable`);
      definitions.push(d.id);
    }

    const records: RecordState[] = [];
    for (let i = 0; i < o.records; i++) {
      const id = randomUUID();
      const amount = o.rnd.next() < 0.5 ? 200 + o.rnd.int(800) : 1200 + o.rnd.int(5000);
      const values = { Id: id, ConcurrencyStamp: randomUUID(), CreationTime: nextCreationTime(), CreatorId: users.ini, Title: `Expense ${i + 1}`, Amount: amount };
      await sql`insert into ${bizTable(bizTableName(master.id))} (${sql.join(Object.keys(values).map((k) => sql.id(k)))}) values (${sql.join(Object.values(values))})`.execute(db);
      records.push({ id, amount, instanceId: null, status: null });
    }
    return { pageId: page.id, masterViewId: master.id, users, definitions, records };
  } finally {
    await running.stop();
  }
}

/**
 * The run's definitions, covering every mode and shape the invariants speak of: or-sign with a
 * reminder (twice) and an auto-approving timeout, then countersign (return to the previous node);
 * sequential, then a 60% vote (return to any earlier node, a comment required on reject); a condition
 * on the amount (countersign with an escalating timeout, or an or-sign); a parallel split and join,
 * then a sequential node with reminders only.
 */
export function crashGraphs(users: Record<string, string>): Record<string, TWorkflowGraph> {
  const who = (...names: string[]): TAssignee[] => [{ kind: 'user', userIds: names.map((n) => users[n]!) }];
  const approval = (id: string, assignees: TAssignee[], extra: Partial<ApprovalConfig> = {}) => {
    const n = node('approval', id, { x: 0, y: 0 }, id);
    n.config = { ...n.config, commentRequiredOnReject: false, assignees, ...extra };
    return n as TWorkflowNode;
  };
  const line = (...nodes: TWorkflowNode[]): TWorkflowGraph => {
    const all = [node('start', 'start') as TWorkflowNode, ...nodes, node('end', 'end') as TWorkflowNode];
    return { nodes: all, edges: all.slice(1).map((n, i) => edge(`e${i}`, all[i]!.id, n.id)) };
  };
  return {
    'or, timed → all': line(
      approval('orTimed', who('a', 'b'), { timeout: { afterMinutes: 60, remindEveryMinutes: 25, remindTimes: 2, then: 'autoApprove' } }),
      approval('all', who('c', 'd'), { mode: 'all', returnTo: 'previous' }),
    ),
    'sequential → vote': line(
      approval('seq', who('a', 'b', 'c'), { mode: 'sequential' }),
      approval('vote', who('b', 'd', 'e'), { mode: 'vote', votePassPercent: 60, returnTo: 'any', commentRequiredOnReject: true }),
    ),
    'condition on the amount': {
      nodes: [
        node('start', 's') as TWorkflowNode,
        node('exclusive', 'x') as TWorkflowNode,
        approval('big', who('c', 'd'), { mode: 'all', timeout: { afterMinutes: 90, then: 'escalate', escalateToUserId: users.e } }),
        approval('small', who('a', 'e')),
        node('end', 'end') as TWorkflowNode,
      ],
      edges: [edge('e1', 's', 'x'), edge('e2', 'x', 'big', { condition: '{Amount} > 1000', priority: 1 }), edge('e3', 'x', 'small', { isDefault: true }), edge('e4', 'big', 'end'), edge('e5', 'small', 'end')],
    },
    'parallel and join → sequential': {
      nodes: [
        node('start', 's') as TWorkflowNode,
        node('parallel', 'p') as TWorkflowNode,
        approval('left', who('a', 'b')),
        approval('right', who('c', 'd'), { mode: 'all' }),
        node('join', 'j') as TWorkflowNode,
        approval('last', who('e', 'a'), { mode: 'sequential', returnTo: 'any', timeout: { afterMinutes: 120, remindEveryMinutes: 30, remindTimes: 3, then: 'none' } }),
        node('end', 'end') as TWorkflowNode,
      ],
      edges: [edge('e1', 's', 'p'), edge('e2', 'p', 'left'), edge('e3', 'p', 'right'), edge('e4', 'left', 'j'), edge('e5', 'right', 'j'), edge('e6', 'j', 'last'), edge('e7', 'last', 'end')],
    },
  };
}
