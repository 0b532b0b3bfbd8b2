import type { ComponentType, ReactNode } from 'react';

/**
 * A business record shown outside its menu page (the workflow's task centre opens the record of a
 * task): the business-data module's form, read-only but for what the approver's node makes
 * editable, with the record extras (the approval bar). Registered by the shell
 * (web/src/app/module-pages.tsx), so the workflow module never imports business-data.
 */
export interface RecordViewProps {
  pageId: string;
  recordId: string;
  /** Shown instead when the page cannot be loaded (no access to it, an unpublished page). */
  fallback: ReactNode;
  /** The form's back button. */
  onClose(): void;
  /** Show the record extras (approval bar) in the form's header; default true. The approval page shows its bar in its footer. */
  withExtras?: boolean;
  /**
   * The form's unsaved edits for a host that stores them with its own request (issue 14: the
   * approval bar approves and saves in one transaction). Called with the handle once the form is
   * ready, and with null when it goes away.
   */
  onFormHandle?(handle: RecordEditsHandle | null): void;
}

/** The approver's edits in save-page's shape (`ZWorkflowTaskRecordEdit`). */
export interface RecordEdits {
  pageId: string;
  viewDataList: { viewId: string; dataList: Record<string, unknown>[] }[];
  offsetMinutes: number;
}

/** The handle as a ref: it changes with the form (another record, the form gone). */
export type RecordEditsRef = { readonly current: RecordEditsHandle | null };

/** What the record view lets its host do with the unsaved edits. */
export interface RecordEditsHandle {
  /** The edits to send; null when nothing changed. Throws (and marks the fields on the form) when they are invalid. */
  collect(): Promise<RecordEdits | null>;
  /** The host's request stored them: the form is no longer dirty and reads the record again. */
  saved(): void;
  /** The host's request refused them (the server's validation errors or conflict): shown on the form, the edits kept. */
  refused(error: unknown): void;
}

let view: ComponentType<RecordViewProps> | null = null;

export function registerRecordView(component: ComponentType<RecordViewProps>): void {
  view = component;
}

/** Null until the shell registered one. */
export const recordView = (): ComponentType<RecordViewProps> | null => view;
