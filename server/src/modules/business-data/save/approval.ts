/**
 * An approver's save (issue 13): the holder of a pending approval task saves a record in approval.
 * The record is saved from what is stored plus the fields their node marks editable (`approverSession`
 * for the parse step); numbers and linkages run on that as on any save. Then what the approver
 * submitted is compared with the outcome (`approverChangeErrors`):
 * - a field not editable for the node (readonly, hidden, not named) may come back changed only as
 *   the server's own linkages computed it (the browser runs the same linkages); computed controls
 *   are never compared;
 * - rows of a child view may be added or deleted only when the node marks every control of that
 *   view editable (core `approverMayChangeRows`); otherwise its rows are fixed. Rows a linkage made
 *   (DataStatus 2) are the linkage's, not the approver's.
 * Each refusal names its member; the save writes nothing then (400).
 */
import { approverMayChangeRows } from '@tessera/core/workflow/field-permissions';
import type { ValidationErrorItem } from '../../../platform/errors.ts';
import { approverPermissionOf, type ApproverGrant } from '../approver-grants.ts';
import { toColumnValue } from '../record-values.ts';
import type { RuntimeControl, RuntimeView } from '../runtime-page.ts';
import type { PageRows, Rec, SaveSession, StoredPage } from './model.ts';

const viewName = (view: RuntimeView) => view.view.title || view.code;
const same = (c: RuntimeControl, a: unknown, b: unknown) => JSON.stringify(toColumnValue(c, a)) === JSON.stringify(toColumnValue(c, b));
const isLinked = (r: Rec) => r.isLink === true || Number(r.DataStatus) === 2;

/** The parse step's session for the approver: their node's editable fields are theirs to set. */
export function approverSession(session: SaveSession, grant: ApproverGrant): SaveSession {
  return { ...session, mayEditField: (view, control) => approverPermissionOf(session.page, grant, view, control.code) === 'editable' };
}

/**
 * `submitted`: every value the approver sent, parsed (the parse step with every field settable);
 * `saved`: the rows as the save will write them (after numbers and linkages).
 */
export function approverChangeErrors(session: SaveSession, grant: ApproverGrant, submitted: PageRows, saved: PageRows, stored: StoredPage): ValidationErrorItem[] {
  const { page, t } = session;
  const errors: ValidationErrorItem[] = [];
  for (const view of page.order) {
    const isMaster = view === page.master;
    const mayChangeRows = !isMaster && approverMayChangeRows(view.view, view.controls, (c) => c.formulaComputed, grant.fieldPermissions);
    const sent = submitted.get(view.id) ?? [];
    const outcome = new Map((saved.get(view.id) ?? []).map((r) => [String(r.record.Id), r.record]));
    for (const row of sent) {
      if (!row.stored) {
        if (!mayChangeRows && !isLinked(row.record)) errors.push({ message: t('approval.rowsFixed', { view: viewName(view) }), members: [row.member] });
        continue;
      }
      for (const c of view.controls) {
        if (c.formulaComputed || approverPermissionOf(page, grant, view, c.code) === 'editable') continue;
        const value = row.record[c.code];
        if (same(c, row.stored[c.code], value)) continue;
        // Changed as the linkages changed it: derived from an allowed change, not the approver's own.
        const result = outcome.get(String(row.record.Id));
        if (result && same(c, result[c.code], value)) continue;
        errors.push({ message: t('approval.notEditable', { title: c.control.title || c.code }), members: [`${row.member}.${c.code}`] });
      }
    }
    if (isMaster || mayChangeRows) continue;
    const kept = new Set(sent.map((r) => String(r.record.Id)));
    for (const [id, record] of stored.records.get(view.id) ?? []) {
      if (!kept.has(id) && !isLinked(record)) errors.push({ message: t('approval.rowsFixed', { view: viewName(view) }), members: [`rows.${id}`] });
    }
  }
  return errors;
}
