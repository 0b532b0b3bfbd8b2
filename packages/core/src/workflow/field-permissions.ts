import type { TFieldPermission } from '../contracts/workflow.ts';
import { computedControlIds } from '../linkage/index.ts';
import { flattenViews, type TDataControl, type TPageDefinition, type TView } from '../page-definition.ts';
import { masterViewOf } from './page-fields.ts';

// Field permissions of approval nodes (issue 13), the rules the server enforces on an approver's
// save and the browser shows in the approver's form:
// - a node names controls by field ref: master controls by code, other views' as `viewCode.code`
//   (page-fields.ts); a control it does not name is read-only for its approvers;
// - `editable`: the approver may change it (the pending task grants that, whatever the page's own
//   edit rights); `readonly`: shown, not changed; `hidden`: not shown to the approver;
// - rows of a child view may be added or deleted only when the node marks every control of that
//   view editable (computed controls and the link to the parent aside); otherwise its rows are
//   fixed and only their editable fields change;
// - a user holding pending tasks on several nodes of one record (parallel branches) gets the most
//   permissive of them per field.

export type TFieldPermissionMap = Readonly<Record<string, TFieldPermission>>;

const RANK: Record<TFieldPermission, number> = { hidden: 0, readonly: 1, editable: 2 };

/** The field ref of a control: the master's by code, another view's as `viewCode.code`. */
export const fieldRefOf = (isMaster: boolean, viewCode: string, controlCode: string) => (isMaster ? controlCode : `${viewCode}.${controlCode}`);

/** What a node's approver may do with a field (unnamed: read-only). */
export const approverFieldPermission = (permissions: TFieldPermissionMap, ref: string): TFieldPermission => permissions[ref] ?? 'readonly';

/** The permissions of several pending tasks of one user: per field the most permissive. */
export function mergeFieldPermissions(list: readonly TFieldPermissionMap[]): Record<string, TFieldPermission> {
  const out: Record<string, TFieldPermission> = {};
  for (const permissions of list) {
    for (const [ref, p] of Object.entries(permissions)) if (!out[ref] || RANK[p] > RANK[out[ref]]) out[ref] = p;
  }
  // A field one node names and another does not: the unnamed one is read-only, so hidden rises to it.
  if (list.length > 1) for (const ref of Object.keys(out)) if (out[ref] === 'hidden' && list.some((p) => !p[ref])) out[ref] = 'readonly';
  return out;
}

/**
 * Whether the approver may add and delete rows of a (child) view: every control that a user sets
 * (not computed, not the link to the parent) is editable, and there is at least one.
 */
export function approverMayChangeRows<C extends { code: string }>(view: Pick<TView, 'code' | 'associateForeignKeyCode'>, controls: readonly C[], isComputed: (control: C) => boolean, permissions: TFieldPermissionMap): boolean {
  const set = controls.filter((c) => !isComputed(c) && c.code !== view.associateForeignKeyCode);
  return set.length > 0 && set.every((c) => approverFieldPermission(permissions, fieldRefOf(false, view.code, c.code)) === 'editable');
}

/**
 * The page as an approver's form shows it: controls not editable for the node read-only, hidden
 * ones not displayed; `fixedRowViews` are the ids of child views whose rows cannot be added or
 * deleted. The design's own `isEdit: false` / `isDisplayed: false` stay; `editable(control)` tells
 * whether an editable field opens for input (default: its `isEdit`; a runtime definition whose
 * `isEdit` the user's own field rights turned off answers true, since the task grants the edit).
 */
export function approverPageDefinition(
  definition: TPageDefinition,
  permissions: TFieldPermissionMap,
  editable: (control: TDataControl) => boolean = (c) => c.isEdit !== false,
): { definition: TPageDefinition; fixedRowViews: Set<string> } {
  const copy = structuredClone(definition);
  const master = masterViewOf(copy);
  const computed = computedControlIds(copy);
  const fixedRowViews = new Set<string>();
  for (const { view } of flattenViews(copy)) {
    const isMaster = view === master;
    if (!isMaster && !approverMayChangeRows(view, view.dataControls, (c) => computed.has(c.id), permissions)) fixedRowViews.add(view.id);
    for (const control of view.dataControls) {
      const p = approverFieldPermission(permissions, fieldRefOf(isMaster, view.code, control.code));
      control.isEdit = p === 'editable' && editable(control);
      if (p === 'hidden') control.isDisplayed = false;
    }
  }
  return { definition: copy, fixedRowViews };
}
