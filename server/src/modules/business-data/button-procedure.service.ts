/**
 * A "run procedure" page button (issue 16): saves the record as save-page does, then runs the data
 * factory procedure the published design names, with IN values computed by the design's formulas
 * over the record as saved. `inSave`: the procedure runs inside the save's transaction, and its
 * failure undoes the save (the failed run is logged once the transaction has rolled back).
 * `afterSave`: the save commits first; a failing procedure is answered beside the saved record.
 *
 * What the caller needs: the save's rights (Access, add or edit, field rights) and, when the button
 * has a code, `Biz.<page>.<button>`. The procedure's own run right is the designer's: checked when
 * the page is published (pages' design check), not of each user who clicks the button.
 */
import { ZProcedureButton, type TRunButtonProcedureInput, type TRunButtonProcedureResult } from '@tessera/core/contracts/business-data';
import { bizPermission } from '@tessera/core/contracts/permissions';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { compileFormula, FormulaError, toRecordValue } from '@tessera/core/formula/index';
import { actorHolds, type ServiceContext } from '../../platform/context.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import { logDeferredRun, runForButton } from '../data-factory/index.ts';
import { bizInvalid, bizNotFound } from './business-data.messages.ts';
import { labelPageDisplay } from './labels.ts';
import { rowToRecord } from './record-values.ts';
import { answerOf, entriesOf, primeQueryChoices, savePageInTrx, saveSession, type SaveResult, type SaveSession } from './save/index.ts';

/** The IN values of the procedure: each formula over the saved master record (`{code}`) and its child views (`{view.code}`). */
function parameterValues(session: SaveSession, formulas: { name: string; formula: string }[], saved: SaveResult): Record<string, unknown> {
  const { page, t, user } = session;
  const recordOf = (viewId: string) => (saved.written.get(viewId) ?? []).map((r) => rowToRecord(r, page.views.get(viewId)!.controls));
  const master = recordOf(page.master.id).find((r) => r.Id === saved.masterId) ?? null;
  const views = Object.fromEntries(page.order.filter((v) => v !== page.master).map((v) => [v.code, recordOf(v.id)]));
  const context = {
    row: master,
    master,
    views,
    now: session.now,
    offsetMinutes: session.offsetMinutes,
    locale: (session.culture === 'en-US' ? 'en-US' : 'zh-CN') as 'en-US' | 'zh-CN',
    user: user ? { id: user.id, name: personDisplayName(user, session.culture), orgUnitId: user.organizationUnitId, orgUnitName: user.organizationUnitName } : null,
  };
  const values: Record<string, unknown> = {};
  for (const { name, formula } of formulas) {
    const value = compileFormula(formula).evaluate(context);
    if (value instanceof FormulaError) throw bizInvalid(t, [{ message: t('button.parameterFormula', { name, message: value.message }), members: ['buttonId'] }]);
    values[name] = toRecordValue(value, session.offsetMinutes);
  }
  return values;
}

export async function runButtonProcedure(ctx: ServiceContext, input: TRunButtonProcedureInput): Promise<TRunButtonProcedureResult> {
  const session = await saveSession(ctx, input.pageId, input.offsetMinutes);
  const { page, t } = session;
  const button = (page.definition.pageButtons ?? []).find((b) => b.id === input.buttonId && String(b.buttonType ?? '') === 'runProcedure');
  if (!button) throw bizNotFound(t, 'button.notFound', { button: input.buttonId.slice(0, 64) });
  if (button.code) {
    const code = bizPermission.button(page.pageCode, button.code);
    if (!actorHolds(ctx, code)) throw forbidden({ permission: code });
  }
  const config = ZProcedureButton.safeParse(button);
  if (!config.success) throw bizInvalid(t, [{ message: t('button.noProcedure', { button: button.title || button.id }), members: ['buttonId'] }]);
  const { procedureId, procedureParameters, procedureTiming } = config.data;
  const entries = entriesOf(page, input.viewDataList, t);
  await primeQueryChoices(session, entries.values());

  type Run = Awaited<ReturnType<typeof runForButton>>;
  let saved: { result: SaveResult; values: Record<string, unknown>; run: Run | null };
  try {
    saved = await ctx.db.transaction().execute(async (trx) => {
      const result = await savePageInTrx(ctx, trx, session, entries);
      const values = parameterValues(session, procedureParameters, result);
      const run = procedureTiming === 'inSave' ? await runForButton({ ...ctx, db: trx }, procedureId, values, { inCallerTransaction: true }) : null;
      return { result, values, run };
    });
  } catch (err) {
    await logDeferredRun(ctx, err);
    throw err;
  }
  let { run } = saved;
  let error: string | null = null;
  if (procedureTiming === 'afterSave') {
    try {
      run = await runForButton(ctx, procedureId, saved.values, { inCallerTransaction: false });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      error = err.message;
    }
  }
  const { readAccess, written } = saved.result;
  const answered = await labelPageDisplay(ctx, ctx.db, t, page, readAccess, answerOf({ ...session, access: readAccess }, written));
  return { page: answered, run: run && { runId: run.runId, rowCount: run.rowCount, elapsedMs: run.elapsedMs, outParameters: run.outParameters }, error };
}
