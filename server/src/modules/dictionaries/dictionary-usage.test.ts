import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Issue 6: a dictionary in use by a published page cannot be deleted (or re-coded); the error names
// the pages. The built-in resolver reads the published versions' drop-down controls.
let t: TestApp;
let admin: string;
const URL = '/api/app/business-dictionary';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const db = () => t.database.db;
const selectControl = (code: string, dictionaryCode: string) => ({ id: randomUUID(), code, title: code, controlType: 1008, options: { dictionaryCode } });
const definition = (...controls: object[]) => ({
  viewControls: [{ id: randomUUID(), code: 'Master', title: 'Master', dataControls: [], viewButtons: [], viewControls: [{ id: randomUUID(), code: 'Lines', title: 'Lines', dataControls: controls, viewButtons: [], viewControls: [] }] }],
  pageButtons: [],
  dataLinkages: [],
});

/** A page row with a draft and (optionally) published versions; `published` is the live version. */
async function page(code: string, name: string, versions: object[], published: number | null, draft: object = versions.at(-1) ?? definition()) {
  const id = randomUUID();
  await db()
    .insertInto('page_definitions')
    .values({ id, code, name: JSON.stringify({ 'zh-CN': name, 'en-US': code }), description: null, draft: JSON.stringify(draft), concurrency_stamp: randomUUID(), published_version: published, published_time: published ? new Date() : null, creator_id: null, last_modification_time: null, last_modifier_id: null } as never)
    .execute();
  for (const [i, def] of versions.entries()) {
    await db().insertInto('page_definition_versions').values({ page_id: id, version: i + 1, definition: JSON.stringify(def), published_by: null } as never).execute();
  }
  return id;
}

describe('dictionaries used by published pages', () => {
  it('refuses delete and re-code while a published version uses the dictionary, naming the pages', async () => {
    const res = await t.call(admin, { method: 'POST', url: URL, payload: { code: 'Grade', title: { 'zh-CN': '等级' }, items: [{ code: 'A', label: { 'zh-CN': '甲' } }] } });
    expect(res.statusCode, res.body).toBe(200);
    const grade = res.json();
    // Not in use: a draft that uses it, an older version that used it, a page using another dictionary.
    await page('DraftOnly', '草稿页面', [], null, definition(selectControl('g', 'Grade')));
    await page('Retired', '旧页面', [definition(selectControl('g', 'Grade')), definition()], 2);
    await page('Other', '其他页面', [definition(selectControl('g', 'Grades'))], 1);
    // In use: the live version of two pages (nested in a child view).
    await page('Orders', '采购订单', [definition(selectControl('grade', 'Grade'))], 1);
    const sales = await page('Sales', '销售订单', [definition(), definition(selectControl('level', 'Grade'))], 2);

    const refused = await t.call(admin, { method: 'DELETE', url: `${URL}/${grade.id}` });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'DictionaryInUse', details: { pages: ['采购订单', '销售订单'] } });
    expect(refused.json().error.message).toBe('字典正被以下已发布页面使用，不能删除：采购订单、销售订单');
    const recode = await t.call(admin, { method: 'PUT', url: `${URL}/${grade.id}`, payload: { code: 'Grade2', title: { 'zh-CN': '等级' }, items: grade.items } });
    expect(recode.statusCode).toBe(400);
    expect(recode.json().error.code).toBe('DictionaryInUse');

    // Once the pages no longer publish a version that uses it, the delete goes through.
    await db().deleteFrom('page_definitions').where('code', '=', 'Orders').execute();
    await db().updateTable('page_definitions').set({ published_version: 1 } as never).where('id', '=', sales).execute();
    expect((await t.call(admin, { method: 'DELETE', url: `${URL}/${grade.id}` })).statusCode).toBe(204);
  });
});
