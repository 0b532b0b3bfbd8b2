import { z } from 'zod';
import { zText } from './text.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';
import { ZPublishedPageDesign } from './pages.ts';

// Print templates (issue 15): a layout on paper bound to a published page, rendered to PDF by the
// server (server/src/modules/print-templates). Routes, all under /api/app/print-template:
//   GET    /                          ZPrintTemplateQuery          → ZPrintTemplateList
//   GET    /{id}                                                   → ZPrintTemplateDetail
//   POST   /                          ZCreatePrintTemplateInput    → ZPrintTemplateDetail
//   PUT    /{id}                      ZUpdatePrintTemplateInput    → ZPrintTemplateDetail (409 on a stale stamp)
//   POST   /{id}/copy                 ZCopyPrintTemplateInput      → ZPrintTemplateDetail
//   DELETE /{id}                                                   → 204
//   POST   /{id}/publish              ZPublishPrintTemplateInput   → ZPrintTemplateDetail (the draft becomes version N+1)
//   POST   /{id}/enable, /{id}/disable                             → ZPrintTemplateDetail
//   GET    /{id}/versions                                          → ZPrintTemplateVersionList
//   POST   /{id}/versions/{version}/restore                        → ZPrintTemplateDetail (the version becomes the draft)
//   GET    /{id}/export                                            → ZPrintTemplateExportDocument (a JSON file)
//   POST   /import                    ZImportPrintTemplateInput    → ZPrintTemplateDetail
//   GET    /page-design/{id}                                       → ZPrintPageDesign (the bound page's fields)
//   POST   /preview                   ZPreviewPrintInput           → application/pdf (a layout not yet saved, sample or real record)
//   POST   /{id}/render               ZRenderPrintInput            → application/pdf (records → one PDF; the published version)
//   GET    /for-page                  ZPrintablesQuery             → ZPrintableList (what the caller may print on a page)
//   GET    /print-count               ZPrintCountQuery             → ZPrintCount (a record's prints)
//   GET    /bindable-pages            ZBindablePageQuery (pages.ts) → ZBindablePageList (published pages)
// Permissions: P.PrintTemplates designs (every route but render and for-page); render and for-page
// need the page's read right, and the template's own permission code when it has one.

export const PRINT_LIMITS = {
  name: 100,
  description: 500,
  elements: 200,
  columns: 30,
  staticText: 2_000,
  formula: 2_000,
  /** A data URL of an image element (PNG or JPEG), in characters. */
  imageChars: 1_400_000,
  /** Records one render may merge into one PDF. */
  recordsPerRender: 500,
  /** Millimetres: the largest paper side and element coordinate. */
  paperSide: 2_000,
} as const;

export const PRINT_TEMPLATE_EXPORT_FORMAT = 'tessera.print-template';

// ---------------------------------------------------------------- paper

/** Paper presets (width × height in mm, portrait). `continuous241x93`: 针式打印 三等分; `continuous241x140`: 二等分. */
export const PAPER_PRESETS = {
  A4: { width: 210, height: 297 },
  A5: { width: 148, height: 210 },
  A3: { width: 297, height: 420 },
  B5: { width: 176, height: 250 },
  continuous241x280: { width: 241, height: 280 },
  continuous241x140: { width: 241, height: 140 },
  continuous241x93: { width: 241, height: 93 },
  label100x50: { width: 100, height: 50 },
  label60x40: { width: 60, height: 40 },
  label40x30: { width: 40, height: 30 },
} as const;
export type TPaperPreset = keyof typeof PAPER_PRESETS | 'custom';
export const PAPER_PRESET_NAMES = [...(Object.keys(PAPER_PRESETS) as (keyof typeof PAPER_PRESETS)[]), 'custom'] as const;

const mm = (max: number = PRINT_LIMITS.paperSide) => z.number().finite().min(0).max(max);

export const ZPaper = z.object({
  preset: z.enum(PAPER_PRESET_NAMES),
  /** Portrait width and height in mm (a preset's own; custom: any from 10). */
  width: mm().min(10),
  height: mm().min(10),
  orientation: z.enum(['portrait', 'landscape']),
  /** Top, right, bottom, left in mm: where rows flowing onto the next page start and stop. */
  margins: z.tuple([mm(200), mm(200), mm(200), mm(200)]),
});
export type TPaper = z.infer<typeof ZPaper>;

/** The page's size as printed (landscape swaps the sides). */
export function paperSize(paper: Pick<TPaper, 'width' | 'height' | 'orientation'>) {
  return paper.orientation === 'landscape' ? { width: paper.height, height: paper.width } : { width: paper.width, height: paper.height };
}

// ---------------------------------------------------------------- values: where an element's text comes from, and how it is written

/** A control code: of the bound page's main view (fields), or of a table's child view (its columns); a view code for a table. */
export const PRINT_FIELD_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const ZPrintField = zText().regex(PRINT_FIELD_PATTERN, 'a control code');

export const PAGE_NUMBER_PATTERNS = ['zh', 'slash', 'en', 'current'] as const;
export const DATE_PATTERNS = ['YYYY-MM-DD', 'YYYY-MM-DD HH:mm', 'YYYY-MM-DD HH:mm:ss', 'YYYY/MM/DD', 'YYYY年M月D日', 'YYYY年M月D日 HH:mm', 'MM-DD', 'HH:mm'] as const;

export const ZPrintSource = z.discriminatedUnion('kind', [
  /** Fixed text. */
  z.object({ kind: z.literal('static'), text: text(PRINT_LIMITS.staticText) }),
  /** A master field of the record (its display text: dictionary labels, names of users, …). */
  z.object({ kind: z.literal('field'), field: ZPrintField }),
  /** A formula over the record's fields (the formula language of linkages). */
  z.object({ kind: z.literal('formula'), formula: zText().max(PRINT_LIMITS.formula) }),
  /** 第 n 页 / 共 m 页 and its variants. */
  z.object({ kind: z.literal('pageNumber'), pattern: z.enum(PAGE_NUMBER_PATTERNS) }),
  z.object({ kind: z.literal('printTime'), pattern: z.enum(DATE_PATTERNS) }),
  z.object({ kind: z.literal('printUser') }),
]);
export type TPrintSource = z.infer<typeof ZPrintSource>;

export const ZPrintFormat = z.discriminatedUnion('kind', [
  /** As the field's display text. */
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('date'), pattern: z.enum(DATE_PATTERNS) }),
  z.object({ kind: z.literal('number'), precision: z.number().int().min(0).max(8).nullable(), thousands: z.boolean() }),
  /** 壹仟贰佰叁拾肆元伍角 (core helper chineseCapitals). */
  z.object({ kind: z.literal('chineseAmount') }),
]);
export type TPrintFormat = z.infer<typeof ZPrintFormat>;

// ---------------------------------------------------------------- elements

export const PRINT_FONTS = ['sans', 'sansBold', 'serif'] as const;
export const ZPrintFont = z.enum(PRINT_FONTS);
export type TPrintFont = z.infer<typeof ZPrintFont>;

const ZColor = zText().regex(/^(#[0-9a-fA-F]{6})?$/, 'a colour #rrggbb or empty');
const ZAlignment = z.enum(['left', 'center', 'right']);
const ZVerticalAlignment = z.enum(['top', 'middle', 'bottom']);

export const ZTextStyle = z.object({
  font: ZPrintFont,
  /** Points. */
  fontSize: z.number().min(4).max(96),
  alignment: ZAlignment,
  verticalAlignment: ZVerticalAlignment,
  lineHeight: z.number().min(0.5).max(5),
  characterSpacing: z.number().min(0).max(20),
  color: ZColor,
  backgroundColor: ZColor,
  underline: z.boolean(),
});
export type TTextStyle = z.infer<typeof ZTextStyle>;

export const ZElementId = zText().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ (at most 64)');

const base = {
  id: ZElementId,
  /** Millimetres from the page's top left corner. */
  x: mm(),
  y: mm(),
  width: mm().min(0.1),
  height: mm().min(0.1),
  rotate: z.number().min(0).max(360),
  /** Drawn on every page at the same place (headers, footers, page numbers); else once, pushed down by a table above it. */
  everyPage: z.boolean(),
};

export const ZPrintTableColumn = z.object({
  /** A control of the table's child view. */
  field: ZPrintField,
  title: text(100),
  /** Share of the table's width, in percent. */
  width: z.number().min(1).max(100),
  alignment: ZAlignment,
  format: ZPrintFormat,
  /** Summed in the total row and the page subtotals (numbers). */
  total: z.boolean(),
});
export type TPrintTableColumn = z.infer<typeof ZPrintTableColumn>;

export const ZPrintElement = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('text'), source: ZPrintSource, format: ZPrintFormat, style: ZTextStyle }),
  z.object({
    ...base,
    type: z.literal('table'),
    /** The child view (its code) whose rows the table lists; rows flow across pages. */
    view: ZPrintField,
    columns: z.array(ZPrintTableColumn).min(1).max(PRINT_LIMITS.columns),
    /** The header row on every page the table reaches. */
    repeatHead: z.boolean(),
    /** A last row with the sums of the columns marked `total` (null: none). */
    totalLabel: text(50).nullable(),
    /**
     * A row at the foot of every page the table fills, with the sums of that page's rows in the
     * columns marked `total` (本页小计); null or absent: none. Only when the table runs over a page.
     */
    subtotalLabel: text(50).nullable().optional(),
    style: z.object({
      font: ZPrintFont,
      fontSize: z.number().min(4).max(48),
      headBackground: ZColor,
      headColor: ZColor,
      borderColor: ZColor,
      borderWidth: z.number().min(0).max(5),
      /** Cell padding in mm. */
      padding: z.number().min(0).max(10),
    }),
  }),
  z.object({ ...base, type: z.literal('line'), color: ZColor }),
  z.object({ ...base, type: z.literal('rectangle'), borderColor: ZColor, borderWidth: z.number().min(0).max(20), color: ZColor }),
  z.object({
    ...base,
    type: z.literal('image'),
    /** data:image/png;base64,… or data:image/jpeg;base64,… */
    content: zText().max(PRINT_LIMITS.imageChars).regex(/^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/, 'a PNG or JPEG data URL'),
  }),
  z.object({ ...base, type: z.literal('qrCode'), source: ZPrintSource }),
  z.object({ ...base, type: z.literal('barcode'), symbology: z.enum(['code128', 'ean13']), source: ZPrintSource }),
]);
export type TPrintElement = z.infer<typeof ZPrintElement>;
export type TPrintElementType = TPrintElement['type'];

export const ZPrintLayout = z
  .object({
    paper: ZPaper,
    elements: z.array(ZPrintElement).max(PRINT_LIMITS.elements),
  })
  .superRefine((layout, ctx) => {
    const seen = new Set<string>();
    layout.elements.forEach((element, i) => {
      if (seen.has(element.id)) ctx.addIssue({ code: 'custom', message: 'element ids are unique', path: ['elements', i, 'id'] });
      seen.add(element.id);
    });
  });
export type TPrintLayout = z.infer<typeof ZPrintLayout>;

// ---------------------------------------------------------------- templates

/** `draft`: never published; `published`: at least one version (see `hasDraftChanges`). */
export const PRINT_TEMPLATE_STATUSES = ['draft', 'published'] as const;
export const ZPrintTemplateStatus = z.enum(PRINT_TEMPLATE_STATUSES);

export const ZPrintTemplateListItem = z.object({
  id: zText(),
  name: zText(),
  description: zText().nullable(),
  pageId: zText(),
  pageCode: zText().nullable(),
  pageName: z.record(zText(), zText()),
  /** The draft's paper (preset and orientation, for the list). */
  paper: ZPaper,
  /** Printing needs this permission code besides the page's read right (null: the page's right alone). */
  permissionCode: zText().nullable(),
  /** Only records whose approval finished (FlowStatus approved) may be printed. */
  approvedOnly: z.boolean(),
  enabled: z.boolean(),
  status: ZPrintTemplateStatus,
  publishedVersion: z.number().int().nullable(),
  publishedTime: zText().nullable(),
  hasDraftChanges: z.boolean(),
  concurrencyStamp: zText(),
  creationTime: zText(),
  lastModifierName: zText().nullable(),
  lastModificationTime: zText().nullable(),
});
export type TPrintTemplateListItem = z.infer<typeof ZPrintTemplateListItem>;

export const ZPrintTemplateDetail = ZPrintTemplateListItem.extend({ layout: ZPrintLayout });
export type TPrintTemplateDetail = z.infer<typeof ZPrintTemplateDetail>;

const ZBoolQuery = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** `Filter` searches the name; Sorting: `name`, `status`, `enabled`, `publishedVersion`, `creationTime`, `lastModificationTime` (+ ` desc`). */
export const ZPrintTemplateQuery = ZPagedQuery.extend({
  Enabled: ZBoolQuery.optional(),
  Status: ZPrintTemplateStatus.optional(),
  PageId: z.uuid().optional(),
});
export type TPrintTemplateQuery = z.infer<typeof ZPrintTemplateQuery>;
export const ZPrintTemplateList = pagedResult(ZPrintTemplateListItem);
export type TPrintTemplateList = z.infer<typeof ZPrintTemplateList>;

const ZTemplateName = text(PRINT_LIMITS.name).min(1);
const ZTemplateDescription = text(PRINT_LIMITS.description).nullish();
const ZPermissionCode = zText().regex(/^[A-Za-z][A-Za-z0-9_.]{0,127}$/, 'a permission code').nullish();

export const ZCreatePrintTemplateInput = z.object({
  name: ZTemplateName,
  description: ZTemplateDescription,
  /** A page with a published version. */
  pageId: z.uuid(),
  /** The starting layout; an empty A4 page when omitted. */
  layout: ZPrintLayout.optional(),
  permissionCode: ZPermissionCode,
  approvedOnly: z.boolean().optional(),
});
export type TCreatePrintTemplateInput = z.input<typeof ZCreatePrintTemplateInput>;

export const ZUpdatePrintTemplateInput = z.object({
  name: ZTemplateName,
  description: ZTemplateDescription,
  pageId: z.uuid(),
  layout: ZPrintLayout,
  permissionCode: ZPermissionCode,
  approvedOnly: z.boolean(),
  concurrencyStamp: zText().min(1).max(64),
});
export type TUpdatePrintTemplateInput = z.input<typeof ZUpdatePrintTemplateInput>;

export const ZCopyPrintTemplateInput = z.object({ name: ZTemplateName.optional() });
export const ZPublishPrintTemplateInput = z.object({ concurrencyStamp: zText().max(64).optional() });

export const ZPrintTemplateVersionListItem = z.object({
  version: z.number().int(),
  publishedTime: zText(),
  publisherName: zText().nullable(),
  elementCount: z.number().int(),
});
export const ZPrintTemplateVersionList = z.object({ items: z.array(ZPrintTemplateVersionListItem) });
export type TPrintTemplateVersionList = z.infer<typeof ZPrintTemplateVersionList>;
export const ZPrintTemplateVersionParams = z.object({ id: z.uuid(), version: z.coerce.number().int().min(1).max(1_000_000) });

/** What `GET /{id}/export` answers (a JSON file); import falls back to the page's code. */
export const ZPrintTemplateExportDocument = z.object({
  format: z.literal(PRINT_TEMPLATE_EXPORT_FORMAT),
  formatVersion: z.literal(1),
  exportedAt: zText().max(64).optional(),
  template: z.object({
    name: ZTemplateName,
    description: ZTemplateDescription,
    permissionCode: ZPermissionCode,
    approvedOnly: z.boolean().optional(),
    page: z.object({ id: zText().max(64).nullish(), code: zText().max(40).nullish() }),
    layout: ZPrintLayout,
  }),
});
export type TPrintTemplateExportDocument = z.input<typeof ZPrintTemplateExportDocument>;

/** Import creates a new draft: the page `pageId`, else the document's page by id, else by code. */
export const ZImportPrintTemplateInput = z.object({
  document: ZPrintTemplateExportDocument,
  name: ZTemplateName.optional(),
  pageId: z.uuid().optional(),
});
export type TImportPrintTemplateInput = z.input<typeof ZImportPrintTemplateInput>;

/** The bound page's latest published design (fields for the picker, views for tables). */
export const ZPrintPageDesign = ZPublishedPageDesign;
export type TPrintPageDesign = z.infer<typeof ZPrintPageDesign>;

// ---------------------------------------------------------------- rendering

/** Preview a layout (saved or not) with a real record (`recordId`) or sample data (none). */
export const ZPreviewPrintInput = z.object({
  pageId: z.uuid(),
  layout: ZPrintLayout,
  recordId: z.uuid().nullish(),
  /** The reader's offset from UTC in minutes (dates and the print time are written in it). */
  offsetMinutes: z.number().int().min(-840).max(840).optional(),
});
export type TPreviewPrintInput = z.input<typeof ZPreviewPrintInput>;

/** Records (of the template's page) merged into one PDF, in the order given. `download`: an attachment named by the first record's document number. */
export const ZRenderPrintInput = z.object({
  recordIds: z.array(z.uuid()).min(1).max(PRINT_LIMITS.recordsPerRender),
  download: z.boolean().optional(),
  offsetMinutes: z.number().int().min(-840).max(840).optional(),
});
export type TRenderPrintInput = z.input<typeof ZRenderPrintInput>;

export const ZPrintablesQuery = z.object({ pageId: z.uuid() });
export const ZPrintable = z.object({ id: zText(), name: zText(), paper: ZPaper, approvedOnly: z.boolean() });
export const ZPrintableList = z.object({ items: z.array(ZPrintable) });
export type TPrintableList = z.infer<typeof ZPrintableList>;

/** How often a record was printed and last by whom (the record's detail shows it). */
export const ZPrintCountQuery = z.object({ pageId: z.uuid(), recordId: z.uuid() });
export const ZPrintCount = z.object({ count: z.number().int(), lastTime: zText().nullable(), lastUserName: zText().nullable(), lastTemplateName: zText().nullable() });
export type TPrintCount = z.infer<typeof ZPrintCount>;

/** A new template's layout: an empty A4 page, portrait, 10 mm margins. */
export function emptyPrintLayout(): TPrintLayout {
  return { paper: { preset: 'A4', ...PAPER_PRESETS.A4, orientation: 'portrait', margins: [10, 10, 10, 10] }, elements: [] };
}
