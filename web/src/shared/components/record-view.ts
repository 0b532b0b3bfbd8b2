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
}

let view: ComponentType<RecordViewProps> | null = null;

export function registerRecordView(component: ComponentType<RecordViewProps>): void {
  view = component;
}

/** Null until the shell registered one. */
export const recordView = (): ComponentType<RecordViewProps> | null => view;
