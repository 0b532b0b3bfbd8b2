/**
 * The save pipeline for many new master records at once (an Excel import): the same steps as
 * `savePageInTrx`, split so that the database is held only for the writing.
 *
 * - `prepareNewPage`, outside any transaction: parse → linkages → (dictionary choices) validate.
 *   Nothing is locked: every record is new.
 * - `numberNewPage`, inside the transaction: document numbers are drawn (a rollback gives them
 *   back); on a page that numbers its rows the linkages and validation run again, since a formula
 *   may read the number.
 * - `writeNewPages`, inside the transaction: every record planned as save-page plans it, then one
 *   multi-row insert per view per chunk and the history rows, also in chunks.
 */
import { v7 as uuidv7 } from 'uuid';
import { breather } from '../../../platform/breather.ts';
import type { Db } from '../../../platform/context.ts';
import { isUniqueViolation } from '../../../platform/sql-values.ts';
import { bizInvalid } from '../business-data.messages.ts';
import * as repo from '../business-data.repository.ts';
import type { RuntimePage } from '../runtime-page.ts';
import { loadDictionaryChoices } from './choices.ts';
import { saveHistory } from './history.ts';
import { applyLinkages, dictionaryLabelsOn, type DictionaryLabels } from './linkages.ts';
import { storedRecordsOf } from './load.ts';
import { ruleOf, type EntryInput, type PageRows, type SaveSession, type StoredPage } from './model.ts';
import { assignDocumentNumbers } from './numbers.ts';
import { masterOf, parseRows } from './parse.ts';
import { validatePage } from './validate.ts';
import { planWrites } from './write.ts';

/** A new master record with its rows, parsed, linked and validated; numbers not drawn yet. */
export interface PreparedPage {
  masterId: string;
  rows: PageRows;
}

/** What an import's records share: the empty stored page, dictionary labels read once. */
export interface ImportRun {
  readonly session: SaveSession;
  readonly empty: StoredPage;
  readonly labelsOf: DictionaryLabels;
  /** Whether the page numbers its new rows by a rule (then `numberNewPage` has work). */
  readonly numbered: boolean;
}

export function importRun(db: Db, session: SaveSession): ImportRun {
  const { page } = session;
  const read = dictionaryLabelsOn(db, session.culture);
  const labels = new Map<string, Promise<Map<string, string>>>();
  const labelsOf: DictionaryLabels = (code) => {
    let found = labels.get(code);
    if (!found) labels.set(code, (found = read(code)));
    return found;
  };
  const numbered = page.order.some((v) => v.controls.some((c) => ruleOf(c)));
  return { session, empty: { isNew: true, rows: new Map(), records: storedRecordsOf(page, new Map()) }, labelsOf, numbered };
}

/** Parse, linkages and validation of one new record (400 with the save's members when it is wrong). */
export async function prepareNewPage(db: Db, run: ImportRun, entries: Map<string, EntryInput>): Promise<PreparedPage> {
  const { session, empty } = run;
  const master = masterOf(session.page, entries, session.t);
  const parsed = parseRows(session, entries, master, empty);
  let rows = parsed.rows;
  if (parsed.errors.length === 0) rows = await applyLinkages(session, rows, empty, run.labelsOf);
  validatePage(session.t, session.page, rows, parsed.errors, await loadDictionaryChoices(db, session, rows));
  return { masterId: master.id, rows };
}

/** Draws the document numbers of a prepared record inside `trx` (and links and validates it again). */
export async function numberNewPage(trx: Db, run: ImportRun, prepared: PreparedPage): Promise<void> {
  if (!run.numbered) return;
  const { session, empty } = run;
  await assignDocumentNumbers(trx, session, prepared.rows);
  prepared.rows = await applyLinkages(session, prepared.rows, empty, run.labelsOf);
  validatePage(session.t, session.page, prepared.rows, [], await loadDictionaryChoices(trx, session, prepared.rows));
}

/**
 * Rows a statement inserts: at most 4,000 parameters (PostgreSQL takes 65,535) and 250 rows, so
 * building one statement stays a short slice of the event loop.
 */
const PARAMETERS_PER_STATEMENT = 4_000;
const MAX_ROWS_PER_STATEMENT = 250;

/** Inserts the prepared records, their rows and their history inside `trx`. */
export async function writeNewPages(trx: Db, run: ImportRun, pages: PreparedPage[]): Promise<void> {
  const { session } = run;
  const page: RuntimePage = session.page;
  const inserts = new Map<string, { columns: string[]; rows: unknown[][] }>();
  const history = [];
  const pause = breather();
  for (const prepared of pages) {
    const plan = planWrites(page, prepared.rows, run.empty, { user: session.user, now: session.now, concurrencyStamp: uuidv7() });
    for (const write of plan.views) {
      if (write.inserts.length === 0) continue;
      const into = inserts.get(write.view.id) ?? { columns: write.insertColumns, rows: [] };
      for (const row of write.inserts) into.rows.push(row);
      inserts.set(write.view.id, into);
    }
    const entry = saveHistory(page, prepared.masterId, true, plan.changes, session.user);
    if (entry) history.push(entry);
    await pause();
  }
  try {
    for (const view of page.order) {
      const into = inserts.get(view.id);
      if (!into) continue;
      const size = Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(PARAMETERS_PER_STATEMENT / into.columns.length)));
      for (let at = 0; at < into.rows.length; at += size) await repo.appendRows(trx, view, into.columns, into.rows.slice(at, at + size));
    }
  } catch (err) {
    if (isUniqueViolation(err)) throw bizInvalid(session.t, [{ message: session.t('row.taken'), members: ['viewDataList'] }]);
    throw err;
  }
  for (let at = 0; at < history.length; at += MAX_ROWS_PER_STATEMENT) await repo.insertHistory(trx, history.slice(at, at + MAX_ROWS_PER_STATEMENT));
}
