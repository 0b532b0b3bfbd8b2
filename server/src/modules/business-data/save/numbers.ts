/**
 * Step 3, document numbers of new rows, inside the save's transaction: a reserved number
 * (docNoOccasion 1) is consumed, an empty one issued — a rollback gives the number back.
 */
import type { Db } from '../../../platform/context.ts';
import { consumeReservedNumber, issueDocumentNumber } from '../../document-numbers/index.ts';
import { isBlank, ruleOf, type PageRows, type SaveSession } from './model.ts';

export async function assignDocumentNumbers(trx: Db, session: SaveSession, rows: PageRows): Promise<void> {
  const { now, culture } = session;
  for (const view of session.page.order) {
    for (const row of rows.get(view.id) ?? []) {
      if (row.stored) continue;
      for (const c of view.controls) {
        const rule = ruleOf(c);
        if (!rule) continue;
        const value = row.record[c.code];
        if (!isBlank(value) && Number(c.control.docNoOccasion) === 1) await consumeReservedNumber(trx, rule, String(value), { now, culture });
        else if (isBlank(value)) row.record[c.code] = (await issueDocumentNumber(trx, rule, { now, record: row.record, culture })).docNo;
      }
    }
  }
}
