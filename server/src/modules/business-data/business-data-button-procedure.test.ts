import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPageDefinition } from '@tessera/core/page-definition';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { BD } from '../../../test/business-data-fixtures.ts';
import { control, pagesApi, view } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Issue 16: a "run procedure" page button. It saves the record, then runs a data factory procedure
// with values computed by formulas over the saved record — in the save's transaction (the
// procedure sees the uncommitted record; its failure undoes the save and is still logged) or after
// it (the save stands; the failure is answered beside it). Publishing checks the procedure, its
// parameters and formulas, and that the designer may run it; clicking needs the button's code.

let t: TestApp;
let admin: string;
const FACTORY = '/api/app/data-factory';
const amount = control('Amount', 1003);
const note = control('Note', 1001);
const order = view('Order', [amount, note]);
const table = `biz.v_${order.id.replace(/-/g, '')}`;
let procedureId: string;
let pageId: string;
const inSave = randomUUID();
const afterSave = randomUUID();

const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token = admin) => {
  const res = await t.call(token, { method, url, ...(payload ? { payload } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const button = (id: string, code: string, timing: 'inSave' | 'afterSave', extra: object = {}) => ({
  id,
  code,
  title: code,
  buttonType: 'runProcedure',
  procedureId,
  procedureParameters: [
    { name: 'p_id', formula: '{Id}' },
    { name: 'p_amount', formula: '{Amount} * 2' },
  ],
  procedureTiming: timing,
  ...extra,
});
const definition = (buttons: object[]): TPageDefinition => ({ viewControls: [order], pageButtons: buttons as TPageDefinition['pageButtons'], dataLinkages: [] });
const press = (buttonId: string, values: { Amount: number; Note: string }, token = admin) =>
  t.call(token, { method: 'POST', url: `${BD}/run-procedure`, payload: { pageId, buttonId, viewDataList: [{ viewId: order.id, dataList: [{ Id: randomUUID(), ...values }] }] } });
const stored = async (noteText: string) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.raw(table)} where "Note" = ${noteText}`.execute(t.app.db)).rows[0]!.n;
const runs = async () => (await ok('GET', `${FACTORY}/${procedureId}/runs?MaxResultCount=50`)).items as { trigger: string; parameters: Record<string, unknown>; rowCount: number | null; error: string | null }[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  // Counts the saved record in its own table (so it sees the save it runs in) and refuses negative amounts.
  procedureId = (
    await ok('POST', FACTORY, {
      code: 'check_order',
      name: '核对订单',
      parameters: [
        { name: 'p_id', type: 'uuid' },
        { name: 'p_amount', type: 'numeric', defaultValue: 0 },
      ],
      returns: { kind: 'table', columns: [{ name: 'seen', type: 'integer' }, { name: 'doubled', type: 'numeric' }] },
      body: `begin
  if p_amount < 0 then raise exception '金额不能为负'; end if;
  return query select count(*)::int, p_amount from ${table} t where t."Id" = p_id;
end`,
    })
  ).id;
  const api = pagesApi(t, () => admin);
  pageId = (await api.create('button_orders', definition([button(inSave, 'checkInSave', 'inSave'), button(afterSave, 'checkAfter', 'afterSave')]))).id;
  const published = await api.publish(pageId);
  expect(published.statusCode, published.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('a run-procedure page button', () => {
  it('in the save: the procedure sees the saved record with values from its formulas; its failure undoes the save and is logged', async () => {
    const res = await press(inSave, { Amount: 21.5, Note: 'in-save ok' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ run: { rowCount: 1, outParameters: {} }, error: null });
    const savedId = answer.page.viewDataList[0].dataList[0].Id;
    expect(answer.page.viewDataList[0].dataList[0]).toMatchObject({ Amount: 21.5, Note: 'in-save ok' });
    const [last] = await runs();
    expect(last).toMatchObject({ trigger: 'button', parameters: { p_id: savedId, p_amount: 43 }, rowCount: 1, error: null });
    const rows = (await t.app.db.selectFrom('audit_logs').select('details').where('action', '=', 'Ran').where('entity_id', '=', procedureId).execute()).length;
    expect(rows).toBeGreaterThan(0);

    // A negative amount: the procedure raises, nothing is saved, and the failed run is in the log.
    const refused = await press(inSave, { Amount: -1, Note: 'in-save refused' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.message).toContain('金额不能为负');
    expect(await stored('in-save refused')).toBe(0);
    expect((await runs())[0]).toMatchObject({ trigger: 'button', parameters: { p_amount: -2 }, rowCount: null, error: expect.stringContaining('金额不能为负') });
  });

  it('after the save: the record stays saved when the procedure fails, and the answer says why', async () => {
    const fine = await press(afterSave, { Amount: 3, Note: 'after ok' });
    expect(fine.statusCode, fine.body).toBe(200);
    expect(fine.json()).toMatchObject({ run: { rowCount: 1 }, error: null });
    const failed = await press(afterSave, { Amount: -5, Note: 'after failed' });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.json()).toMatchObject({ run: null, error: expect.stringContaining('金额不能为负') });
    expect(await stored('after failed')).toBe(1);
    expect((await runs())[0]).toMatchObject({ trigger: 'button', parameters: { p_amount: -10 }, error: expect.stringContaining('金额不能为负') });
  });

  it("needs the button's code and the save's rights; an unknown button is a 404; a bad record a 400 before anything runs", async () => {
    const before = (await runs()).length;
    const clerks = await createRole(t.app.db, 'button-clerks');
    await grant(t.app.db, 'R', clerks, ['Biz.button_orders.Access', 'Biz.button_orders.Action.Add', 'Biz.button_orders.Field.Amount.Edit', 'Biz.button_orders.Field.Note.Edit']);
    await createUser(t.app.db, 'button-clerk', { roles: [clerks] });
    const clerk = await t.login('button-clerk', FIXTURE_PASSWORD);
    const denied = await press(inSave, { Amount: 1, Note: 'clerk' }, clerk);
    expect(denied.statusCode).toBe(403);
    expect(await stored('clerk')).toBe(0);
    // With the button's code (and not the procedure's own run right: the button is the grant).
    const pressers = await createRole(t.app.db, 'button-pressers');
    await grant(t.app.db, 'R', pressers, ['Biz.button_orders.Access', 'Biz.button_orders.Action.Add', 'Biz.button_orders.Field.Amount.Edit', 'Biz.button_orders.Field.Note.Edit', 'Biz.button_orders.checkInSave']);
    await createUser(t.app.db, 'button-presser', { roles: [pressers] });
    const presser = await t.login('button-presser', FIXTURE_PASSWORD);
    expect((await press(inSave, { Amount: 1, Note: 'clerk' }, presser)).statusCode).toBe(200);
    expect(await stored('clerk')).toBe(1);

    expect((await press(randomUUID(), { Amount: 1, Note: 'x' })).statusCode).toBe(404);
    const bad = await t.call(admin, { method: 'POST', url: `${BD}/run-procedure`, payload: { pageId, buttonId: inSave, viewDataList: [{ viewId: order.id, dataList: [{ Id: randomUUID(), Amount: 'lots' }] }] } });
    expect(bad.statusCode).toBe(400);
    expect((await runs()).length).toBe(before + 1);
  });

  it('publishing names a missing procedure, an unknown parameter, a formula that does not compile, and a procedure the designer may not run', async () => {
    const api = pagesApi(t, () => admin);
    const broken = await api.create(
      'button_broken',
      definition([
        button(randomUUID(), 'gone', 'afterSave', { procedureId: randomUUID() }),
        button(randomUUID(), 'wrongParam', 'afterSave', { procedureParameters: [{ name: 'p_nothing', formula: '1' }] }),
        button(randomUUID(), 'badFormula', 'afterSave', { procedureParameters: [{ name: 'p_amount', formula: '{Amount} *' }] }),
      ]),
    );
    const plan = await api.plan(broken.id);
    expect(plan.canPublish).toBe(false);
    const messages = plan.problems.filter((p: { kind: string }) => p.kind === 'procedureButton').map((p: { message: string }) => p.message);
    expect(messages).toEqual([
      '按钮“gone”要运行的过程不存在，请重新选择',
      '按钮“wrongParam”：过程“核对订单”没有参数 p_nothing',
      expect.stringMatching(/^按钮“badFormula”：参数 p_amount 的公式有误：/),
    ]);

    // A designer without the procedure's run right cannot put it on a button.
    const designers = await createRole(t.app.db, 'button-designers');
    await grant(t.app.db, 'R', designers, ['Tessera.Pages', 'Tessera.Pages.Create', 'Tessera.Pages.Update', 'Tessera.Pages.Publish']);
    await createUser(t.app.db, 'button-designer', { roles: [designers] });
    const designer = await t.login('button-designer', FIXTURE_PASSWORD);
    const theirs = pagesApi(t, () => designer);
    const created = await theirs.create('button_theirs', definition([button(randomUUID(), 'mine', 'afterSave')]));
    const theirPlan = await theirs.call('GET', `/api/app/page-definition/${created.id}/publish-plan`);
    expect(theirPlan.statusCode, theirPlan.body).toBe(200);
    expect(theirPlan.json().problems.map((p: { message: string }) => p.message)).toContain('你没有运行过程“核对订单”的权限，不能把它配置到按钮“mine”上');
    // Nor does the designer's picker offer it; an administrator's lists it with its IN parameters.
    expect((await theirs.call('GET', `${FACTORY}/runnable`)).statusCode).toBe(403);
    const offered = (await ok('GET', `${FACTORY}/runnable`)).items;
    expect(offered.find((p: { id: string }) => p.id === procedureId)).toMatchObject({ code: 'check_order', name: '核对订单', parameters: [{ name: 'p_id', type: 'uuid' }, { name: 'p_amount', type: 'numeric' }] });
  });

  it('a procedure a published page runs from a button cannot be deleted; the page names it', async () => {
    const refused = await t.call(admin, { method: 'DELETE', url: `${FACTORY}/${procedureId}` });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'DataFactory.ProcedureInUse', details: { pages: [expect.stringContaining('button_orders')] } });
    expect(refused.json().error.message).toMatch(/^过程正被以下已发布页面的按钮使用，不能删除：/);
    expect((await t.call(admin, { method: 'GET', url: `${FACTORY}/${procedureId}` })).statusCode).toBe(200);
    // A procedure no published page runs is deleted as before.
    const free = await ok('POST', FACTORY, { code: 'free_one', name: '空闲', returns: { kind: 'void' }, body: 'begin end' });
    expect((await t.call(admin, { method: 'DELETE', url: `${FACTORY}/${free.id}` })).statusCode).toBe(204);
  });
});
