/**
 * Step 2, parse: the request's view entries are resolved, and each submitted row starts from its
 * stored values (or the defaults of a new row) with the client's values applied where the caller
 * may set them. Pure: no database, no clock but the session's.
 */
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { uuidv7 } from '../../../platform/ids.ts';
import { createNewRecord, getControlType, numberAccuracyOf, parseControlValue } from '@tessera/core/controls/registry';
import { decimalPlaces } from '@tessera/core/helpers/round';
import type { ValidationErrorItem } from '../../../platform/errors.ts';
import { bizInvalid, coreMessage, type Translate } from '../business-data.messages.ts';
import type { RuntimeControl, RuntimePage, RuntimeView } from '../runtime-page.ts';
import { sanitizeRichText } from './rich-text.ts';
import { isComputed, ruleOf, UUID, type EntryInput, type PageRows, type PreparedRow, type Rec, type SaveSession, type StoredPage } from './model.ts';

/** Resolves the request's view entries (by view id or code); an unknown or repeated view is a 400. */
export function entriesOf(page: RuntimePage, viewDataList: { viewId: string; dataList: Rec[] }[], t: Translate): Map<string, EntryInput> {
  const out = new Map<string, EntryInput>();
  const errors: ValidationErrorItem[] = [];
  viewDataList.forEach((entry, i) => {
    const view = page.views.get(entry.viewId) ?? [...page.views.values()].find((v) => v.code === entry.viewId);
    if (!view || out.has(view.id)) {
      errors.push({ message: t('view.notFound', { view: entry.viewId.slice(0, 64) }), members: [`viewDataList.${i}.viewId`] });
      return;
    }
    out.set(view.id, { view, entryIndex: i, rows: entry.dataList });
  });
  if (errors.length) throw bizInvalid(t, errors);
  return out;
}

/** The master row of a save, its error path, and its id (a new one when the client sent none). */
export interface MasterInput {
  input: Rec;
  member: string;
  id: string;
}

/** Exactly one master row, with a GUID or no id at all (400 otherwise). */
export function masterOf(page: RuntimePage, entries: Map<string, EntryInput>, t: Translate, newId: () => string = uuidv7): MasterInput {
  const entry = entries.get(page.master.id);
  if (!entry || entry.rows.length !== 1) {
    throw bizInvalid(t, [{ message: t(entry ? 'save.oneMaster' : 'save.masterMissing', { view: page.master.code }), members: ['viewDataList'] }]);
  }
  const input = entry.rows[0];
  const member = `viewDataList.${entry.entryIndex}.dataList.0`;
  const raw = input.Id;
  if (raw !== undefined && raw !== null && raw !== '' && (typeof raw !== 'string' || !UUID.test(raw))) {
    throw bizInvalid(t, [{ message: t('row.id'), members: [`${member}.Id`] }]);
  }
  return { input, member, id: typeof raw === 'string' && raw ? raw.toLowerCase() : newId() };
}

/** The spec §4 defaults of a new row (default values, current user and unit, today). */
export function newRowDefaults(session: SaveSession, view: RuntimeView, parentId: string | null, id: string): Rec {
  const user = session.user;
  const { record } = createNewRecord(view.view, {
    now: session.now,
    offsetMinutes: session.offsetMinutes,
    currentUser: user ? { id: user.id, title: personDisplayName(user, session.culture) } : null,
    currentOrgUnit: user?.organizationUnitId ? { id: user.organizationUnitId, title: user.organizationUnitName ?? '' } : null,
    newId: () => id,
    parentRecordId: parentId,
  });
  return record;
}

/**
 * Applies client values onto `base` (stored or default values) where the caller may set them:
 * not for controls the caller may not edit (field permissions), computed controls, or the document
 * number of a stored row — those keep the stored / default value, never blank. An approver's
 * field rights are their node's (`session.mayEditField`, approval.ts).
 */
export function applyInput(session: SaveSession, view: RuntimeView, base: Rec, input: Rec, isNew: boolean, member: string, errors: ValidationErrorItem[]): Rec {
  const out: Rec = { ...base };
  for (const c of view.controls) {
    if (!Object.hasOwn(input, c.code)) continue;
    if (!(session.mayEditField ? session.mayEditField(view, c) : session.access.canEdit(c.code)) || isComputed(c)) continue;
    // A stored document number never changes; a new one is issued or consumed on save.
    if (ruleOf(c) && !isNew) continue;
    const tooPrecise = c.formulaComputed ? null : excessDecimals(c, input[c.code]);
    if (tooPrecise !== null) {
      errors.push({ message: session.t('field.invalid', { title: c.control.title || c.code, message: session.t('value.decimals', { accuracy: tooPrecise }) }), members: [`${member}.${c.code}`] });
      continue;
    }
    const parsed = parseControlValue(c.control, input[c.code], { offsetMinutes: session.offsetMinutes });
    if (parsed.ok) out[c.code] = getControlType(c.controlType).html && typeof parsed.value === 'string' ? sanitizeRichText(parsed.value) : parsed.value;
    else errors.push({ message: session.t('field.invalid', { title: c.control.title || c.code, message: coreMessage(session.t, parsed.message) }), members: [`${member}.${c.code}`] });
  }
  return out;
}

/**
 * The accuracy a typed decimal exceeds (issue 12: 0.125 in a 0.00 field is refused, never rounded
 * to 0.13 behind the user's back), or null. Values a formula computes are rounded, not refused.
 */
export function excessDecimals(c: RuntimeControl, value: unknown): number | null {
  if (c.tableFieldType !== 3 || (typeof value !== 'number' && typeof value !== 'string')) return null;
  const accuracy = numberAccuracyOf(c.control);
  if (accuracy === null || accuracy < 0) return null;
  return decimalPlaces(value) > accuracy ? accuracy : null;
}

/**
 * Every row of the page as the save will write it, before numbers and linkages: the master, the
 * submitted rows of child views (ids checked: GUIDs, unique, under a parent of this save), and the
 * stored rows of views not submitted (they stay as they are and still feed the linkages). Problems
 * are collected, not thrown, so validation can report them together with the fields' rules.
 */
export function parseRows(session: SaveSession, entries: Map<string, EntryInput>, master: MasterInput, stored: StoredPage, newId: () => string = uuidv7): { rows: PageRows; errors: ValidationErrorItem[] } {
  const { page, t } = session;
  const errors: ValidationErrorItem[] = [];
  const rows: PageRows = new Map();
  const masterStored = stored.records.get(page.master.id)?.get(master.id) ?? null;
  const masterBase = masterStored ?? newRowDefaults(session, page.master, null, master.id);
  const masterRecord = applyInput(session, page.master, masterBase, master.input, stored.isNew, master.member, errors);
  masterRecord.Id = master.id;
  masterRecord.ParentViewDataId = null;
  masterRecord.DataStatus = 0;
  rows.set(page.master.id, [{ record: masterRecord, stored: masterStored, member: master.member }]);

  for (const view of page.order) {
    if (!view.parent) continue;
    const storedRows = stored.records.get(view.id) ?? new Map<string, Rec>();
    const entry = entries.get(view.id);
    const parentIds = new Set((rows.get(view.parent.id) ?? []).map((p) => String(p.record.Id)));
    if (!entry) {
      // Not submitted: the stored rows stay as they are (and still feed the linkages).
      rows.set(view.id, [...storedRows.values()].filter((r) => parentIds.has(String(r.ParentViewDataId))).map((r) => ({ record: { ...r }, stored: r, member: `rows.${String(r.Id)}` })));
      continue;
    }
    const seen = new Set<string>();
    const list: PreparedRow[] = [];
    entry.rows.forEach((input, i) => {
      const member = `viewDataList.${entry.entryIndex}.dataList.${i}`;
      const raw = input.Id;
      if (raw !== undefined && raw !== null && raw !== '' && (typeof raw !== 'string' || !UUID.test(raw))) {
        errors.push({ message: t('row.id'), members: [`${member}.Id`] });
        return;
      }
      const id = typeof raw === 'string' && raw ? raw.toLowerCase() : newId();
      if (seen.has(id) || id === master.id) {
        errors.push({ message: t('row.duplicate', { id }), members: [`${member}.Id`] });
        return;
      }
      seen.add(id);
      const parentId = view.parent!.id === page.master.id ? master.id : String(input.ParentViewDataId ?? '').toLowerCase();
      if (!parentIds.has(parentId)) {
        errors.push({ message: t('row.parent'), members: [`${member}.ParentViewDataId`] });
        return;
      }
      const storedRow = storedRows.get(id) ?? null;
      const base = storedRow ?? newRowDefaults(session, view, parentId, id);
      const record = applyInput(session, view, base, input, !storedRow, member, errors);
      record.Id = id;
      record.ParentViewDataId = parentId;
      const fk = view.view.associateForeignKeyCode;
      if (fk && view.byCode.has(fk)) record[fk] = parentId;
      // spec §4: DataStatus 2 + isLink marks a row a linkage created; the recompute replaces it.
      const linked = input.isLink === true || (storedRow?.isLink === true && input.isLink !== false);
      record.DataStatus = linked ? 2 : 0;
      record.isLink = linked;
      list.push({ record, stored: storedRow, member });
    });
    rows.set(view.id, list);
  }
  return { rows, errors };
}
