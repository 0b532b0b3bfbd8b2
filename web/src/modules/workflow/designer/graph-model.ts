/**
 * The designer's view of a workflow graph (Tessera JSON, ARCHITECTURE §6). These local shapes mirror
 * the contract `@tessera/core/contracts/workflow`; the designer edits them with the pure operations
 * of `graph-ops.ts`.
 */
export const NODE_TYPES = ['start', 'approval', 'cc', 'exclusive', 'parallel', 'join', 'automatic', 'end'] as const;
export type WfNodeType = (typeof NODE_TYPES)[number];

export const ASSIGNEE_KINDS = ['user', 'role', 'unit', 'initiatorLeader', 'initiator', 'formField', 'chosenAtSubmit'] as const;
export type WfAssigneeKind = (typeof ASSIGNEE_KINDS)[number];
export interface WfAssignee {
  kind: WfAssigneeKind;
  /** user / role / unit ids; the form field's control code for `formField`. */
  ids?: string[];
  /** Display names kept beside the ids so a node summarises without a lookup. */
  names?: string[];
  /** initiatorLeader: 1 = the initiator's unit leader, 2 = the next level up … */
  level?: number;
  field?: string;
}

export const APPROVAL_MODES = ['or', 'all', 'vote', 'sequential'] as const;
export type WfApprovalMode = (typeof APPROVAL_MODES)[number];
export const EMPTY_POLICIES = ['autoApprove', 'toAdmin', 'refuse'] as const;
export type WfEmptyPolicy = (typeof EMPTY_POLICIES)[number];
export const FIELD_PERMISSIONS = ['hidden', 'readonly', 'editable'] as const;
export type WfFieldPermission = (typeof FIELD_PERMISSIONS)[number];
export const ACTIONS = ['approve', 'reject', 'return', 'transfer', 'delegate', 'addSignerBefore', 'addSignerAfter', 'removeSigner', 'cc'] as const;
export type WfAction = (typeof ACTIONS)[number];
export const TIMEOUT_ACTIONS = ['none', 'autoApprove', 'autoReject', 'escalate'] as const;
export type WfTimeoutAction = (typeof TIMEOUT_ACTIONS)[number];

export interface WfTimeout {
  /** Hours after the task opens before the first reminder; 0 = no timeout. */
  afterHours: number;
  remindEveryHours?: number;
  remindTimes?: number;
  then: WfTimeoutAction;
  escalateTo?: { id: string; name: string } | null;
}

export interface WfApprovalConfig {
  assignees: WfAssignee[];
  mode: WfApprovalMode;
  /** vote: pass ratio in percent. */
  votePercent?: number;
  emptyPolicy: WfEmptyPolicy;
  emptyAdmin?: { id: string; name: string } | null;
  autoApproveIfApprovedBefore?: boolean;
  autoApproveIfInitiator?: boolean;
  /** control code → permission; controls not listed are read-only. */
  fieldPermissions: Record<string, WfFieldPermission>;
  actions: WfAction[];
  /** `initiator` or a node id. */
  returnTarget?: string | null;
  commentRequiredOnReject?: boolean;
  timeout?: WfTimeout | null;
}
export interface WfCcConfig {
  recipients: WfAssignee[];
}
export interface WfAutomaticConfig {
  assignments: { control: string; formula: string }[];
}
export type WfNodeConfig = Partial<WfApprovalConfig> & Partial<WfCcConfig> & Partial<WfAutomaticConfig>;

export interface WfNode {
  id: string;
  type: WfNodeType;
  name: string;
  position: { x: number; y: number };
  config: WfNodeConfig;
}
export interface WfEdge {
  id: string;
  source: string;
  target: string;
  name?: string;
  /** A formula over the record's fields; only on edges leaving a condition branch (exclusive) node. */
  condition?: string | null;
  isDefault?: boolean;
  /** Lower numbers are tried first. */
  priority?: number;
}
export interface WfGraph {
  nodes: WfNode[];
  edges: WfEdge[];
}

export const DEFAULT_ACTIONS: WfAction[] = ['approve', 'reject', 'return', 'transfer'];

/** The configuration a new node of a type starts with. */
export function defaultConfig(type: WfNodeType): WfNodeConfig {
  if (type === 'approval')
    return { assignees: [], mode: 'or', emptyPolicy: 'autoApprove', fieldPermissions: {}, actions: [...DEFAULT_ACTIONS], commentRequiredOnReject: true, returnTarget: 'initiator', timeout: null };
  if (type === 'cc') return { recipients: [] };
  if (type === 'automatic') return { assignments: [] };
  return {};
}

/** A new definition: start → end. */
export const initialGraph = (names: { start: string; end: string }): WfGraph => ({
  nodes: [
    { id: 'start', type: 'start', name: names.start, position: { x: 0, y: 0 }, config: {} },
    { id: 'end', type: 'end', name: names.end, position: { x: 0, y: 200 }, config: {} },
  ],
  edges: [{ id: 'e-start-end', source: 'start', target: 'end' }],
});
