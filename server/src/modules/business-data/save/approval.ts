/**
 * Step 2b, an approver's changes (issue 13): the holder of a pending approval task saves a record
 * in approval. Compared with what is stored, before numbers and linkages (what those derive from an
 * allowed change is no change of the approver's):
 * - a field whose value changed must be `editable` for the task's node (readonly, hidden and
 *   controls the node does not name are not; computed controls are recomputed, never compared);
 * - rows of a child view may be added or deleted only when the node marks every control of that
 *   view editable (core `approverMayChangeRows`); otherwise its rows are fixed.
 * Each refusal names its member; the save writes nothing then (400).
 */
import { approverMayChangeRows } from '@tessera/core/workflow/field-permissions';
import type { ValidationErrorItem } from '../../../platform/errors.ts';
import { approverPermissionOf, type ApproverGrant } from '../approver-grants.ts';
import { toColumnValue } from '../record-values.ts';
import type { RuntimeView } from '../runtime-page.ts';
import type { PageRows, SaveSession, StoredPage } from './model.ts';

const viewName = (view: RuntimeView) => view.view.title || view.code;

export function approverChangeErrors(session: SaveSession, grant: ApproverGrant, rows: PageRows, stored: StoredPage): ValidationErrorItem[] {
  const { page, t } = session;
  const errors: ValidationErrorItem[] = [];
  for (const view of page.order) {
    const isMaster = view === page.master;
    const mayChangeRows = !isMaster && approverMayChangeRows(view.view, view.controls, (c) => c.formulaComputed, grant.fieldPermissions);
    const final = rows.get(view.id) ?? [];
    for (const row of final) {
      if (!row.stored) {
        if (!mayChangeRows) errors.push({ message: t('approval.rowsFixed', { view: viewName(view) }), members: [row.member] });
        continue;
      }
      for (const c of view.controls) {
        if (c.formulaComputed || approverPermissionOf(page, grant, view, c.code) === 'editable') continue;
        // The comparison the write step makes: column values as stored.
        if (JSON.stringify(toColumnValue(c, row.stored[c.code])) === JSON.stringify(toColumnValue(c, row.record[c.code]))) continue;
        errors.push({ message: t('approval.notEditable', { title: c.control.title || c.code }), members: [`${row.member}.${c.code}`] });
      }
    }
    if (isMaster || mayChangeRows) continue;
    const kept = new Set(final.map((r) => String(r.record.Id)));
    for (const id of stored.records.get(view.id)?.keys() ?? []) {
      if (!kept.has(id)) errors.push({ message: t('approval.rowsFixed', { view: viewName(view) }), members: [`rows.${id}`] });
    }
  }
  return errors;
}
