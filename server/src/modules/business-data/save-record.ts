/**
 * Saving one known record inside another module's transaction (issue 14: an approver's edits are
 * stored with the approval, all or nothing). The same pipeline as save-page — the approver's node
 * field permissions, the concurrency stamp, numbers, linkages, validation, history — on the caller's
 * transaction; the caller's transaction rolls back on any error.
 */
import type { TSavePageInput } from '@tessera/core/contracts/business-data';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { bizInvalid } from './business-data.messages.ts';
import { openPage } from './runtime-page.ts';
import { entriesOf, masterOf, savePageInTrx, sessionOf } from './save/index.ts';

export interface SaveRecordInput extends TSavePageInput {
  offsetMinutes?: number;
}

/**
 * Saves `input` (save-page's shape) on `trx`, refusing (400) a page other than `expected.pageId`
 * or a master row other than `expected.recordId`; error members are prefixed with `memberPrefix`
 * (the request body's path of the save, e.g. `record.`).
 */
export async function saveRecordInTrx(ctx: ServiceContext, trx: Db, input: SaveRecordInput, expected: { pageId: string; recordId: string }, memberPrefix = ''): Promise<{ masterId: string }> {
  // Every read on the caller's transaction: the embedded database has one connection.
  const inTrx: ServiceContext = { ...ctx, db: trx };
  try {
    // Another page is refused as such, before the caller's rights on it are asked.
    const opened = await openPage(inTrx, input.pageId, { requireOpen: false });
    const { page, t } = opened;
    if (page.pageId !== expected.pageId) throw bizInvalid(t, [{ message: t('save.notTheRecord'), members: ['pageId'] }]);
    opened.access.requireOpen();
    const session = sessionOf(inTrx, opened, input.offsetMinutes);
    const entries = entriesOf(page, input.viewDataList, t);
    const master = masterOf(page, entries, t, () => '');
    if (master.id !== expected.recordId.toLowerCase()) throw bizInvalid(t, [{ message: t('save.notTheRecord'), members: [`${master.member}.Id`] }]);
    const { masterId } = await savePageInTrx(inTrx, trx, session, entries);
    return { masterId };
  } catch (err) {
    throw prefixMembers(err, memberPrefix);
  }
}

function prefixMembers(err: unknown, prefix: string): unknown {
  if (prefix && err instanceof AppError) for (const v of err.options.validationErrors ?? []) v.members = v.members.map((m) => `${prefix}${m}`);
  return err;
}
