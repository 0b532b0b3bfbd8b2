import type { FileRef, SelectionItem } from '@tessera/core/controls/registry';
import type { SelectionContext } from '../SelectionItemPicker.tsx';
import type { TBusinessRecord, TDataControl, TPageData, TPageDefinition, TView } from '@tessera/core/page-definition';

export type RendererMode = 'preview' | 'runtime';

export interface LookupQuery {
  control: TDataControl;
  view: TView;
  /** The record the lookup fills (join conditions may refer to its values). */
  record: TBusinessRecord;
  filter: string;
  skipCount: number;
  maxResultCount: number;
}

export interface LookupResult {
  items: Record<string, unknown>[];
  totalCount: number;
  /** Column titles by source code; the renderer shows mapped source codes when absent. */
  columns?: { code: string; title: string }[];
}

export interface OptionItem {
  value: string;
  label: string;
}

/**
 * Server-backed pieces the renderer needs. The designer's preview passes sample implementations;
 * the business runtime (issue 8) passes its API calls. Every member is optional.
 */
export interface PageRendererServices {
  /** Rows for a lookup / open-data (1010) window. */
  queryLookup?(query: LookupQuery): Promise<LookupResult>;
  /**
   * Options of drop-down style controls whose options come from a dictionary or a query. `record` is
   * the row being edited: a control with `extraProperties.parentCode` (cascading) gets the options
   * under that control's value, and they are loaded again when it changes.
   */
  loadOptions?(control: TDataControl, record: TBusinessRecord): Promise<OptionItem[]>;
  /** A document number for a 2001 control with docNoOccasion 1 (spec §4). */
  fetchDocumentNumber?(control: TDataControl, view: TView): Promise<string>;
  /** A new record's default from a saved query of a data source (`extraProperties.defaultSourceQuery`): the server's value, or null. */
  fetchSourceDefault?(control: TDataControl, view: TView, record: TBusinessRecord): Promise<unknown>;
  /** The server's date for date defaults (spec §4 defaultValue 1); the browser clock otherwise. */
  now?(): Date;
  /** DICT(dictionaryCode, value) labels for formulas (the server's save recompute uses the dictionaries service). */
  dictionary?(dictionaryCode: string, value: string): string | null | undefined;
  /** The directory context of a 4001 picker (its page and control): the server answers pickers only in it. */
  pickerContext?(control: TDataControl): SelectionContext;
  /** Uploads a file for an attachment (1013) or image (1014) control; without it those controls cannot upload (the designer's preview). */
  uploadFile?(control: TDataControl, file: File, onProgress?: (percent: number) => void): Promise<FileRef>;
  currentUser?: SelectionItem | null;
  currentOrgUnit?: SelectionItem | null;
}

export type ChangeCause = 'edit' | 'load';

export interface PageRendererProps {
  definition: TPageDefinition;
  /** Page data; when absent the renderer starts a new record with defaults. */
  value?: TPageData;
  /**
   * Every change, after linkages ran. `cause`: 'edit' for the user's own (a value typed or chosen,
   * rows added, copied or removed, a button's assignments); 'load' for what the renderer did by
   * itself (defaults and linkages of a (re)mounted page, document numbers arriving) — no edit, so a
   * form stays clean (issue 12, defect 11).
   */
  onChange?(value: TPageData, cause: ChangeCause): void;
  mode: RendererMode;
  readOnly?: boolean;
  /** Ids of child views whose rows cannot be added, copied or deleted (their cells follow the controls' flags). */
  fixedRowViews?: ReadonlySet<string>;
  services?: PageRendererServices;
  /** Shows every field's validation message (e.g. after a failed save). */
  showAllErrors?: boolean;
  /** The page button whose action is under way (a save, a procedure run): it spins and the page buttons wait. */
  busyButtonId?: string | null;
  /** Business runtime: runs a button's action (the renderer runs custom assignment actions itself). */
  onButton?(button: { id: string; code?: string | null; buttonType?: unknown }, view: TView | null): void;
}
