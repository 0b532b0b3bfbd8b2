import type { ComponentType } from 'react';

/**
 * What other modules show on a business record's page beside its own buttons (the workflow's
 * approval bar). The shell registers them (web/src/app/module-pages.tsx), so the business runtime
 * never imports another module.
 */
export interface RecordExtraProps {
  pageId: string;
  recordId: string;
  /** The record's approval status (system column `FlowStatus`). */
  flowStatus: number;
  /** The extra changed the record (submitted, approved…): read it again. */
  onChanged(): void;
}

const extras: ComponentType<RecordExtraProps>[] = [];

export function registerRecordExtra(component: ComponentType<RecordExtraProps>): void {
  if (!extras.includes(component)) extras.push(component);
}

export const recordExtras = (): readonly ComponentType<RecordExtraProps>[] => extras;
