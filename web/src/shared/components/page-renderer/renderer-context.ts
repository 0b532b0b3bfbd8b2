import type { TBusinessRecord, TDataControl, TPageData, TPageDefinition, TView } from '@tessera/core/page-definition';
import { createContext, useContext } from 'react';
import type { RuleProblem } from './control-rules.ts';
import type { PageRendererServices, RendererMode } from './renderer-types.ts';

/** What linkages (spec §4 type 2) and design flags decide about a control, view or button. */
export interface PageState {
  hidden: ReadonlySet<string>;
  readOnly: ReadonlySet<string>;
}

export interface RendererContextValue {
  definition: TPageDefinition;
  data: TPageData;
  mode: RendererMode;
  readOnly: boolean;
  /** Child views whose rows cannot be added, copied or deleted (an approver's fixed lines, issue 13). */
  fixedRowViews: ReadonlySet<string>;
  services?: PageRendererServices;
  pageState: PageState;
  /** Controls whose value a formula always computes (core `computedControlIds`): read-only, skipped by the keyboard. */
  computed: ReadonlySet<string>;
  /** The message to show at a field, or null (untouched fields stay quiet until a save). */
  problemOf(view: TView, record: TBusinessRecord, control: TDataControl): RuleProblem | null;
  setField(view: TView, recordId: string, control: TDataControl, value: unknown, extra?: Record<string, unknown>): void;
  addRows(view: TView, parentRecordId: string | null, count?: number): void;
  copyRows(view: TView, ids: string[]): void;
  deleteRows(view: TView, ids: string[]): void;
  runButton(button: { id: string; code?: string | null; buttonType?: unknown }, view: TView | null): void;
}

export const RendererContext = createContext<RendererContextValue | null>(null);

export function useRenderer(): RendererContextValue {
  const value = useContext(RendererContext);
  if (!value) throw new Error('useRenderer outside PageRenderer');
  return value;
}
