import { describe, expect, it } from 'vitest';
import { checkGraph } from './graph-checks.ts';
import { detourLane, layoutGraph, NODE_WIDTH } from './graph-layout.ts';
import { initialGraph, type WfGraph } from './graph-model.ts';
import { addAfter, addBranch, addNode, connect, connectRefusal, earlierNodes, insertOnEdge, moveNodes, removeElements, updateEdge, updateNode } from './graph-ops.ts';
import { createHistory, push, redo, undo } from '../../../shared/ui/undo-history.ts';

const base = () => initialGraph({ start: 'Start', end: 'End' });

/** start → approval → exclusive → (total > 10000) approval-2 → end; (default) → end */
function purchaseFlow(): WfGraph {
  let g = base();
  const a = insertOnEdge(g, 'e-start-end', 'approval', 'Manager')!;
  g = a.graph;
  const outOfA = g.edges.find((e) => e.source === a.id)!;
  const x = insertOnEdge(g, outOfA.id, 'exclusive', 'Amount')!;
  g = x.graph;
  const defaultEdge = g.edges.find((e) => e.source === x.id)!;
  g = updateEdge(g, defaultEdge.id, { isDefault: true });
  const b = addNode(g, 'approval', 'Director', { x: 300, y: 300 });
  g = b.graph;
  g = connect(g, x.id, b.id)!.graph;
  g = connect(g, b.id, 'end')!.graph;
  const cond = g.edges.find((e) => e.source === x.id && e.target === b.id)!;
  g = updateEdge(g, cond.id, { condition: '{total} > 10000' });
  for (const n of g.nodes.filter((n) => n.type === 'approval')) g = updateNode(g, n.id, { config: { assignees: [{ kind: 'role', roleIds: ['r1'] }] } });
  return g;
}

describe('graph edit operations', () => {
  it('inserts a node on an edge, keeping the chain connected', () => {
    const { graph, id } = insertOnEdge(base(), 'e-start-end', 'approval', 'Approve')!;
    expect(graph.nodes.map((n) => n.id)).toEqual(['start', 'end', id]);
    expect(graph.edges.map((e) => `${e.source}>${e.target}`).sort()).toEqual([`${id}>end`, `start>${id}`].sort());
  });

  it.each([
    ['start', 'start', 'self'],
    ['end', 'start', 'intoStart'],
    ['end', 'end', 'self'],
    ['start', 'end', 'duplicate'],
    ['start', 'nope', 'missing'],
  ] as const)('refuses %s → %s (%s)', (s, t, why) => {
    expect(connectRefusal(base(), s, t)).toBe(why);
  });

  it('refuses an edge out of an end node', () => {
    const { graph, id } = addNode(base(), 'approval', 'A', { x: 0, y: 0 });
    expect(connectRefusal(graph, 'end', id)).toBe('fromEnd');
  });

  it('numbers the branches of a condition and keeps one default', () => {
    const g = purchaseFlow();
    const x = g.nodes.find((n) => n.type === 'exclusive')!;
    const branches = g.edges.filter((e) => e.source === x.id);
    expect(branches).toHaveLength(2);
    const cond = branches.find((e) => !e.isDefault)!;
    const flipped = updateEdge(g, cond.id, { isDefault: true });
    const after = flipped.edges.filter((e) => e.source === x.id);
    expect(after.filter((e) => e.isDefault).map((e) => e.id)).toEqual([cond.id]);
    expect(after.find((e) => e.id === cond.id)!.condition).toBe('');
  });

  it('removes nodes with their edges but never the start', () => {
    const g = purchaseFlow();
    const approval = g.nodes.find((n) => n.name === 'Director')!;
    const after = removeElements(g, [approval.id, 'start']);
    expect(after.nodes.some((n) => n.id === 'start')).toBe(true);
    expect(after.nodes.some((n) => n.id === approval.id)).toBe(false);
    expect(after.edges.some((e) => e.source === approval.id || e.target === approval.id)).toBe(false);
    expect(removeElements(g, ['start'])).toBe(g);
  });

  it('moves nodes and keeps the graph when nothing moved', () => {
    const g = base();
    expect(moveNodes(g, { start: { x: 0, y: 0 } })).toBe(g);
    expect(moveNodes(g, { start: { x: 5, y: 6 } }).nodes[0]!.position).toEqual({ x: 5, y: 6 });
  });

  it('offers earlier approval nodes as return targets', () => {
    const g = purchaseFlow();
    const director = g.nodes.find((n) => n.name === 'Director')!;
    expect(earlierNodes(g, director.id).map((n) => n.name)).toEqual(['Manager']);
  });
});

describe('adding after the selection', () => {
  const names = { node: 'N', join: 'J' };
  it('adds before the end when nothing is selected, then after the selected node', () => {
    const a = addAfter(base(), null, 'approval', names)!;
    expect(a.graph.edges.map((e) => `${e.source}>${e.target}`).sort()).toEqual([`${a.id}>end`, `start>${a.id}`].sort());
    const b = addAfter(a.graph, 'start', 'cc', names)!;
    expect(b.graph.edges.find((e) => e.source === 'start')!.target).toBe(b.id);
    expect(b.graph.edges.find((e) => e.source === b.id)!.target).toBe(a.id);
  });

  it('adds a branch to a selected condition, meeting at the default branch target', () => {
    const x = addAfter(base(), null, 'exclusive', names)!;
    const branch = addAfter(x.graph, x.id, 'approval', names)!;
    const out = branch.graph.edges.filter((e) => e.source === x.id);
    expect(out).toHaveLength(2);
    expect(out.filter((e) => e.isDefault)).toHaveLength(1);
    expect(out.find((e) => e.target === branch.id)).toMatchObject({ isDefault: false, condition: '', priority: 2 });
    expect(branch.graph.edges.find((e) => e.source === branch.id)!.target).toBe('end');
  });

  it('creates a parallel group with its join, and adds branches into the join', () => {
    const p = addAfter(base(), null, 'parallel', names)!;
    const join = p.graph.nodes.find((n) => n.type === 'join')!;
    expect(p.graph.edges.find((e) => e.source === join.id)!.target).toBe('end');
    const b1 = addBranch(p.graph, p.id, 'approval', 'B1')!;
    expect(b1.graph.edges.find((e) => e.source === b1.id)!.target).toBe(join.id);
    const codes = checkGraph(updateNode(b1.graph, b1.id, { config: { assignees: [{ kind: 'initiator' }] } })).map((x) => x.code);
    expect(codes).toEqual([]);
  });
});

describe('graph checks', () => {
  it('accepts the purchase flow', () => {
    expect(checkGraph(purchaseFlow())).toEqual([]);
  });

  it('reports approvals without assignees, missing defaults, conditions and unreachable nodes', () => {
    let g = purchaseFlow();
    const x = g.nodes.find((n) => n.type === 'exclusive')!;
    const def = g.edges.find((e) => e.source === x.id && e.isDefault)!;
    g = updateEdge(g, def.id, { isDefault: false });
    const lonely = addNode(g, 'approval', 'Lonely', { x: 0, y: 0 });
    g = lonely.graph;
    const codes = checkGraph(g).map((p) => `${p.code}:${p.nodeId ?? ''}:${p.edgeId ?? ''}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        `exclusiveNoDefault:${x.id}:`,
        `conditionMissing:${x.id}:${def.id}`,
        `unreachable:${lonely.id}:`,
        `noPathToEnd:${lonely.id}:`,
        `approvalNoAssignees:${lonely.id}:`,
      ]),
    );
  });

  it('reports a branch group with one branch and a node that cannot finish', () => {
    let g = base();
    const p = insertOnEdge(g, 'e-start-end', 'parallel', 'P')!;
    g = p.graph;
    const loopA = addNode(g, 'approval', 'Loop', { x: 0, y: 0 });
    g = loopA.graph;
    g = connect(g, 'start', loopA.id)!.graph;
    const codes = checkGraph(g).map((x) => x.code);
    expect(codes).toContain('parallelTooFewBranches');
    expect(codes).toContain('noPathToEnd');
  });
});

describe('auto layout', () => {
  it('places nodes top to bottom, centred on one column for a chain', () => {
    const g = layoutGraph(insertOnEdge(base(), 'e-start-end', 'approval', 'A')!.graph);
    const [start, end, a] = g.nodes;
    expect(start!.position.y).toBeLessThan(a!.position.y);
    expect(a!.position.y).toBeLessThan(end!.position.y);
    expect(start!.position.x).toBe(a!.position.x);
  });

  it('puts the branches of a condition side by side', () => {
    const g = layoutGraph(purchaseFlow());
    const manager = g.nodes.find((n) => n.name === 'Manager')!;
    const director = g.nodes.find((n) => n.name === 'Director')!;
    expect(director.position.y).toBeGreaterThan(manager.position.y);
    const gateway = g.nodes.find((n) => n.type === 'exclusive')!;
    // The default branch runs beside the director, so the director leaves the gateway's column.
    expect(Math.abs(director.position.x - gateway.position.x)).toBeGreaterThanOrEqual(NODE_WIDTH / 4);
  });
});

describe('edge lanes', () => {
  const box = (x: number, y: number) => ({ x, y, width: 200, height: 80 });
  it('keeps a clear straight route', () => {
    expect(detourLane(box(0, 0), box(0, 300), [box(400, 120)])).toBeNull();
  });
  it('passes a node in the way on the nearer side', () => {
    expect(detourLane(box(0, 0), box(0, 300), [box(60, 120)])).toBe(16);
    expect(detourLane(box(0, 0), box(0, 300), [box(-60, 120)])).toBe(184);
  });
  it('has no lane for an edge going upwards', () => {
    expect(detourLane(box(0, 300), box(0, 0), [box(0, 120)])).toBeNull();
  });
});

describe('undo history', () => {
  it('undoes and redoes, dropping the redo branch on a new edit', () => {
    let h = createHistory(1);
    h = push(h, 2);
    h = push(h, 3);
    h = undo(h);
    expect(h.present).toBe(2);
    h = redo(h);
    expect(h.present).toBe(3);
    h = undo(undo(h));
    expect(h.present).toBe(1);
    h = push(h, 4);
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
    expect(undo(createHistory(0)).present).toBe(0);
  });

  it('merges a burst of edits with the same key into one step', () => {
    let h = createHistory('');
    h = push(h, 'a', 'name:n1');
    h = push(h, 'ab', 'name:n1');
    h = push(h, 'abc', 'name:n1');
    expect(undo(h).present).toBe('');
  });

  it('keeps at most the limit of steps', () => {
    let h = createHistory(0);
    for (let i = 1; i <= 10; i++) h = push(h, i, undefined, 3);
    expect(h.past).toEqual([7, 8, 9]);
  });
});
