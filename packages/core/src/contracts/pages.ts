import { z } from 'zod';
import { zText } from './text.ts';
import { flattenViews, ZPageDefinition, type TPageDefinition, type TView } from '../page-definition.ts';
import { ZLocalizedText } from './authorization.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';

// Page definitions (`/design/form` list, `/pageDefinition` designer) and publishing
// (server/src/modules/pages). Routes, all under `/api/app/page-definition` unless noted:
//
//   GET    /                          ZPageDefinitionQuery            → ZPageDefinitionList        P.Pages
//   GET    /{id}                                                      → ZPageDefinitionDetail      P.Pages
//   POST   /                          ZCreatePageDefinitionInput      → ZPageDefinitionDetail      P.PagesCreate
//   PUT    /{id}                      ZSavePageDraftInput             → ZPageDefinitionDetail      P.PagesUpdate (409 on a stale stamp)
//   POST   /{id}/copy                 ZCopyPageDefinitionInput        → ZPageDefinitionDetail      P.PagesCreate
//   PUT    /{id}/rename               ZRenamePageDefinitionInput      → ZPageDefinitionDetail      P.PagesUpdate
//   DELETE /{id}                                                      → 204                        P.PagesDelete (409 naming the menus using it)
//   GET    /{id}/export               ZPageExportQuery                → ZPageExportDocument        P.Pages
//   POST   /import                    ZImportPageDefinitionInput      → ZPageDefinitionDetail      P.PagesCreate
//   GET    /{id}/versions                                             → ZPageVersionList           P.Pages
//   GET    /{id}/versions/{version}                                   → ZPageVersionDetail         P.Pages
//   POST   /{id}/rollback/{version}   ZPublishInput                   → ZPublishResult             P.PagesPublish
//   POST   /{id}/check                                                → ZDesignCheckResult         P.Pages
//   GET    /{id}/publish-plan                                         → ZPublishPlan               P.PagesPublish
//   POST   /{id}/publish              ZPublishInput                   → ZPublishResult             P.PagesPublish
//   GET    /api/app/control-designer                                  → ZControlDesigner           P.Pages
//
// Errors: 400 `ValidationError` (bad input; nothing written), 400 `Pages.DesignProblems`
// (publish of a design that fails the checks; details: ZDesignCheckResult), 409 `Conflict`
// (stale concurrency stamp), 409 `Pages.InUse` (delete; details: ZPageInUseDetails),
// 409 `Pages.DataLoss` (publish would lose data; details: ZPublishPlan with its blockers).

// ---------------------------------------------------------------- identifiers

/**
 * Page, view, control and button codes: a letter, then letters, digits or `_`, at most 40
 * characters. Control codes become quoted column names in `biz` tables and formula references.
 */
export const IDENTIFIER_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
export const IDENTIFIER_MESSAGE = 'a letter, then letters, digits or _ (at most 40 characters)';

/** System columns of every business table (docs/architecture.md, "Business data"); no control may use these names. */
export const SYSTEM_COLUMN_NAMES = [
  'Id',
  'ParentViewDataId',
  'DataStatus',
  'CreatorId',
  'CreationTime',
  'LastModifierId',
  'LastModificationTime',
  'IsDeleted',
  'DeletionTime',
  'ConcurrencyStamp',
  'OwnerOrganizationUnitId',
  'FlowStatus',
] as const;

/** PostgreSQL's own hidden columns (a table cannot have a column with these names). */
export const POSTGRES_SYSTEM_COLUMN_NAMES = ['tableoid', 'xmin', 'cmin', 'xmax', 'cmax', 'ctid', 'oid'] as const;

const RESERVED = new Set<string>([...SYSTEM_COLUMN_NAMES, ...POSTGRES_SYSTEM_COLUMN_NAMES].map((n) => n.toLowerCase()));

/** A code that may not name a control: a system column (case-insensitive) or a PostgreSQL system column. */
export function isReservedColumnName(code: string): boolean {
  return RESERVED.has(code.toLowerCase());
}

export const ZIdentifier = zText().regex(IDENTIFIER_PATTERN, IDENTIFIER_MESSAGE);
export const ZControlCode = ZIdentifier.refine((c) => !isReservedColumnName(c), 'a reserved system column name');
/** Control, button and linkage ids (not used in SQL; views use UUIDs). */
export const ZElementId = zText().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ (at most 64)');

/** View types: a form (one record), a grid (child rows), a container (tabs/group; no data, no table). */
export const VIEW_TYPES = { form: 1, grid: 2, container: 3 } as const;

/**
 * The document the designer saves: the core page-definition schema plus the identifier rules that
 * make codes safe as SQL identifiers. View ids are UUIDs (they name the `biz` tables). Semantic
 * rules (unique codes, formulas, linkage cycles, lookups, child keys) are design-time checks
 * (`POST /{id}/check`) and block publishing, not saving.
 */
export const ZPageDesign = ZPageDefinition.superRefine((definition, ctx) => {
  for (const issue of identifierIssues(definition)) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
});
export type TPageDesign = z.infer<typeof ZPageDesign>;

/** The identifier rules of `ZPageDesign`, with paths into the document. */
export function identifierIssues(definition: TPageDefinition): { message: string; path: (string | number)[] }[] {
  const issues: { message: string; path: (string | number)[] }[] = [];
  const uuid = z.uuid();
  const checkId = (value: unknown, path: (string | number)[]) => {
    if (!ZElementId.safeParse(value).success) issues.push({ message: 'letters, digits, - and _ (at most 64)', path });
  };
  const walk = (views: TPageDefinition['viewControls'], path: (string | number)[]) => {
    views.forEach((view, vi) => {
      const at = [...path, vi];
      if (!uuid.safeParse(view.id).success) issues.push({ message: 'a view id must be a UUID', path: [...at, 'id'] });
      if (!IDENTIFIER_PATTERN.test(view.code)) issues.push({ message: IDENTIFIER_MESSAGE, path: [...at, 'code'] });
      if (view.parentViewControlId && !uuid.safeParse(view.parentViewControlId).success) {
        issues.push({ message: 'a view id must be a UUID', path: [...at, 'parentViewControlId'] });
      }
      if (view.associateForeignKeyCode && !IDENTIFIER_PATTERN.test(view.associateForeignKeyCode)) {
        issues.push({ message: IDENTIFIER_MESSAGE, path: [...at, 'associateForeignKeyCode'] });
      }
      view.dataControls.forEach((control, ci) => {
        const cat = [...at, 'dataControls', ci];
        checkId(control.id, [...cat, 'id']);
        if (!IDENTIFIER_PATTERN.test(control.code)) issues.push({ message: IDENTIFIER_MESSAGE, path: [...cat, 'code'] });
        else if (isReservedColumnName(control.code)) issues.push({ message: 'a reserved system column name', path: [...cat, 'code'] });
        for (const [mi, map] of (control.extraProperties?.mapFields ?? []).entries()) {
          // A data-source query's columns are named by its SQL (checked against its result, quoted there).
          if (!control.extraProperties?.sourceQuery && !IDENTIFIER_PATTERN.test(map.sourceCode) && !isReservedColumnName(map.sourceCode)) {
            issues.push({ message: IDENTIFIER_MESSAGE, path: [...cat, 'extraProperties', 'mapFields', mi, 'sourceCode'] });
          }
          if (!IDENTIFIER_PATTERN.test(map.targetCode)) {
            issues.push({ message: IDENTIFIER_MESSAGE, path: [...cat, 'extraProperties', 'mapFields', mi, 'targetCode'] });
          }
        }
        const parentCode = control.extraProperties?.parentCode;
        if (parentCode && !IDENTIFIER_PATTERN.test(parentCode)) {
          issues.push({ message: IDENTIFIER_MESSAGE, path: [...cat, 'extraProperties', 'parentCode'] });
        }
      });
      view.viewButtons.forEach((button, bi) => {
        checkId(button.id, [...at, 'viewButtons', bi, 'id']);
        if (button.code && !IDENTIFIER_PATTERN.test(button.code)) issues.push({ message: IDENTIFIER_MESSAGE, path: [...at, 'viewButtons', bi, 'code'] });
      });
      walk(view.viewControls, [...at, 'viewControls']);
    });
  };
  walk(definition.viewControls, ['viewControls']);
  definition.pageButtons.forEach((button, bi) => {
    checkId(button.id, ['pageButtons', bi, 'id']);
    if (button.code && !IDENTIFIER_PATTERN.test(button.code)) issues.push({ message: IDENTIFIER_MESSAGE, path: ['pageButtons', bi, 'code'] });
  });
  definition.dataLinkages.forEach((linkage, li) => {
    if (linkage.id) checkId(linkage.id, ['dataLinkages', li, 'id']);
  });
  return issues;
}

/** Every data view (not a container) of a design, depth first. */
export function dataViews(definition: Pick<TPageDefinition, 'viewControls'>) {
  return flattenViews(definition).filter(({ view }) => Number(view.viewType ?? VIEW_TYPES.form) !== VIEW_TYPES.container);
}

/**
 * The page-definition document as the server sends it (responses): the same shape as
 * `ZPageDefinition`'s output, without its input coercions (responses are encoded, and coercing
 * preprocessors cannot be encoded). Unknown keys of buttons, extra properties and events pass.
 */
const scalarKey = z.union([zText(), z.number()]).nullish();
const ZControlOut = z.object({
  id: zText(),
  code: zText(),
  title: zText(),
  controlType: z.number(),
  parentDataControlId: zText().nullish(),
  isDisplayed: z.boolean(),
  isEdit: z.boolean(),
  options: z.unknown().optional(),
  defaultValue: z.union([zText(), z.number(), z.boolean()]).nullish(),
  docNoOccasion: z.number().nullish(),
  valueTakingType: z.number().nullish(),
  dataFieldId: zText().nullish(),
  extraProperties: z.looseObject({}).nullish(),
});
const ZButtonOut = z.looseObject({ id: zText(), code: zText().nullish(), title: zText(), buttonType: scalarKey });
// Recursive, so named: OpenAPI references it as a component (an unnamed cycle has nothing to point at).
const ZViewOut: z.ZodType<TView> = z.object({
  id: zText(),
  code: zText(),
  title: zText(),
  viewType: z.number().nullish(),
  parentViewControlId: zText().nullish(),
  associateForeignKeyCode: zText().nullish(),
  dataControls: z.array(ZControlOut),
  viewButtons: z.array(ZButtonOut),
  get viewControls() {
    return z.array(ZViewOut);
  },
})
  .meta({ id: 'PageView' }) as unknown as z.ZodType<TView>;
export const ZPageDefinitionOut = z.object({
  viewControls: z.array(ZViewOut),
  pageButtons: z.array(ZButtonOut),
  dataLinkages: z.array(
    z.object({
      id: zText().nullish(),
      dataLinkType: z.number(),
      triggerConditions: z.array(z.object({ dataControlId: zText().nullish(), dataControlCode: zText().nullish(), triggerFormula: zText().nullish() })),
      assignments: z.array(z.object({ dataControlId: zText().nullish(), dataControlCode: zText().nullish(), assignmentFormula: zText().nullish() })),
      pageEvents: z.array(z.looseObject({ triggerOperationType: scalarKey, assignmentType: scalarKey, bingDataControlId: zText().nullish() })),
      pageStateControls: z.array(
        z.object({
          controlObjectId: zText(),
          controlObjectTitle: zText().nullish(),
          controlObjectType: scalarKey,
          isHide: z.boolean(),
          isReadOnly: z.boolean(),
        }),
      ),
    }),
  ),
}) as unknown as z.ZodType<TPageDefinition>;

export const EMPTY_PAGE_DESIGN: TPageDefinition = { viewControls: [], pageButtons: [], dataLinkages: [] };

// ---------------------------------------------------------------- page definitions

/** `draft`: never published; `published`: the draft is the latest version; `modified`: saved since the last publish. */
export const PAGE_STATUSES = ['draft', 'published', 'modified'] as const;
export const ZPageStatus = z.enum(PAGE_STATUSES);
export type TPageStatus = z.infer<typeof ZPageStatus>;

export const ZPageDefinitionListItem = z.object({
  id: zText(),
  code: zText(),
  /** Multilingual: `{ "zh-CN": "采购订单", "en-US": "Purchase order" }`. */
  name: z.record(zText(), zText()),
  description: zText().nullable(),
  status: ZPageStatus,
  /** Number of the latest published version (null before the first publish). */
  publishedVersion: z.number().int().nullable(),
  publishedTime: zText().nullable(),
  concurrencyStamp: zText(),
  creatorId: zText().nullable(),
  creationTime: zText(),
  lastModifierId: zText().nullable(),
  lastModificationTime: zText().nullable(),
});
export type TPageDefinitionListItem = z.infer<typeof ZPageDefinitionListItem>;

export const ZPageDefinitionDetail = ZPageDefinitionListItem.extend({
  /** The draft the designer edits (never seen by users until published). */
  definition: ZPageDefinitionOut,
});
export type TPageDefinitionDetail = z.infer<typeof ZPageDefinitionDetail>;

/** Sorting: `code`, `name`, `status`, `creationTime`, `lastModificationTime`, `publishedTime` (+ ` desc`). */
export const ZPageDefinitionQuery = ZPagedQuery.extend({ Status: ZPageStatus.optional() });
export type TPageDefinitionQuery = z.infer<typeof ZPageDefinitionQuery>;
export const ZPageDefinitionList = pagedResult(ZPageDefinitionListItem);
export type TPageDefinitionList = z.infer<typeof ZPageDefinitionList>;

export const ZPageCodeInput = zText().trim().regex(IDENTIFIER_PATTERN, IDENTIFIER_MESSAGE);

export const ZCreatePageDefinitionInput = z.object({
  code: ZPageCodeInput,
  name: ZLocalizedText,
  description: text(500).nullish(),
  /** The starting design; empty when omitted. */
  definition: ZPageDesign.optional(),
});
export type TCreatePageDefinitionInput = z.input<typeof ZCreatePageDefinitionInput>;

/** Autosave of the draft. `concurrencyStamp` is the one last read; a stale one answers 409. */
export const ZSavePageDraftInput = z.object({
  definition: ZPageDesign,
  concurrencyStamp: zText().min(1).max(64),
});
export type TSavePageDraftInput = z.input<typeof ZSavePageDraftInput>;

/** A copy is a new page (new view and control ids, so new tables), never published. */
export const ZCopyPageDefinitionInput = z.object({
  code: ZPageCodeInput,
  name: ZLocalizedText.optional(),
});
export type TCopyPageDefinitionInput = z.input<typeof ZCopyPageDefinitionInput>;

/** Name and description; the code only while the page was never published (permission codes use it). */
export const ZRenamePageDefinitionInput = z.object({
  code: ZPageCodeInput.optional(),
  name: ZLocalizedText,
  description: text(500).nullish(),
  concurrencyStamp: zText().max(64).optional(),
});
export type TRenamePageDefinitionInput = z.input<typeof ZRenamePageDefinitionInput>;

/** Details of 409 `Pages.InUse`: the business menus that open the page. */
export const ZPageInUseDetails = z.object({
  menus: z.array(z.object({ id: zText(), title: z.record(zText(), zText()) })),
  /** Workflows (and other registered users of a page) that reference it; empty until such a module registers. */
  workflows: z.array(z.object({ id: zText(), title: z.record(zText(), zText()) })).optional(),
});
export type TPageInUseDetails = z.infer<typeof ZPageInUseDetails>;

// ---------------------------------------------------------------- export / import

export const PAGE_EXPORT_FORMAT = 'tessera.page-definition';

/** `source`: the draft (default) or the latest published version. */
export const ZPageExportQuery = z.object({ source: z.enum(['draft', 'published']).default('draft') });

/**
 * A view of another page that a lookup of the exported page reads (`extraProperties.dataSourceId`,
 * join conditions' `viewId`). View ids differ between instances: import maps each to the view with
 * the same code in the published page with the same code on the importing instance.
 */
export const ZExportDataSource = z.object({
  viewId: zText().max(64),
  pageCode: zText().max(40),
  viewCode: zText().max(64),
});
export type TExportDataSource = z.infer<typeof ZExportDataSource>;

/** What `GET /{id}/export` answers (a JSON file). */
export const ZPageExportDocument = z.object({
  format: z.literal(PAGE_EXPORT_FORMAT),
  formatVersion: z.literal(1),
  exportedAt: zText(),
  page: z.object({ code: zText(), name: z.record(zText(), zText()), description: zText().nullish() }),
  definition: ZPageDefinitionOut,
  /** The other pages' views the lookups read (absent in files from before this field existed). */
  dataSources: z.array(ZExportDataSource).optional(),
});
export type TPageExportDocument = z.infer<typeof ZPageExportDocument>;

/** An export file as import validates it (identifier rules included). */
export const ZPageExportDocumentInput = z.object({
  format: z.literal(PAGE_EXPORT_FORMAT),
  formatVersion: z.literal(1),
  exportedAt: zText().max(64).optional(),
  page: z.object({ code: ZPageCodeInput, name: ZLocalizedText, description: text(500).nullish() }),
  definition: ZPageDesign,
  dataSources: z.array(ZExportDataSource).max(500).optional(),
});

/**
 * Import creates a fresh page: every view, control, button and linkage id is replaced (references
 * follow), so it never touches another page's tables. `code`/`name` override the document's.
 * A code already in use is a 400.
 */
export const ZImportPageDefinitionInput = z.object({
  document: ZPageExportDocumentInput,
  code: ZPageCodeInput.optional(),
  name: ZLocalizedText.optional(),
});
export type TImportPageDefinitionInput = z.input<typeof ZImportPageDefinitionInput>;

/** The imported page; `unresolvedDataSources`: lookups' source views not published on this instance (publish those pages, then this one). */
export const ZImportPageDefinitionResult = ZPageDefinitionDetail.extend({
  unresolvedDataSources: z.array(ZExportDataSource),
});
export type TImportPageDefinitionResult = z.infer<typeof ZImportPageDefinitionResult>;

// ---------------------------------------------------------------- design-time checks

export const DESIGN_PROBLEM_KINDS = [
  'duplicateCode',
  'reservedCode',
  'invalidCode',
  'formula',
  'linkageCycle',
  'unknownControl',
  'lookupMapping',
  'childForeignKey',
  'viewParent',
  'containerControls',
  'duplicateId',
  'unknownControlType',
  /** A "run procedure" button (issue 16): no procedure, an unknown one or parameter, a formula that does not compile, or one the designer may not run. */
  'procedureButton',
] as const;
export const ZDesignProblem = z.object({
  kind: z.enum(DESIGN_PROBLEM_KINDS),
  message: zText(),
  /** The control (or button) to select in the designer; null when the problem is a view's. */
  controlId: zText().nullable(),
  viewId: zText().nullable(),
  /** Linkage problems: the linkage's id. */
  linkageId: zText().nullable().optional(),
  /** Formula problems: character range in the formula text. */
  start: z.number().int().optional(),
  end: z.number().int().optional(),
});
export type TDesignProblem = z.infer<typeof ZDesignProblem>;
export const ZDesignCheckResult = z.object({ ok: z.boolean(), problems: z.array(ZDesignProblem) });
export type TDesignCheckResult = z.infer<typeof ZDesignCheckResult>;

// ---------------------------------------------------------------- publishing

/** One schema change of a publish (table names are `biz.v_<view id without dashes>`). */
export const ZPublishChange = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('createTable'), viewId: zText(), viewCode: zText(), table: zText(), columns: z.number().int() }),
  z.object({ kind: z.literal('addColumn'), viewId: zText(), controlId: zText(), table: zText(), column: zText(), sqlType: zText() }),
  z.object({
    kind: z.literal('alterType'),
    viewId: zText(),
    controlId: zText(),
    table: zText(),
    column: zText(),
    fromType: zText(),
    toType: zText(),
    /** false: every existing value casts (text takes anything; bigint → numeric …); true: checked by a dry run. */
    narrowing: z.boolean(),
  }),
  z.object({ kind: z.literal('renameColumn'), viewId: zText(), controlId: zText(), table: zText(), from: zText(), to: zText() }),
  z.object({ kind: z.literal('dropColumn'), viewId: zText(), controlId: zText().nullable(), table: zText(), column: zText() }),
  z.object({ kind: z.literal('hideColumn'), viewId: zText(), controlId: zText().nullable(), table: zText(), column: zText(), rowCount: z.number().int() }),
  z.object({ kind: z.literal('unhideColumn'), viewId: zText(), controlId: zText(), table: zText(), column: zText() }),
  z.object({ kind: z.literal('dropTable'), viewId: zText(), table: zText() }),
  z.object({ kind: z.literal('hideTable'), viewId: zText(), table: zText(), rowCount: z.number().int() }),
  z.object({ kind: z.literal('setParent'), viewId: zText(), table: zText(), parentTable: zText().nullable() }),
  z.object({ kind: z.literal('createIndex'), viewId: zText(), table: zText(), column: zText() }),
]);
export type TPublishChange = z.infer<typeof ZPublishChange>;

/** Why a publish cannot go ahead as designed. */
export const ZPublishBlocker = z.discriminatedUnion('kind', [
  /** Existing values do not cast to the new type: fix the data or the design. */
  z.object({
    kind: z.literal('narrowing'),
    message: zText(),
    viewId: zText(),
    controlId: zText(),
    column: zText(),
    fromType: zText(),
    toType: zText(),
    failingCount: z.number().int(),
    /** Up to 5 rows whose value does not cast. */
    samples: z.array(z.object({ id: zText(), value: zText().nullable() })),
  }),
  /** A removed control/view still has data: publish with `confirmHideColumns` keeps it hidden. */
  z.object({
    kind: z.literal('removeWithData'),
    message: zText(),
    viewId: zText(),
    controlId: zText().nullable(),
    table: zText(),
    column: zText().nullable(),
    rowCount: z.number().int(),
  }),
  /** The schema cannot be changed this way (a column name held by a hidden column, rows under another parent …). */
  z.object({
    kind: z.literal('conflict'),
    message: zText(),
    viewId: zText(),
    controlId: zText().nullable(),
    table: zText(),
    column: zText().nullable(),
  }),
]);
export type TPublishBlocker = z.infer<typeof ZPublishBlocker>;

/** A column or table kept with its data after its control/view was removed from the design. */
export const ZHiddenColumn = z.object({
  viewId: zText(),
  /** null for a whole hidden table. */
  controlId: zText().nullable(),
  table: zText(),
  column: zText().nullable(),
  rowCount: z.number().int(),
  /** The version that hid it. */
  hiddenInVersion: z.number().int(),
});
export type THiddenColumn = z.infer<typeof ZHiddenColumn>;

export const ZPublishInput = z.object({ confirmHideColumns: z.boolean().optional() });
export type TPublishInput = z.input<typeof ZPublishInput>;

/** The dry run (`GET /{id}/publish-plan`), also the details of 409 `Pages.DataLoss`. */
export const ZPublishPlan = z.object({
  pageId: zText(),
  nextVersion: z.number().int(),
  /** The design-time problems; publishing needs none. */
  problems: z.array(ZDesignProblem),
  changes: z.array(ZPublishChange),
  blockers: z.array(ZPublishBlocker),
  /** true when the only blockers are `removeWithData` (publish with `confirmHideColumns: true`). */
  needsConfirmation: z.boolean(),
  /** true when a publish without confirmation would succeed now. */
  canPublish: z.boolean(),
});
export type TPublishPlan = z.infer<typeof ZPublishPlan>;

/**
 * The design diff of a version against the one before it, for the version history. Controls are
 * named `<view code>.<control code>`; a rename keeps the control id and changes its code.
 */
export const ZDesignChanges = z.object({
  viewsAdded: z.array(zText()),
  viewsRemoved: z.array(zText()),
  controlsAdded: z.array(zText()),
  controlsRemoved: z.array(zText()),
  controlsRenamed: z.array(z.object({ from: zText(), to: zText() })),
  /** Controls whose control type changed (`Master.Amount: 1001 → 1003`). */
  controlsRetyped: z.array(z.object({ control: zText(), from: z.number().int(), to: z.number().int() })),
  /** Controls whose other properties changed (title, options, defaults, lookups …). */
  controlsChanged: z.array(zText()),
  buttons: z.object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int() }),
  linkages: z.object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int() }),
});
export type TDesignChanges = z.infer<typeof ZDesignChanges>;

export const ZPageVersionListItem = z.object({
  version: z.number().int(),
  publishedBy: zText().nullable(),
  publishedByName: zText().nullable(),
  publishedTime: zText(),
  changeSummary: z.array(ZPublishChange),
  hiddenColumns: z.array(ZHiddenColumn),
  /** The version this one rolled back to, if it was a rollback. */
  rolledBackFrom: z.number().int().nullable(),
  /** What changed in the design against the previous version (version 1: everything is added). */
  designChanges: ZDesignChanges.optional(),
});
export type TPageVersionListItem = z.infer<typeof ZPageVersionListItem>;
export const ZPageVersionList = z.object({ items: z.array(ZPageVersionListItem), totalCount: z.number().int() });
export type TPageVersionList = z.infer<typeof ZPageVersionList>;
export const ZPageVersionDetail = ZPageVersionListItem.extend({ definition: ZPageDefinitionOut });
export type TPageVersionDetail = z.infer<typeof ZPageVersionDetail>;
export const ZVersionParam = z.object({ id: z.uuid(), version: z.coerce.number().int().min(1).max(1_000_000) });

export const ZPublishResult = z.object({
  page: ZPageDefinitionDetail,
  version: ZPageVersionListItem,
});
export type TPublishResult = z.infer<typeof ZPublishResult>;

// ---------------------------------------------------------------- control designer palette

export const ZBilingual = z.object({ 'zh-CN': zText(), 'en-US': zText() });
export type TBilingual = z.infer<typeof ZBilingual>;

/** The widget the properties panel uses for a property. */
export const PROPERTY_WIDGETS = [
  'code',
  'text',
  'localizedText',
  'number',
  'switch',
  'select',
  'options',
  'defaultValue',
  'formula',
  'documentNumberRule',
  'dataSource',
  /** A saved query of a data source (`extraProperties.sourceQuery`, issue 16). */
  'sourceQuery',
  /** A new record's default from a saved query of a data source (`extraProperties.defaultSourceQuery`, issue 16). */
  'defaultSourceQuery',
  'dataSourceMethod',
  'mapFields',
  'joinConditions',
  'controlRef',
  'viewRef',
  'buttonAction',
  /** A list of { dataControlId, assignmentFormula } (custom button actions). */
  'assignments',
  /** A data factory procedure the designer may run ("run procedure" buttons, issue 16). */
  'procedure',
  /** A list of { name, formula }: the procedure's IN values computed from the saved record. */
  'procedureParameters',
] as const;
export const ZPropertyWidget = z.enum(PROPERTY_WIDGETS);
export type TPropertyWidget = z.infer<typeof ZPropertyWidget>;

export const ZDesignerProperty = z.object({
  /** Path in the control/view object, e.g. `code`, `isEdit`, `extraProperties.accuracy`. */
  key: zText(),
  widget: ZPropertyWidget,
  title: ZBilingual,
  help: ZBilingual,
  default: z.unknown().optional(),
  required: z.boolean(),
  /** `select` widgets: the choices. */
  choices: z.array(z.object({ value: z.union([zText(), z.number()]), title: ZBilingual })).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  /** Shown only while another property holds this value (the formula of a calculated control). */
  shownWhen: z.object({ key: zText(), value: z.union([zText(), z.number(), z.boolean()]) }).optional(),
});
export type TDesignerProperty = z.infer<typeof ZDesignerProperty>;

export const ZPaletteControlType = z.object({
  code: z.number().int(),
  /** Stable English key (`decimal`). */
  name: zText(),
  title: ZBilingual,
  help: ZBilingual,
  /** spec §3 table field type: 1 text, 2 integer, 3 decimal, 4 date, 5 boolean, 6 id/lookup. */
  tableFieldType: z.number().int(),
  /** The column type publishing creates. */
  sqlType: zText(),
  group: z.enum(['basic', 'choice', 'lookup', 'system']),
  properties: z.array(ZDesignerProperty),
});
export type TPaletteControlType = z.infer<typeof ZPaletteControlType>;

export const ZPaletteViewType = z.object({
  code: z.number().int(),
  name: zText(),
  title: ZBilingual,
  help: ZBilingual,
  properties: z.array(ZDesignerProperty),
});
export type TPaletteViewType = z.infer<typeof ZPaletteViewType>;

export const ZPaletteButtonAction = z.object({
  code: zText(),
  title: ZBilingual,
  /** Page buttons, view buttons or both. */
  scope: z.enum(['page', 'view', 'both']),
  /** false until the module behind it exists (print, submit for approval). */
  enabled: z.boolean(),
});

export const ZControlDesigner = z.object({
  controlTypes: z.array(ZPaletteControlType),
  viewTypes: z.array(ZPaletteViewType),
  buttonActions: z.array(ZPaletteButtonAction),
  buttonProperties: z.array(ZDesignerProperty),
  /** The identifier rule for codes (`IDENTIFIER_PATTERN` source) and the reserved column names. */
  codePattern: zText(),
  reservedCodes: z.array(zText()),
});
export type TControlDesigner = z.infer<typeof ZControlDesigner>;

// ---------------------------------------------------------------- published pages as other modules' designers see them
// (workflow and print templates bind to pages: only published pages, only what their designers need)

/** `Filter` searches code and name. */
export const ZBindablePageQuery = ZPagedQuery.omit({ Sorting: true });
export type TBindablePageQuery = z.infer<typeof ZBindablePageQuery>;
export const ZBindablePage = z.object({
  id: zText(),
  code: zText(),
  name: z.record(zText(), zText()),
  publishedVersion: z.number().int(),
});
export type TBindablePage = z.infer<typeof ZBindablePage>;
export const ZBindablePageList = pagedResult(ZBindablePage);
export type TBindablePageList = z.infer<typeof ZBindablePageList>;

/** A page's latest published design: its views and controls (codes, titles, types). */
export const ZPublishedPageDesign = z.object({
  page: ZBindablePage,
  definition: ZPageDefinitionOut,
});
export type TPublishedPageDesign = z.infer<typeof ZPublishedPageDesign>;
