import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { TPageDataResult, TSavePageInput, TSaveViewInput } from '@tessera/core/contracts/business-data';
import { createNewRecord, parseControlValue, validateControlValue } from '@tessera/core/controls/registry';
import { recomputeLinkages } from '@tessera/core/linkage/index';
import type { TBusinessRecord } from '@tessera/core/page-definition';
import type { Database } from '../../db/schema.ts';
import { AppError, type ValidationErrorItem } from '../../platform/errors.ts';
import { requestCulture } from '../../platform/messages.ts';
import { listDictionaryOptions } from '../dictionaries/index.ts';
import { consumeReservedNumber, issueDocumentNumber } from '../document-numbers/index.ts';
import { bizInvalid, bizNotFound, requestTranslator, type Translate } from './business-data.messages.ts';
import * as repo from './business-data.repository.ts';
import { scopeConditionFor } from './data-scope-sql.ts';
import { loadPageRows, toPageData } from './query.service.ts';
import { rowToRecord, toColumnValue } from './record-values.ts';
import { nextCreationTime } from '../pages/index.ts';
import { loadRuntimePage, PageAccess, requireView, type RuntimeControl, type RuntimePage, type RuntimeView } from './runtime-page.ts';
import { isUniqueViolation } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;
type Rec = Record<string, unknown>;

/*
 * Saving business records (spec §4, ARCHITECTURE §4). One transaction per call:
 *   1. the master row is locked (FOR UPDATE) inside the caller's data scope — outside it: 404;
 *      a stale ConcurrencyStamp: 409 naming who changed it and when;
 *   2. each row starts from its stored values (or the spec §4 defaults computed here for a new
 *      row); client values are parsed by the control-type registry, except for controls the user
 *      may not edit (field permissions) and computed controls (valueTakingType 2) — those keep
 *      the stored / default value, never blank;
 *   3. document numbers: a reserved number (docNoOccasion 1) is consumed, an empty one issued —
 *      both inside this transaction, so a rollback gives the number back;
 *   4. assignment linkages are recomputed over the whole page (`recomputeLinkages`); values the
 *      browser computed are overwritten. Rows a linkage creates carry DataStatus 2 (spec §4) and
 *      are replaced when it fires again;
 *   5. every value is validated (type, required, length, range) — any problem: 400, nothing written;
 *   6. inserts are one statement per view; changed rows are updated; child rows missing from a
 *      submitted child list are deleted; one history row records before → after per field.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

export interface SaveContext {
  db: Db;
  request: FastifyRequest;
  t: Translate;
  page: RuntimePage;
  access: PageAccess;
  now: Date;
  offsetMinutes: number;
}

export interface EntryInput {
  view: RuntimeView;
  /** Index in the request's viewDataList (for error members). */
  entryIndex: number;
  rows: Rec[];
}

interface FieldChange {
  viewId: string;
  rowId: string;
  code: string;
  title: string;
  before: unknown;
  after: unknown;
}

const extra = (c: RuntimeControl) => (c.control.extraProperties ?? {}) as Record<string, unknown>;
const ruleOf = (c: RuntimeControl) => {
  const rule = extra(c).documentNumberRuleId;
  return c.controlType === 2001 && typeof rule === 'string' && rule ? rule : null;
};
const isComputed = (c: RuntimeControl) => Number(c.control.valueTakingType) === 2;

function newRowDefaults(ctx: SaveContext, view: RuntimeView, parentId: string | null, id: string): Rec {
  const user = ctx.request.user;
  const { record } = createNewRecord(view.view, {
    now: ctx.now,
    offsetMinutes: ctx.offsetMinutes,
    currentUser: user ? { id: user.id, title: user.name || user.userName } : null,
    currentOrgUnit: user?.organizationUnitId ? { id: user.organizationUnitId, title: user.organizationUnitName ?? '' } : null,
    newId: () => id,
    parentRecordId: parentId,
  });
  return record;
}

/** value → label of a dictionary in the caller's language (disabled items included: a stored value keeps its label); unknown dictionary: none. */
async function dictionaryLabels(db: Db, code: string, culture: string): Promise<Map<string, string>> {
  try {
    return new Map((await listDictionaryOptions(db, code, culture, { includeDisabled: true })).map((o) => [o.value, o.label]));
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return new Map();
    throw error;
  }
}

/** Applies client values onto `base` (stored or default values) where the caller may set them. */
function applyInput(ctx: SaveContext, view: RuntimeView, base: Rec, input: Rec, isNew: boolean, member: string, errors: ValidationErrorItem[]): Rec {
  const out: Rec = { ...base };
  for (const c of view.controls) {
    if (!Object.hasOwn(input, c.code)) continue;
    if (!ctx.access.canEdit(c.code) || isComputed(c)) continue;
    // A stored document number never changes; a new one is issued or consumed on save.
    if (ruleOf(c) && !isNew) continue;
    const parsed = parseControlValue(c.control, input[c.code], { offsetMinutes: ctx.offsetMinutes });
    if (parsed.ok) out[c.code] = parsed.value;
    else errors.push({ message: ctx.t('field.invalid', { title: c.control.title || c.code, message: parsed.message }), members: [`${member}.${c.code}`] });
  }
  return out;
}

function validateRow(ctx: SaveContext, view: RuntimeView, row: Rec, member: string, errors: ValidationErrorItem[]) {
  const reported = new Set(errors.flatMap((e) => e.members));
  for (const c of view.controls) {
    const value = row[c.code];
    const title = c.control.title || c.code;
    const at = [`${member}.${c.code}`];
    if (reported.has(at[0])) continue;
    const problem = value === null || value === undefined ? null : validateControlValue(c.control, value);
    if (problem) {
      errors.push({ message: ctx.t('field.invalid', { title, message: problem }), members: at });
      continue;
    }
    const x = extra(c);
    const empty = isBlank(value) || (c.controlType === 4001 && value === '[]');
    if (x.required === true && empty) {
      errors.push({ message: ctx.t('field.required', { title }), members: at });
      continue;
    }
    if (typeof x.maxLength === 'number' && typeof value === 'string' && [...value].length > x.maxLength) {
      errors.push({ message: ctx.t('field.maxLength', { title, max: x.maxLength }), members: at });
    }
    if ((c.tableFieldType === 2 || c.tableFieldType === 3) && typeof value === 'number') {
      if (typeof x.min === 'number' && value < x.min) errors.push({ message: ctx.t('field.min', { title, min: x.min }), members: at });
      if (typeof x.max === 'number' && value > x.max) errors.push({ message: ctx.t('field.max', { title, max: x.max }), members: at });
    }
  }
}

/** Resolves the request's view entries (by view id or code); unknown views are a 400. */
function entriesOf(ctx: SaveContext, viewDataList: { viewId: string; dataList: Rec[] }[]): Map<string, EntryInput> {
  const out = new Map<string, EntryInput>();
  const errors: ValidationErrorItem[] = [];
  viewDataList.forEach((entry, i) => {
    const view = ctx.page.views.get(entry.viewId) ?? [...ctx.page.views.values()].find((v) => v.code === entry.viewId);
    if (!view || out.has(view.id)) {
      errors.push({ message: ctx.t('view.notFound', { view: entry.viewId.slice(0, 64) }), members: [`viewDataList.${i}.viewId`] });
      return;
    }
    out.set(view.id, { view, entryIndex: i, rows: entry.dataList });
  });
  if (errors.length) throw bizInvalid(ctx.t, errors);
  return out;
}

async function conflictError(ctx: SaveContext, stored: Rec): Promise<AppError> {
  const modifier = (stored.LastModifierId ?? stored.CreatorId ?? null) as string | null;
  const names = await repo.userNames(ctx.db, modifier ? [modifier] : []);
  const time = (stored.LastModificationTime ?? stored.CreationTime) as Date | string | null;
  const iso = time ? new Date(time).toISOString() : null;
  const name = modifier ? (names.get(modifier) ?? null) : null;
  return new AppError(409, 'Conflict', null, {
    message: ctx.t('record.conflict', { user: name ?? '?', time: iso ?? '?' }),
    details: { id: stored.Id, concurrencyStamp: stored.ConcurrencyStamp, lastModifierId: modifier, lastModifierName: name, lastModificationTime: iso },
  });
}

interface PreparedRow {
  record: Rec;
  stored: Rec | null;
  member: string;
}

/**
 * Saves one master record with the given child lists inside `trx`. Views absent from `entries`
 * keep their stored rows. Returns the master record id; `written`, when given, receives every row
 * of the page as stored after the save (table-row shape, as `loadPageRows` would read it back).
 */
export async function savePageInTrx(trx: Db, ctx: SaveContext, entries: Map<string, EntryInput>, written?: Map<string, Rec[]>): Promise<string> {
  const { page, t } = ctx;
  const user = ctx.request.user;
  const masterEntry = entries.get(page.master.id);
  if (!masterEntry || masterEntry.rows.length !== 1) {
    throw bizInvalid(t, [{ message: t(masterEntry ? 'save.oneMaster' : 'save.masterMissing', { view: page.master.code }), members: ['viewDataList'] }]);
  }
  const masterInput = masterEntry.rows[0];
  const masterMember = `viewDataList.${masterEntry.entryIndex}.dataList.0`;
  const rawId = masterInput.Id;
  if (rawId !== undefined && rawId !== null && rawId !== '' && (typeof rawId !== 'string' || !UUID.test(rawId))) {
    throw bizInvalid(t, [{ message: t('row.id'), members: [`${masterMember}.Id`] }]);
  }
  const masterId = typeof rawId === 'string' && rawId ? rawId.toLowerCase() : uuidv7();

  // 1. Lock the master in scope; tell "not visible" (404) from "new".
  const scope = await scopeConditionFor(trx, ctx.request, page, 't');
  const locked = await repo.lockRow(trx, page.master, masterId, scope.where);
  if (locked && !locked.visible) throw bizNotFound(t, 'record.notFound', {}, { id: masterId });
  const storedMasterRow = locked?.row;
  const isNew = !storedMasterRow;
  ctx.access.requireAction(isNew ? 'add' : 'edit');
  if (storedMasterRow && masterInput.ConcurrencyStamp !== storedMasterRow.ConcurrencyStamp) throw await conflictError(ctx, storedMasterRow);

  // 2. Stored rows of the whole page (one query per view).
  const storedRows = storedMasterRow ? await loadPageRows(trx, page, storedMasterRow) : new Map<string, Rec[]>();
  const storedRecords = new Map<string, Map<string, Rec>>();
  for (const view of page.order) storedRecords.set(view.id, new Map((storedRows.get(view.id) ?? []).map((r) => [String(r.Id), rowToRecord(r, view.controls)])));

  const errors: ValidationErrorItem[] = [];
  const prepared = new Map<string, PreparedRow[]>();
  const masterStored = storedRecords.get(page.master.id)!.get(masterId) ?? null;
  const masterBase = masterStored ?? newRowDefaults(ctx, page.master, null, masterId);
  const masterRecord = applyInput(ctx, page.master, masterBase, masterInput, isNew, masterMember, errors);
  masterRecord.Id = masterId;
  masterRecord.ParentViewDataId = null;
  masterRecord.DataStatus = 0;
  prepared.set(page.master.id, [{ record: masterRecord, stored: masterStored, member: masterMember }]);

  for (const view of page.order) {
    if (!view.parent) continue;
    const stored = storedRecords.get(view.id)!;
    const entry = entries.get(view.id);
    const parentIds = new Set((prepared.get(view.parent.id) ?? []).map((p) => String(p.record.Id)));
    if (!entry) {
      // Not submitted: the stored rows stay as they are (and still feed the linkages).
      prepared.set(view.id, [...stored.values()].filter((r) => parentIds.has(String(r.ParentViewDataId))).map((r) => ({ record: { ...r }, stored: r, member: `rows.${String(r.Id)}` })));
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
      const id = typeof raw === 'string' && raw ? raw.toLowerCase() : uuidv7();
      if (seen.has(id) || id === masterId) {
        errors.push({ message: t('row.duplicate', { id }), members: [`${member}.Id`] });
        return;
      }
      seen.add(id);
      const parentId = view.parent!.id === page.master.id ? masterId : String(input.ParentViewDataId ?? '').toLowerCase();
      if (!parentIds.has(parentId)) {
        errors.push({ message: t('row.parent'), members: [`${member}.ParentViewDataId`] });
        return;
      }
      const storedRow = stored.get(id) ?? null;
      const base = storedRow ?? newRowDefaults(ctx, view, parentId, id);
      const record = applyInput(ctx, view, base, input, !storedRow, member, errors);
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
    prepared.set(view.id, list);
  }
  if (errors.length) {
    // Report every problem at once: the remaining fields' rules as well.
    for (const view of page.order) for (const row of prepared.get(view.id) ?? []) validateRow(ctx, view, row.record, row.member, errors);
    throw bizInvalid(t, errors);
  }

  // 3. Document numbers of new rows, inside this transaction.
  const culture = requestCulture(ctx.request);
  for (const view of page.order) {
    for (const row of prepared.get(view.id) ?? []) {
      if (row.stored) continue;
      for (const c of view.controls) {
        const rule = ruleOf(c);
        if (!rule) continue;
        const value = row.record[c.code];
        if (!isBlank(value) && Number(c.control.docNoOccasion) === 1) await consumeReservedNumber(trx, rule, String(value), { now: ctx.now, culture });
        else if (isBlank(value)) row.record[c.code] = (await issueDocumentNumber(trx, rule, { now: ctx.now, record: row.record, culture })).docNo;
      }
    }
  }

  // 4. Assignment linkages, recomputed on the server over the whole page.
  const state = { viewDataList: page.order.map((v) => ({ viewId: v.id, dataList: (prepared.get(v.id) ?? []).map((p) => p.record as TBusinessRecord) })) };
  // DICT(code, value) labels come from the dictionaries service. The formula resolver is
  // synchronous, so the dictionaries a recompute asks for are loaded and the recompute runs again
  // (pages whose formulas never call DICT pay nothing).
  const dictionaries = new Map<string, Map<string, string>>();
  const asked = new Set<string>();
  const linkageContext = {
    now: ctx.now,
    offsetMinutes: ctx.offsetMinutes,
    locale: (culture === 'en-US' ? 'en-US' : 'zh-CN') as 'en-US' | 'zh-CN',
    user: user ? { id: user.id, name: user.name || user.userName, orgUnitId: user.organizationUnitId, orgUnitName: user.organizationUnitName } : null,
    newId: uuidv7,
    dictionary: (code: string, value: string) => {
      const labels = dictionaries.get(code);
      if (!labels) asked.add(code);
      return labels?.get(value) ?? null;
    },
  };
  let recomputed = recomputeLinkages(page.definition, state, linkageContext);
  // A code computed from another DICT result can need one more round; a few rounds at most.
  for (let round = 0; round < 3 && asked.size; round++) {
    for (const code of asked) dictionaries.set(code, await dictionaryLabels(trx, code, culture));
    asked.clear();
    recomputed = recomputeLinkages(page.definition, state, linkageContext);
  }
  const finalRows = new Map<string, PreparedRow[]>();
  for (const entry of recomputed.state.viewDataList) {
    const view = page.views.get(entry.viewId);
    if (!view) continue;
    const before = new Map((prepared.get(view.id) ?? []).map((p) => [String(p.record.Id), p]));
    finalRows.set(
      view.id,
      entry.dataList.map((record) => {
        const known = before.get(String(record.Id));
        if (known) return { ...known, record };
        // A row the linkage created: the spec §4 defaults for the controls it did not assign.
        const stored = storedRecords.get(view.id)?.get(String(record.Id)) ?? null;
        const defaults = newRowDefaults(ctx, view, String(record.ParentViewDataId ?? ''), String(record.Id));
        return { record: { ...defaults, ...record, DataStatus: 2, isLink: true }, stored, member: `rows.${String(record.Id)}` };
      }),
    );
  }

  // 5. Validation of every final value.
  for (const view of page.order) for (const row of finalRows.get(view.id) ?? []) validateRow(ctx, view, row.record, row.member, errors);
  if (errors.length) throw bizInvalid(t, errors);

  // 6. Writes and history.
  const changes: FieldChange[] = [];
  const stamp = uuidv7();
  const userId = user?.id ?? null;
  const storedRowById = new Map<string, Rec>();
  if (written) for (const list of storedRows.values()) for (const r of list) storedRowById.set(String(r.Id), r);
  for (const view of page.order) {
    const rows = finalRows.get(view.id) ?? [];
    const keep = new Set(rows.map((r) => String(r.record.Id)));
    const out: Rec[] = [];
    // Child rows no longer in the final list (left out by the client or replaced by a linkage).
    const removed = view.parent ? [...(storedRecords.get(view.id)?.values() ?? [])].filter((r) => !keep.has(String(r.Id))) : [];
    for (const r of removed) for (const c of view.controls) if (!isBlank(r[c.code])) changes.push({ viewId: view.id, rowId: String(r.Id), code: c.code, title: c.control.title, before: r[c.code], after: null });
    await repo.deleteRows(trx, view, removed.map((r) => String(r.Id)));
    const columns = ['Id', 'ParentViewDataId', 'DataStatus', 'CreatorId', 'CreationTime', 'ConcurrencyStamp', 'OwnerOrganizationUnitId', ...view.controls.map((c) => c.code)];
    const inserts: unknown[][] = [];
    for (const row of rows) {
      const r = row.record;
      if (!row.stored) {
        const created = nextCreationTime(ctx.now);
        const values = view.controls.map((c) => toColumnValue(c, r[c.code]));
        inserts.push([r.Id, r.ParentViewDataId ?? null, Number(r.DataStatus) === 2 ? 2 : 0, userId, created, stamp, user?.organizationUnitId ?? null, ...values]);
        if (written) {
          const row: Rec = { Id: r.Id, ParentViewDataId: r.ParentViewDataId ?? null, DataStatus: Number(r.DataStatus) === 2 ? 2 : 0, ConcurrencyStamp: stamp, CreatorId: userId, CreationTime: created, LastModifierId: null, LastModificationTime: null, OwnerOrganizationUnitId: user?.organizationUnitId ?? null, FlowStatus: 0 };
          view.controls.forEach((c, i) => (row[c.code] = asReadBack(c, values[i])));
          out.push(row);
        }
        for (const c of view.controls) if (!isBlank(r[c.code])) changes.push({ viewId: view.id, rowId: String(r.Id), code: c.code, title: c.control.title, before: null, after: r[c.code] });
        continue;
      }
      const set: Rec = {};
      for (const c of view.controls) {
        const before = toColumnValue(c, row.stored[c.code]);
        const after = toColumnValue(c, r[c.code]);
        if (JSON.stringify(before) === JSON.stringify(after)) continue;
        set[c.code] = after;
        changes.push({ viewId: view.id, rowId: String(r.Id), code: c.code, title: c.control.title, before: row.stored[c.code] ?? null, after: r[c.code] ?? null });
      }
      const status = Number(r.DataStatus) === 2 ? 2 : 0;
      const storedRow = storedRowById.get(String(r.Id));
      if (Object.keys(set).length === 0 && status === Number(row.stored.DataStatus) && view.parent) {
        if (written && storedRow) out.push(storedRow);
        continue;
      }
      await repo.updateRow(trx, view, String(r.Id), { ...set, DataStatus: status, LastModifierId: userId, LastModificationTime: ctx.now, ConcurrencyStamp: stamp });
      if (written && storedRow) {
        const next: Rec = { ...storedRow, DataStatus: status, LastModifierId: userId, LastModificationTime: ctx.now, ConcurrencyStamp: stamp };
        for (const c of view.controls) if (c.code in set) next[c.code] = asReadBack(c, set[c.code]);
        out.push(next);
      }
    }
    // Read-back order of loadPageRows: creation time, then id.
    if (written) written.set(view.id, out.sort((a, b) => creationOrder(a, b)));
    try {
      await repo.insertRows(trx, view, columns, inserts);
    } catch (err) {
      // A row id another record already uses (primary key): the caller's mistake, not a 500.
      if (isUniqueViolation(err)) throw bizInvalid(t, [{ message: t('row.taken'), members: [`viewDataList`] }]);
      throw err;
    }
  }
  if (isNew || changes.length > 0) {
    await repo.insertHistory(trx, [
      { id: uuidv7(), page_id: page.pageId, master_record_id: masterId, action: isNew ? 'Created' : 'Updated', user_id: userId, user_name: user ? user.name || user.userName : null, changes },
    ]);
  }
  return masterId;
}

/** A value as written → as the database reads it back (jsonb lookups come back parsed). */
function asReadBack(c: RuntimeControl, value: unknown): unknown {
  if (c.tableFieldType === 6 && typeof value === 'string') return JSON.parse(value) as unknown;
  return value;
}
const timeOf = (v: unknown) => (v instanceof Date ? v.getTime() : new Date(String(v)).getTime());
function creationOrder(a: Rec, b: Rec): number {
  const d = timeOf(a.CreationTime) - timeOf(b.CreationTime);
  if (d !== 0) return d;
  const x = String(a.Id).toLowerCase();
  const y = String(b.Id).toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

export async function saveContext(app: FastifyInstance, request: FastifyRequest, pageId: string, offsetMinutes: number | undefined): Promise<SaveContext> {
  const t = requestTranslator(request);
  const page = await loadRuntimePage(app.db, pageId, t);
  const access = PageAccess.of(page, request);
  access.requireOpen();
  return { db: app.db, request, t, page, access, now: new Date(), offsetMinutes: offsetMinutes ?? 0 };
}

export async function savePage(app: FastifyInstance, request: FastifyRequest, input: TSavePageInput & { offsetMinutes?: number }): Promise<TPageDataResult> {
  const ctx = await saveContext(app, request, input.pageId, input.offsetMinutes);
  const entries = entriesOf(ctx, input.viewDataList);
  // The answer is built from what the transaction wrote (no re-read of the page).
  const written = new Map<string, Rec[]>();
  await app.db.transaction().execute((trx) => savePageInTrx(trx, { ...ctx, db: trx }, entries, written));
  return toPageData(request, ctx.page, ctx.access, written, ctx.offsetMinutes);
}

/**
 * Rows of one view in one transaction. Master-view rows are records (each saved with its stored
 * children); rows of a child of the master are merged into their master's stored rows (by Id;
 * `deletedIds` removed) and saved through the same path as save-page.
 */
export async function saveView(app: FastifyInstance, request: FastifyRequest, input: TSaveViewInput & { offsetMinutes?: number }): Promise<{ items: Rec[] }> {
  const ctx = await saveContext(app, request, input.pageId, input.offsetMinutes);
  const view = requireView(ctx.page, input.viewId, ctx.t);
  const { page, t } = ctx;
  if (view.parent && view.parent.id !== page.master.id) throw bizInvalid(t, [{ message: t('view.notChild'), members: ['viewId'] }]);
  const savedIds = await app.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const ids: string[] = [];
    if (!view.parent) {
      if (input.deletedIds.length) throw bizInvalid(t, [{ message: t('view.notChild'), members: ['deletedIds'] }]);
      for (const row of input.dataList) ids.push(await savePageInTrx(trx, tctx, new Map([[view.id, { view, entryIndex: 0, rows: [row] }]])));
      return ids;
    }
    // Group the rows (and deletions) by their master record.
    const byMaster = new Map<string, Rec[]>();
    const errors: ValidationErrorItem[] = [];
    input.dataList.forEach((row, i) => {
      const parent = String(row.ParentViewDataId ?? '').toLowerCase();
      if (!UUID.test(parent)) errors.push({ message: t('row.parent'), members: [`dataList.${i}.ParentViewDataId`] });
      else byMaster.set(parent, [...(byMaster.get(parent) ?? []), row]);
    });
    if (errors.length) throw bizInvalid(t, errors);
    const deleted = new Set(input.deletedIds.map((id) => id.toLowerCase()));
    if (deleted.size) {
      const rows = await repo.rowsByIds(trx, view, [...deleted], [repo.notDeleted]);
      if (rows.length !== deleted.size) throw bizNotFound(t, 'record.notFound');
      for (const r of rows) if (!byMaster.has(String(r.ParentViewDataId))) byMaster.set(String(r.ParentViewDataId), []);
    }
    const scope = await scopeConditionFor(trx, request, page, 't');
    for (const [masterId, rows] of byMaster) {
      const [masterRow] = await repo.rowsByIds(trx, page.master, [masterId], [repo.notDeleted, scope.where]);
      if (!masterRow) throw bizNotFound(t, 'record.notFound', {}, { id: masterId });
      const master = rowToRecord(masterRow, []);
      const stored = (await repo.rowsByParents(trx, view, [masterId])).map((r) => rowToRecord(r, view.controls));
      const incoming = new Map(rows.map((r) => [String(r.Id ?? '').toLowerCase(), r]));
      const merged: Rec[] = stored.filter((r) => !deleted.has(String(r.Id))).map((r) => incoming.get(String(r.Id)) ?? r);
      for (const r of rows) if (!stored.some((s) => s.Id === String(r.Id ?? '').toLowerCase())) merged.push(r);
      await savePageInTrx(trx, tctx, new Map([
        [page.master.id, { view: page.master, entryIndex: 0, rows: [{ Id: masterId, ConcurrencyStamp: master.ConcurrencyStamp }] }],
        [view.id, { view, entryIndex: 1, rows: merged }],
      ]));
      ids.push(...rows.map((r) => String(r.Id ?? '')).filter(Boolean));
    }
    return ids;
  });
  const rows = view.parent ? await repo.rowsByIds(app.db, view, savedIds.filter((id) => UUID.test(id)), [repo.notDeleted]) : await repo.rowsByIds(app.db, view, savedIds, [repo.notDeleted]);
  return { items: rows.map((r) => rowToRecord(r, ctx.access.visibleControls(view))) };
}

/** Soft-deletes master records in the caller's scope (404 if any is not); one history row each. */
export async function deleteData(app: FastifyInstance, request: FastifyRequest, input: { pageId: string; ids: string[] }): Promise<{ deleted: number }> {
  const ctx = await saveContext(app, request, input.pageId, 0);
  ctx.access.requireAction('delete');
  const ids = [...new Set(input.ids.map((id) => id.toLowerCase()))];
  const user = request.user;
  await app.db.transaction().execute(async (trx) => {
    const scope = await scopeConditionFor(trx, request, ctx.page, 't');
    const rows = await repo.rowsByIds(trx, ctx.page.master, ids, [repo.notDeleted, scope.where], true);
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((r) => String(r.Id)));
      throw bizNotFound(ctx.t, 'record.notFound', {}, { ids: ids.filter((id) => !found.has(id)) });
    }
    await repo.softDeleteRows(trx, ctx.page.master, ids, user?.id ?? null, uuidv7());
    await repo.insertHistory(
      trx,
      rows.map((r) => {
        const record = rowToRecord(r, ctx.page.master.controls);
        const changes = ctx.page.master.controls.filter((c) => !isBlank(record[c.code])).map((c) => ({ viewId: ctx.page.master.id, rowId: String(r.Id), code: c.code, title: c.control.title, before: record[c.code], after: null }));
        return { id: uuidv7(), page_id: ctx.page.pageId, master_record_id: String(r.Id), action: 'Deleted' as const, user_id: user?.id ?? null, user_name: user ? user.name || user.userName : null, changes };
      }),
    );
  });
  return { deleted: ids.length };
}
