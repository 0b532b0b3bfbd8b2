import { z } from 'zod';
import { BIZ_ACTIONS, type BizAction } from './contracts/permissions.ts';
import { zJson, zLooseObject, zText } from './contracts/text.ts';

// The page definition document (spec §3): views holding data controls, buttons, data linkages,
// join and filter conditions. Validated with zod wherever it crosses a trust boundary (designer
// save, publish, runtime load). Legacy designers send loosely typed JSON: numbers as strings,
// nulls for absent values, so scalar fields are lenient and optional.

/** A number that may arrive as a numeric string (`"1"`) from legacy designers. */
const looseInt = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
  z.number().int(),
);
const optionalText = zText().nullish();
const optionalInt = looseInt.nullish();
const looseBool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** Table field types (spec §3): 1 text, 2 integer, 3 decimal, 4 date, 5 boolean, 6 id/lookup. */
export const TABLE_FIELD_TYPES = [1, 2, 3, 4, 5, 6] as const;
export type TableFieldType = (typeof TABLE_FIELD_TYPES)[number];
export const ZTableFieldType = z.union(TABLE_FIELD_TYPES.map((n) => z.literal(n)));

/** One row of a join-condition list (data-source joins of lookup controls). */
export const ZJoinCondition = zLooseObject({
  id: optionalText,
  key: zText(),
  judgmentMethod: z.union([zText(), z.number()]).nullish(),
  joinConditionMethod: z.union([zText(), z.number()]).nullish(),
  value: z.unknown().optional(),
  leftBracket: z.union([zText(), z.number()]).nullish(),
  rightBracket: z.union([zText(), z.number()]).nullish(),
  linkCondition: z.union([zText(), z.number()]).nullish(),
  tableFieldType: optionalInt,
  viewId: optionalText,
});
export type TJoinCondition = z.infer<typeof ZJoinCondition>;

/** One row of a filter-condition list (spec §3). Parsed into a tree by `filters/index.ts`. */
export const ZFilterCondition = zLooseObject({
  filterId: optionalText,
  joinConditionMethod: z.union([zText(), z.number()]).nullish(),
  key: zText(),
  judgmentMethod: z.union([zText(), z.number()]).nullish(),
  value: z.unknown().optional(),
  leftBracket: z.union([zText(), z.number()]).nullish(),
  rightBracket: z.union([zText(), z.number()]).nullish(),
  linkCondition: z.union([zText(), z.number()]).nullish(),
  sortNo: optionalInt,
  tableFieldType: optionalInt,
  isSys: looseBool.nullish(),
});
export type TFilterCondition = z.infer<typeof ZFilterCondition>;

export const ZMapField = z.object({ sourceCode: zText(), targetCode: zText() });

/**
 * A lookup (1010) or an option control fed by a saved query of an external data source (issue 16)
 * instead of a view of a published page or a list of options: the query's `valueColumn` is what the
 * record stores, `labelColumn` what an option control shows (a lookup shows `dataSourceTitle`);
 * each of the query's parameters takes a fixed value or, starting with `=`, a formula over the
 * record being edited. Filters and searches run on the source as bound parameters.
 */
export const ZSourceQueryRef = z.object({
  sourceId: z.uuid(),
  methodCode: zText().min(1).max(64),
  valueColumn: zText().min(1).max(128),
  labelColumn: zText().max(128).nullish(),
  parameters: z.array(z.object({ name: zText().min(1).max(63), value: zText().max(2_000) })).max(50).nullish(),
});
export type TSourceQueryRef = z.infer<typeof ZSourceQueryRef>;

const ACCEPT_PATTERN = /^\s*(\.[A-Za-z0-9]{1,10}(\s*,\s*\.[A-Za-z0-9]{1,10})*)?\s*$/;
export const ACCEPT_MESSAGE = 'File extensions such as .pdf, .docx separated by commas';

/** Control-specific settings (spec §3 extraProperties); unknown keys are kept. */
export const ZExtraProperties = zLooseObject({
  mapFields: z.array(ZMapField).nullish(),
  joinConditions: z.array(ZJoinCondition).nullish(),
  dataSourceTitle: optionalText,
  parentCode: optionalText,
  /** 1 year-month, 2 year-month-day, 3 full date-time. */
  dateType: optionalInt,
  dataSourceId: optionalText,
  dataSourceMethod: z.union([zText(), z.number()]).nullish(),
  /** A saved query of a data source this lookup or option control reads instead (issue 16). */
  sourceQuery: ZSourceQueryRef.nullish(),
  /** A new record's value: the `valueColumn` of the first row of a saved query of a data source (issue 16). */
  defaultSourceQuery: ZSourceQueryRef.nullish(),
  /** Decimal places shown and stored for decimal controls. */
  accuracy: optionalInt,
  /** The control's own formula when it is calculated (valueTakingType 2), e.g. `{Quantity} * {Price}`. */
  formula: zText().max(10_000).nullish(),
  /** A number column's total in grids and lists: sum, average or count of the rows (issue 12). */
  summary: z.enum(['sum', 'avg', 'count']).nullish().catch(null),
  /** Attachment / image controls (1013/1014): the most files a value holds (default 10). */
  maxFiles: z.number().int().min(1).max(100).nullish(),
  /** Attachment controls: the file extensions accepted, e.g. `.pdf,.docx` (empty: any allowed type). */
  accept: zText().max(500).regex(ACCEPT_PATTERN, ACCEPT_MESSAGE).nullish(),
  /** A currency amount (1015) shows its Chinese capitals under the input in the form. */
  capitals: z.boolean().nullish().catch(null),
});
export type TExtraProperties = z.infer<typeof ZExtraProperties>;

const FORBIDDEN_CODES = new Set(['__proto__', 'constructor', 'prototype']);
/**
 * Control and view codes become column/table names and formula references: letters, digits,
 * underscore and CJK ideographs, not starting with a digit, never a JavaScript prototype key.
 */
export const ZCode = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]*$/, 'Codes use letters, digits and underscore')
  .refine((c) => !FORBIDDEN_CODES.has(c), 'Reserved code');
export const ZDataControl = z.object({
  id: zText(),
  code: ZCode,
  title: zText().default(''),
  controlType: looseInt,
  parentDataControlId: optionalText,
  isDisplayed: looseBool.default(true),
  isEdit: looseBool.default(true),
  options: zJson().optional(),
  defaultValue: z.union([zText(), z.number(), z.boolean()]).nullish(),
  /** 1: fetch the document number when the record is created. */
  docNoOccasion: optionalInt,
  valueTakingType: optionalInt,
  dataFieldId: optionalText,
  extraProperties: ZExtraProperties.nullish(),
});
export type TDataControl = z.infer<typeof ZDataControl>;

export const ZButton = zLooseObject({
  id: zText(),
  code: optionalText,
  title: zText().default(''),
  buttonType: z.union([zText(), z.number()]).nullish(),
});
export type TButton = z.infer<typeof ZButton>;

export type TView = {
  id: string;
  code: string;
  title: string;
  viewType?: number | null;
  /** Set on child views: the id of the parent view. */
  parentViewControlId?: string | null;
  /** Child views: the column holding the parent record's id. */
  associateForeignKeyCode?: string | null;
  dataControls: TDataControl[];
  viewButtons: TButton[];
  viewControls: TView[];
};
/**
 * Limits of one page design (issue 27): views nest at most MAX_VIEW_DEPTH levels (a master and
 * seven levels of child views), a page holds at most MAX_PAGE_VIEWS views and MAX_PAGE_CONTROLS
 * data controls. Every view becomes a table and every control a column, so nothing real comes
 * close; the caps keep hostile designs from exhausting the stack or the database.
 */
export const MAX_VIEW_DEPTH = 8;
export const MAX_PAGE_VIEWS = 200;
export const MAX_PAGE_CONTROLS = 2000;

/**
 * The view schema of one nesting level. Built level by level rather than recursively, so parsing
 * never descends past MAX_VIEW_DEPTH whatever the input's nesting: below the last level any view
 * is refused without being read.
 */
function viewAtLevel(level: number): z.ZodType<TView> {
  const children =
    level >= MAX_VIEW_DEPTH
      ? z.array(z.unknown()).max(0, `views nest at most ${MAX_VIEW_DEPTH} levels deep`).default([])
      : z.array(viewAtLevel(level + 1)).max(MAX_PAGE_VIEWS, `at most ${MAX_PAGE_VIEWS} views on a page`).default([]);
  return z.object({
    id: zText(),
    code: ZCode,
    title: zText().default(''),
    viewType: optionalInt,
    parentViewControlId: optionalText,
    associateForeignKeyCode: optionalText,
    dataControls: z.array(ZDataControl).max(MAX_PAGE_CONTROLS, `at most ${MAX_PAGE_CONTROLS} controls on a page`).default([]),
    viewButtons: z.array(ZButton).max(500).default([]),
    viewControls: children,
  }) as unknown as z.ZodType<TView>;
}
export const ZView: z.ZodType<TView> = viewAtLevel(1);

export const ZTriggerCondition = z.object({
  dataControlId: optionalText,
  dataControlCode: optionalText,
  triggerFormula: zText().nullish(),
});
export const ZAssignment = z.object({
  dataControlId: optionalText,
  dataControlCode: optionalText,
  assignmentFormula: zText().nullish(),
});
export const ZPageEvent = zLooseObject({
  triggerOperationType: z.union([zText(), z.number()]).nullish(),
  assignmentType: z.union([zText(), z.number()]).nullish(),
  bingDataControlId: optionalText,
});
export const ZPageStateControl = z.object({
  controlObjectId: zText(),
  controlObjectTitle: optionalText,
  controlObjectType: z.union([zText(), z.number()]).nullish(),
  isHide: looseBool.default(false),
  isReadOnly: looseBool.default(false),
});
export const ZDataLinkage = z.object({
  id: optionalText,
  /** 1 assignment, 2 page state (spec §3). */
  dataLinkType: z.union([z.literal(1), z.literal(2)]).or(z.preprocess((v) => Number(v), z.union([z.literal(1), z.literal(2)]))),
  triggerConditions: z.array(ZTriggerCondition).default([]),
  assignments: z.array(ZAssignment).default([]),
  pageEvents: z.array(ZPageEvent).default([]),
  pageStateControls: z.array(ZPageStateControl).default([]),
});
export type TTriggerCondition = z.infer<typeof ZTriggerCondition>;
export type TAssignment = z.infer<typeof ZAssignment>;
export type TPageEvent = z.infer<typeof ZPageEvent>;
export type TPageStateControl = z.infer<typeof ZPageStateControl>;
export type TDataLinkage = z.infer<typeof ZDataLinkage>;

export const ZPageDefinition = z
  .object({
    viewControls: z.array(ZView).max(MAX_PAGE_VIEWS, `at most ${MAX_PAGE_VIEWS} views on a page`).default([]),
    pageButtons: z.array(ZButton).max(500).default([]),
    dataLinkages: z.array(ZDataLinkage).max(2000).default([]),
  })
  .superRefine((definition, ctx) => {
    const views = flattenViews(definition);
    if (views.length > MAX_PAGE_VIEWS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_PAGE_VIEWS} views on a page`, path: ['viewControls'] });
    const controls = views.reduce((n, { view }) => n + view.dataControls.length, 0);
    if (controls > MAX_PAGE_CONTROLS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_PAGE_CONTROLS} controls on a page`, path: ['viewControls'] });
  });
export type TPageDefinition = z.infer<typeof ZPageDefinition>;

/** A business record / row (spec §3): system fields plus one property per control code. */
export type TBusinessRecord = {
  Id: string;
  ParentViewDataId?: string | null;
  /** 2 marks a row created by a data linkage (spec §4). */
  DataStatus?: number;
  isLink?: boolean;
  isActivelyAddSubData?: boolean;
  [code: string]: unknown;
};

/** Runtime page data (spec §3): per view its rows. */
export type TPageData = { viewDataList: { viewId: string; dataList: TBusinessRecord[] }[] };

/** Every view of a page, depth first, with its parent view (null for top-level views). */
export function flattenViews(definition: Pick<TPageDefinition, 'viewControls'>): { view: TView; parent: TView | null }[] {
  const out: { view: TView; parent: TView | null }[] = [];
  const walk = (views: TView[], parent: TView | null) => {
    for (const view of views) {
      out.push({ view, parent });
      walk(view.viewControls ?? [], view);
    }
  };
  walk(definition.viewControls, null);
  return out;
}

/**
 * The view tree with `fn` applied to every view, children first (`fn` sees a view whose children
 * are already mapped). Views `fn` returns unchanged, and lists with no changed view, keep their
 * identity, so an edit of one view leaves the rest of the document shared.
 */
export function mapViews(views: TView[], fn: (view: TView) => TView): TView[] {
  let changed = false;
  const out = views.map((view) => {
    const children = view.viewControls ?? [];
    const mapped = mapViews(children, fn);
    const next = fn(mapped === children ? view : { ...view, viewControls: mapped });
    if (next !== view) changed = true;
    return next;
  });
  return changed ? out : views;
}

/** A child view holds rows belonging to a parent record (spec §3 parentViewControlId). */
export function isChildView(view: TView): boolean {
  return Boolean(view.parentViewControlId);
}

/** A calculated control's own formula (valueTakingType 2 with `extraProperties.formula`), or null. */
export function controlFormulaOf(control: TDataControl): string | null {
  if (Number(control.valueTakingType) !== 2) return null;
  const formula = control.extraProperties?.formula;
  return typeof formula === 'string' && formula.trim() ? formula : null;
}

/**
 * The page's data linkages, and one more per calculated control with its own formula (issue 12):
 * an assignment of that formula to the control, firing on every change of what it reads. Everything
 * that runs or checks linkages (browser, server save, design checks) reads them through here.
 */
export function linkagesOf(definition: TPageDefinition): TDataLinkage[] {
  const own: TDataLinkage[] = [];
  for (const { view } of flattenViews(definition)) {
    for (const control of view.dataControls) {
      const formula = controlFormulaOf(control);
      if (formula) own.push({ id: `formula:${control.id}`, dataLinkType: 1, triggerConditions: [], assignments: [{ dataControlId: control.id, dataControlCode: control.code, assignmentFormula: formula }], pageEvents: [], pageStateControls: [] });
    }
  }
  return own.length ? [...definition.dataLinkages, ...own] : definition.dataLinkages;
}

export type SummaryKind = 'sum' | 'avg' | 'count';

/** The total a number control shows under its column, or null (integer and decimal controls only). */
export function summaryOf(control: TDataControl): SummaryKind | null {
  const type = Number(control.controlType);
  if (type !== 1002 && type !== 1003) return null;
  const kind = control.extraProperties?.summary;
  return kind === 'sum' || kind === 'avg' || kind === 'count' ? kind : null;
}

/** The summary of values (blank ones left out), as a list's SQL computes it: sum and avg over numbers, count of non-blank values. */
export function summarize(kind: SummaryKind, values: readonly unknown[]): number | null {
  const numbers = values.map((v) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN)).filter(Number.isFinite);
  if (kind === 'count') return numbers.length;
  if (numbers.length === 0) return null;
  const sum = numbers.reduce((a, b) => a + b, 0);
  return kind === 'sum' ? sum : sum / numbers.length;
}

/**
 * The codes of the design's buttons per everyday action (a button whose `buttonType` is `add`,
 * `edit`, … and which has a code). An action with no coded button is governed by the page's
 * default action code (`bizPermission.action`).
 */
export function actionButtonCodes(definition: Pick<TPageDefinition, 'viewControls' | 'pageButtons'>): Map<BizAction, string[]> {
  const out = new Map<BizAction, string[]>();
  const buttons = [...(definition.pageButtons ?? []), ...flattenViews(definition).flatMap(({ view }) => view.viewButtons ?? [])];
  for (const button of buttons) {
    const action = String(button.buttonType ?? '') as BizAction;
    if (!button.code || !BIZ_ACTIONS.includes(action)) continue;
    out.set(action, [...(out.get(action) ?? []), button.code]);
  }
  return out;
}

/** The everyday actions of a design that no coded button carries out (they get default codes). */
export const uncodedActions = (definition: Pick<TPageDefinition, 'viewControls' | 'pageButtons'>): BizAction[] => {
  const coded = actionButtonCodes(definition);
  return BIZ_ACTIONS.filter((a) => !coded.has(a));
};
