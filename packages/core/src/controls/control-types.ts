import type { z } from 'zod';
import type { TableFieldType, TDataControl } from '../page-definition.ts';

// Types shared by the control-type registry and its behaviours.

export type ParseResult = { ok: true; value: unknown } | { ok: false; message: string };

export interface DisplayOptions {
  locale?: 'zh-CN' | 'en-US';
  /** Viewer's offset from UTC in minutes (browser: `-new Date().getTimezoneOffset()`). Default 0. */
  offsetMinutes?: number;
}

export interface SelectionItem {
  id: string;
  title: string;
  /** spec §3 selection-item type: 1 organisation unit, 3 user, 4 role. */
  type?: number;
}

/** What a new record needs from its surroundings; supplied by the caller (no I/O in core). */
export interface NewRecordContext {
  /** The server's system date (spec §4 date default 1). */
  now: Date;
  /** Offset from UTC in minutes used to format `now` (default 0). */
  offsetMinutes?: number;
  currentUser?: { id: string; title: string } | null;
  currentOrgUnit?: { id: string; title: string } | null;
  /** Id generator for `Id` (default: random v4 GUID). */
  newId?: () => string;
  /** For rows of a child view: the parent record's id. */
  parentRecordId?: string | null;
}

/** Marker default: the caller must fetch a document number for this control (spec §4). */
export interface DocumentNumberRequest {
  kind: 'fetchDocumentNumber';
  dataControlId: string;
  code: string;
}

/** The caller must ask the server for this control's default: the first row of a saved query of a data source (issue 16). */
export interface SourceDefaultRequest {
  kind: 'fetchSourceDefault';
  dataControlId: string;
  code: string;
}

/** A value of a new record that the caller fetches after making it. */
export type PendingValueRequest = DocumentNumberRequest | SourceDefaultRequest;

export interface ControlBehaviour {
  /** Validator for a stored value of this control type. */
  schema: z.ZodType;
  /** User input (text from an input box, or a typed value) → stored value. */
  parse(input: unknown, control: TDataControl, options: DisplayOptions): ParseResult;
  /** Stored value → display text (accuracy, dateType, option labels, picker titles). */
  format(value: unknown, control: TDataControl, options: DisplayOptions): string;
  /** spec §4 default for a new record; may be a document-number request marker. */
  defaultValue(control: TDataControl, ctx: NewRecordContext): unknown;
  /** Number kinds: the decimal places a value is shown and stored with (integers 0); null for any. */
  accuracy?(control: TDataControl): number | null;
  /** Text of several lines (Excel wraps the cell). */
  multiline?: true;
  /** Sanitised HTML (rich text): the server cleans it on save, the browser before showing it; `format` gives its plain text. */
  html?: true;
  /** An imported Excel cell's text → the input value (rich text escapes plain text into paragraphs). */
  fromCell?(text: string): unknown;
}

export interface ControlType extends ControlBehaviour {
  code: number;
  /** Stable English key, e.g. `decimal`. */
  name: string;
  zh: string;
  en: string;
  tableFieldType: TableFieldType;
  /** 3001/3002 keep a list companion in the record under `${code}Array`. */
  hasArrayCompanion: boolean;
}
