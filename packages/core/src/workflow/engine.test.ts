import { describe, expect, it } from 'vitest';
import type { TWorkflowGraph, TWorkflowNode } from '../contracts/workflow.ts';
import { decideApproval, pendingTaskActions, walkFrom, WorkflowGraphIndex, type ApprovalTaskState } from './engine.ts';

const approval = (id: string): TWorkflowNode => ({
  id,
  name: id,
  position: { x: 0, y: 0 },
  type: 'approval',
  config: {
    assignees: [{ kind: 'initiator' }],
    mode: 'or',
    emptyAssignee: { policy: 'autoApprove' },
    autoApprove: { ifApprovedBefore: false, ifInitiator: false },
    fieldPermissions: {},
    actions: { reject: true, return: true, transfer: true, delegate: false, addSigner: false, removeSigner: false, cc: false },
    returnTo: 'initiator',
    commentRequiredOnReject: false,
  },
});
const plain = (id: string, type: 'start' | 'end' | 'exclusive' | 'parallel' | 'join'): TWorkflowNode =>
  ({ id, name: id, position: { x: 0, y: 0 }, type, config: {} }) as TWorkflowNode;
const edge = (source: string, target: string, extra: object = {}) => ({ id: `${source}-${target}`, source, target, ...extra });

describe('walkFrom', () => {
  const exclusive: TWorkflowGraph = {
    nodes: [plain('s', 'start'), plain('x', 'exclusive'), approval('big'), approval('mid'), approval('small'), plain('e', 'end')],
    edges: [
      edge('s', 'x'),
      edge('x', 'big', { condition: 'SUM({lines.amount}) > 1000', priority: 1 }),
      edge('x', 'mid', { condition: '{amount} > 100', priority: 2 }),
      edge('x', 'small', { isDefault: true }),
      edge('big', 'e'),
      edge('mid', 'e'),
      edge('small', 'e'),
    ],
  };
  it.each([
    [{ amount: 5 }, [{ amount: 600 }, { amount: 600 }], 'big'],
    [{ amount: 500 }, [{ amount: 1 }], 'mid'],
    [{ amount: 5 }, [], 'small'],
  ])('exclusive: master %o, lines %o → %s', (master, lines, expected) => {
    const r = walkFrom({ graph: exclusive, from: 's', record: { master, views: { lines } }, joinArrivals: {} });
    expect(r.approvals.map((a) => a.nodeId)).toEqual([expected]);
    expect(r.problems).toEqual([]);
  });

  const parallel: TWorkflowGraph = {
    nodes: [plain('s', 'start'), plain('p', 'parallel'), approval('a'), approval('b'), plain('j', 'join'), plain('e', 'end')],
    edges: [edge('s', 'p'), edge('p', 'a'), edge('p', 'b'), edge('a', 'j'), edge('b', 'j'), edge('j', 'e')],
  };
  it('parallel opens every branch; the join waits for all of them', () => {
    const start = walkFrom({ graph: parallel, from: 's', record: {}, joinArrivals: {} });
    expect(start.approvals.map((a) => a.nodeId)).toEqual(['a', 'b']);
    const afterA = walkFrom({ graph: parallel, from: 'a', record: {}, joinArrivals: start.joinArrivals });
    expect(afterA.ended).toBe(false);
    expect(afterA.joinArrivals).toEqual({ j: ['a-j'] });
    const afterB = walkFrom({ graph: parallel, from: 'b', record: {}, joinArrivals: afterA.joinArrivals });
    expect(afterB.ended).toBe(true);
    expect(afterB.joinArrivals).toEqual({});
  });

  it('automatic assigns by formula and later conditions see the value; cc passes on', () => {
    const graph: TWorkflowGraph = {
      nodes: [
        plain('s', 'start'),
        { id: 'auto', name: 'auto', position: { x: 0, y: 0 }, type: 'automatic', config: { assignments: [{ controlCode: 'total', formula: '{qty} * {price}' }] } },
        { id: 'cc', name: 'cc', position: { x: 0, y: 0 }, type: 'cc', config: { recipients: [{ kind: 'initiator' }] } },
        plain('x', 'exclusive'),
        approval('high'),
        plain('e', 'end'),
      ],
      edges: [edge('auto', 'cc'), edge('s', 'auto'), edge('cc', 'x'), edge('x', 'high', { condition: '{total} >= 100' }), edge('x', 'e', { isDefault: true }), edge('high', 'e')],
    };
    const r = walkFrom({ graph, from: 's', record: { master: { qty: 10, price: 12 } }, joinArrivals: {} });
    expect(r.assignments).toEqual([{ nodeId: 'auto', values: { total: 120 } }]);
    expect(r.ccs.map((c) => c.nodeId)).toEqual(['cc']);
    expect(r.approvals.map((a) => a.nodeId)).toEqual(['high']);
    const low = walkFrom({ graph, from: 's', record: { master: { qty: 1, price: 12 } }, joinArrivals: {} });
    expect(low.ended).toBe(true);
  });

  it('earlier approvals are the return targets, nearest first', () => {
    const graph: TWorkflowGraph = {
      nodes: [plain('s', 'start'), approval('a'), approval('b'), approval('c'), plain('e', 'end')],
      edges: [edge('s', 'a'), edge('a', 'b'), edge('b', 'c'), edge('c', 'e')],
    };
    expect(new WorkflowGraphIndex(graph).earlierApprovals('c').map((n) => n.id)).toEqual(['b', 'a']);
  });
});

describe('decideApproval', () => {
  const rows: [Parameters<typeof decideApproval>[0], ApprovalTaskState[], number | undefined, string, number | null][] = [
    ['or', ['pending', 'pending'], undefined, 'open', null],
    ['or', ['approved', 'pending'], undefined, 'approved', null],
    ['or', ['rejected', 'pending'], undefined, 'rejected', null],
    ['all', ['approved', 'pending'], undefined, 'open', null],
    ['all', ['approved', 'approved'], undefined, 'approved', null],
    ['all', ['approved', 'rejected'], undefined, 'rejected', null],
    ['vote', ['approved', 'pending', 'pending'], 60, 'open', null],
    ['vote', ['approved', 'approved', 'pending'], 60, 'approved', null],
    ['vote', ['rejected', 'rejected', 'pending'], 60, 'rejected', null],
    ['vote', ['rejected', 'approved', 'pending', 'pending'], 50, 'open', null],
    ['sequential', ['approved', 'waiting', 'waiting'], undefined, 'open', 1],
    ['sequential', ['approved', 'pending', 'waiting'], undefined, 'open', null],
    ['sequential', ['approved', 'approved'], undefined, 'approved', null],
    ['sequential', ['approved', 'rejected', 'waiting'], undefined, 'rejected', null],
    ['all', ['closed', 'approved'], undefined, 'approved', null],
  ];
  it.each(rows)('%s %j (%s%%) → %s, next %s', (mode, states, percent, outcome, next) => {
    expect(decideApproval(mode, states, percent)).toEqual({ outcome, openNext: next });
  });
});

describe('pendingTaskActions', () => {
  const none = { reject: false, return: false, transfer: false, delegate: false, addSigner: false, removeSigner: false, cc: false };
  it('offers the node\'s actions to its own assignees, approve to a delegate, approve/reject to added signers', () => {
    expect(pendingTaskActions(none, null)).toEqual(['approve']);
    expect(pendingTaskActions({ ...none, reject: true, delegate: true, cc: true }, null)).toEqual(['approve', 'reject', 'delegate', 'cc']);
    expect(pendingTaskActions({ ...none, reject: true, delegate: true }, 'delegate')).toEqual(['approve']);
    expect(pendingTaskActions({ ...none, reject: true, addSigner: true }, 'addAfter')).toEqual(['approve', 'reject']);
    expect(pendingTaskActions({ ...none, addSigner: true }, 'addBefore')).toEqual(['approve']);
  });
});
