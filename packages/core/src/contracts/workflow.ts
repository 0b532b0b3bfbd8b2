import { z } from 'zod';
import { zText } from './text.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';
import { ZPublishedPageDesign, type TPublishedPageDesign } from './pages.ts';

// Workflow definitions (`/design/workflow` list, `/flow?id=` canvas designer), issue 13. A
// definition is Tessera's own JSON graph, bound to a published page; publishing makes a numbered
// version that running instances keep (server/src/modules/workflow). Routes, all under
// `/api/app/workflow-definition`, every one `P.Workflows`:
//
//   GET    /                          ZWorkflowDefinitionQuery        → ZWorkflowDefinitionList
//   GET    /{id}                                                      → ZWorkflowDefinitionDetail
//   POST   /                          ZCreateWorkflowDefinitionInput  → ZWorkflowDefinitionDetail
//   PUT    /{id}                      ZUpdateWorkflowDefinitionInput  → ZWorkflowDefinitionDetail (409 on a stale stamp)
//   POST   /{id}/copy                 ZCopyWorkflowDefinitionInput    → ZWorkflowDefinitionDetail
//   DELETE /{id}                                                      → 204
//   POST   /{id}/enable, /{id}/disable                                → ZWorkflowDefinitionDetail
//   POST   /check                     ZCheckWorkflowInput             → ZWorkflowCheckResult (the graph against its page, nothing written)
//   GET    /bindable-pages            ZBindablePageQuery              → ZBindablePageList (published pages, for the page picker)
//   GET    /page-design/{id}                                          → ZWorkflowPageDesign (a page's published design: controls for
//                                                                        field permissions, pickers and formulas)
//   POST   /{id}/publish              ZPublishWorkflowInput           → ZPublishWorkflowResult
//   GET    /{id}/versions                                             → ZWorkflowVersionList
//   GET    /{id}/versions/{version}                                   → ZWorkflowVersionDetail
//   GET    /{id}/export               ZWorkflowExportQuery            → ZWorkflowExportDocument (a JSON file)
//   POST   /import                    ZImportWorkflowDefinitionInput  → ZImportWorkflowDefinitionResult
//   GET    /{id}/bpmn                 ZWorkflowExportQuery            → BPMN 2.0 XML (application/xml)
//   POST   /import-bpmn               ZImportBpmnInput                → ZImportWorkflowDefinitionResult
//
// Errors: 400 `ValidationError` (bad input; nothing written), 400 `Workflow.GraphProblems`
// (publish of a graph that fails the checks; validationErrors name the problems, details:
// ZWorkflowCheckResult), 409 `Conflict` (stale concurrency stamp).

// ---------------------------------------------------------------- limits

export const WORKFLOW_LIMITS = {
  nodes: 300,
  edges: 600,
  name: 100,
  description: 500,
  /** Characters of one formula (edge condition, definition condition, automatic assignment). */
  formula: 4000,
  assigneesPerNode: 20,
  idsPerAssignee: 500,
  fieldPermissions: 1000,
  assignments: 200,
  /** Timeouts: at most a year, reminders at most 100 times. */
  minutes: 525_600,
  remindTimes: 100,
  leaderLevels: 10,
} as const;

/** Node and edge ids: letters, digits, `-` and `_` (the designer makes them). */
export const ZWorkflowElementId = zText().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ (at most 64)');

/** A control of the bound page: `code` (a master control) or `viewCode.code` (a child view's control). */
export const WORKFLOW_FIELD_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,39}(\.[A-Za-z][A-Za-z0-9_]{0,39})?$/;
export const ZWorkflowFieldRef = zText().regex(WORKFLOW_FIELD_PATTERN, 'a control code or viewCode.controlCode');
/** A master control code; empty while the designer has not chosen one yet (publishing refuses it). */
export const ZWorkflowControlCode = zText().regex(/^([A-Za-z][A-Za-z0-9_]{0,39})?$/, 'a control code');

/** Formula text in the core formula language (`{amount} > 10000`, `SUM({lines.amount}) > 10000`). */
export const ZWorkflowFormula = zText().max(WORKFLOW_LIMITS.formula);

const ZUserId = z.uuid();

// ---------------------------------------------------------------- assignees

/**
 * Who a task goes to (approval) or who is told (CC). `initiatorLeader.level` 1 is the leader of the
 * initiator's unit, N the leader N−1 units further up. `formField` is a user or organisation-unit
 * picker control of the page; `chosenAtSubmit` lets the initiator pick when submitting.
 */
export const ASSIGNEE_KINDS = ['user', 'role', 'unit', 'initiatorLeader', 'initiator', 'formField', 'chosenAtSubmit'] as const;
export const ZAssignee = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userIds: z.array(ZUserId).max(WORKFLOW_LIMITS.idsPerAssignee) }),
  z.object({ kind: z.literal('role'), roleIds: z.array(z.uuid()).max(WORKFLOW_LIMITS.idsPerAssignee) }),
  z.object({
    kind: z.literal('unit'),
    unitIds: z.array(z.uuid()).max(WORKFLOW_LIMITS.idsPerAssignee),
    /** Also the members of the units below (default: only the units' own members). */
    includeSubUnits: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('initiatorLeader'), level: z.number().int().min(1).max(WORKFLOW_LIMITS.leaderLevels) }),
  z.object({ kind: z.literal('initiator') }),
  z.object({ kind: z.literal('formField'), controlCode: ZWorkflowControlCode }),
  z.object({ kind: z.literal('chosenAtSubmit') }),
]);
export type TAssignee = z.infer<typeof ZAssignee>;
export type TAssigneeKind = TAssignee['kind'];

// ---------------------------------------------------------------- node configurations

/** 或签 (any one approves), 会签 (all approve), 票签 (a share of votes), 依次 (one after another). */
export const APPROVAL_MODES = ['or', 'all', 'vote', 'sequential'] as const;
export const ZApprovalMode = z.enum(APPROVAL_MODES);
export type TApprovalMode = z.infer<typeof ZApprovalMode>;

export const EMPTY_ASSIGNEE_POLICIES = ['autoApprove', 'toAdmin', 'refuse'] as const;
export const FIELD_PERMISSIONS = ['hidden', 'readonly', 'editable'] as const;
export const ZFieldPermission = z.enum(FIELD_PERMISSIONS);
export type TFieldPermission = z.infer<typeof ZFieldPermission>;
export const RETURN_TARGETS = ['initiator', 'previous', 'any'] as const;
export const TIMEOUT_ACTIONS = ['none', 'autoApprove', 'autoReject', 'escalate'] as const;

const ZMinutes = z.number().int().min(1).max(WORKFLOW_LIMITS.minutes);

export const ZApprovalTimeout = z.object({
  afterMinutes: ZMinutes,
  remindEveryMinutes: ZMinutes.optional(),
  remindTimes: z.number().int().min(1).max(WORKFLOW_LIMITS.remindTimes).optional(),
  then: z.enum(TIMEOUT_ACTIONS),
  /** `then: 'escalate'`: who receives the task. */
  escalateToUserId: ZUserId.optional(),
});
export type TApprovalTimeout = z.infer<typeof ZApprovalTimeout>;

/** Per control of the page; controls not named keep the page's own rule (read-only for approvers). */
export const ZFieldPermissions = z
  .record(ZWorkflowFieldRef, ZFieldPermission)
  .refine((v) => Object.keys(v).length <= WORKFLOW_LIMITS.fieldPermissions, { message: `at most ${WORKFLOW_LIMITS.fieldPermissions} controls` });

export const ZApprovalActions = z.object({
  reject: z.boolean(),
  /** 退回: to the initiator, the previous node, or an earlier node the approver picks (`returnTo`). */
  return: z.boolean(),
  /** 转办 */
  transfer: z.boolean(),
  /** 委派 */
  delegate: z.boolean(),
  /** 加签 (before / after) */
  addSigner: z.boolean(),
  /** 减签 */
  removeSigner: z.boolean(),
  /** 抄送 */
  cc: z.boolean(),
});
export type TApprovalActions = z.infer<typeof ZApprovalActions>;

export const ZApprovalConfig = z.object({
  assignees: z.array(ZAssignee).max(WORKFLOW_LIMITS.assigneesPerNode),
  mode: ZApprovalMode,
  /** `mode: 'vote'`: the share of approving votes (percent) that passes the node. */
  votePassPercent: z.number().int().min(1).max(100).optional(),
  emptyAssignee: z.object({
    policy: z.enum(EMPTY_ASSIGNEE_POLICIES),
    /** `policy: 'toAdmin'`: who receives the task. */
    adminUserId: ZUserId.optional(),
  }),
  autoApprove: z.object({ ifApprovedBefore: z.boolean(), ifInitiator: z.boolean() }),
  fieldPermissions: ZFieldPermissions,
  actions: ZApprovalActions,
  returnTo: z.enum(RETURN_TARGETS),
  commentRequiredOnReject: z.boolean(),
  timeout: ZApprovalTimeout.optional(),
});
export type TApprovalConfig = z.infer<typeof ZApprovalConfig>;

export const ZCcConfig = z.object({
  recipients: z.array(ZAssignee).max(WORKFLOW_LIMITS.assigneesPerNode),
});
export type TCcConfig = z.infer<typeof ZCcConfig>;

/** Assign record fields (master controls) by formula when the flow passes the node. */
export const ZAutomaticConfig = z.object({
  assignments: z.array(z.object({ controlCode: ZWorkflowControlCode, formula: ZWorkflowFormula })).max(WORKFLOW_LIMITS.assignments),
});
export type TAutomaticConfig = z.infer<typeof ZAutomaticConfig>;

const ZEmptyConfig = z.object({});

// ---------------------------------------------------------------- graph

/**
 * `exclusive` splits into condition branches (the first true condition by `priority`, else the
 * default branch); `parallel` splits into branches that all run and meet again at a `join`.
 */
export const WORKFLOW_NODE_TYPES = ['start', 'approval', 'cc', 'exclusive', 'parallel', 'join', 'automatic', 'end'] as const;
export const ZWorkflowNodeType = z.enum(WORKFLOW_NODE_TYPES);
export type TWorkflowNodeType = z.infer<typeof ZWorkflowNodeType>;

const coordinate = z.number().min(-1_000_000).max(1_000_000);
const nodeBase = {
  id: ZWorkflowElementId,
  name: zText().max(WORKFLOW_LIMITS.name),
  position: z.object({ x: coordinate, y: coordinate }),
};

export const ZWorkflowNode = z.discriminatedUnion('type', [
  z.object({ ...nodeBase, type: z.literal('start'), config: ZEmptyConfig }),
  z.object({ ...nodeBase, type: z.literal('approval'), config: ZApprovalConfig }),
  z.object({ ...nodeBase, type: z.literal('cc'), config: ZCcConfig }),
  z.object({ ...nodeBase, type: z.literal('exclusive'), config: ZEmptyConfig }),
  z.object({ ...nodeBase, type: z.literal('parallel'), config: ZEmptyConfig }),
  z.object({ ...nodeBase, type: z.literal('join'), config: ZEmptyConfig }),
  z.object({ ...nodeBase, type: z.literal('automatic'), config: ZAutomaticConfig }),
  z.object({ ...nodeBase, type: z.literal('end'), config: ZEmptyConfig }),
]);
export type TWorkflowNode = z.infer<typeof ZWorkflowNode>;
export type TWorkflowNodeOf<T extends TWorkflowNodeType> = Extract<TWorkflowNode, { type: T }>;

export const ZWorkflowEdge = z.object({
  id: ZWorkflowElementId,
  source: ZWorkflowElementId,
  target: ZWorkflowElementId,
  /** A label shown on the canvas. */
  name: zText().max(WORKFLOW_LIMITS.name).optional(),
  /** Branches of an `exclusive` node: a formula over the record's fields that is true to take the branch. */
  condition: ZWorkflowFormula.optional(),
  /** Branches of an `exclusive` node: taken when no condition holds (exactly one per node). */
  isDefault: z.boolean().optional(),
  /** Branches of an `exclusive` node: conditions are tried in ascending priority. */
  priority: z.number().int().min(0).max(10_000).optional(),
});
export type TWorkflowEdge = z.infer<typeof ZWorkflowEdge>;

export const ZWorkflowGraph = z.object({
  nodes: z.array(ZWorkflowNode).max(WORKFLOW_LIMITS.nodes),
  edges: z.array(ZWorkflowEdge).max(WORKFLOW_LIMITS.edges),
});
export type TWorkflowGraph = z.infer<typeof ZWorkflowGraph>;

// ---------------------------------------------------------------- graph problems (packages/core/src/workflow/validate-graph.ts)

export const WORKFLOW_PROBLEM_CODES = [
  'duplicateNodeId',
  'duplicateEdgeId',
  'noStart',
  'multipleStarts',
  'noEnd',
  'startHasIncoming',
  'endHasOutgoing',
  'edgeUnknownSource',
  'edgeUnknownTarget',
  'selfLoop',
  'duplicateEdge',
  'unreachable',
  'noPathToEnd',
  'multipleOutgoing',
  'exclusiveTooFewBranches',
  'exclusiveNoDefault',
  'exclusiveMultipleDefaults',
  'conditionMissing',
  'conditionInvalid',
  'conditionOutsideExclusive',
  'parallelTooFewBranches',
  'parallelWithoutJoin',
  'joinWithoutParallel',
  'joinTooFewIncoming',
  'approvalNoAssignees',
  'ccNoRecipients',
  'assigneeEmpty',
  'assigneeFieldMissing',
  'votePercentMissing',
  'emptyAssigneeAdminMissing',
  'escalateUserMissing',
  'automaticNoAssignments',
  'assignmentFieldMissing',
  'assignmentDuplicate',
  'assignmentInvalid',
  'unknownControl',
  'definitionConditionInvalid',
] as const;
export const ZWorkflowProblemCode = z.enum(WORKFLOW_PROBLEM_CODES);
export type TWorkflowProblemCode = z.infer<typeof ZWorkflowProblemCode>;

export const ZWorkflowProblem = z.object({
  code: ZWorkflowProblemCode,
  /** The node to select in the designer (null for graph-wide problems). */
  nodeId: zText().nullable(),
  /** The edge to select (null unless the problem is an edge's). */
  edgeId: zText().nullable(),
  /** Values for the message (`control`, `formulaError`, `count`, …). */
  params: z.record(zText(), z.union([zText(), z.number()])),
  /** Formula problems: the character range in the formula text. */
  start: z.number().int().optional(),
  end: z.number().int().optional(),
  /** The server's text in the caller's language (absent from the core validator's own answer). */
  message: zText().optional(),
});
export type TWorkflowProblem = z.infer<typeof ZWorkflowProblem>;

export const ZWorkflowCheckResult = z.object({
  /** No problems, and the bound page is published (what publishing needs). */
  ok: z.boolean(),
  problems: z.array(ZWorkflowProblem),
  /** `POST /check`: false while the bound page has no published version (controls and formulas were not checked against it). */
  pagePublished: z.boolean().optional(),
});
export type TWorkflowCheckResult = z.infer<typeof ZWorkflowCheckResult>;

// ---------------------------------------------------------------- definitions

/** `draft`: never published; `published`: at least one version (see `hasDraftChanges`). */
export const WORKFLOW_DEFINITION_STATUSES = ['draft', 'published'] as const;
export const ZWorkflowDefinitionStatus = z.enum(WORKFLOW_DEFINITION_STATUSES);
export type TWorkflowDefinitionStatus = z.infer<typeof ZWorkflowDefinitionStatus>;

export const ZWorkflowDefinitionListItem = z.object({
  id: zText(),
  name: zText(),
  description: zText().nullable(),
  /** The bound page. */
  pageId: zText(),
  pageCode: zText().nullable(),
  /** The page's multilingual name (empty when the page is gone). */
  pageName: z.record(zText(), zText()),
  /** Chooses among several enabled definitions of the same page (null: always applies). */
  condition: zText().nullable(),
  enabled: z.boolean(),
  status: ZWorkflowDefinitionStatus,
  /** The latest published version (null before the first publish). */
  publishedVersion: z.number().int().nullable(),
  publishedTime: zText().nullable(),
  /** The draft differs from the latest published version (always true before the first publish). */
  hasDraftChanges: z.boolean(),
  concurrencyStamp: zText(),
  creatorId: zText().nullable(),
  creationTime: zText(),
  lastModifierId: zText().nullable(),
  /** The last modifier's (or creator's) display name. */
  lastModifierName: zText().nullable(),
  lastModificationTime: zText().nullable(),
});
export type TWorkflowDefinitionListItem = z.infer<typeof ZWorkflowDefinitionListItem>;

export const ZWorkflowDefinitionDetail = ZWorkflowDefinitionListItem.extend({
  /** The draft the designer edits (instances run published versions only). */
  graph: ZWorkflowGraph,
});
export type TWorkflowDefinitionDetail = z.infer<typeof ZWorkflowDefinitionDetail>;

const ZBoolQuery = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** `Filter` searches the name; Sorting: `name`, `status`, `enabled`, `publishedVersion`, `creationTime`, `lastModificationTime` (+ ` desc`). */
export const ZWorkflowDefinitionQuery = ZPagedQuery.extend({
  Enabled: ZBoolQuery.optional(),
  Status: ZWorkflowDefinitionStatus.optional(),
  PageId: z.uuid().optional(),
});
export type TWorkflowDefinitionQuery = z.infer<typeof ZWorkflowDefinitionQuery>;
export const ZWorkflowDefinitionList = pagedResult(ZWorkflowDefinitionListItem);
export type TWorkflowDefinitionList = z.infer<typeof ZWorkflowDefinitionList>;

const ZDefinitionName = text(WORKFLOW_LIMITS.name).min(1);
const ZDefinitionDescription = text(WORKFLOW_LIMITS.description).nullish();
const ZDefinitionCondition = ZWorkflowFormula.nullish();

export const ZCreateWorkflowDefinitionInput = z.object({
  name: ZDefinitionName,
  description: ZDefinitionDescription,
  /** A page with a published version. */
  pageId: z.uuid(),
  condition: ZDefinitionCondition,
  /** The starting graph; a start connected to an end when omitted. */
  graph: ZWorkflowGraph.optional(),
});
export type TCreateWorkflowDefinitionInput = z.input<typeof ZCreateWorkflowDefinitionInput>;

/** Saves the draft (the designer's autosave). A stale `concurrencyStamp` answers 409. */
export const ZUpdateWorkflowDefinitionInput = z.object({
  name: ZDefinitionName,
  description: ZDefinitionDescription,
  pageId: z.uuid(),
  condition: ZDefinitionCondition,
  graph: ZWorkflowGraph,
  concurrencyStamp: zText().min(1).max(64),
});
export type TUpdateWorkflowDefinitionInput = z.input<typeof ZUpdateWorkflowDefinitionInput>;

/** A copy is a new, disabled, never-published definition with the source's draft. */
export const ZCopyWorkflowDefinitionInput = z.object({ name: ZDefinitionName.optional() });
export type TCopyWorkflowDefinitionInput = z.input<typeof ZCopyWorkflowDefinitionInput>;

/** The graph, page and condition to check (the designer's "validate as you edit" with page rules). */
export const ZCheckWorkflowInput = z.object({
  pageId: z.uuid(),
  condition: ZDefinitionCondition,
  graph: ZWorkflowGraph,
});
export type TCheckWorkflowInput = z.input<typeof ZCheckWorkflowInput>;

/** `concurrencyStamp`: the one last read (optional; a stale one answers 409). */
export const ZPublishWorkflowInput = z.object({ concurrencyStamp: zText().max(64).optional() });
export type TPublishWorkflowInput = z.input<typeof ZPublishWorkflowInput>;
export const ZPublishWorkflowResult = z.object({
  version: z.number().int(),
  definition: ZWorkflowDefinitionDetail,
});
export type TPublishWorkflowResult = z.infer<typeof ZPublishWorkflowResult>;

// ---------------------------------------------------------------- the bound page, as a workflow designer sees it
// (without the page designer's permission: only published pages, only what the flow designer needs)

// The page pickers' shapes live with pages (print templates use them too).
export { ZBindablePage, ZBindablePageList, ZBindablePageQuery, type TBindablePage, type TBindablePageList, type TBindablePageQuery } from './pages.ts';

/**
 * A page's latest published design: its views and controls (codes, titles, types) for the field
 * permission table, the picker controls a `formField` assignee may name, and formula completion
 * (`workflowCheckOptionsForPage` in packages/core/src/workflow/page-fields.ts takes `definition`).
 */
export const ZWorkflowPageDesign = ZPublishedPageDesign;
export type TWorkflowPageDesign = TPublishedPageDesign;

// ---------------------------------------------------------------- versions

export const ZWorkflowVersionListItem = z.object({
  version: z.number().int(),
  publishedTime: zText(),
  publisherId: zText().nullable(),
  publisherName: zText().nullable(),
  nodeCount: z.number().int(),
});
export type TWorkflowVersionListItem = z.infer<typeof ZWorkflowVersionListItem>;
export const ZWorkflowVersionList = z.object({ items: z.array(ZWorkflowVersionListItem) });
export type TWorkflowVersionList = z.infer<typeof ZWorkflowVersionList>;

export const ZWorkflowVersionDetail = ZWorkflowVersionListItem.extend({
  definitionId: zText(),
  pageId: zText(),
  condition: zText().nullable(),
  graph: ZWorkflowGraph,
});
export type TWorkflowVersionDetail = z.infer<typeof ZWorkflowVersionDetail>;

export const ZWorkflowVersionParams = z.object({ id: z.uuid(), version: z.coerce.number().int().min(1).max(1_000_000) });

// ---------------------------------------------------------------- export / import

export const WORKFLOW_EXPORT_FORMAT = 'tessera.workflow-definition';

/** `source`: the draft (default) or the latest published version. */
export const ZWorkflowExportQuery = z.object({ source: z.enum(['draft', 'published']).default('draft') });
export type TWorkflowExportQuery = z.infer<typeof ZWorkflowExportQuery>;

/** What `GET /{id}/export` answers (a JSON file). Page ids differ between systems: import falls back to the code. */
export const ZWorkflowExportDocument = z.object({
  format: z.literal(WORKFLOW_EXPORT_FORMAT),
  formatVersion: z.literal(1),
  exportedAt: zText(),
  definition: z.object({
    name: zText(),
    description: zText().nullable(),
    condition: zText().nullable(),
    page: z.object({ id: zText(), code: zText().nullable() }),
    graph: ZWorkflowGraph,
  }),
});
export type TWorkflowExportDocument = z.infer<typeof ZWorkflowExportDocument>;

/** An export file as import validates it. */
export const ZWorkflowExportDocumentInput = z.object({
  format: z.literal(WORKFLOW_EXPORT_FORMAT),
  formatVersion: z.literal(1),
  exportedAt: zText().max(64).optional(),
  definition: z.object({
    name: ZDefinitionName,
    description: ZDefinitionDescription,
    condition: ZDefinitionCondition,
    page: z.object({ id: zText().max(64).nullish(), code: zText().max(40).nullish() }),
    graph: ZWorkflowGraph,
  }),
});
export type TWorkflowExportDocumentInput = z.input<typeof ZWorkflowExportDocumentInput>;

/**
 * Import creates a new draft (disabled, never published). The page: `pageId` when given, else the
 * document's page id when that page exists here, else the page with the document's page code.
 * `name` overrides the document's.
 */
export const ZImportWorkflowDefinitionInput = z.object({
  document: ZWorkflowExportDocumentInput,
  name: ZDefinitionName.optional(),
  pageId: z.uuid().optional(),
});
export type TImportWorkflowDefinitionInput = z.input<typeof ZImportWorkflowDefinitionInput>;

/** The imported definition and the graph's problems against its page (import does not refuse a graph that publishing would). */
export const ZImportWorkflowDefinitionResult = ZWorkflowDefinitionDetail.extend({
  problems: z.array(ZWorkflowProblem),
});
export type TImportWorkflowDefinitionResult = z.infer<typeof ZImportWorkflowDefinitionResult>;

/** BPMN 2.0 XML (a file from Tessera, Camunda or Flowable modelers); the page as for JSON import. */
export const BPMN_MAX_CHARS = 2_000_000;
export const ZImportBpmnInput = z.object({
  xml: zText().min(1).max(BPMN_MAX_CHARS),
  name: ZDefinitionName.optional(),
  pageId: z.uuid().optional(),
});
export type TImportBpmnInput = z.input<typeof ZImportBpmnInput>;
