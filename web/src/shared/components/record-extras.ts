import type { ComponentType } from 'react';
import type { TFieldPermissionMap } from '@tessera/core/workflow/field-permissions';
import type { RecordEditsRef } from './record-view.ts';

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
  /** The form's unsaved edits (the approval bar's approve sends them with it, issue 14). */
  edits?: RecordEditsRef;
}

const extras: ComponentType<RecordExtraProps>[] = [];

export function registerRecordExtra(component: ComponentType<RecordExtraProps>): void {
  if (!extras.includes(component)) extras.push(component);
}

export const recordExtras = (): readonly ComponentType<RecordExtraProps>[] => extras;

/** What other modules add to a business list's toolbar (printing the selected records). */
export interface ListExtraProps {
  pageId: string;
  /** The records selected in the list (the page's master records), in the list's order. */
  selectedIds: readonly string[];
}

const listExtras: ComponentType<ListExtraProps>[] = [];

export function registerListExtra(component: ComponentType<ListExtraProps>): void {
  if (!listExtras.includes(component)) listExtras.push(component);
}

export const recordListExtras = (): readonly ComponentType<ListExtraProps>[] => listExtras;

/**
 * What another module lets the signed-in user change on a record the page keeps read-only: the
 * holder of a pending approval task edits the fields their node marks editable, and does not see
 * the hidden ones (issue 13; the server enforces both). Null: nothing.
 */
export interface RecordEditGrant {
  /** Field ref (`code`, `viewCode.code`) → permission; fields not named are read-only. */
  fieldPermissions: TFieldPermissionMap;
}

/** A React hook, registered once at start-up by the shell (the same one for the app's whole life). */
export type RecordEditGrantHook = (pageId: string, recordId: string | null, flowStatus: number) => RecordEditGrant | null;

let grantHook: RecordEditGrantHook = () => null;

export function registerRecordEditGrant(hook: RecordEditGrantHook): void {
  grantHook = hook;
}

export const useRecordEditGrant: RecordEditGrantHook = (pageId, recordId, flowStatus) => grantHook(pageId, recordId, flowStatus);
