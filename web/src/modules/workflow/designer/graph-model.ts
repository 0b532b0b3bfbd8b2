import type { TAssignee, TWorkflowEdge, TWorkflowGraph, TWorkflowNode, TWorkflowNodeOf, TWorkflowNodeType } from '@tessera/core/contracts/workflow';
import { DEFAULT_NODE_NAMES, newWorkflowEdge, newWorkflowNode } from '@tessera/core/workflow/defaults';

/** The designer edits the contract's graph (Tessera JSON, ARCHITECTURE §6) as it is stored. */
export { APPROVAL_MODES, ASSIGNEE_KINDS, EMPTY_ASSIGNEE_POLICIES, FIELD_PERMISSIONS, RETURN_TARGETS, TIMEOUT_ACTIONS, WORKFLOW_NODE_TYPES as NODE_TYPES } from '@tessera/core/contracts/workflow';
export type WfGraph = TWorkflowGraph;
export type WfNode = TWorkflowNode;
export type WfEdge = TWorkflowEdge;
export type WfNodeType = TWorkflowNodeType;
export type WfNodeOf<T extends WfNodeType> = TWorkflowNodeOf<T>;
export type WfAssignee = TAssignee;
export type WfAssigneeKind = TAssignee['kind'];

export const ACTION_KEYS = ['reject', 'return', 'transfer', 'delegate', 'addSigner', 'removeSigner', 'cc'] as const;

/** A new node of a type with its starting configuration. */
export const makeNode = (type: WfNodeType, id: string, name: string, position: { x: number; y: number }): WfNode => newWorkflowNode(type, id, position, name);

/** A new definition: start → end. */
export const initialGraph = (names: { start: string; end: string }): WfGraph => ({
  nodes: [makeNode('start', 'start', names.start, { x: 0, y: 0 }), makeNode('end', 'end', names.end, { x: 0, y: 200 })],
  edges: [newWorkflowEdge('e-start-end', 'start', 'end')],
});

/** Renames nodes still carrying the core's English default name to the designer's name for their type. */
export function localizeDefaultNames(graph: WfGraph, nameOf: (type: WfNodeType) => string): WfGraph {
  if (!graph.nodes.some((n) => n.name === DEFAULT_NODE_NAMES[n.type])) return graph;
  return { ...graph, nodes: graph.nodes.map((n) => (n.name === DEFAULT_NODE_NAMES[n.type] ? { ...n, name: nameOf(n.type) } : n)) };
}
