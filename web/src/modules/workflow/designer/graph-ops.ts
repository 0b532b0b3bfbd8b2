import { makeNode, type WfEdge, type WfGraph, type WfNode, type WfNodeType } from './graph-model.ts';

// Pure edit operations of the workflow designer: each returns a new graph (or the same one when
// nothing changed), so the undo history can hold them as they are.

/** An id not used by any node or edge of the graph: `<prefix>-<n>`. */
export function freshId(graph: WfGraph, prefix: string): string {
  const used = new Set([...graph.nodes.map((n) => n.id), ...graph.edges.map((e) => e.id)]);
  let n = 1;
  while (used.has(`${prefix}-${n}`)) n += 1;
  return `${prefix}-${n}`;
}

export function addNode(graph: WfGraph, type: WfNodeType, name: string, position: { x: number; y: number }): { graph: WfGraph; id: string } {
  const id = freshId(graph, type);
  const node = makeNode(type, id, name, position);
  return { graph: { ...graph, nodes: [...graph.nodes, node] }, id };
}

/**
 * Inserts a node on an edge (the DingTalk "+" between two nodes): source → new → target. The new
 * edge into the node keeps the old edge's condition, default flag and priority.
 */
export function insertOnEdge(graph: WfGraph, edgeId: string, type: WfNodeType, name: string, joinName = 'Join'): { graph: WfGraph; id: string } | null {
  const edge = graph.edges.find((e) => e.id === edgeId);
  if (!edge) return null;
  const source = graph.nodes.find((n) => n.id === edge.source);
  const target = graph.nodes.find((n) => n.id === edge.target);
  const position = source && target ? { x: (source.position.x + target.position.x) / 2, y: (source.position.y + target.position.y) / 2 } : { x: 0, y: 0 };
  const added = addNode(graph, type, name, position);
  const g = added.graph;
  const inId = freshId(g, 'e');
  const into: WfEdge = { ...edge, id: inId, target: added.id };
  const withIn = { ...g, edges: g.edges.map((e) => (e.id === edgeId ? into : e)) };
  if (type === 'parallel') {
    // A parallel group is born with its join: parallel → join → the old target (one empty branch).
    const join = addNode(withIn, 'join', joinName, position);
    const g2 = join.graph;
    const toJoin: WfEdge = { id: freshId(g2, 'e'), source: added.id, target: join.id };
    const g3 = { ...g2, edges: [...g2.edges, toJoin] };
    const onward: WfEdge = { id: freshId(g3, 'e'), source: join.id, target: edge.target };
    return { graph: { ...g3, edges: [...g3.edges, onward] }, id: added.id };
  }
  const out: WfEdge = { id: freshId(withIn, 'e'), source: added.id, target: edge.target, ...(type === 'exclusive' ? { isDefault: true, priority: 1 } : {}) };
  return { graph: { ...withIn, edges: [...withIn.edges, out] }, id: added.id };
}

/** Where the branches of a gateway meet: a parallel's join, an exclusive's default branch target. */
export function branchTarget(graph: WfGraph, gatewayId: string): string | null {
  const outgoing = graph.edges.filter((e) => e.source === gatewayId);
  const gateway = graph.nodes.find((n) => n.id === gatewayId);
  if (gateway?.type === 'parallel') {
    // The nearest join downstream (breadth first).
    const seen = new Set<string>([gatewayId]);
    let layer = outgoing.map((e) => e.target);
    while (layer.length) {
      const join = layer.map((id) => graph.nodes.find((n) => n.id === id)).find((n) => n?.type === 'join');
      if (join) return join.id;
      const next: string[] = [];
      for (const id of layer) if (!seen.has(id)) (seen.add(id), next.push(...graph.edges.filter((e) => e.source === id).map((e) => e.target)));
      layer = next;
    }
    return null;
  }
  return (outgoing.find((e) => e.isDefault) ?? outgoing[0])?.target ?? null;
}

/**
 * Adds a branch to a condition or parallel group (DingTalk's "添加条件"): gateway → new node →
 * where the branches meet. A condition branch comes with an empty condition and the next priority.
 */
export function addBranch(graph: WfGraph, gatewayId: string, type: WfNodeType, name: string): { graph: WfGraph; id: string } | null {
  const gateway = graph.nodes.find((n) => n.id === gatewayId);
  if (!gateway || (gateway.type !== 'exclusive' && gateway.type !== 'parallel')) return null;
  const target = branchTarget(graph, gatewayId);
  const added = addNode(graph, type, name, { x: gateway.position.x + 260, y: gateway.position.y + 120 });
  const linked = connect(added.graph, gatewayId, added.id);
  if (!linked) return null;
  let g = linked.graph;
  if (gateway.type === 'exclusive') g = updateEdge(g, linked.id, { isDefault: false, condition: '' });
  if (target && type !== 'end') g = connect(g, added.id, target)?.graph ?? g;
  return { graph: g, id: added.id };
}

/**
 * The palette's click: adds a node after the selected one — on the edge leaving it, or as a new
 * branch when the selection is a condition / parallel gateway — else before the first end node.
 */
export function addAfter(graph: WfGraph, selectedId: string | null, type: WfNodeType, names: { node: string; join: string }): { graph: WfGraph; id: string } | null {
  const selected = graph.nodes.find((n) => n.id === selectedId);
  if (selected && (selected.type === 'exclusive' || selected.type === 'parallel')) return addBranch(graph, selected.id, type, names.node);
  const edge = selected
    ? graph.edges.find((e) => e.source === selected.id)
    : graph.edges.find((e) => graph.nodes.find((n) => n.id === e.target)?.type === 'end');
  if (edge) return insertOnEdge(graph, edge.id, type, names.node, names.join);
  const anchor = selected ?? graph.nodes[graph.nodes.length - 1];
  const added = addNode(graph, type, names.node, anchor ? { x: anchor.position.x, y: anchor.position.y + 140 } : { x: 0, y: 0 });
  if (!anchor) return added;
  return { graph: connect(added.graph, anchor.id, added.id)?.graph ?? added.graph, id: added.id };
}

export type ConnectRefusal = 'self' | 'duplicate' | 'intoStart' | 'fromEnd' | 'missing';

/** Why an edge source → target may not be drawn, or null when it may. */
export function connectRefusal(graph: WfGraph, source: string, target: string): ConnectRefusal | null {
  const from = graph.nodes.find((n) => n.id === source);
  const to = graph.nodes.find((n) => n.id === target);
  if (!from || !to) return 'missing';
  if (source === target) return 'self';
  if (to.type === 'start') return 'intoStart';
  if (from.type === 'end') return 'fromEnd';
  if (graph.edges.some((e) => e.source === source && e.target === target)) return 'duplicate';
  return null;
}

export function connect(graph: WfGraph, source: string, target: string): { graph: WfGraph; id: string } | null {
  if (connectRefusal(graph, source, target)) return null;
  const id = freshId(graph, 'e');
  const from = graph.nodes.find((n) => n.id === source)!;
  const edge: WfEdge = { id, source, target };
  if (from.type === 'exclusive') {
    const siblings = graph.edges.filter((e) => e.source === source);
    edge.priority = siblings.reduce((max, e) => Math.max(max, e.priority ?? 0), 0) + 1;
    edge.condition = '';
    edge.isDefault = siblings.length === 0;
  }
  return { graph: { ...graph, edges: [...graph.edges, edge] }, id };
}

/** Removes nodes (with their edges) and edges. The start node is never removed. */
export function removeElements(graph: WfGraph, nodeIds: string[], edgeIds: string[] = []): WfGraph {
  const nodes = new Set(nodeIds.filter((id) => graph.nodes.find((n) => n.id === id)?.type !== 'start'));
  const edges = new Set(edgeIds);
  if (nodes.size === 0 && ![...edges].some((id) => graph.edges.some((e) => e.id === id))) return graph;
  return {
    nodes: graph.nodes.filter((n) => !nodes.has(n.id)),
    edges: graph.edges.filter((e) => !edges.has(e.id) && !nodes.has(e.source) && !nodes.has(e.target)),
  };
}

/** Renames a node or merges a patch into its configuration. */
export function updateNode(graph: WfGraph, id: string, patch: { name?: string; config?: Record<string, unknown> }): WfGraph {
  return {
    ...graph,
    nodes: graph.nodes.map((n) => (n.id === id ? ({ ...n, ...(patch.name !== undefined ? { name: patch.name } : {}), config: patch.config ? { ...n.config, ...patch.config } : n.config } as WfNode) : n)),
  };
}

/** Edits an edge; marking it default clears the default flag of its sibling branches (one default per group). */
export function updateEdge(graph: WfGraph, id: string, patch: Partial<Omit<WfEdge, 'id' | 'source' | 'target'>>): WfGraph {
  const edge = graph.edges.find((e) => e.id === id);
  if (!edge) return graph;
  return {
    ...graph,
    edges: graph.edges.map((e) => {
      if (e.id === id) return { ...e, ...patch, ...(patch.isDefault ? { condition: '' } : {}) };
      if (patch.isDefault && e.source === edge.source && e.isDefault) return { ...e, isDefault: false };
      return e;
    }),
  };
}

export function moveNodes(graph: WfGraph, positions: Record<string, { x: number; y: number }>): WfGraph {
  let changed = false;
  const nodes = graph.nodes.map((n) => {
    const p = positions[n.id];
    if (!p || (p.x === n.position.x && p.y === n.position.y)) return n;
    changed = true;
    return { ...n, position: { x: p.x, y: p.y } };
  });
  return changed ? { ...graph, nodes } : graph;
}

/** The nodes a return (退回) may go to from a node: every node on some path from start to it. */
export function earlierNodes(graph: WfGraph, nodeId: string): WfNode[] {
  const incoming = new Map<string, string[]>();
  for (const e of graph.edges) incoming.set(e.target, [...(incoming.get(e.target) ?? []), e.source]);
  const seen = new Set<string>();
  const stack = [...(incoming.get(nodeId) ?? [])];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id) || id === nodeId) continue;
    seen.add(id);
    stack.push(...(incoming.get(id) ?? []));
  }
  return graph.nodes.filter((n) => seen.has(n.id) && n.type === 'approval');
}
