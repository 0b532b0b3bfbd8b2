import { randomBytes, randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { MARIADB } from './data-source-fixtures.ts';
import { apiCall as apiCallFor, apiToken, attemptSuffix, poll, signInToConsole } from './shell-helpers.ts';

// Issue 16: an administrator writes a procedure in the data factory (/dataSet/storedProcedure):
// an IN parameter with a default, a result table of two columns, a PL/pgSQL body typed in the SQL
// editor. She runs it in the test panel with her own value and sees its rows, changes the body
// (version 2) and sees the new rows, compares version 1 with the current one, rolls back (version 3,
// after confirming) and the old rows come back. The run log holds her three runs; deleting the
// procedure (confirmed) drops its function and empties the list. Then she registers a stored
// procedure of the office's MariaDB (a data source): picks the source and the procedure, its
// parameters come from MariaDB, and a test run shows both of its result sets and its OUT value.

let product: Product;
let adminToken = '';
let maria: mysql.Connection;
const table = `e2e_df_${randomBytes(4).toString('hex')}`;
const call = <T>(method: string, path: string, body?: unknown) => apiCallFor<T>(product, adminToken, method, path, body);

beforeAll(async () => {
  maria = await mysql.createConnection({ host: MARIADB.host, port: MARIADB.port, user: MARIADB.user, database: MARIADB.database });
  await maria.query(`create table ${table} (code varchar(10) primary key, name varchar(50) not null, region varchar(20) not null)`);
  await maria.query(`insert into ${table} values ('C1', '上海文具', 'east'), ('C2', '北京纸业', 'north'), ('C3', '杭州办公', 'east')`);
  await maria.query(`create procedure ${table}_summary(in p_region varchar(20), out o_count int)
    begin
      select code, name from ${table} where region = p_region order by code;
      select region, count(*) as n from ${table} group by region order by region;
      select count(*) into o_count from ${table} where region = p_region;
    end`);
  product = await startProduct();
  adminToken = await apiToken(product);
}, 120_000);
afterAll(async () => {
  await product?.stop();
  await maria?.query(`drop procedure if exists ${table}_summary`);
  await maria?.query(`drop table if exists ${table}`);
  await maria?.end();
});

const option = (page: Page, text: string) => page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: new RegExp(`^${text}$`) }).first();

async function typeBody(page: Page, body: string) {
  await page.locator('[data-testid="factory-body"] .cm-content').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(body);
}

/** Runs the procedure in the test panel with `limit` and answers the first column's texts of the grid. */
async function runWith(page: Page, limit: string, rows: number) {
  await page.getByTestId('factory-tab-test').click();
  await page.getByTestId('factory-test-value-p_limit').fill(limit);
  await page.getByTestId('factory-test-run').click();
  await poll(() => page.getByTestId('factory-test-status').textContent(), 30_000).toMatch(new RegExp(`^${rows} 行 · 用时 \\d+ ms`));
  return page.getByTestId('factory-test-rows').locator('.ant-table-tbody tr.ant-table-row').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')));
}

describe('data factory (issue 16)', () => {
  it('writes a procedure, tests it, changes it, compares and rolls back a version, and deletes it', async (ctx) => {
    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-factory-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    const code = `order_lines${attemptSuffix(ctx.task)}`;
    const name = `订单行${attemptSuffix(ctx.task)}`;

    await page.goto(`${product.url}/#/dataSet/storedProcedure`);
    if (!attemptSuffix(ctx.task)) await page.getByTestId('factory-empty').waitFor();

    // The definition: an integer IN parameter with a default, two result columns, a body.
    await page.getByTestId('factory-create').click();
    await page.getByTestId('factory-code').fill(code);
    await page.getByTestId('factory-name').fill(name);
    await page.getByTestId('factory-add-parameter').click();
    await page.getByTestId('factory-param-name-0').fill('p_limit');
    await page.getByTestId('factory-param-type-0').click();
    await option(page, 'integer').click();
    await page.getByTestId('factory-param-default-0').fill('2');
    await page.getByTestId('factory-column-name-0').fill('n');
    await page.getByTestId('factory-add-column').click();
    await page.getByTestId('factory-column-name-1').fill('label');
    await typeBody(page, "begin\n  return query select g, 'row ' || g from generate_series(1, p_limit) g;\nend");
    await page.getByTestId('factory-save').click();
    await poll(() => page.getByTestId('factory-editor-title').textContent(), 30_000).toBe(`过程：${name} · v1`);
    await page.screenshot({ path: screenshotPath('data-factory-definition') });

    // The test panel starts from the default; her own value runs.
    await page.getByTestId('factory-tab-test').click();
    expect(await page.getByTestId('factory-test-value-p_limit').inputValue()).toBe('2');
    expect(await runWith(page, '3', 3)).toEqual([
      ['1', 'row 1'],
      ['2', 'row 2'],
      ['3', 'row 3'],
    ]);
    await page.screenshot({ path: screenshotPath('data-factory-test') });

    // A changed body is version 2 and runs as changed.
    await page.getByRole('tab', { name: '定义' }).click();
    await typeBody(page, "begin\n  return query select g, '第 ' || g || ' 行' from generate_series(1, p_limit) g;\nend");
    await page.getByTestId('factory-save').click();
    await poll(() => page.getByTestId('factory-editor-title').textContent(), 30_000).toBe(`过程：${name} · v2`);
    expect(await runWith(page, '2', 2)).toEqual([
      ['1', '第 1 行'],
      ['2', '第 2 行'],
    ]);

    // Version 1 compared with the current one: the body's changed line, removed and added.
    await page.getByTestId('factory-tab-versions').click();
    await page.getByTestId('factory-compare-1').click();
    const diff = page.getByTestId('factory-diff');
    await diff.waitFor();
    expect(await diff.textContent()).toContain('第 1 版 → 第 2 版');
    expect(await diff.textContent()).toContain('+1 行，-1 行');
    expect(await diff.locator('[data-kind="removed"]').textContent()).toContain("'row ' || g");
    expect(await diff.locator('[data-kind="added"]').textContent()).toContain("'第 ' || g || ' 行'");
    await page.screenshot({ path: screenshotPath('data-factory-diff') });

    // Rolled back after confirming: version 3, from version 1, and the old rows again.
    await page.getByTestId('factory-rollback-1').click();
    await page.getByTestId('factory-rollback-ok').click();
    await poll(() => page.getByTestId('factory-editor-title').textContent(), 30_000).toBe(`过程：${name} · v3`);
    await poll(() => page.getByTestId('factory-versions').locator('.ant-table-tbody').textContent()).toContain('回滚自第 1 版');
    expect(await runWith(page, '1', 1)).toEqual([['1', 'row 1']]);

    // The run log: her three runs, newest first, with the versions they ran.
    await page.getByTestId('factory-tab-runs').click();
    const runs = page.getByTestId('factory-runs').locator('.ant-table-tbody tr.ant-table-row');
    await poll(() => runs.count()).toBe(3);
    expect(await runs.first().textContent()).toContain('{"p_limit":1}');
    const logged = await call<{ items: { version: number; rowCount: number; error: string | null }[] }>('GET', `/app/data-factory/${await procedureId(code)}/runs?MaxResultCount=10`);
    expect(logged.items.map((r) => [r.version, r.rowCount, r.error])).toEqual([
      [3, 1, null],
      [2, 2, null],
      [1, 3, null],
    ]);

    // Deleted after confirming: gone from the list, and its function from the database.
    await page.getByTestId('factory-editor-close').click();
    await page.getByTestId(`factory-delete-${code}`).click();
    await page.getByTestId('factory-delete-ok').click();
    await page.getByTestId(`factory-edit-${code}`).waitFor({ state: 'detached', timeout: 30_000 });
    const listed = await call<{ totalCount: number }>('GET', `/app/data-factory?Filter=${encodeURIComponent(code)}`);
    expect(listed.totalCount).toBe(0);
  }, 180_000);
});

describe('data factory: a stored procedure of a data source (issue 16)', () => {
  it('registers a MariaDB procedure by picking it, and a test run shows both result sets and the OUT value', async (ctx) => {
    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-factory-external-failure') }).then(() => undefined));
    const sourceName = `门店库${attemptSuffix(ctx.task)}`;
    await call('POST', '/app/data-source', { ...MARIADB, name: sourceName });
    await signInToConsole(page, product);
    await page.goto(`${product.url}/#/dataSet/storedProcedure`);

    await page.getByTestId('factory-create').click();
    await page.getByTestId('factory-source').click();
    await option(page, `${sourceName}（MySQL / MariaDB）`).click();
    // The body and result table belong to the product's own functions only.
    await poll(() => page.getByTestId('factory-body').count()).toBe(0);
    await page.getByTestId('factory-routine').click();
    await page.keyboard.type(`${table}_summary`);
    await option(page, `test.${table}_summary（过程）`).click();
    // The parameters as MariaDB declares them.
    await poll(() => page.getByTestId('factory-param-name-0').inputValue()).toBe('p_region');
    expect(await page.getByTestId('factory-param-name-1').inputValue()).toBe('o_count');
    expect(await page.getByTestId('factory-param-mode-1').textContent()).toContain('OUT');
    await page.getByTestId('factory-param-default-0').fill('east');
    const code = `region_summary${attemptSuffix(ctx.task)}`;
    await page.getByTestId('factory-code').fill(code);
    await page.getByTestId('factory-name').fill('地区汇总');
    await page.getByTestId('factory-save').click();
    await poll(() => page.getByTestId('factory-editor-title').textContent(), 30_000).toBe('过程：地区汇总 · v1');
    await page.screenshot({ path: screenshotPath('data-factory-external-definition') });

    await page.getByTestId('factory-tab-test').click();
    expect(await page.getByTestId('factory-test-value-p_region').inputValue()).toBe('east');
    await page.getByTestId('factory-test-run').click();
    await poll(() => page.getByTestId('factory-test-status').textContent(), 30_000).toMatch(/^4 行 · 用时 \d+ ms/);
    const cells = (testId: string) => page.getByTestId(testId).locator('.ant-table-tbody tr.ant-table-row').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')));
    expect(await page.getByTestId('factory-test-set-1').textContent()).toContain('结果集 1');
    expect(await cells('factory-test-rows')).toEqual([
      ['C1', '上海文具'],
      ['C3', '杭州办公'],
    ]);
    expect(await cells('factory-test-rows-2')).toEqual([
      ['east', '2'],
      ['north', '1'],
    ]);
    expect(await page.getByTestId('factory-test-outs').textContent()).toContain('o_count2');
    await page.screenshot({ path: screenshotPath('data-factory-external-test') });

    // The list says what it calls.
    await page.getByTestId('factory-editor-close').click();
    await poll(() => page.getByTestId('factory-procedures').textContent()).toContain(`${sourceName} · test.${table}_summary`);
    // Opened again: the routine it calls, by name, and where it runs, fixed.
    await page.getByTestId(`factory-edit-${code}`).click();
    await poll(() => page.getByTestId('factory-routine').textContent(), 30_000).toContain(`test.${table}_summary（过程）`);
    expect(await page.getByTestId('factory-source').locator('input').isDisabled()).toBe(true);
  }, 180_000);
});

async function procedureId(code: string): Promise<string> {
  const listed = await call<{ items: { id: string; code: string }[] }>('GET', `/app/data-factory?Filter=${encodeURIComponent(code)}`);
  const found = listed.items.find((p) => p.code === code);
  if (!found) throw new Error(`no procedure ${code}`);
  return found.id;
}

describe('data factory: who may run a procedure (issue 16)', () => {
  it("grants one procedure's run permission to a role on the authorization page: its users run that one and no other", async (ctx) => {
    const suffix = attemptSuffix(ctx.task);
    const body = { parameters: [], returns: { kind: 'table', columns: [{ name: 'n', type: 'integer' }] }, body: 'begin\n  return query select 1;\nend' };
    const granted = await call<{ id: string; permissionCode: string }>('POST', '/app/data-factory', { ...body, code: `stock_check${suffix}`, name: `库存检查${suffix}` });
    const other = await call<{ id: string }>('POST', '/app/data-factory', { ...body, code: `price_check${suffix}`, name: `价格检查${suffix}` });
    const role = `仓管员${suffix}`;
    const password = 'Keeper#2026';
    await call('POST', '/identity/roles', { name: role });
    await call('POST', '/identity/users', { userName: `keeper${suffix}`, name: `仓管员一${suffix}`, surname: '', email: `keeper${suffix}@example.test`, phoneNumber: '', isActive: true, lockoutEnabled: true, roleNames: [role], organizationUnitIds: [], password });

    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-factory-permission-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    // The editor names the procedure's code and where it is granted.
    await page.goto(`${product.url}/#/dataSet/storedProcedure`);
    await page.getByTestId(`factory-edit-stock_check${suffix}`).click();
    await poll(() => page.getByTestId('factory-permission').textContent()).toContain(granted.permissionCode);

    // The role gets this procedure's code, ticked in the tree under "run data factory procedures"
    // (ticked with it); the other procedure's code stays unticked, and so does managing.
    await page.goto(`${product.url}/#/builtIn/authorization`);
    await page.getByRole('button', { name: role }).click();
    await poll(() => page.getByTestId('authorization-target').textContent()).toBe(role);
    await page.getByPlaceholder('搜索权限名称或编码').fill('运行');
    const node = (title: string) => page.locator('.ant-tree-treenode', { hasText: title }).last();
    await node(`运行“库存检查${suffix}”`).locator('.ant-tree-checkbox').click();
    await poll(() => node('运行数据工厂的过程').locator('.ant-tree-checkbox-checked').count()).toBe(1);
    expect(await node(`运行“价格检查${suffix}”`).locator('.ant-tree-checkbox-checked').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('data-factory-permission') });
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await poll(() => page.getByText('保存成功').count()).toBeGreaterThan(0);

    const keeper = await apiToken(product, `keeper${suffix}`, password);
    const runAs = (id: string) => fetch(`${product.url}/api/app/data-factory/${id}/run`, { method: 'POST', headers: { authorization: `Bearer ${keeper}`, 'content-type': 'application/json' }, body: '{"parameters":{}}' });
    const ran = await runAs(granted.id);
    expect(ran.status).toBe(200);
    expect(((await ran.json()) as { rowCount: number }).rowCount).toBe(1);
    const refused = await runAs(other.id);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(`没有运行过程“price_check${suffix}”的权限`);
  }, 120_000);
});

describe('data factory: a procedure on a schedule (issue 16)', () => {
  it('schedules a procedure every minute with her values; the server runs it on time, the run log and the schedule say so; switched off and deleted', async (ctx) => {
    const suffix = attemptSuffix(ctx.task);
    const code = `minute_sum${suffix}`;
    const proc = await call<{ id: string }>('POST', '/app/data-factory', {
      code,
      name: `每分钟汇总${suffix}`,
      parameters: [{ name: 'p_count', type: 'integer', defaultValue: 1 }],
      returns: { kind: 'table', columns: [{ name: 'n', type: 'integer' }] },
      body: 'begin\n  return query select g from generate_series(1, p_count) g;\nend',
    });
    const { page } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-factory-schedule-failure') }).then(() => undefined));
    await signInToConsole(page, product);
    await page.goto(`${product.url}/#/dataSet/storedProcedure`);
    await page.getByTestId(`factory-edit-${code}`).click();
    await page.getByTestId('factory-tab-schedules').click();
    await poll(() => page.getByTestId('factory-schedules').textContent()).toContain('还没有计划');

    // A preset fills the expression, said in words, with the next five times in the chosen zone.
    await page.getByTestId('factory-schedule-create').click();
    const dialog = page.getByTestId('factory-schedule-dialog');
    await page.getByTestId('factory-schedule-preset-30_8_1_5').click();
    expect(await page.getByTestId('factory-schedule-cron').inputValue()).toBe('30 8 * * 1-5');
    await poll(() => dialog.textContent()).toContain('在08:30, 星期一至星期五');
    await page.getByTestId('factory-schedule-zone').click();
    await page.keyboard.type('Asia/Shang');
    await option(page, 'Asia/Shanghai').click();
    await poll(() => dialog.textContent()).toContain('接下来的运行时间（Asia/Shanghai）');
    const times = await page.getByTestId('factory-schedule-next-runs').locator('.ant-tag').allTextContents();
    expect(times).toHaveLength(5);
    for (const time of times) expect(time).toMatch(/^\d{4}-\d{2}-\d{2} 08:30$/);
    await page.screenshot({ path: screenshotPath('data-factory-schedule-dialog') });

    // A wrong expression is said at once and not saved.
    await page.getByTestId('factory-schedule-cron').fill('61 * * * *');
    await poll(() => dialog.textContent()).toContain('不是有效的 cron 表达式');
    await page.getByTestId('factory-schedule-save').click();
    expect(await dialog.isVisible()).toBe(true);

    // Every minute, with her value.
    await page.getByTestId('factory-schedule-cron').fill('* * * * *');
    await page.getByTestId('factory-schedule-value-p_count').fill('3');
    await page.getByTestId('factory-schedule-description').fill('试运行');
    await page.getByTestId('factory-schedule-save').click();
    await dialog.waitFor({ state: 'detached' });
    const rows = page.getByTestId('factory-schedules').locator('.ant-table-tbody tr.ant-table-row');
    await poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('每分钟');
    expect(await rows.first().textContent()).toContain('{"p_count":3}');
    expect(await rows.first().textContent()).toContain('尚未运行');

    // The server runs it at the next minute.
    type Schedule = { id: string; lastRunTime: string | null; lastError: string | null; nextRunTime: string | null };
    const schedules = () => call<{ items: Schedule[] }>('GET', `/app/data-factory/${proc.id}/schedules`);
    await poll(async () => (await schedules()).items[0]?.lastRunTime ?? null, 90_000).not.toBeNull();
    expect((await schedules()).items[0]!.lastError).toBeNull();
    await page.getByTestId('factory-tab-runs').click();
    const runs = page.getByTestId('factory-runs').locator('.ant-table-tbody tr.ant-table-row');
    await poll(() => runs.count()).toBeGreaterThan(0);
    expect(await runs.first().textContent()).toContain('计划');
    expect(await runs.first().textContent()).toContain('{"p_count":3}');
    expect(await runs.first().textContent()).toContain('成功');
    await page.getByTestId('factory-tab-schedules').click();
    await poll(() => rows.first().textContent()).toContain('成功');
    await page.screenshot({ path: screenshotPath('data-factory-schedules') });

    // Switched off: nothing queued.
    const id = (await schedules()).items[0]!.id;
    await page.getByTestId(`factory-schedule-enabled-${id}`).click();
    await poll(() => rows.first().textContent()).toContain('已停用');
    expect((await schedules()).items[0]!.nextRunTime).toBeNull();

    // Deleted after confirming.
    await page.getByTestId(`factory-schedule-delete-${id}`).click();
    await page.getByTestId('factory-schedule-delete-ok').click();
    await poll(() => page.getByTestId('factory-schedules').textContent()).toContain('还没有计划');
    expect((await schedules()).items).toEqual([]);
  }, 180_000);
});

describe('data factory: a page button that runs a procedure (issue 16)', () => {
  it('a designer puts a procedure on a page button with a formula per parameter; a clerk saves through it and a refusal undoes the save', async (ctx) => {
    const suffix = attemptSuffix(ctx.task);
    const procedureName = `核对订单${suffix}`;
    const proc = await call<{ id: string }>('POST', '/app/data-factory', {
      code: `check_order${suffix}`,
      name: procedureName,
      parameters: [{ name: 'p_amount', type: 'numeric', defaultValue: 0 }],
      returns: { kind: 'table', columns: [{ name: 'doubled', type: 'numeric' }] },
      body: "begin\n  if p_amount < 0 then raise exception '金额不能为负'; end if;\n  return query select p_amount;\nend",
    });
    const master = { id: randomUUID(), code: 'main', title: '订单', viewType: 1, dataControls: [{ id: randomUUID(), code: 'amount', title: '金额', controlType: 1003, isDisplayed: true, isEdit: true }, { id: randomUUID(), code: 'note', title: '备注', controlType: 1001, isDisplayed: true, isEdit: true }], viewButtons: [], viewControls: [] };
    const pageCode = `checkedOrder${suffix}`;
    const pageId = (await call<{ id: string }>('POST', '/app/page-definition', { code: pageCode, name: { 'zh-CN': `核对单${suffix}`, 'en-US': 'Checked order' }, definition: { viewControls: [master], pageButtons: [], dataLinkages: [] } })).id;

    const { page } = await product.newPage({ width: 1600, height: 960 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('data-factory-button-failure'), fullPage: true }).then(() => undefined));
    await signInToConsole(page, product);

    // The designer: a page button "run procedure", the procedure picked, amount × 2, in the save.
    await page.goto(`${product.url}/#/pageDefinition?id=${pageId}`);
    await page.getByTestId('page-designer').waitFor();
    await page.getByRole('tab', { name: '按钮' }).click();
    const buttons = page.getByTestId('buttons-panel');
    await buttons.getByRole('button', { name: /添加按钮/ }).first().hover();
    await page.locator('.ant-dropdown:visible').last().getByText('运行过程', { exact: true }).click();
    const buttonProps = buttons.getByTestId('properties-panel');
    await buttonProps.locator('#prop-title').fill('保存并核对');
    await buttonProps.getByTestId('prop-procedure').click();
    await page.keyboard.type(`check_order${suffix}`);
    await option(page, `${procedureName} \\(check_order${suffix}\\)`).click();
    const formula = buttonProps.getByTestId('procedure-parameter-p_amount').getByLabel('p_amount');
    await formula.click();
    await page.keyboard.type('{amount} * 2', { delay: 15 });
    await page.keyboard.press('Escape');
    await buttonProps.locator('#prop-procedureTiming').click();
    await option(page, '保存时（同一事务）').click();
    await page.screenshot({ path: screenshotPath('data-factory-button-designer') });
    await poll(() => page.getByTestId('save-state').getAttribute('data-state')).toBe('saved');
    await page.getByRole('button', { name: /发\s*布/ }).click();
    const dialog = page.getByTestId('publish-dialog');
    await page.getByTestId('publish-confirm').click();
    await poll(() => dialog.textContent(), 30_000).toMatch(/已发布第 1 版/);
    const published = await call<{ definition: { pageButtons: Record<string, unknown>[] } }>('GET', `/app/page-definition/${pageId}/versions/1`);
    expect(published.definition.pageButtons[0]).toMatchObject({ buttonType: 'runProcedure', procedureId: proc.id, procedureParameters: [{ name: 'p_amount', formula: '{amount} * 2' }], procedureTiming: 'inSave' });

    // The clerk's form: the button saves and runs it.
    const menu = await call<{ id: string }>('POST', '/app/business-menu', { title: { 'zh-CN': `核对单${suffix}`, 'en-US': 'Checked orders' }, pageDefinitionId: pageId, isJump: true });
    await page.goto(`${product.url}/#/menu/${menu.id}/params/${menu.id}`);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.locator('#f-main-amount').fill('12.5');
    await page.locator('#f-main-note').fill('第一单');
    await page.getByRole('button', { name: '保存并核对' }).click();
    await poll(() => page.getByText('已保存，过程已运行（1 行）').count()).toBeGreaterThan(0);
    type Run = { trigger: string; parameters: Record<string, unknown>; error: string | null };
    const runs = () => call<{ items: Run[] }>('GET', `/app/data-factory/${proc.id}/runs?MaxResultCount=10`);
    expect((await runs()).items[0]).toMatchObject({ trigger: 'button', parameters: { p_amount: 25 }, error: null });
    await page.screenshot({ path: screenshotPath('data-factory-button-runtime') });

    // A negative amount: the procedure refuses, the form says why and nothing is saved.
    await page.getByRole('button', { name: /返回列表/ }).click();
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.locator('#f-main-amount').fill('-3');
    await page.locator('#f-main-note').fill('负数单');
    await page.getByRole('button', { name: '保存并核对' }).click();
    await poll(() => page.getByText(/金额不能为负/).count()).toBeGreaterThan(0);
    const list = await call<{ items: { note: string }[] }>('POST', '/app/business-data/query-view-data', { pageId, viewId: master.id, filterConditions: [], SkipCount: 0, MaxResultCount: 20 });
    expect(list.items.map((r) => r.note)).toEqual(['第一单']);
    expect((await runs()).items[0]).toMatchObject({ trigger: 'button', parameters: { p_amount: -6 }, error: expect.stringContaining('金额不能为负') });
  }, 180_000);
});
