import { z } from 'zod';
import { zText } from './text.ts';
import { checkDocumentNumberFormat, DATE_PATTERN, MAX_SEGMENTS, RESET_PERIODS, type TResetPeriod } from '../document-number-format.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';

// Document-number rules (`/dataSet/documentNumber`): `{ code, name, resetPeriod, segments }`; the
// numbers come from a counter row per rule and period (server/src/modules/document-numbers).

export const RULE_CODE_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
export const FIELD_CODE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export const ZDocumentNumberSegment = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    value: z
      .string()
      .min(1)
      .max(30)
      .regex(/^[^\u0000-\u001f\u007f]+$/, 'no control characters'),
  }),
  z.object({ type: z.literal('date'), pattern: zText().max(30).regex(DATE_PATTERN, 'date tokens yyyy yy MM dd HH mm ss and - / . _ space') }),
  z.object({
    type: z.literal('serial'),
    width: z.number().int().min(1).max(12),
    start: z.number().int().min(0).max(999_999_999).default(1),
    step: z.number().int().min(1).max(1000).default(1),
  }),
  z.object({ type: z.literal('field'), fieldCode: zText().regex(FIELD_CODE_PATTERN, 'a control code') }),
]);
export type TDocumentNumberSegmentInput = z.input<typeof ZDocumentNumberSegment>;

export const ZResetPeriod = z.enum(RESET_PERIODS as [TResetPeriod, ...TResetPeriod[]]);

/** The parts of a rule that make its numbers (what the preview needs). */
export const ZDocumentNumberFormat = z
  .object({
    resetPeriod: ZResetPeriod,
    /** IANA time zone for the date segments and the reset; null = the server's zone. */
    timeZone: zText().trim().max(64).nullish(),
    segments: z.array(ZDocumentNumberSegment).min(1).max(MAX_SEGMENTS),
  })
  .superRefine((v, ctx) => {
    for (const issue of checkDocumentNumberFormat(v)) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  });
export type TDocumentNumberFormatInput = z.input<typeof ZDocumentNumberFormat>;

export const ZDocumentNumberRuleInput = z
  .object({
    code: zText().trim().regex(RULE_CODE_PATTERN, 'a letter, then letters, digits, _ . - (at most 64)'),
    name: text(100).min(1),
    description: text(500).optional(),
    resetPeriod: ZResetPeriod,
    timeZone: zText().trim().max(64).nullish(),
    segments: z.array(ZDocumentNumberSegment).min(1).max(MAX_SEGMENTS),
    concurrencyStamp: zText().max(64).optional(),
  })
  .superRefine((v, ctx) => {
    for (const issue of checkDocumentNumberFormat(v)) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  });
export type TDocumentNumberRuleInput = z.input<typeof ZDocumentNumberRuleInput>;

export const ZDocumentNumberRule = z.object({
  id: zText(),
  code: zText(),
  name: zText(),
  description: zText(),
  resetPeriod: ZResetPeriod,
  timeZone: zText().nullable(),
  segments: z.array(ZDocumentNumberSegment),
  /** How the next number looks (without consuming it). */
  nextNumber: zText(),
  /** Numbers have been issued: the reset period and the serial's start and step are fixed from now on. */
  hasIssuedNumbers: z.boolean(),
  concurrencyStamp: zText(),
  creationTime: zText(),
  lastModificationTime: zText().nullable(),
});
export type TDocumentNumberRule = z.infer<typeof ZDocumentNumberRule>;

export const ZDocumentNumberRuleQuery = ZPagedQuery;
export type TDocumentNumberRuleQuery = z.infer<typeof ZDocumentNumberRuleQuery>;
export const ZDocumentNumberRuleList = pagedResult(ZDocumentNumberRule);
export type TDocumentNumberRuleList = z.infer<typeof ZDocumentNumberRuleList>;

/** A rule by id or by code (reads and issuing). */
export const ZRuleRefParam = z.object({ id: zText().trim().min(1).max(64) });

/** `GET /{id}/doc-no` (spec §7): the number for a record being created (docNoOccasion 1). */
export const ZDocNo = z.object({ docNo: zText() });
export type TDocNo = z.infer<typeof ZDocNo>;

export const ZVoidDocNoInput = z.object({ docNo: zText().trim().min(1).max(200) });

export const ZPreviewDocumentNumbersInput = z.object({
  rule: ZDocumentNumberFormat,
  /** A saved rule: continue from its counter in the current period. */
  ruleId: z.uuid().optional(),
  /** Field values for field segments; missing fields show as `{fieldCode}`. */
  record: z.record(zText(), z.unknown()).optional(),
  count: z.number().int().min(1).max(10).default(3),
});
export type TPreviewDocumentNumbersInput = z.input<typeof ZPreviewDocumentNumbersInput>;
export const ZPreviewDocumentNumbersResult = z.object({ periodKey: zText(), numbers: z.array(zText()) });
export type TPreviewDocumentNumbersResult = z.infer<typeof ZPreviewDocumentNumbersResult>;

// ---------------------------------------------------------------- reservations (audit trail of docNoOccasion 1)

export const RESERVATION_STATUSES = ['reserved', 'used', 'void'] as const;
export const ZReservation = z.object({
  id: zText(),
  docNo: zText(),
  periodKey: zText(),
  serial: z.number().int(),
  status: z.enum(RESERVATION_STATUSES),
  reservedAt: zText(),
  reservedBy: zText().nullable(),
  usedAt: zText().nullable(),
  voidedAt: zText().nullable(),
});
export type TReservation = z.infer<typeof ZReservation>;
export const ZReservationQuery = ZPagedQuery.omit({ Sorting: true }).extend({ Status: z.enum(RESERVATION_STATUSES).optional() });
export type TReservationQuery = z.infer<typeof ZReservationQuery>;
export const ZReservationList = pagedResult(ZReservation);
