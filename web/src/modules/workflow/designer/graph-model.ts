/**
 * The designer's view of a workflow graph (Tessera JSON, ARCHITECTURE §6). Until the contract
 * `@tessera/core/contracts/workflow` is merged these local shapes mirror it one to one.
 */
export const NODE_TYPES = ['start', 'approval', 'cc', 'exclusive', 'parallel', 'join', 'automatic', 'end'] as const;
export type WfNodeType = (typeof NODE_TYPES)[number];

export const ASSIGNEE_KINDS = ['user', 'role', 'unit', 'initiatorLeader', 'initiator', 'formField', 'chosenAtSubmit'] as const;
export type WfAssignee =
  | { kind: 'user'; userIds: string[] }
  | { kind: 'role'; roleIds: string[] }
  | { kind: 'unit'; unitIds: string[]; includeSubUnits?: boolean }
  | { kind: 'initiatorLeader'; level: number }
  | { kind: 'initiator' }
  | { kind: 'formField'; controlCode: string }
  | { kind: 'chosenAtSubmit' };
export type WfAssigneeKind = WfAssignee['kind'];

export const APPROVAL_MODES = ['or', 'all', 'vote', 'sequential'] as const;
export type WfApprovalMode = (typeof APPROVAL_MODES)[number];
export const EMPTY_ASSIGNEE_POLICIES = ['autoApprove', 'toAdmin', 'refuse'] as const;
export const FIELD_PERMISSIONS = ['hidden', 'readonly', 'editable'] as const;
export type WfFieldPermission = (typeof FIELD_PERMISSIONS)[number];
export const RETURN_TARGETS = ['initiator', 'previous', 'any'] as const;
export const TIMEOUT_ACTIONS = ['none', 'autoApprove', 'autoReject', 'escalate'] as const;
export const ACTION_KEYS = ['reject', 'return', 'transfer', 'delegate', 'addSigner', 'removeSigner', 'cc'] as const;
export type WfActionKey = (typeof ACTION_KEYS)[number];

export interface WfApprovalConfig {
  assignees: WfAssignee[];
  mode: WfApprovalMode;
  votePassPercent?: number;
  emptyAssignee: { policy: (typeof EMPTY_ASSIGNEE_POLICIES)[number]; adminUserId?: string };
  autoApprove: { ifApprovedBefore: boolean; ifInitiator: boolean };
  /** control (`code` or `view.code`) → permission; controls not named stay read-only for approvers. */
  fieldPermissions: Record<string, WfFieldPermission>;
  actions: Record<WfActionKey, boolean>;
  returnTo: (typeof RETURN_TARGETS)[number];
  commentRequiredOnReject: boolean;
  timeout?: {
    afterMinutes: number;
    remindEveryMinutes?: number;
    remindTimes?: number;
    then: (typeof TIMEOUT_ACTIONS)[number];
    escalateToUserId?: string;
  };
}
export interface WfCcConfig {
  recipients: WfAssignee[];
}
export interface WfAutomaticConfig {
  assignments: { controlCode: string; formula: string }[];
}
type Empty = Record<string, never>;

interface NodeBase {
  id: string;
  name: string;
  position: { x: number; y: number };
}
export type WfNode =
  | (NodeBase & { type: 'start'; config: Empty })
  | (NodeBase & { type: 'approval'; config: WfApprovalConfig })
  | (NodeBase & { type: 'cc'; config: WfCcConfig })
  | (NodeBase & { type: 'exclusive'; config: Empty })
  | (NodeBase & { type: 'parallel'; config: Empty })
  | (NodeBase & { type: 'join'; config: Empty })
  | (NodeBase & { type: 'automatic'; config: WfAutomaticConfig })
  | (NodeBase & { type: 'end'; config: Empty });
export type WfNodeOf<T extends WfNodeType> = Extract<WfNode, { type: T }>;

export interface WfEdge {
  id: string;
  source: string;
  target: string;
  name?: string;
  /** Branches of a condition (exclusive) node: a formula over the record's fields. */
  condition?: string;
  /** The branch taken when no condition holds (one per condition node). */
  isDefault?: boolean;
  /** Conditions are tried in ascending priority. */
  priority?: number;
}
export interface WfGraph {
  nodes: WfNode[];
  edges: WfEdge[];
}

export const defaultApprovalConfig = (): WfApprovalConfig => ({
  assignees: [],
  mode: 'or',
  emptyAssignee: { policy: 'autoApprove' },
  autoApprove: { ifApprovedBefore: false, ifInitiator: false },
  fieldPermissions: {},
  actions: { reject: true, return: true, transfer: true, delegate: false, addSigner: false, removeSigner: false, cc: false },
  returnTo: 'initiator',
  commentRequiredOnReject: true,
});

/** A new node of a type with its starting configuration. */
export function makeNode(type: WfNodeType, id: string, name: string, position: { x: number; y: number }): WfNode {
  const base = { id, name, position };
  switch (type) {
    case 'approval':
      return { ...base, type, config: defaultApprovalConfig() };
    case 'cc':
      return { ...base, type, config: { recipients: [] } };
    case 'automatic':
      return { ...base, type, config: { assignments: [] } };
    default:
      return { ...base, type, config: {} } as WfNode;
  }
}

/** A new definition: start → end. */
export const initialGraph = (names: { start: string; end: string }): WfGraph => ({
  nodes: [makeNode('start', 'start', names.start, { x: 0, y: 0 }), makeNode('end', 'end', names.end, { x: 0, y: 200 })],
  edges: [{ id: 'e-start-end', source: 'start', target: 'end' }],
});
