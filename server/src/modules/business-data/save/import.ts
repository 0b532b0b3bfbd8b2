/**
 * The save pipeline for many new master records at once (an Excel import): the same steps as
 * `savePageInTrx`, split so that the database is held only for the writing.
 *
 * - `prepareNewPage`, outside any transaction: parse → linkages → (dictionary and lookup choices) validate.
 *   Nothing is locked: every record is new.
 * - `numberNewPage`, inside the transaction: document numbers are drawn (a rollback gives them
 *   back); on a page that numbers its rows the linkages and validation run again, since a formula
 *   may read the number.
 * - `planNewPage` (pure): the record's writes as save-page plans them, kept compact.
 * - `PlannedPages` keeps them packed until `writeNewPages`, inside the transaction, inserts them:
 *   multi-row inserts per view in chunks, then the history rows, also in chunks.
 */
import { uuidv7 } from '../../../platform/ids.ts';
import { breather } from '../../../platform/breather.ts';
import type { Db } from '../../../platform/context.ts';
import { isUniqueViolation } from '../../../platform/sql-values.ts';
import { bizInvalid } from '../business-data.messages.ts';
import * as repo from '../business-data.repository.ts';
import type { HistoryEntry } from '../business-data.repository.ts';
import { loadChoices } from './choices.ts';
import { authorOf, saveHistory } from './history.ts';
import { applyLinkages, dictionaryLabelsOn, type DictionaryLabels } from './linkages.ts';
import { storedRecordsOf } from './load.ts';
import { ruleOf, type EntryInput, type PageRows, type SaveSession, type StoredPage } from './model.ts';
import { assignDocumentNumbers } from './numbers.ts';
import { masterOf, parseRows } from './parse.ts';
import { validatePage } from './validate.ts';
import { insertColumnsOf, planWrites } from './write.ts';

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
  validatePage(session.t, session.page, rows, parsed.errors, await loadChoices(db, session, rows));
  return { masterId: master.id, rows };
}

/** Draws the document numbers of a prepared record of a numbered page inside `trx` (and links and validates it again). */
export async function numberNewPage(trx: Db, run: ImportRun, prepared: PreparedPage): Promise<void> {
  const { session, empty } = run;
  await assignDocumentNumbers(trx, session, prepared.rows);
  prepared.rows = await applyLinkages(session, prepared.rows, empty, run.labelsOf);
  validatePage(session.t, session.page, prepared.rows, [], await loadChoices(trx, session, prepared.rows));
}

/** A record as it will be written: the column values of each view's new rows (in `insertColumnsOf` order), its history row. */
export interface PlannedPage {
  inserts: { viewId: string; rows: unknown[][] }[];
  history: HistoryEntry | null;
}

/**
 * Plans a prepared record's writes as save-page plans them (pure). What is kept is compact — the
 * column values and the history's JSON — so an import holds 100,000 of them, not their records.
 */
export function planNewPage(run: ImportRun, prepared: PreparedPage): PlannedPage {
  const { session } = run;
  const plan = planWrites(session.page, prepared.rows, run.empty, { user: session.user, now: session.now, concurrencyStamp: uuidv7() });
  const entry = saveHistory(session.page, prepared.masterId, true, plan.changes, authorOf(session.user, session.culture));
  return {
    inserts: plan.views.filter((w) => w.inserts.length > 0).map((w) => ({ viewId: w.view.id, rows: w.inserts })),
    history: entry && { ...entry, changes: JSON.stringify(entry.changes) },
  };
}

/** Records packed into one JSON text (see `PlannedPages`). */
const RECORDS_PER_PACK = 250;

/**
 * The planned records of an import until they are written, packed as UTF-8 JSON 250 at a time: a
 * few hundred buffers outside the JavaScript heap rather than millions of small objects, which the
 * garbage collector would otherwise copy and mark again and again.
 */
export class PlannedPages {
  private pending: PlannedPage[] = [];
  /** UTF-8 outside the JavaScript heap: the collector neither copies nor marks it. */
  private readonly packs: Buffer[] = [];
  /** New rows per view id. */
  readonly rowsByView = new Map<string, number>();

  add(page: PlannedPage): void {
    for (const i of page.inserts) this.rowsByView.set(i.viewId, (this.rowsByView.get(i.viewId) ?? 0) + i.rows.length);
    this.pending.push(page);
    if (this.pending.length >= RECORDS_PER_PACK) this.pack();
  }

  /** The records in the order added, a pack at a time (dates come back as ISO text, which both databases take). */
  *batches(): Generator<PlannedPage[]> {
    this.pack();
    for (const bytes of this.packs) yield JSON.parse(bytes.toString('utf8')) as PlannedPage[];
  }

  private pack(): void {
    if (this.pending.length === 0) return;
    this.packs.push(Buffer.from(JSON.stringify(this.pending), 'utf8'));
    this.pending = [];
  }
}

/**
 * Rows a statement inserts: at most 4,000 parameters (PostgreSQL takes 65,535) and 250 rows, so
 * building one statement stays a short slice of the event loop.
 */
const PARAMETERS_PER_STATEMENT = 4_000;
const MAX_ROWS_PER_STATEMENT = 250;

/**
 * Inserts the planned records inside `trx`, a pack at a time: the new rows of each view in page
 * order (parents before their children), then the pack's history rows.
 */
export async function writeNewPages(trx: Db, run: ImportRun, planned: PlannedPages): Promise<void> {
  const { session } = run;
  const pause = breather();
  const inChunks = async <T>(items: T[], size: number, write: (chunk: T[]) => Promise<unknown>) => {
    for (let at = 0; at < items.length; at += size) {
      await write(items.slice(at, at + size));
      // Between two statements other requests get their turn (on the embedded database every statement runs on this thread).
      await pause();
    }
  };
  for (const batch of planned.batches()) {
    try {
      for (const view of session.page.order) {
        const inserts = batch.flatMap((p) => p.inserts.filter((i) => i.viewId === view.id));
        if (inserts.length === 0) continue;
        const columns = insertColumnsOf(view);
        const size = Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(PARAMETERS_PER_STATEMENT / columns.length)));
        await inChunks(inserts.flatMap((i) => i.rows), size, (rows) => repo.appendRows(trx, view, columns, rows));
      }
    } catch (err) {
      if (isUniqueViolation(err)) throw bizInvalid(session.t, [{ message: session.t('row.taken'), members: ['viewDataList'] }]);
      throw err;
    }
    await inChunks(batch.flatMap((p) => (p.history ? [p.history] : [])), MAX_ROWS_PER_STATEMENT, (rows) => repo.insertHistory(trx, rows));
  }
}

/** Rows an import adds before the tables' statistics are refreshed at once (lists estimate their totals from them). */
const ANALYZE_AFTER_ROWS = 10_000;

/** After a large import has committed: the planner's statistics of the tables it filled, so list totals are right at once. */
export async function refreshStatistics(db: Db, run: ImportRun, planned: PlannedPages): Promise<void> {
  for (const view of run.session.page.order) if ((planned.rowsByView.get(view.id) ?? 0) >= ANALYZE_AFTER_ROWS) await repo.analyzeTable(db, view);
}
