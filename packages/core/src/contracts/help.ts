import { z } from 'zod';
import { zText } from './text.ts';
import { ZLocalizedText } from './authorization.ts';
import { text } from './common.ts';

/** The key pages use to link their help (`HelpLink docKey="users"`): lower case, digits, `.`, `_`, `-`. */
export const HELP_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;
export const HELP_MARKDOWN_MAX = 200_000;
/** Uploaded images: PNG, JPEG, GIF or WebP (checked by their first bytes), at most 2 MB. */
export const HELP_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const HELP_IMAGE_NAME_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|gif|webp)$/;

/** A title in several languages (`{ "zh-CN": "入门", "en-US": "Getting started" }`) or one plain text. */
export const ZHelpTitle = z.union([text(200).min(1), ZLocalizedText]);
export type THelpTitle = string | Record<string, string>;

export interface THelpDocumentNode {
  id: string;
  parentId: string | null;
  key: string;
  title: THelpTitle;
  order: number;
  updatedAt: string;
  /** With a search: the matching passage of the body (plain text), when the body matched. */
  snippet: string | null;
  /** With a search: whether this document matched (parents of matches are kept for the tree). */
  isMatch: boolean;
  children: THelpDocumentNode[];
}

export const ZHelpDocumentNode = z
  .object({
    id: zText(),
    parentId: zText().nullable(),
    key: zText(),
    title: z.union([zText(), z.record(zText(), zText())]),
    order: z.number().int(),
    updatedAt: zText(),
    snippet: zText().nullable(),
    isMatch: z.boolean(),
    get children(): z.ZodArray<typeof ZHelpDocumentNode> {
      return z.array(ZHelpDocumentNode);
    },
  })
  .meta({ id: 'HelpDocumentNode' });

export const ZHelpDocumentTree = z.object({ items: z.array(ZHelpDocumentNode), totalCount: z.number().int() });
export type THelpDocumentTree = z.infer<typeof ZHelpDocumentTree>;

export const ZHelpTreeQuery = z.object({ filter: zText().trim().max(200).optional() });

/** A culture a body is written in (`en-US`, `vi`); at most this many bodies besides the default. */
export const HELP_CULTURE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/;
export const HELP_TRANSLATIONS_MAX = 20;

export const ZHelpDocument = z.object({
  id: zText(),
  parentId: zText().nullable(),
  key: zText(),
  title: z.union([zText(), z.record(zText(), zText())]),
  order: z.number().int(),
  /** The default body. */
  markdown: zText(),
  /** The body in other languages: culture → Markdown. */
  translations: z.record(zText(), zText()),
  /** The body in the caller's language (its translation, else the default), rendered and sanitised on the server: safe to insert as HTML. */
  html: zText(),
  updatedBy: zText().nullable(),
  updatedByName: zText().nullable(),
  updatedAt: zText(),
  concurrencyStamp: zText(),
});
export type THelpDocument = z.infer<typeof ZHelpDocument>;

export const ZHelpDocumentInput = z.object({
  key: zText().trim().regex(HELP_KEY_PATTERN, 'lower-case letters, digits, dots, dashes, underscores'),
  title: ZHelpTitle,
  parentId: z.uuid().nullish(),
  order: z.number().int().min(0).max(100_000).optional(),
  markdown: zText().max(HELP_MARKDOWN_MAX),
  /** The body in other languages (culture → Markdown); an empty body is no translation. Left out on update: kept. */
  translations: z
    .record(zText().regex(HELP_CULTURE_PATTERN, 'a culture such as en-US'), zText().max(HELP_MARKDOWN_MAX))
    .refine((t) => Object.keys(t).length <= HELP_TRANSLATIONS_MAX, `at most ${HELP_TRANSLATIONS_MAX} languages`)
    .optional(),
  /** Optional on update: when sent it must match (someone else changed the document otherwise). */
  concurrencyStamp: zText().max(64).optional(),
});
export type THelpDocumentInput = z.input<typeof ZHelpDocumentInput>;

export const ZHelpKeyParam = z.object({ key: zText().regex(HELP_KEY_PATTERN) });
export const ZHelpDeleteQuery = z.object({
  cascade: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
});

export const ZHelpPreviewInput = z.object({ markdown: zText().max(HELP_MARKDOWN_MAX) });
export const ZHelpPreview = z.object({ html: zText() });

export const ZHelpImage = z.object({ name: zText(), url: zText(), contentType: zText(), size: z.number().int() });
export type THelpImage = z.infer<typeof ZHelpImage>;
export const ZHelpImageParam = z.object({ name: zText().regex(HELP_IMAGE_NAME_PATTERN) });
