/**
 * The save pipeline (docs/architecture.md, "The save pipeline"): one master record with its child
 * rows, inside the caller's transaction — load and lock → parse → numbers → linkages → (an
 * approver's changes, approval.ts) → (dictionary
 * and lookup choices) validate →
 * write → history; `answerOf` turns what was written into the API's answer.
 */
import { uuidv7 } from '../../../platform/ids.ts';
import type { Db, ServiceContext } from '../../../platform/context.ts';
import * as repo from '../business-data.repository.ts';
import { approverReadAccess } from '../approver-grants.ts';
import { bizInvalid } from '../business-data.messages.ts';
import { openPage, type PageAccess } from '../runtime-page.ts';
import { approverChangeErrors, approverSession } from './approval.ts';
import { loadChoices } from './choices.ts';
import { authorOf, saveHistory } from './history.ts';
import { dictionaryLabelsOn, applyLinkages } from './linkages.ts';
import { loadAndLock } from './load.ts';
import type { EntryInput, Rec, SaveSession } from './model.ts';
import { assignDocumentNumbers } from './numbers.ts';
import { masterOf, parseRows } from './parse.ts';
import { validatePage } from './validate.ts';
import { applyWrites, planWrites } from './write.ts';
import { bindRecordFiles } from '../record-files.ts';

/** The page, the caller's rights (Access required) and the moment of a save. */
export async function saveSession(ctx: ServiceContext, pageId: string, offsetMinutes: number | undefined): Promise<SaveSession> {
  return sessionOf(ctx, await openPage(ctx, pageId), offsetMinutes);
}

/** A save session on a page the caller has opened already (`openPage`). */
export function sessionOf(ctx: ServiceContext, { t, page, access }: Pick<SaveSession, 't' | 'page' | 'access'>, offsetMinutes: number | undefined): SaveSession {
  return { t, page, access, now: ctx.now(), offsetMinutes: offsetMinutes ?? 0, culture: ctx.culture, user: ctx.user, isSystem: ctx.isSystem, context: ctx, dictionaryChoices: new Map(), lookupChoices: new Map(), queryChoices: new Map() };
}

export interface SaveResult {
  masterId: string;
  /** Every row of the page as stored after the save, per view id (unordered; see `answerOf`). */
  written: Map<string, Rec[]>;
  /** What the caller reads of the record (an approver: without their node's hidden fields). */
  readAccess: PageAccess;
}

/**
 * Saves one master record with the given child lists inside `trx` (all or nothing: any error throws
 * and the caller's transaction rolls back). Views absent from `entries` keep their stored rows.
 */
export async function savePageInTrx(ctx: ServiceContext, trx: Db, session: SaveSession, entries: Map<string, EntryInput>): Promise<SaveResult> {
  const { page, t } = session;
  const master = masterOf(page, entries, t);
  const stored = await loadAndLock(ctx, trx, session, master);
  const approval = stored.approval ?? null;
  const parsed = parseRows(approval ? approverSession(session, approval) : session, entries, master, stored);
  let rows = parsed.rows;
  // Rows that did not parse get no numbers and run no linkages: validation reports everything at once.
  if (parsed.errors.length === 0) {
    await assignDocumentNumbers(trx, session, rows);
    rows = await applyLinkages(session, rows, stored, dictionaryLabelsOn(trx, session.culture));
  }
  if (approval) {
    // What the approver sent, every field read, against what the save makes of it.
    const submitted = parseRows({ ...session, mayEditField: () => true }, entries, master, stored).rows;
    const refused = approverChangeErrors(session, approval, submitted, rows, stored);
    if (refused.length) throw bizInvalid(t, refused);
  }
  validatePage(t, page, rows, parsed.errors, await loadChoices(trx, session, rows));
  await bindRecordFiles(trx, session, master.id, rows, stored);
  const plan = planWrites(page, rows, stored, { user: session.user, now: session.now, concurrencyStamp: uuidv7() });
  const written = await applyWrites(trx, plan, t);
  const history = saveHistory(page, master.id, stored.isNew, plan.changes, authorOf(session.user, session.culture));
  if (history) await repo.insertHistory(trx, [history]);
  return { masterId: master.id, written, readAccess: approval ? approverReadAccess(page, session.access, approval) : session.access };
}
