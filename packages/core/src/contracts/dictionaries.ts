import { z } from 'zod';
import { zText } from './text.ts';
import { ZLocalizedText } from './authorization.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';

// Business dictionaries (`/dataSet/dictionary`) and the read-only system dictionaries: the option
// lists that drop-down controls (1008/1009 multi-value lists, single selects) take their options from.

const queryBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** A dictionary's code: how pages refer to it. */
export const DICTIONARY_CODE_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/**
 * An item's code is the value records store, so it never changes once created (labels may).
 * Letters (any script), digits and `_ . - : /`; no spaces or commas (multi-value lists join codes).
 */
export const ITEM_CODE_PATTERN = /^[\p{L}\p{N}_.\-:/]{1,64}$/u;
/** An antd preset colour name or `#rrggbb`. */
export const ITEM_COLOR_PATTERN =
  /^(?:#[0-9a-fA-F]{6}|magenta|red|volcano|orange|gold|lime|green|cyan|blue|geekblue|purple|default|success|processing|error|warning)$/;
export const ITEM_COLORS = ['blue', 'green', 'red', 'orange', 'gold', 'cyan', 'purple', 'magenta', 'volcano', 'lime', 'geekblue', 'default'] as const;
export const MAX_DICTIONARY_ITEMS = 5000;

export const ZDictionaryItem = z.object({
  id: zText(),
  code: zText(),
  label: z.record(zText(), zText()),
  /** The parent item's code (tree dictionaries); null at the top. */
  parentCode: zText().nullable(),
  order: z.number().int(),
  /** A disabled item is hidden from pickers, but records that hold it still show its label. */
  isEnabled: z.boolean(),
  color: zText().nullable(),
});
export type TDictionaryItem = z.infer<typeof ZDictionaryItem>;

export const ZDictionarySummary = z.object({
  id: zText(),
  code: zText(),
  title: z.record(zText(), zText()),
  description: zText(),
  isTree: z.boolean(),
  itemCount: z.number().int(),
  enabledItemCount: z.number().int(),
  concurrencyStamp: zText(),
  creationTime: zText(),
  lastModificationTime: zText().nullable(),
});
export type TDictionarySummary = z.infer<typeof ZDictionarySummary>;

export const ZDictionary = ZDictionarySummary.extend({ items: z.array(ZDictionaryItem) });
export type TDictionary = z.infer<typeof ZDictionary>;

export const ZDictionaryQuery = ZPagedQuery.extend({
  /** Only flat (false) or tree (true) dictionaries. */
  IsTree: queryBoolean.optional(),
});
export type TDictionaryQuery = z.infer<typeof ZDictionaryQuery>;
export const ZDictionaryList = pagedResult(ZDictionarySummary);
export type TDictionaryList = z.infer<typeof ZDictionaryList>;

export const ZDictionaryItemInput = z.object({
  /** An existing item's id (its code must not change); omitted for a new item. */
  id: z.uuid().optional(),
  code: zText().trim().regex(ITEM_CODE_PATTERN, 'letters, digits and _ . - : / (at most 64)'),
  label: ZLocalizedText,
  parentCode: zText().trim().max(64).nullish(),
  isEnabled: z.boolean().optional(),
  color: zText().trim().regex(ITEM_COLOR_PATTERN, 'a colour name (blue, green…) or #rrggbb').nullish(),
});
export type TDictionaryItemInput = z.input<typeof ZDictionaryItemInput>;

/** Create and update (PUT): the whole dictionary with its items in display order. */
export const ZDictionaryInput = z.object({
  code: zText().trim().regex(DICTIONARY_CODE_PATTERN, 'a letter, then letters, digits, _ . - (at most 64)'),
  title: ZLocalizedText,
  description: text(500).optional(),
  isTree: z.boolean().optional(),
  items: z.array(ZDictionaryItemInput).max(MAX_DICTIONARY_ITEMS).default([]),
  /** Optional on update: when sent it must match (someone else changed the dictionary otherwise). */
  concurrencyStamp: zText().max(64).optional(),
});
export type TDictionaryInput = z.input<typeof ZDictionaryInput>;

// ---------------------------------------------------------------- options for pickers

export const ZDictionaryOptionsQuery = z.object({
  dictionaryCode: zText().trim().min(1).max(64),
  /** Include disabled items (to show the label of a value a record already holds). */
  includeDisabled: queryBoolean.optional(),
});
export type TDictionaryOptionsQuery = z.infer<typeof ZDictionaryOptionsQuery>;

export const ZDictionaryOption = z.object({
  value: zText(),
  /** In the caller's language. */
  label: zText(),
  parentValue: zText().nullable(),
  color: zText().nullable(),
  isEnabled: z.boolean(),
});
export type TDictionaryOption = z.infer<typeof ZDictionaryOption>;
export const ZDictionaryOptionList = z.object({ items: z.array(ZDictionaryOption) });

// ---------------------------------------------------------------- Excel

/**
 * Rows below the header an items import may hold (the workbook is the raw request body): no more
 * than a dictionary can hold, so the read stops at the first row that could never be saved.
 */
export const IMPORT_MAX_DICTIONARY_ITEMS = MAX_DICTIONARY_ITEMS;
export const ZImportDictionaryItemsResult = z.object({
  createdCount: z.number().int(),
  updatedCount: z.number().int(),
  dictionary: ZDictionary,
});
export type TImportDictionaryItemsResult = z.infer<typeof ZImportDictionaryItemsResult>;

// ---------------------------------------------------------------- system dictionaries (read-only)

export const ZSysDictionary = z.object({
  /** The code doubles as the id (system dictionaries are built in, not rows). */
  id: zText(),
  code: zText(),
  title: z.record(zText(), zText()),
  items: z.array(ZDictionaryItem),
});
export type TSysDictionary = z.infer<typeof ZSysDictionary>;
export const ZSysDictionaryList = pagedResult(ZSysDictionary);
export const ZSysDictionaryQuery = ZPagedQuery.omit({ Sorting: true });
export const ZSysDictionaryIdParam = z.object({ id: zText().trim().min(1).max(64) });
