import dagre from '@dagrejs/dagre';
import type { WfGraph } from './graph-model.ts';

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 92;
/** Gateways (condition, parallel, join) render smaller. */
export const GATEWAY_HEIGHT = 56;

export const nodeHeight = (type: string) => (type === 'exclusive' || type === 'parallel' || type === 'join' || type === 'start' || type === 'end' ? GATEWAY_HEIGHT : NODE_HEIGHT);

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The x of a side lane for an edge that would run through other nodes (an empty branch beside a
 * branch with nodes), or null when the straight route is clear. The lane passes the obstacles on
 * the side nearer to the edge's source.
 */
export function detourLane(source: Box, target: Box, others: Box[]): number | null {
  const sx = source.x + source.width / 2;
  const sy = source.y + source.height;
  const tx = target.x + target.width / 2;
  const ty = target.y;
  if (ty <= sy) return null;
  const left = Math.min(sx, tx) - 4;
  const right = Math.max(sx, tx) + 4;
  const hits = others.filter((b) => b.x < right && b.x + b.width > left && b.y < ty && b.y + b.height > sy);
  if (hits.length === 0) return null;
  const leftLane = Math.min(...hits.map((b) => b.x)) - 44;
  const rightLane = Math.max(...hits.map((b) => b.x + b.width)) + 44;
  return Math.abs(leftLane - sx) <= Math.abs(rightLane - sx) ? leftLane : rightLane;
}

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
  const gateways = new Set(graph.nodes.filter((n) => n.type === 'exclusive' || n.type === 'parallel').map((n) => n.id));
  // A branch edge reserves a node's width beside its siblings, so an empty branch (gateway → end)
  // runs in its own lane instead of through the other branches' nodes.
  for (const e of ordered) g.setEdge(e.source, e.target, gateways.has(e.source) ? { width: NODE_WIDTH * 0.8, height: 1 } : {});
  dagre.layout(g);
  return {
    ...graph,
    nodes: graph.nodes.map((n) => {
      const p = g.node(n.id);
      return p ? { ...n, position: { x: Math.round(p.x - NODE_WIDTH / 2), y: Math.round(p.y - nodeHeight(n.type) / 2) } } : n;
    }),
  };
}
