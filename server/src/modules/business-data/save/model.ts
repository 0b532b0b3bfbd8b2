import type { ServiceContext } from '../../../platform/context.ts';
/**
 * The shapes the save pipeline passes from step to step, and the control rules several steps share.
 */
import { ControlTypeId } from '@tessera/core/controls/registry';
import type { RequestUser } from '../../../platform/auth.ts';
import type { Culture } from '../../../platform/messages.ts';
import type { ApproverGrant } from '../approver-grants.ts';
import type { Translate } from '../business-data.messages.ts';
import type { PageAccess, RuntimeControl, RuntimePage, RuntimeView } from '../runtime-page.ts';

export type Rec = Record<string, unknown>;

/** One save's fixed inputs: the page, the caller's rights and language, the clock reading. */
export interface SaveSession {
  readonly t: Translate;
  readonly page: RuntimePage;
  readonly access: PageAccess;
  /** The moment of the save (defaults, numbers, modification times). */
  readonly now: Date;
  /** The caller's UTC offset, for dates without a time. */
  readonly offsetMinutes: number;
  readonly culture: Culture;
  /** Who saves: creator, modifier, history and the "current user" defaults; null for the system. */
  readonly user: RequestUser | null;
  /** Whether the system itself saves (every row of a lookup's source is then visible). */
  readonly isSystem: boolean;
  /** Choosable values of each business dictionary read so far (null: no such dictionary), read once per session. */
  readonly dictionaryChoices: Map<string, ReadonlySet<string> | null>;
  /** The caller's context: what reads of external data sources run with (a data-source query's values). */
  readonly context: ServiceContext;
  /**
   * Per control fed by a data-source query: `parameters JSON \u0000 value` checked so far → whether
   * the query answers it, and how asking failed (the source down or slow). Filled before the save's
   * transaction (primeQueryChoices), so a slow source is asked while no transaction waits on it.
   */
  readonly queryChoices: Map<string, { answers: Map<string, boolean>; failure: unknown }>;
  /** Per lookup control id: the lower-case ids checked so far → whether the caller may see that source row. */
  readonly lookupChoices: Map<string, Map<string, boolean>>;
  /**
   * Replaces the caller's field edit rights in the parse step: the holder of a pending approval
   * task saving a record in approval sets the fields their node marks editable (issue 13, approval.ts).
   */
  readonly mayEditField?: (view: RuntimeView, control: RuntimeControl) => boolean;
}

/** The submitted rows of one view. */
export interface EntryInput {
  view: RuntimeView;
  /** Index in the request's viewDataList (for error members). */
  entryIndex: number;
  rows: Rec[];
}

/** A row on its way to the database: its record, what is stored (null: new), where errors point. */
export interface PreparedRow {
  record: Rec;
  stored: Rec | null;
  member: string;
}

/** The rows of the page being saved, per view id, in the order they are written. */
export type PageRows = Map<string, PreparedRow[]>;

/** The page as stored before the save (rows of a new record: none). */
export interface StoredPage {
  isNew: boolean;
  /** Table rows (as read) per view. */
  rows: Map<string, Rec[]>;
  /** The same rows as records, per view, by id. */
  records: Map<string, Map<string, Rec>>;
  /** The record is in approval and the caller holds a pending task on it: what the task grants. */
  approval?: ApproverGrant | null;
}

/** One field's change, as the history records it. */
export interface FieldChange {
  viewId: string;
  rowId: string;
  code: string;
  title: string;
  before: unknown;
  after: unknown;
  /** A child row's line number under its parent (1-based; a removed line: where it was). */
  row?: number;
  /** The line came with this save, or went with it. */
  line?: 'added' | 'removed';
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
export const extra = (c: RuntimeControl) => (c.control.extraProperties ?? {}) as Record<string, unknown>;
/** The document-number rule of a document-number control, if it has one. */
export const ruleOf = (c: RuntimeControl) => {
  const rule = extra(c).documentNumberRuleId;
  return c.controlType === ControlTypeId.DocumentNumber && typeof rule === 'string' && rule ? rule : null;
};
/** A computed control (valueTakingType 2): the server's linkages set it, never the client. */
export const isComputed = (c: RuntimeControl) => Number(c.control.valueTakingType) === 2;
