import dagre from '@dagrejs/dagre';
import type { WfGraph } from './graph-model.ts';

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 92;
/** Gateways (condition, parallel, join) render smaller. */
export const GATEWAY_HEIGHT = 56;

export const nodeHeight = (type: string) => (type === 'exclusive' || type === 'parallel' || type === 'join' || type === 'start' || type === 'end' ? GATEWAY_HEIGHT : NODE_HEIGHT);

/**
 * Top-to-bottom auto layout (dagre). Positions are the nodes' top-left corners, as the canvas
 * stores them; branches of a condition keep their priority order from left to right.
 */
export function layoutGraph(graph: WfGraph): WfGraph {
  if (graph.nodes.length === 0) return graph;
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 60, ranksep: 70, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.id, { width: NODE_WIDTH, height: nodeHeight(n.type) });
  const ordered = [...graph.edges].sort((a, b) => (a.isDefault ? 1 : 0) - (b.isDefault ? 1 : 0) || (a.priority ?? 0) - (b.priority ?? 0));
  for (const e of ordered) g.setEdge(e.source, e.target);
  dagre.layout(g);
  return {
    ...graph,
    nodes: graph.nodes.map((n) => {
      const p = g.node(n.id);
      return p ? { ...n, position: { x: Math.round(p.x - NODE_WIDTH / 2), y: Math.round(p.y - nodeHeight(n.type) / 2) } } : n;
    }),
  };
}
