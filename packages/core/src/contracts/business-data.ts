import { z } from 'zod';
import { zJson, zText } from './text.ts';

// The business runtime (server/src/modules/business-data, spec §3/§4/§7): rows of published pages.
// Routes, all POST under `/api/app/business-data` unless noted. Every call names the page (its id
// or code); the caller needs `Biz.<page>.Access`, writes also the code of the page's add / edit /
// delete / import / export button when the design gives that button a code. Row-level data scopes
// apply inside every query and write: a record outside the caller's scope answers 404.
//
//   query-view-data          ZQueryViewDataInput       → ZQueryViewDataResult   rows of one view (filter, sort, page), with labels
//   query-page-data          ZQueryPageDataInput       → ZPageDataResult        one record with all child views
//   save-page                ZSavePageInput            → ZPageDataResult        master + children, one transaction
//   save-view                ZSaveViewInput            → ZSaveViewResult        rows of one view, one transaction
//   run-procedure            ZRunButtonProcedureInput  → ZRunButtonProcedureResult  a "run procedure" page button: save, then the data factory procedure (issue 16)
//   delete-data              ZDeleteDataInput          → ZDeleteDataResult      master records (soft delete) + history
//   query-drop-down-data     ZQueryDropDownInput       → ZDropDownResult        options of a list / lookup control
//   query-open-windows-data  ZQueryOpenWindowInput     → ZOpenWindowResult      the lookup window of a 1010 control
//   GET record-history       ZRecordHistoryQuery       → ZRecordHistoryList     who / when / before → after per field (and their labels)
//   POST export-view-data    ZExportViewDataInput      → xlsx (every filtered row, streamed; labels, not codes)
//   POST import-view-data    ZImportViewDataQuery + the .xlsx as the raw body → ZImportViewDataResult  all or nothing, row-level errors; labels or codes
//   GET import-template      ZImportTemplateQuery      → xlsx (one column per editable field)
//
// Errors: 400 ValidationError (validationErrors with members such as
// `viewDataList.0.dataList.2.amount`), 403 Forbidden (missing page code), 404 NotFound (unknown
// page / view / record, or a record outside the data scope), 409 Conflict (a stale
// ConcurrencyStamp; details: ZConcurrencyConflict).

export const BUSINESS_DATA_BASE = '/api/app/business-data';

/** Below this many matching rows `totalCount` is exact; above it the planner's estimate (flagged). */
export const EXACT_COUNT_THRESHOLD = 10_000;
export const OPEN_WINDOW_MAX_RESULT_COUNT = 100;
export const VIEW_DATA_MAX_RESULT_COUNT = 1000;
export const MAX_SAVE_ROWS = 5000;

/** A page by id (UUID) or code. */
export const ZPageRef = zText().trim().min(1).max(128);

/** The caller's offset from UTC in minutes (date-only values and shortcuts are read in it). Default 0. */
export const ZOffsetMinutes = z.coerce.number().int().min(-840).max(840).optional();

/** spec §3 filter condition as sent by the client; validated by the core filter model on the server. */
export const ZWireFilterConditions = z.array(zJson()).max(200).nullish();

/** A business record (spec §3): system fields plus one property per control code. */
export const ZBusinessRecordInput = z.record(zText().max(128), zJson());
export type TBusinessRecordInput = z.infer<typeof ZBusinessRecordInput>;

export const ZQueryViewDataInput = z.object({
  pageId: ZPageRef,
  viewId: zText().min(1).max(64),
  /** Child views: the parent record whose rows are listed (required for child views). */
  parentId: z.uuid().nullish(),
  filterConditions: ZWireFilterConditions,
  /** `code asc`, `code desc`, comma-separated; codes of visible controls or system time columns. */
  Sorting: zText().max(300).nullish(),
  SkipCount: z.coerce.number().int().min(0).max(10_000_000).default(0),
  MaxResultCount: z.coerce.number().int().min(1).max(VIEW_DATA_MAX_RESULT_COUNT).default(100),
  offsetMinutes: ZOffsetMinutes,
  /** Name the users of the system columns (CreatorId, LastModifierId) in `labels`: one more query, asked for when they are shown. */
  namesOfUsers: z.boolean().optional(),
});
export type TQueryViewDataInput = z.input<typeof ZQueryViewDataInput>;

// Answers carry what the database holds, which the text rule already kept clean on the way in:
// the record outputs (every row of every list) are not walked again.
export const ZRecord = z.record(z.string(), z.unknown());

/**
 * What a person reads instead of stored values, per control code → stored value → label: for
 * controls with options (a static list or a business dictionary: the item's label in the caller's
 * language) and lookups (the source row's title; an id the caller may not see maps to itself).
 * Holds the values of the rows answered; list controls map each of their values.
 */
export const ZValueLabels = z.record(z.string(), z.record(z.string(), z.string()));

/**
 * System columns a list can show, sort and filter beside the design's fields (issue 12): who
 * created and who last changed a row (user ids, named in the answer's `labels`), and when.
 */
export const LIST_SYSTEM_COLUMNS = [
  { code: 'CreatorId', kind: 'user' },
  { code: 'CreationTime', kind: 'time' },
  { code: 'LastModifierId', kind: 'user' },
  { code: 'LastModificationTime', kind: 'time' },
  // The approval status (0 draft … 4 withdrawn; contracts/workflow-runtime.ts FLOW_STATUS).
  { code: 'FlowStatus', kind: 'status' },
] as const;
export type TListSystemColumn = (typeof LIST_SYSTEM_COLUMNS)[number]['code'];
export type TValueLabels = z.infer<typeof ZValueLabels>;

export const ZQueryViewDataResult = z.object({
  items: z.array(ZRecord),
  labels: ZValueLabels,
  /** Totals of the number columns marked with a summary, over every row the filter matches: code → value. */
  summary: z.record(z.string(), z.number().nullable()).optional(),
  totalCount: z.number().int(),
  /** True when totalCount is the planner's estimate (more than EXACT_COUNT_THRESHOLD rows match). */
  totalCountIsEstimate: z.boolean(),
});
export type TQueryViewDataResult = z.infer<typeof ZQueryViewDataResult>;

export const ZQueryPageDataInput = z.object({ pageId: ZPageRef, id: z.uuid(), offsetMinutes: ZOffsetMinutes });
export type TQueryPageDataInput = z.infer<typeof ZQueryPageDataInput>;

/** spec §3 page data entry: `dataList` typed values, `businessDataList` display texts of the same rows. */
export const ZViewData = z.object({ viewId: z.string(), dataList: z.array(ZRecord), businessDataList: z.array(ZRecord) });
export const ZPageDataResult = z.object({
  pageId: zText(),
  pageCode: zText(),
  version: z.number().int(),
  viewDataList: z.array(ZViewData),
});
export type TPageDataResult = z.infer<typeof ZPageDataResult>;

export const ZSaveViewDataEntry = z.object({
  viewId: zText().min(1).max(64),
  dataList: z.array(ZBusinessRecordInput).max(MAX_SAVE_ROWS),
});

/**
 * Saves one master record and every child row. For each child view the list is the complete set of
 * the master's rows: a stored row missing from it is deleted. The master's ConcurrencyStamp must
 * be the stored one (409 otherwise); a new record has none.
 */
export const ZSavePageInput = z.object({
  pageId: ZPageRef,
  viewDataList: z.array(ZSaveViewDataEntry).min(1).max(50),
  offsetMinutes: ZOffsetMinutes,
});
export type TSavePageInput = z.infer<typeof ZSavePageInput>;

/**
 * A page button whose action is `runProcedure` (issue 16): it saves the record, then runs a data
 * factory procedure with IN values computed by formulas over the saved record — inside the save's
 * transaction (`inSave`: the procedure's failure undoes the save) or after it (`afterSave`: the
 * save stands; the procedure's failure is reported beside it).
 */
export const PROCEDURE_TIMINGS = ['inSave', 'afterSave'] as const;
export const ZProcedureButton = z.object({
  procedureId: z.uuid(),
  procedureParameters: z
    .array(z.object({ name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/), formula: zText().max(4000) }))
    .max(50)
    .default([]),
  procedureTiming: z.enum(PROCEDURE_TIMINGS).default('afterSave'),
});
export type TProcedureButton = z.infer<typeof ZProcedureButton>;

export const ZRunButtonProcedureInput = ZSavePageInput.extend({ buttonId: zText().min(1).max(64) });
export type TRunButtonProcedureInput = z.infer<typeof ZRunButtonProcedureInput>;
export const ZRunButtonProcedureResult = z.object({
  /** The record as saved (afterSave: saved whatever the procedure did). */
  page: ZPageDataResult,
  /** The procedure's answer, null when it failed after the save. */
  run: z.object({ runId: zText(), rowCount: z.number().int(), elapsedMs: z.number(), outParameters: z.record(z.string(), z.unknown()) }).nullable(),
  /** afterSave: why the procedure failed (the record is saved). */
  error: zText().nullable(),
});
export type TRunButtonProcedureResult = z.infer<typeof ZRunButtonProcedureResult>;

/** Rows of one view: top-level records (each its own record) or child rows of existing records. */
export const ZSaveViewInput = z.object({
  pageId: ZPageRef,
  viewId: zText().min(1).max(64),
  dataList: z.array(ZBusinessRecordInput).max(MAX_SAVE_ROWS),
  /** Child views: stored rows to delete. */
  deletedIds: z.array(z.uuid()).max(MAX_SAVE_ROWS).default([]),
  offsetMinutes: ZOffsetMinutes,
});
export type TSaveViewInput = z.infer<typeof ZSaveViewInput>;
export const ZSaveViewResult = z.object({ items: z.array(ZRecord) });

export const ZDeleteDataInput = z.object({ pageId: ZPageRef, ids: z.array(z.uuid()).min(1).max(1000) });
export type TDeleteDataInput = z.infer<typeof ZDeleteDataInput>;
export const ZDeleteDataResult = z.object({ deleted: z.number().int() });

export const ZConcurrencyConflict = z.object({
  id: zText(),
  concurrencyStamp: zText(),
  lastModifierId: zText().nullable(),
  lastModifierName: zText().nullable(),
  lastModificationTime: zText().nullable(),
});
export type TConcurrencyConflict = z.infer<typeof ZConcurrencyConflict>;

export const ZQueryDropDownInput = z.object({
  pageId: ZPageRef,
  dataControlId: zText().min(1).max(64),
  filterConditions: ZWireFilterConditions,
  /** Search text over the option labels. */
  filter: zText().max(200).nullish(),
  /** The row being edited: a control with `parentCode` gets only the options under that control's value (cascading). */
  record: ZBusinessRecordInput.nullish(),
  skipCount: z.coerce.number().int().min(0).max(1_000_000).default(0),
  maxResultCount: z.coerce.number().int().min(1).max(1000).default(100),
});
export type TQueryDropDownInput = z.input<typeof ZQueryDropDownInput>;
export const ZDropDownOption = z.object({ value: zText(), label: zText(), parentValue: zText().nullable().optional() });
export const ZDropDownResult = z.object({ items: z.array(ZDropDownOption), totalCount: z.number().int() });
export type TDropDownResult = z.infer<typeof ZDropDownResult>;

/** spec §3 open-data query: maxResultCount (≤ 100), skipCount, dataControlId, filterConditions. */
export const ZQueryOpenWindowInput = z.object({
  pageId: ZPageRef,
  dataControlId: zText().min(1).max(64),
  filterConditions: ZWireFilterConditions,
  /** Search text: matches any text column shown in the window. */
  filter: zText().max(200).nullish(),
  /** The record being edited: join-condition formulas read its values. */
  record: ZBusinessRecordInput.nullish(),
  skipCount: z.coerce.number().int().min(0).max(1_000_000).default(0),
  maxResultCount: z.coerce.number().int().min(1).max(OPEN_WINDOW_MAX_RESULT_COUNT).default(OPEN_WINDOW_MAX_RESULT_COUNT),
  offsetMinutes: ZOffsetMinutes,
});
export type TQueryOpenWindowInput = z.input<typeof ZQueryOpenWindowInput>;
export const ZOpenWindowResult = z.object({
  items: z.array(ZRecord),
  totalCount: z.number().int(),
  totalCountIsEstimate: z.boolean(),
  columns: z.array(z.object({ code: zText(), title: zText(), tableFieldType: z.number().int() })),
});
export type TOpenWindowResult = z.infer<typeof ZOpenWindowResult>;

export const ZRecordHistoryQuery = z.object({ pageId: ZPageRef, id: z.uuid() });
/** `beforeText` / `afterText`: what a person reads for a field that shows labels (options, dictionaries, lookups). */
export const ZFieldChange = z.object({
  viewId: zText(),
  rowId: zText(),
  code: zText(),
  title: zText(),
  before: z.unknown(),
  after: z.unknown(),
  beforeText: zText().optional(),
  afterText: zText().optional(),
  /** A child view's change: the view's title, the line number under its parent, and whether the line came or went with the save. */
  viewTitle: zText().optional(),
  row: z.number().int().optional(),
  line: z.enum(['added', 'removed']).optional(),
});
export const ZRecordHistoryEntry = z.object({
  id: zText(),
  action: z.enum(['Created', 'Updated', 'Deleted']),
  userId: zText().nullable(),
  userName: zText().nullable(),
  time: zText(),
  changes: z.array(ZFieldChange),
});
export type TRecordHistoryEntry = z.infer<typeof ZRecordHistoryEntry>;
export const ZRecordHistoryList = z.object({ items: z.array(ZRecordHistoryEntry), totalCount: z.number().int() });
export type TRecordHistoryList = z.infer<typeof ZRecordHistoryList>;

export const ZExportViewDataInput = z.object({
  pageId: ZPageRef,
  viewId: zText().min(1).max(64),
  filterConditions: ZWireFilterConditions,
  Sorting: zText().max(300).nullish(),
  offsetMinutes: ZOffsetMinutes,
});
export type TExportViewDataInput = z.infer<typeof ZExportViewDataInput>;

export const ZImportTemplateQuery = z.object({ pageId: ZPageRef, viewId: zText().min(1).max(64) });

/**
 * Where an import goes; the workbook itself is the request's raw body (content type .xlsx or
 * application/octet-stream): first sheet the master rows (header row of control titles or codes),
 * a sheet per view below the master.
 */
export const ZImportViewDataQuery = z.object({ pageId: ZPageRef, viewId: zText().min(1).max(64), offsetMinutes: ZOffsetMinutes });
export type TImportViewDataQuery = z.infer<typeof ZImportViewDataQuery>;
/** `sheet`: the child-view sheet the row is on (absent: the master sheet). */
export const ZImportRowError = z.object({ sheet: zText().nullish(), row: z.number().int(), column: zText().nullable(), message: zText() });
export const ZImportViewDataResult = z.object({
  imported: z.number().int(),
  errors: z.array(ZImportRowError),
});
export type TImportViewDataResult = z.infer<typeof ZImportViewDataResult>;

/** spec §4 docNoOccasion 1: reserve the number a new record shows (consumed by its save). */
export const ZReserveDocumentNumberInput = z.object({ pageId: ZPageRef, dataControlId: zText().min(1).max(64) });
export const ZReserveDocumentNumberResult = z.object({ docNo: zText() });
/** A new record's default from its control's saved query of a data source; `record`: the new record so far (the query's parameters may be formulas over it). */
export const ZSourceDefaultInput = ZReserveDocumentNumberInput.extend({
  record: z.record(zText().max(64), zJson()).nullish(),
  offsetMinutes: ZOffsetMinutes,
});
export type TSourceDefaultInput = z.infer<typeof ZSourceDefaultInput>;
/** The value column of the query's first row (null: the query answered no row; a JSON value comes as its text). */
export const ZSourceDefaultResult = z.object({ value: z.union([zText(), z.number(), z.boolean()]).nullable() });
export type TSourceDefaultResult = z.infer<typeof ZSourceDefaultResult>;
/** A reserved number whose new record was left unsaved (the form closed, the tab or browser went): voided by its holder. */
export const ZVoidDocumentNumberInput = ZReserveDocumentNumberInput.extend({ docNo: zText().min(1).max(100) });
export type TVoidDocumentNumberInput = z.infer<typeof ZVoidDocumentNumberInput>;

/** A user's list settings for one view: saved filters, visible columns, widths (free-form, bounded). */
export const ZViewPreferencesQuery = z.object({ pageId: ZPageRef, viewId: zText().min(1).max(64) });
export const ZViewPreferencesInput = ZViewPreferencesQuery.extend({
  value: z.record(zText().max(64), zJson()).refine((v) => JSON.stringify(v).length <= 100_000, 'At most 100 kB'),
});
export const ZViewPreferences = z.object({ value: z.record(z.string(), z.unknown()).nullable() });
export type TViewPreferences = z.infer<typeof ZViewPreferences>;

/** The published page as the runtime renders it, with what the caller may do (GET page-runtime). */
export const ZPageRuntimeQuery = z.object({ pageId: ZPageRef });
export const ZPageRuntime = z.object({
  pageId: zText(),
  pageCode: zText(),
  version: z.number().int(),
  title: z.record(zText(), zText()),
  masterViewId: zText(),
  /** The published definition; controls the caller may not edit are `isEdit: false`, not view: also `isDisplayed: false`. */
  definition: z.unknown(),
  actions: z.object({ add: z.boolean(), edit: z.boolean(), delete: z.boolean(), import: z.boolean(), export: z.boolean() }),
  fields: z.record(zText(), z.object({ view: z.boolean(), edit: z.boolean() })),
});
export type TPageRuntime = z.infer<typeof ZPageRuntime>;
