import type {
  TApprovalConfig, TAutomaticConfig, TCcConfig, TWorkflowEdge, TWorkflowGraph, TWorkflowNode, TWorkflowNodeOf, TWorkflowNodeType,
} from '../contracts/workflow.ts';

// New nodes, edges and graphs as the designer adds them: every field of a node's config set, so a
// saved draft never depends on defaults the server would have to guess.

/** 或签 by nobody yet; reject, return and CC allowed; the rest off; an empty assignee list refuses the submit. */
export function defaultApprovalConfig(): TApprovalConfig {
  return {
    assignees: [],
    mode: 'or',
    emptyAssignee: { policy: 'refuse' },
    autoApprove: { ifApprovedBefore: false, ifInitiator: false },
    fieldPermissions: {},
    actions: { reject: true, return: true, transfer: true, delegate: false, addSigner: false, removeSigner: false, cc: true },
    returnTo: 'initiator',
    commentRequiredOnReject: true,
  };
}

export const defaultCcConfig = (): TCcConfig => ({ recipients: [] });
export const defaultAutomaticConfig = (): TAutomaticConfig => ({ assignments: [] });

/** The English names new nodes get (the designer shows them in the interface language). */
export const DEFAULT_NODE_NAMES: Readonly<Record<TWorkflowNodeType, string>> = {
  start: 'Start',
  approval: 'Approval',
  cc: 'CC',
  exclusive: 'Condition',
  parallel: 'Parallel',
  join: 'Join',
  automatic: 'Automatic',
  end: 'End',
};

/** A node of the type with its default configuration (`name` defaults to an English label the designer replaces). */
export function newWorkflowNode<T extends TWorkflowNodeType>(
  type: T,
  id: string,
  position: { x: number; y: number } = { x: 0, y: 0 },
  name: string = DEFAULT_NODE_NAMES[type],
): TWorkflowNodeOf<T> {
  const base = { id, name, position: { x: position.x, y: position.y } };
  switch (type) {
    case 'approval':
      return { ...base, type, config: defaultApprovalConfig() } as TWorkflowNodeOf<T>;
    case 'cc':
      return { ...base, type, config: defaultCcConfig() } as TWorkflowNodeOf<T>;
    case 'automatic':
      return { ...base, type, config: defaultAutomaticConfig() } as TWorkflowNodeOf<T>;
    default:
      return { ...base, type, config: {} } as TWorkflowNodeOf<T>;
  }
}

export function newWorkflowEdge(id: string, source: string, target: string, extra: Partial<TWorkflowEdge> = {}): TWorkflowEdge {
  return { ...extra, id, source, target };
}

/** What a new definition starts with: a start connected to an end. */
export function newWorkflowGraph(): TWorkflowGraph {
  const nodes: TWorkflowNode[] = [newWorkflowNode('start', 'start', { x: 0, y: 0 }), newWorkflowNode('end', 'end', { x: 0, y: 240 })];
  return { nodes, edges: [newWorkflowEdge('start-end', 'start', 'end')] };
}
