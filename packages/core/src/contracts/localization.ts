import { z } from 'zod';
import { zJson, zText } from './text.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';

/**
 * A culture name (BCP 47 in canonical case): language, optional script, optional region —
 * `zh-CN`, `zh-Hant`, `en-US`, `km`, `sr-Latn-RS`.
 */
export const CULTURE_PATTERN = /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$/;
export const ZCulture = zText().trim().max(35).regex(CULTURE_PATTERN, 'a culture such as zh-CN, zh-Hant or en-US');

/** An i18next namespace (`common`, `identity`, `businessMenus`). */
export const NAMESPACE_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** A text key, dot-separated for nesting (`login.subtitle`, `count_other`). */
export const TEXT_KEY_PATTERN = /^[A-Za-z0-9_$-]{1,100}(\.[A-Za-z0-9_$-]{1,100}){0,9}$/;
export const TEXT_VALUE_MAX = 4000;
/** Names that would reach an object's prototype when texts are nested. */
const RESERVED_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);
export const isSafeTextPath = (path: string) => !path.split('.').some((part) => RESERVED_SEGMENTS.has(part));

// ---------------------------------------------------------------- language packs

/** spec §3 language pack: culture, title; plus whether it is offered, its flag and its place in lists. */
export const ZLanguagePack = z.object({
  id: zText(),
  culture: zText(),
  title: zText(),
  isEnabled: z.boolean(),
  /** ISO 3166 region code shown as a flag (`CN`), or null. */
  flag: zText().nullable(),
  order: z.number().int(),
  /** The language offered when the browser has none stored (spec §4 locale). */
  isDefault: z.boolean(),
  /** zh-CN and en-US carry the web app's own texts and cannot be deleted. */
  isBuiltIn: z.boolean(),
  textCount: z.number().int(),
  concurrencyStamp: zText(),
  creationTime: zText(),
  lastModificationTime: zText().nullable(),
});
export type TLanguagePack = z.infer<typeof ZLanguagePack>;
export const ZLanguagePackList = pagedResult(ZLanguagePack);
export type TLanguagePackList = z.infer<typeof ZLanguagePackList>;

/** What anyone (also before sign-in) may read: the enabled packs for the language selector. */
export const ZPublicLanguagePack = z.object({
  culture: zText(),
  title: zText(),
  flag: zText().nullable(),
  isDefault: z.boolean(),
});
export type TPublicLanguagePack = z.infer<typeof ZPublicLanguagePack>;
export const ZPublicLanguagePackList = pagedResult(ZPublicLanguagePack);
export type TPublicLanguagePackList = z.infer<typeof ZPublicLanguagePackList>;

/** `POST /api/system/i18n/list`: enabled packs and the current default culture. */
export const ZI18nList = z.object({ items: z.array(ZPublicLanguagePack), defaultCulture: zText() });
export type TI18nList = z.infer<typeof ZI18nList>;

export const ZLanguagePackInput = z.object({
  culture: ZCulture,
  title: text(100).min(1),
  /** Omitted: true on create, unchanged on update. */
  isEnabled: z.boolean().optional(),
  flag: zText().trim().regex(/^[A-Z]{2}$/, 'a two-letter region code such as CN').nullish(),
  order: z.number().int().min(0).max(100_000).optional(),
  /** Setting it makes every other pack non-default; omitted: false on create, unchanged on update. */
  isDefault: z.boolean().optional(),
  /** Optional on update: when sent it must match (someone else changed the pack otherwise). */
  concurrencyStamp: zText().max(64).optional(),
});
export type TLanguagePackInput = z.infer<typeof ZLanguagePackInput>;

// ---------------------------------------------------------------- texts

export const ZLocalizationText = z.object({
  id: zText(),
  culture: zText(),
  resourceName: zText(),
  key: zText(),
  value: zText(),
  creationTime: zText(),
  lastModificationTime: zText().nullable(),
  lastModifierName: zText().nullable(),
});
export type TLocalizationText = z.infer<typeof ZLocalizationText>;

export const ZLocalizationTextInput = z.object({
  culture: ZCulture,
  /** The i18next namespace the key belongs to. */
  resourceName: zText().trim().regex(NAMESPACE_PATTERN, 'a namespace such as common').refine(isSafeTextPath, 'a reserved name'),
  key: zText().trim().regex(TEXT_KEY_PATTERN, 'a key such as login.subtitle').refine(isSafeTextPath, 'a reserved name'),
  value: zText().min(1).max(TEXT_VALUE_MAX),
});
export type TLocalizationTextInput = z.infer<typeof ZLocalizationTextInput>;

const ZBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/**
 * Paged admin texts. With `ReferenceCulture`, each row of `Culture` is paired with the reference
 * text of the same namespace and key, and reference texts without a translation appear as missing
 * rows (`id` null); `OnlyMissing` keeps only those.
 */
export const ZPagedTextsQuery = ZPagedQuery.extend({
  Culture: ZCulture.optional(),
  ResourceName: zText().trim().max(64).optional(),
  Key: zText().trim().max(200).optional(),
  Value: zText().trim().max(200).optional(),
  ReferenceCulture: ZCulture.optional(),
  OnlyMissing: ZBool.optional(),
}).refine((q) => !q.ReferenceCulture || q.Culture, { message: 'ReferenceCulture needs Culture', path: ['Culture'] })
  .refine((q) => !q.OnlyMissing || q.ReferenceCulture, { message: 'OnlyMissing needs ReferenceCulture', path: ['ReferenceCulture'] })
  .refine((q) => !q.ReferenceCulture || q.ReferenceCulture !== q.Culture, { message: 'the reference culture must differ', path: ['ReferenceCulture'] });
export type TPagedTextsQuery = z.infer<typeof ZPagedTextsQuery>;

export const ZPagedTextItem = z.object({
  /** Null for a reference text that has no translation yet. */
  id: zText().nullable(),
  culture: zText(),
  resourceName: zText(),
  key: zText(),
  value: zText().nullable(),
  referenceValue: zText().nullable(),
  isMissing: z.boolean(),
  lastModificationTime: zText().nullable(),
  lastModifierName: zText().nullable(),
});
export type TPagedTextItem = z.infer<typeof ZPagedTextItem>;
export const ZPagedTextList = pagedResult(ZPagedTextItem);
export type TPagedTextList = z.infer<typeof ZPagedTextList>;

// ---------------------------------------------------------------- dictionary, version, import/export

export const ZDictionaryQuery = z.object({ culture: ZCulture });

/** Nested texts by namespace: `{ common: { login: { subtitle: "…" } } }` (i18next resources of one culture). */
export type TNestedTexts = { [key: string]: string | TNestedTexts };
export type TLanguageDictionary = Record<string, TNestedTexts>;
const ZNested: z.ZodType<TNestedTexts> = z.lazy(() => z.record(zText(), z.union([zText(), ZNested])));
export const ZLanguageDictionary = z.record(zText(), ZNested);

/** Bumped on every change to packs or texts; browsers poll it to refresh their dictionaries. */
export const ZLocalizationVersion = z.object({ version: z.number().int() });
export type TLocalizationVersion = z.infer<typeof ZLocalizationVersion>;

export const ZExportQuery = z.object({
  culture: ZCulture,
  format: z.enum(['json', 'xlsx']).default('json'),
});
export type TExportQuery = z.infer<typeof ZExportQuery>;

/** A pack file: the JSON export, and what a JSON import takes. */
export const ZLanguagePackFile = z.object({
  culture: ZCulture.optional(),
  title: zText().max(100).optional(),
  texts: ZLanguageDictionary,
});
export type TLanguagePackFile = z.infer<typeof ZLanguagePackFile>;

/** A JSON pack file into the pack of `culture` (an Excel file goes to `import-xlsx` as the raw body). */
export const ZImportPackInput = z.object({ culture: ZCulture, format: z.literal('json'), content: zJson() });
export type TImportPackInput = z.infer<typeof ZImportPackInput>;
/** The Excel import's query string: the pack the workbook (the raw request body) goes into. */
export const ZImportPackXlsxQuery = z.object({ culture: ZCulture });
export type TImportPackXlsxQuery = z.infer<typeof ZImportPackXlsxQuery>;
/** Texts of one import: entries of a JSON file, rows below the header of a workbook. */
export const IMPORT_MAX_TEXTS = 20_000;

export const ZImportPackResult = z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() });
export type TImportPackResult = z.infer<typeof ZImportPackResult>;
