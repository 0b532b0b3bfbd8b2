import { newGuid } from '../helpers/guid.ts';
import type { TBusinessRecord, TView } from '../page-definition.ts';
import type { DocumentNumberRequest, NewRecordContext, PendingValueRequest } from './control-types.ts';
import { arrayCompanionCode, getControlType } from './control-table.ts';
import { controlDefaultQuery } from './options.ts';

export interface NewRecord {
  /** spec §4: DataStatus 2 plus one default per control. Document-number controls hold ''. */
  record: TBusinessRecord;
  /**
   * Values the caller must fetch: document numbers (docNoOccasion 1, no parent control) and
   * defaults from a saved query of a data source (`extraProperties.defaultSourceQuery`; the
   * record holds the control's own default meanwhile).
   */
  pending: PendingValueRequest[];
}

const isDocumentNumberRequest = (v: unknown): v is DocumentNumberRequest =>
  typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'fetchDocumentNumber';

/** Builds a new row of `view` with spec §4 defaults. Pure: ids and dates come from `ctx`. */
export function createNewRecord(view: Pick<TView, 'dataControls' | 'associateForeignKeyCode'>, ctx: NewRecordContext): NewRecord {
  const record: TBusinessRecord = Object.create(null);
  record.Id = (ctx.newId ?? newGuid)();
  record.ParentViewDataId = ctx.parentRecordId ?? null;
  record.DataStatus = 2;
  const pending: PendingValueRequest[] = [];
  for (const control of view.dataControls) {
    const type = getControlType(control.controlType);
    const value = type.defaultValue(control, ctx);
    if (isDocumentNumberRequest(value)) {
      pending.push(value);
      record[control.code] = '';
    } else {
      record[control.code] = value;
      if (controlDefaultQuery(control)) pending.push({ kind: 'fetchSourceDefault', dataControlId: control.id, code: control.code });
    }
    if (type.hasArrayCompanion) record[arrayCompanionCode(control.code)] = value === null ? [] : [{ id: value, title: '' }];
  }
  if (view.associateForeignKeyCode && ctx.parentRecordId) record[view.associateForeignKeyCode] = ctx.parentRecordId;
  // A plain object for callers (JSON, spreads); built on a null prototype so codes like
  // `__proto__` were stored as data, then copied with defineProperty semantics.
  return { record: { ...record } as TBusinessRecord, pending };
}
