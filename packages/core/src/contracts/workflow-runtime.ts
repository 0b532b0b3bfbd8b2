import { z } from 'zod';
import { zText } from './text.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';
import { SELECTION_ITEMS_MAX, ZSelectionIds } from './identity.ts';
import { ZFieldPermission, ZWorkflowFieldRef, ZWorkflowGraph, ZWorkflowNodeType } from './workflow.ts';
import { ZPageRef, ZSaveViewDataEntry } from './business-data.ts';

// Running workflows (issue 13): instances of a published definition version on one business record,
// and the tasks of their approval / CC nodes (server/src/modules/workflow, workflow-engine.service.ts).
//
// `/api/app/workflow-instance` (signed in; the rights named per route):
//   POST   /                         ZStartWorkflowInput        → ZWorkflowInstanceDetail  (a user who may edit the record)
//   GET    /for-record               ZForRecordQuery            → ZWorkflowForRecord       (a user who may read the record)
//   GET    /                         ZWorkflowInstanceQuery     → ZWorkflowInstanceList    (scope mine; scope all needs P.FlowInstances)
//   GET    /{id}                                                → ZWorkflowInstanceDetail  (initiator, current/past assignees, P.FlowInstances)
//   POST   /{id}/withdraw            ZWorkflowInstanceActionInput → ZWorkflowInstanceDetail (initiator, while the current node's tasks are untouched)
//   POST   /{id}/urge                ZWorkflowInstanceActionInput → ZWorkflowInstanceDetail (initiator or P.FlowInstances: remind every pending assignee)
//   Flow management (`/flows/instance`; P.FlowInstances; a required `reason`, written to the history and the audit log):
//   POST   /{id}/terminate           ZWorkflowTerminateInput    → ZWorkflowInstanceDetail  (`reason`, or the older `comment`)
//   POST   /{id}/reassign            ZWorkflowReassignInput     → ZWorkflowInstanceDetail  (an open approve task moves to another user)
//   POST   /{id}/jump                ZWorkflowJumpInput         → ZWorkflowInstanceDetail  (close everything open, enter an approval / CC / end node)
//   POST   /{id}/assignees           ZWorkflowAssigneesInput    → ZWorkflowInstanceDetail  (add or replace the assignees of an active approval node)
//   POST   /{id}/remind              ZWorkflowInterventionInput → ZWorkflowInstanceDetail  (notify every pending assignee again, no 10-minute limit)
//   The list's filters (both scopes): definitionId, status, initiatorId, startedFrom / startedTo,
//   currentNodeName / currentNodeId (an active approval node), assigneeId (a pending task's holder).
//
// `/api/app/workflow-task` (signed in; the task's assignee acts, or a holder of P.FlowInstances — reclaim and CC read stay the assignee's):
//   GET    /todo                     ZWorkflowTaskQuery         → ZWorkflowTaskList        (pending tasks, newest first)
//   GET    /done                     ZWorkflowTaskQuery         → ZWorkflowTaskList        (tasks the caller completed, newest first)
//   GET    /cc                       ZWorkflowTaskQuery         → ZWorkflowTaskList        (CC tasks of the caller)
//   (and `GET /api/app/workflow-instance/flows` → ZWorkflowFlowChoices: the definitions with instances, P.FlowInstances)
//   GET    /todo-count                                          → ZWorkflowTodoCount       (the caller's open to-do tasks)
//   GET    /todo-facets                                         → ZWorkflowTodoFacets      (flows and initiators of those tasks, with counts)
//   POST   /batch-approve            ZBatchApproveInput         → ZBatchApproveResult      (the caller's pending tasks, one comment; per-task results)
//   GET    /{id}                                                → ZWorkflowTask            (the caller's own task, any status; else 404)
//   POST   /{id}/approve             ZWorkflowTaskActionInput   → ZWorkflowTaskActionResult (`record`: the approver's edits of the
//                                                                 task's record, saved with the approval in one transaction)
//   POST   /{id}/reject              ZWorkflowTaskActionInput   → ZWorkflowTaskActionResult (comment required when the node says so)
//   POST   /{id}/return              ZWorkflowTaskActionInput   → ZWorkflowTaskActionResult (targetNodeId: an earlier node when returnTo is `any`)
//   POST   /{id}/transfer            ZWorkflowTaskActionInput   → ZWorkflowTaskActionResult (userIds: exactly one user)
//   POST   /{id}/delegate            ZWorkflowTaskActionInput   → ZWorkflowTaskActionResult (userIds: exactly one user; the task comes back after they act)
//   POST   /{id}/add-signer          ZWorkflowTaskActionInput   → ZWorkflowTaskActionResult (userIds; position before | after)
//   POST   /{id}/remove-signer       ZWorkflowTaskActionInput   → ZWorkflowTaskActionResult (userIds: open assignees of the same node)
//   POST   /{id}/cc                  ZWorkflowTaskActionInput   → ZWorkflowTaskActionResult (userIds: CC recipients)
//   POST   /{id}/reclaim             ZWorkflowTaskActionInput   → ZWorkflowTaskActionResult (the caller's approved task, while the next nodes are untouched)
//   POST   /{id}/urge                ZWorkflowTaskActionInput   → ZWorkflowTaskActionResult (the initiator or P.FlowInstances; once per 10 minutes per task)
//   POST   /{id}/cc-read                                        → ZWorkflowTaskActionResult
//   GET    /users                    ZWorkflowUserQuery         → ZSelectionItemList (display names of active users for a
//                                                                 flow's pickers: the holder of a pending task, or a user who may submit the record)
//   (and `POST /api/app/workflow-instance/{id}/urge`: every pending task of the instance)
//
// Errors: 400 `ValidationError`; 400 `Workflow.*` (no applicable definition, chosen assignees
// missing, empty assignees refused, comment required); 403 (not the assignee / initiator / no right);
// 404; 409 `Workflow.TaskNotPending` / `Workflow.InstanceNotRunning` / `Workflow.AlreadyRunning`.
// Approve with `record`: also save-page's errors (400 a field the node does not make editable, 409
// `Conflict` a stale ConcurrencyStamp); `record` on another action, on another page or record, or
// on another's task is a 400. Either both the record and the approval are stored or neither.
// Every action carries a `clientRequestId`: the same id from the same user is applied once (a retry
// answers the current state).

// ---------------------------------------------------------------- the record's approval status

/**
 * Every business table has the system column `FlowStatus integer default 0`. A record returned to
 * its initiator goes back to 4 (withdrawn: editable and submittable again, like a draft).
 */
export const FLOW_STATUS = { draft: 0, inApproval: 1, approved: 2, rejected: 3, withdrawn: 4 } as const;
export const FLOW_STATUS_NAMES = ['draft', 'inApproval', 'approved', 'rejected', 'withdrawn'] as const;
export const ZFlowStatusName = z.enum(FLOW_STATUS_NAMES);
export type TFlowStatusName = z.infer<typeof ZFlowStatusName>;
export const ZFlowStatus = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
export type TFlowStatus = z.infer<typeof ZFlowStatus>;
export const FLOW_STATUS_LABELS: Record<TFlowStatus, { 'zh-CN': string; 'en-US': string }> = {
  0: { 'zh-CN': '草稿', 'en-US': 'Draft' },
  1: { 'zh-CN': '审批中', 'en-US': 'In approval' },
  2: { 'zh-CN': '已通过', 'en-US': 'Approved' },
  3: { 'zh-CN': '已驳回', 'en-US': 'Rejected' },
  4: { 'zh-CN': '已撤回', 'en-US': 'Withdrawn' },
};
/** A record may be (re)submitted in these states; 1 is locked while the flow runs. */
export const FLOW_STATUSES_STARTABLE: readonly TFlowStatus[] = [0, 3, 4];

// ---------------------------------------------------------------- statuses

export const WORKFLOW_INSTANCE_STATUSES = ['running', 'approved', 'rejected', 'withdrawn', 'terminated'] as const;
export const ZWorkflowInstanceStatus = z.enum(WORKFLOW_INSTANCE_STATUSES);
export type TWorkflowInstanceStatus = z.infer<typeof ZWorkflowInstanceStatus>;
export const WORKFLOW_INSTANCE_STATUS_LABELS: Record<TWorkflowInstanceStatus, { 'zh-CN': string; 'en-US': string }> = {
  running: { 'zh-CN': '审批中', 'en-US': 'Running' },
  approved: { 'zh-CN': '已通过', 'en-US': 'Approved' },
  rejected: { 'zh-CN': '已驳回', 'en-US': 'Rejected' },
  withdrawn: { 'zh-CN': '已撤回', 'en-US': 'Withdrawn' },
  terminated: { 'zh-CN': '已终止', 'en-US': 'Terminated' },
};

/**
 * `waiting`: a sequential node's later assignee (opens after the previous one approves);
 * `suspended`: the assignee delegated the task (委派) or added signers before themself (前加签); it
 * becomes `pending` again once they acted;
 * `returned`: the approver sent the flow back; `transferred`: the task moved to another user (a new
 * pending task holds it); `cancelled`: closed by the node completing otherwise (or-sign, vote decided,
 * another branch rejecting, terminate); `withdrawn`: the initiator withdrew. CC tasks (`kind: 'cc'`)
 * never block the flow: `pending` with `isRead` false until the recipient reads them, then `approved`
 * with `isRead` true. To-do lists hold `kind: 'approve'` tasks only.
 */
export const WORKFLOW_TASK_STATUSES = ['pending', 'waiting', 'suspended', 'approved', 'rejected', 'returned', 'transferred', 'cancelled', 'withdrawn'] as const;
export const ZWorkflowTaskStatus = z.enum(WORKFLOW_TASK_STATUSES);
export type TWorkflowTaskStatus = z.infer<typeof ZWorkflowTaskStatus>;
export const WORKFLOW_TASK_KINDS = ['approve', 'cc'] as const;
export const ZWorkflowTaskKind = z.enum(WORKFLOW_TASK_KINDS);
export type TWorkflowTaskKind = z.infer<typeof ZWorkflowTaskKind>;

/**
 * What a task's assignee may do (the node's `actions`). `reclaim` (拿回) is offered on the caller's
 * approved task while the nodes it led to are untouched; `urge` (催办) is the initiator's, not the assignee's.
 */
export const WORKFLOW_TASK_ACTIONS = ['approve', 'reject', 'return', 'transfer', 'delegate', 'addSigner', 'removeSigner', 'cc', 'reclaim', 'ccRead'] as const;
export const ZWorkflowTaskAction = z.enum(WORKFLOW_TASK_ACTIONS);
export type TWorkflowTaskAction = z.infer<typeof ZWorkflowTaskAction>;

/** History entries: the task actions plus the instance's own events. `system*`: timeouts. */
export const WORKFLOW_HISTORY_ACTIONS = [
  'start',
  'approve',
  'reject',
  'return',
  'transfer',
  'delegate',
  'addSignerBefore',
  'addSignerAfter',
  'removeSigner',
  'cc',
  'reclaim',
  'urge',
  'ccRead',
  'withdraw',
  'terminate',
  'autoApprove',
  'autoReject',
  'escalate',
  'remind',
  'automatic',
  // Flow management's interventions (P.FlowInstances, with a reason): workflow-interventions.service.ts.
  'reassign',
  'jump',
  'addAssignees',
  'replaceAssignees',
  'resendReminder',
] as const;
export const ZWorkflowHistoryAction = z.enum(WORKFLOW_HISTORY_ACTIONS);
export type TWorkflowHistoryAction = z.infer<typeof ZWorkflowHistoryAction>;

/** Tasks that are not a node's own assignees: a delegate (委派), signers added before / after (加签). */
export const WORKFLOW_TASK_ORIGINS = ['delegate', 'addBefore', 'addAfter'] as const;
export const ZWorkflowTaskOrigin = z.enum(WORKFLOW_TASK_ORIGINS);
export type TWorkflowTaskOrigin = z.infer<typeof ZWorkflowTaskOrigin>;

/** A node's state in the progress view. */
export const WORKFLOW_NODE_PROGRESS = ['done', 'active', 'pending', 'skipped'] as const;
export const ZWorkflowNodeProgress = z.enum(WORKFLOW_NODE_PROGRESS);
export type TWorkflowNodeProgress = z.infer<typeof ZWorkflowNodeProgress>;

// ---------------------------------------------------------------- DTOs

const ZUserRef = z.object({ id: zText(), name: zText().nullable() });
export type TUserRef = z.infer<typeof ZUserRef>;

export const ZWorkflowCurrentNode = z.object({
  nodeId: zText(),
  nodeName: zText(),
  /** Users holding a pending task on the node. */
  pendingAssignees: z.array(ZUserRef),
});
export type TWorkflowCurrentNode = z.infer<typeof ZWorkflowCurrentNode>;

export const ZWorkflowInstance = z.object({
  id: zText(),
  definitionId: zText(),
  definitionName: zText(),
  version: z.number().int(),
  pageId: zText(),
  recordId: zText(),
  /** The record's title when the flow started (the page's first text control, else the id). */
  recordTitle: zText(),
  initiatorId: zText(),
  initiatorName: zText().nullable(),
  status: ZWorkflowInstanceStatus,
  startedTime: zText(),
  endedTime: zText().nullable(),
  /** Empty once the instance ended. */
  currentNodes: z.array(ZWorkflowCurrentNode),
});
export type TWorkflowInstance = z.infer<typeof ZWorkflowInstance>;

export const ZWorkflowHistoryEntry = z.object({
  id: zText(),
  nodeId: zText().nullable(),
  nodeName: zText().nullable(),
  action: ZWorkflowHistoryAction,
  /** null: the system (timeouts, auto-approval). */
  actorId: zText().nullable(),
  actorName: zText().nullable(),
  comment: zText().nullable(),
  /** transfer / escalate: the new assignee; return: the node returned to. */
  targetUserId: zText().nullable(),
  targetUserName: zText().nullable(),
  targetNodeId: zText().nullable(),
  time: zText(),
});
export type TWorkflowHistoryEntry = z.infer<typeof ZWorkflowHistoryEntry>;

export const ZWorkflowNodeState = z.object({
  nodeId: zText(),
  type: ZWorkflowNodeType,
  state: ZWorkflowNodeProgress,
});
export type TWorkflowNodeState = z.infer<typeof ZWorkflowNodeState>;

export const ZWorkflowTask = z.object({
  id: zText(),
  instanceId: zText(),
  definitionName: zText(),
  pageId: zText(),
  recordId: zText(),
  recordTitle: zText(),
  initiatorId: zText(),
  initiatorName: zText().nullable(),
  nodeId: zText(),
  nodeName: zText(),
  kind: ZWorkflowTaskKind,
  assigneeId: zText(),
  assigneeName: zText().nullable(),
  status: ZWorkflowTaskStatus,
  /** CC tasks: read by the recipient. */
  isRead: z.boolean(),
  /** The instance's status now (the task centre's completed list shows where the flow went on to). */
  instanceStatus: ZWorkflowInstanceStatus,
  creationTime: zText(),
  completedTime: zText().nullable(),
  dueTime: zText().nullable(),
  /** What the assignee may do now (empty unless pending). */
  allowedActions: z.array(ZWorkflowTaskAction),
  /** The approval node asks for a comment on reject. */
  commentRequiredOnReject: z.boolean(),
  /** `return` with `returnTo: 'any'`: the earlier nodes the assignee may pick. */
  returnTargets: z.array(z.object({ nodeId: zText(), nodeName: zText() })),
  /** null: one of the node's own assignees. */
  origin: ZWorkflowTaskOrigin.nullable(),
  /** `removeSigner`: the other open assignees of the node the caller may remove. */
  removableSigners: z.array(ZUserRef),
});
export type TWorkflowTask = z.infer<typeof ZWorkflowTask>;

export const ZWorkflowInstanceDetail = ZWorkflowInstance.extend({
  /** The pinned version's graph (read-only progress view). */
  graph: ZWorkflowGraph,
  nodes: z.array(ZWorkflowNodeState),
  /** Oldest first. */
  history: z.array(ZWorkflowHistoryEntry),
  /** Every task of the instance, oldest first. */
  tasks: z.array(ZWorkflowTask),
});
export type TWorkflowInstanceDetail = z.infer<typeof ZWorkflowInstanceDetail>;

// ---------------------------------------------------------------- inputs

const ZClientRequestId = zText().min(1).max(64);

export const ZStartWorkflowInput = z.object({
  pageId: z.uuid(),
  recordId: z.uuid(),
  /** Required when several enabled definitions apply; else the one whose condition holds. */
  definitionId: z.uuid().optional(),
  /** Nodes with a `chosenAtSubmit` assignee: node id → users the initiator picked. */
  chosenAssignees: z.record(zText().max(64), z.array(z.uuid()).max(100)).optional(),
  clientRequestId: ZClientRequestId,
});
export type TStartWorkflowInput = z.input<typeof ZStartWorkflowInput>;

/** The approver's edits sent with an approval: `ZSavePageInput` of the task's page (its id or code) and record. */
export const ZWorkflowTaskRecordEdit = z.object({
  pageId: ZPageRef,
  viewDataList: z.array(ZSaveViewDataEntry).min(1).max(50),
  /** save-page's `offsetMinutes` (a JSON body: a number, not coerced from text). */
  offsetMinutes: z.number().int().min(-840).max(840).optional(),
});
export type TWorkflowTaskRecordEdit = z.infer<typeof ZWorkflowTaskRecordEdit>;

export const ZWorkflowTaskActionInput = z.object({
  comment: text(2000).optional(),
  clientRequestId: ZClientRequestId,
  /** return: the node to return to (`returnTo: 'any'`). */
  targetNodeId: zText().max(64).optional(),
  /** transfer / delegate: the one user who receives the task; addSigner / cc: the users added; removeSigner: the assignees removed. */
  userIds: z.array(z.uuid()).max(100).optional(),
  /** addSigner: before the caller (they act first, then the task comes back) or after (the node waits for them). */
  position: z.enum(['before', 'after']).optional(),
  /**
   * approve only: the approver's edits of the task's record in save-page's shape (the page and
   * record of the task's instance; the master row's Id and ConcurrencyStamp). Saved through the
   * save pipeline inside the approval's transaction, with the node's field permissions.
   */
  record: ZWorkflowTaskRecordEdit.optional(),
});
export type TWorkflowTaskActionInput = z.input<typeof ZWorkflowTaskActionInput>;

export const ZWorkflowInstanceActionInput = z.object({
  comment: text(2000).optional(),
  clientRequestId: ZClientRequestId,
});
export type TWorkflowInstanceActionInput = z.input<typeof ZWorkflowInstanceActionInput>;

/** Batch approve (批量审批): the caller's pending tasks, one comment; each task is its own transaction. */
export const ZBatchApproveInput = z.object({
  taskIds: z.array(z.uuid()).min(1).max(100),
  comment: text(2000).optional(),
  /** Each task is applied once per batch id (`<id>:<n>`), so a retried batch approves nothing twice. */
  clientRequestId: zText().min(1).max(40),
});
export type TBatchApproveInput = z.input<typeof ZBatchApproveInput>;

export const ZBatchApproveResult = z.object({
  /** One per task, in the order asked: approved, or the error that task met (not pending, not the caller's, the node refuses). */
  results: z.array(z.object({ taskId: zText(), ok: z.boolean(), code: zText().nullable(), message: zText().nullable() })),
});
export type TBatchApproveResult = z.infer<typeof ZBatchApproveResult>;

/** The flows and initiators of the caller's open to-do tasks, each with its number of tasks (the to-do list's filters). */
export const ZWorkflowTodoFacets = z.object({
  flows: z.array(z.object({ id: zText(), name: zText(), count: z.number().int() })),
  initiators: z.array(z.object({ id: zText(), name: zText().nullable(), count: z.number().int() })),
});
export type TWorkflowTodoFacets = z.infer<typeof ZWorkflowTodoFacets>;

/** Flow management's flow filter: every definition that has instances (deleted ones too: their instances stay listed). */
export const ZWorkflowFlowChoices = z.object({ items: z.array(z.object({ id: zText(), name: zText() })) });
export type TWorkflowFlowChoices = z.infer<typeof ZWorkflowFlowChoices>;

/** The caller's number of open to-do tasks (sider badge, console card, the header's to-do tab). */
export const ZWorkflowTodoCount = z.object({ count: z.number().int() });
export type TWorkflowTodoCount = z.infer<typeof ZWorkflowTodoCount>;

export const ZWorkflowTaskActionResult = z.object({
  task: ZWorkflowTask,
  instance: ZWorkflowInstance,
});
export type TWorkflowTaskActionResult = z.infer<typeof ZWorkflowTaskActionResult>;

// ---------------------------------------------------------------- lists

/** An ISO 8601 date-time PostgreSQL can compare with (years 1–9999; JavaScript also reads year 0 and beyond 9999). */
const ZInstanceTime = z.iso.datetime({ offset: true }).refine((v) => {
  const year = new Date(v).getUTCFullYear();
  return year >= 1 && year <= 9999;
}, 'a date-time between the years 1 and 9999');

/** `scope: 'mine'` (started by the caller, default) or `'all'` (P.FlowInstances). `Filter` searches record title and definition name. */
export const ZWorkflowInstanceQuery = ZPagedQuery.omit({ Sorting: true }).extend({
  scope: z.enum(['mine', 'all']).default('mine'),
  status: ZWorkflowInstanceStatus.optional(),
  pageId: z.uuid().optional(),
  // Flow management's filters (both scopes).
  definitionId: z.uuid().optional(),
  initiatorId: z.uuid().optional(),
  /** Inclusive range on the started time (ISO 8601 date-times). */
  startedFrom: ZInstanceTime.optional(),
  startedTo: ZInstanceTime.optional(),
  /** A running instance's active approval node: its name contains the text, or its id. */
  currentNodeName: text(100).optional(),
  currentNodeId: zText().max(64).optional(),
  /** A user holding a pending approve task on the instance. */
  assigneeId: z.uuid().optional(),
});
export type TWorkflowInstanceQuery = z.infer<typeof ZWorkflowInstanceQuery>;
export const ZWorkflowInstanceList = pagedResult(ZWorkflowInstance);
export type TWorkflowInstanceList = z.infer<typeof ZWorkflowInstanceList>;

const isoTime = z.iso.datetime({ offset: true });

/**
 * Newest first; `Filter` searches record title and definition name; `definitionId` (the flow),
 * `initiatorId`, `from` / `to` (the task's arrival, inclusive) and `overdue` (open tasks past their
 * due time) narrow the list.
 */
export const ZWorkflowTaskQuery = ZPagedQuery.omit({ Sorting: true }).extend({
  pageId: z.uuid().optional(),
  definitionId: z.uuid().optional(),
  initiatorId: z.uuid().optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  overdue: z.stringbool().optional(),
});
export type TWorkflowTaskQuery = z.infer<typeof ZWorkflowTaskQuery>;
export const ZWorkflowTaskList = pagedResult(ZWorkflowTask);
export type TWorkflowTaskList = z.infer<typeof ZWorkflowTaskList>;

// ---------------------------------------------------------------- the record page

export const ZForRecordQuery = z.object({ pageId: z.uuid(), recordId: z.uuid() });
export type TForRecordQuery = z.infer<typeof ZForRecordQuery>;

export const ZWorkflowForRecord = z.object({
  flowStatus: ZFlowStatus,
  /** The running instance, else the latest one (null: never submitted). */
  instance: ZWorkflowInstance.nullable(),
  /** Enabled published definitions of the page the caller may start now (empty while one runs or without edit rights). */
  startableDefinitions: z.array(
    z.object({
      id: zText(),
      name: zText(),
      /** Nodes whose people the submitter picks (`chosenAtSubmit`): approval nodes need at least one. */
      chosenNodes: z.array(z.object({ nodeId: zText(), nodeName: zText(), required: z.boolean() })),
    }),
  ),
  /** The caller's pending task on the running instance, if any. */
  myPendingTask: ZWorkflowTask.nullable(),
  /**
   * With a pending task: what its node lets the caller do with the record's fields (field ref →
   * permission; unnamed fields are read-only; several pending tasks: the most permissive). The
   * server refuses a save that changes anything else (400). Null without a pending task.
   */
  fieldPermissions: z.record(ZWorkflowFieldRef, ZFieldPermission).nullable(),
  /** The caller's approved task they may take back (拿回), if any. */
  myReclaimableTask: ZWorkflowTask.nullable(),
  canWithdraw: z.boolean(),
  /** The initiator (or a flow administrator) may remind the pending assignees (催办). */
  canUrge: z.boolean(),
});
export type TWorkflowForRecord = z.infer<typeof ZWorkflowForRecord>;

// ---------------------------------------------------------------- the flow's user pickers

/**
 * Users for the pickers of a flow (transfer, delegate, add signers, CC; approvers chosen at
 * submit), without the directory rights an administrator's picker needs: the caller holds the
 * pending task `taskId`, or may submit the record `pageId` + `recordId`. Display names only.
 */
export const ZWorkflowUserQuery = z
  .object({
    filter: text(100).optional(),
    ids: ZSelectionIds.optional(),
    taskId: z.uuid().optional(),
    pageId: z.uuid().optional(),
    recordId: z.uuid().optional(),
    maxResultCount: z.coerce.number().int().min(1).max(SELECTION_ITEMS_MAX).default(50),
  })
  .refine((q) => !!q.taskId !== !!(q.pageId && q.recordId), { message: 'taskId, or pageId with recordId', path: ['taskId'] })
  .refine((q) => !q.pageId === !q.recordId, { message: 'pageId and recordId go together', path: ['recordId'] });
export type TWorkflowUserQuery = z.input<typeof ZWorkflowUserQuery>;

// ---------------------------------------------------------------- flow management (P.FlowInstances)

/** Every intervention of flow management names its reason (history comment and audit entry). */
const ZInterventionReason = text(2000).min(1);

/** Terminate: `reason` is required; the older `comment` is accepted in its place. */
export const ZWorkflowTerminateInput = ZWorkflowInstanceActionInput.extend({ reason: ZInterventionReason.optional() }).refine((v) => !!(v.reason || v.comment), {
  message: 'A reason is required',
  path: ['reason'],
});
export type TWorkflowTerminateInput = z.input<typeof ZWorkflowTerminateInput>;

export const ZWorkflowInterventionInput = z.object({ reason: ZInterventionReason, clientRequestId: ZClientRequestId });
export type TWorkflowInterventionInput = z.input<typeof ZWorkflowInterventionInput>;

/** 转办 by an administrator: an open approve task of the instance moves to another active user. */
export const ZWorkflowReassignInput = ZWorkflowInterventionInput.extend({ taskId: z.uuid(), userId: z.uuid() });
export type TWorkflowReassignInput = z.input<typeof ZWorkflowReassignInput>;

/** 跳转: every open task and visit closes; the flow enters the target (an approval, CC or end node of the pinned graph). */
export const ZWorkflowJumpInput = ZWorkflowInterventionInput.extend({ targetNodeId: zText().min(1).max(64) });
export type TWorkflowJumpInput = z.input<typeof ZWorkflowJumpInput>;

/** 加/替换审批人 on an active approval node's visit. */
export const ZWorkflowAssigneesInput = ZWorkflowInterventionInput.extend({
  nodeId: zText().min(1).max(64),
  userIds: z.array(z.uuid()).min(1).max(100),
  mode: z.enum(['add', 'replace']),
});
export type TWorkflowAssigneesInput = z.input<typeof ZWorkflowAssigneesInput>;
