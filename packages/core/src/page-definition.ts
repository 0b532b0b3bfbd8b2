import { z } from 'zod';

// The page definition document (spec §3): views holding data controls, buttons, data linkages,
// join and filter conditions. Validated with zod wherever it crosses a trust boundary (designer
// save, publish, runtime load). Legacy designers send loosely typed JSON: numbers as strings,
// nulls for absent values, so scalar fields are lenient and optional.

/** A number that may arrive as a numeric string (`"1"`) from legacy designers. */
const looseInt = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
  z.number().int(),
);
const optionalText = z.string().nullish();
const optionalInt = looseInt.nullish();
const looseBool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** Table field types (spec §3): 1 text, 2 integer, 3 decimal, 4 date, 5 boolean, 6 id/lookup. */
export const TABLE_FIELD_TYPES = [1, 2, 3, 4, 5, 6] as const;
export type TableFieldType = (typeof TABLE_FIELD_TYPES)[number];
export const ZTableFieldType = z.union(TABLE_FIELD_TYPES.map((n) => z.literal(n)));

/** One row of a join-condition list (data-source joins of lookup controls). */
export const ZJoinCondition = z.looseObject({
  id: optionalText,
  key: z.string(),
  judgmentMethod: z.union([z.string(), z.number()]).nullish(),
  joinConditionMethod: z.union([z.string(), z.number()]).nullish(),
  value: z.unknown().optional(),
  leftBracket: z.union([z.string(), z.number()]).nullish(),
  rightBracket: z.union([z.string(), z.number()]).nullish(),
  linkCondition: z.union([z.string(), z.number()]).nullish(),
  tableFieldType: optionalInt,
  viewId: optionalText,
});
export type TJoinCondition = z.infer<typeof ZJoinCondition>;

/** One row of a filter-condition list (spec §3). Parsed into a tree by `filters/index.ts`. */
export const ZFilterCondition = z.looseObject({
  filterId: optionalText,
  joinConditionMethod: z.union([z.string(), z.number()]).nullish(),
  key: z.string(),
  judgmentMethod: z.union([z.string(), z.number()]).nullish(),
  value: z.unknown().optional(),
  leftBracket: z.union([z.string(), z.number()]).nullish(),
  rightBracket: z.union([z.string(), z.number()]).nullish(),
  linkCondition: z.union([z.string(), z.number()]).nullish(),
  sortNo: optionalInt,
  tableFieldType: optionalInt,
  isSys: looseBool.nullish(),
});
export type TFilterCondition = z.infer<typeof ZFilterCondition>;

export const ZMapField = z.object({ sourceCode: z.string(), targetCode: z.string() });

/** Control-specific settings (spec §3 extraProperties); unknown keys are kept. */
export const ZExtraProperties = z.looseObject({
  mapFields: z.array(ZMapField).nullish(),
  joinConditions: z.array(ZJoinCondition).nullish(),
  dataSourceTitle: optionalText,
  parentCode: optionalText,
  /** 1 year-month, 2 year-month-day, 3 full date-time. */
  dateType: optionalInt,
  dataSourceId: optionalText,
  dataSourceMethod: z.union([z.string(), z.number()]).nullish(),
  /** Decimal places shown and stored for decimal controls. */
  accuracy: optionalInt,
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
  id: z.string(),
  code: ZCode,
  title: z.string().default(''),
  controlType: looseInt,
  parentDataControlId: optionalText,
  isDisplayed: looseBool.default(true),
  isEdit: looseBool.default(true),
  options: z.unknown().optional(),
  defaultValue: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  /** 1: fetch the document number when the record is created. */
  docNoOccasion: optionalInt,
  valueTakingType: optionalInt,
  dataFieldId: optionalText,
  extraProperties: ZExtraProperties.nullish(),
});
export type TDataControl = z.infer<typeof ZDataControl>;

export const ZButton = z.looseObject({
  id: z.string(),
  code: optionalText,
  title: z.string().default(''),
  buttonType: z.union([z.string(), z.number()]).nullish(),
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
export const ZView: z.ZodType<TView> = z.object({
  id: z.string(),
  code: ZCode,
  title: z.string().default(''),
  viewType: optionalInt,
  parentViewControlId: optionalText,
  associateForeignKeyCode: optionalText,
  dataControls: z.array(ZDataControl).default([]),
  viewButtons: z.array(ZButton).default([]),
  get viewControls() {
    return z.array(ZView).default([]);
  },
}) as z.ZodType<TView>;

export const ZTriggerCondition = z.object({
  dataControlId: optionalText,
  dataControlCode: optionalText,
  triggerFormula: z.string().nullish(),
});
export const ZAssignment = z.object({
  dataControlId: optionalText,
  dataControlCode: optionalText,
  assignmentFormula: z.string().nullish(),
});
export const ZPageEvent = z.looseObject({
  triggerOperationType: z.union([z.string(), z.number()]).nullish(),
  assignmentType: z.union([z.string(), z.number()]).nullish(),
  bingDataControlId: optionalText,
});
export const ZPageStateControl = z.object({
  controlObjectId: z.string(),
  controlObjectTitle: optionalText,
  controlObjectType: z.union([z.string(), z.number()]).nullish(),
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

export const ZPageDefinition = z.object({
  viewControls: z.array(ZView).default([]),
  pageButtons: z.array(ZButton).default([]),
  dataLinkages: z.array(ZDataLinkage).default([]),
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
