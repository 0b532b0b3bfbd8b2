import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, signInAs, type Product } from './product.ts';
import { productPerTry } from './product-per-try.ts';
import { apiCall as apiCallFor, poll, tokenOf } from './shell-helpers.ts';
import { drag, palette, props, name } from './designer-helpers.ts';

// Browser journey of issue 7: a designer builds a purchase-order page in `/pageDefinition` — master
// form with a supplier lookup, date, document number and amount; a child grid of lines where
// quantity × price = line amount; master total = SUM of the lines — previews it with live linkages
// and publishes it.

let product: Product;
const products = productPerTry((p) => (product = p));

const apiCall = <T>(token: string, method: string, path: string, body?: unknown) => apiCallFor<T>(product, token, method, path, body);

const card = (page: Page, code: string) => page.locator(`.dz-card[data-control-code="${code}"]`);
const viewBox = (page: Page, code: string) => page.locator(`.dz-view[data-view-code="${code}"]`);

async function pick(page: Page, select: Locator, option: string | RegExp, search?: string) {
  await select.click();
  if (search) {
    // Long lists are virtual: type to narrow them, then take the option with the keyboard.
    await page.keyboard.type(search, { delay: 10 });
    const dropdown = page.locator('.ant-select-dropdown:visible').last();
    await dropdown.getByText(option, { exact: typeof option === 'string' }).first().waitFor();
    await poll(() => dropdown.locator('.ant-select-item-option-active').textContent()).toEqual(typeof option === 'string' ? option : expect.stringMatching(option));
    await page.keyboard.press('Enter');
    return;
  }
  await page.locator('.ant-select-dropdown:visible').last().getByText(option, { exact: typeof option === 'string' }).first().click();
}

/** Types into a CodeMirror formula editor. */
async function typeFormula(page: Page, editor: Locator, text: string) {
  await editor.click();
  await page.keyboard.type(text, { delay: 15 });
  await page.keyboard.press('Escape');
}

const saved = (page: Page) => poll(() => page.getByTestId('save-state').getAttribute('data-state')).toBe('saved');

describe('designing a purchase-order page', () => {
  it('builds, previews with live linkages, and publishes the page', { timeout: 360_000 }, async () => {
    // A retry (vitest.config.ts) gets a fresh product: the first try's pages hold the codes.
    await products.forThisTry();
    const { page } = await product.newPage({ width: 1600, height: 960 });
    onTestFailed(() => page.screenshot({ path: screenshotPath('design-a-page-failure') }).then(() => undefined));
    await signInAs(page, product.url);
    await page.waitForURL(/#\/dashboard\/console/);
    const token = await tokenOf(page);

    // A published supplier page: the lookup's data source.
    const supplierViewId = crypto.randomUUID();
    const supplier = await apiCall<{ id: string }>(token, 'POST', '/app/page-definition', {
      code: 'supplier',
      name: { 'zh-CN': '供应商', 'en-US': 'Supplier' },
      definition: {
        viewControls: [
          {
            id: supplierViewId,
            code: 'main',
            title: '供应商',
            viewType: 1,
            dataControls: [
              { id: 'c-sname', code: 'supplierName', title: '供应商名称', controlType: 1001 },
              { id: 'c-sphone', code: 'phone', title: '电话', controlType: 1001 },
            ],
            viewButtons: [],
            viewControls: [],
          },
        ],
        pageButtons: [],
        dataLinkages: [],
      },
    });
    await apiCall(token, 'POST', `/app/page-definition/${supplier.id}/publish`, {});
    const order = await apiCall<{ id: string }>(token, 'POST', '/app/page-definition', { code: 'purchaseOrder', name: { 'zh-CN': '采购订单', 'en-US': 'Purchase order' } });
    // The role the first publish grants the page's menu to.
    const buyers = await apiCall<{ id: string }>(token, 'POST', '/identity/roles', { name: '采购员' });

    await page.goto(`${product.url}/#/pageDefinition?id=${order.id}`);
    await page.getByTestId('page-designer').waitFor();
    await poll(() => page.getByTestId('page-status').textContent()).toMatch(/草稿/);

    // Master form: drag a form view onto the empty canvas.
    await drag(page, palette(page, '表单视图'), page.getByTestId('designer-canvas'));
    await poll(() => page.locator('.dz-view').count()).toBe(1);
    await name(page, 'main', '采购订单');
    const main = viewBox(page, 'main');

    // Master controls, each dragged into the form.
    const addToMain = async (type: string, code: string, title: string) => {
      await drag(page, palette(page, type), main.locator('.dz-view-body').first());
      await poll(() => props(page).locator('#prop-code').inputValue()).not.toBe('');
      await name(page, code, title);
      await poll(() => card(page, code).count()).toBe(1);
    };
    await addToMain('打开数据', 'supplier', '供应商');
    await addToMain('文本', 'supplierName', '供应商名称');
    await addToMain('日期', 'orderDate', '订单日期');
    await addToMain('文本/单据编号', 'docNo', '单据编号');
    await addToMain('小数', 'amount', '金额');
    await addToMain('小数', 'total', '合计');
    await addToMain('文本', 'remark', '备注');
    await page.screenshot({ path: screenshotPath('design-a-page-1-master') });

    // Child grid of lines, nested in the master form by dragging it into the form's body.
    await drag(page, palette(page, '表格视图'), main.locator('.dz-view-body').first());
    await poll(() => page.locator('.dz-view').count()).toBe(2);
    await name(page, 'lines', '订单明细');
    const lines = viewBox(page, 'lines');
    await poll(() => main.locator('.dz-view[data-view-code="lines"]').count()).toBe(1);
    const addToLines = async (type: string, code: string, title: string) => {
      await drag(page, palette(page, type), lines.locator('.dz-view-body').first());
      await poll(() => lines.locator('.dz-card').count()).toBeGreaterThan(0);
      await poll(() => props(page).locator('#prop-code').inputValue()).toMatch(/^decimal/);
      await name(page, code, title);
      await poll(() => card(page, code).count()).toBe(1);
    };
    await addToLines('小数', 'quantity', '数量');
    await addToLines('小数', 'price', '单价');
    await addToLines('小数', 'lineAmount', '金额');
    await poll(() => lines.locator('.dz-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-control-code')))).toEqual(['quantity', 'price', 'lineAmount']);

    // Reorder by drag: amount goes right after total.
    const masterOrder = () => main.locator(':scope > .dz-view-body > .dz-controls-form > .dz-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-control-code')!));
    const before = (await masterOrder()).filter((c) => c !== 'amount');
    before.splice(before.indexOf('total') + 1, 0, 'amount');
    // While dragging, the mark between the cards says where the control will go.
    await drag(page, card(page, 'amount'), card(page, 'total'), 'right', async () => {
      await poll(() => page.getByTestId('drop-hint').textContent()).toBe('插入到“合计”之后');
      await page.screenshot({ path: screenshotPath('design-a-page-2b-drop-hint') });
    });
    await poll(masterOrder).toEqual(before);
    expect(await page.getByTestId('drop-hint').count()).toBe(0);
    // Screen readers hear it in Chinese, by name — not dnd-kit's English with internal ids (issue 28).
    const announced = () => page.locator('[id^="DndLiveRegion"]').allTextContents().then((texts) => texts.join(' '));
    await poll(announced).toMatch(/“amount”已放到“采购订单”/);
    expect(await announced()).not.toMatch(/Draggable|pal:ctl|canvas-element/);
    expect((await page.locator('[id^="DndDescribedBy"]').allTextContents()).join(' ')).toContain('按空格键或回车键');
    expect(before).toHaveLength(7);

    // Copy / paste, keyboard delete, undo / redo, multi-select.
    await card(page, 'amount').click();
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    await poll(() => card(page, 'amount2').count()).toBe(1);
    await page.keyboard.press('Delete');
    await poll(() => card(page, 'amount2').count()).toBe(0);
    await page.keyboard.press('Control+z');
    await poll(() => card(page, 'amount2').count()).toBe(1);
    await page.keyboard.press('Control+z');
    await poll(() => card(page, 'amount2').count()).toBe(0);
    await page.keyboard.press('Control+Shift+z');
    await poll(() => card(page, 'amount2').count()).toBe(1);
    await card(page, 'amount2').click();
    await page.keyboard.press('Delete');
    await poll(() => card(page, 'amount2').count()).toBe(0);
    await card(page, 'orderDate').click();
    await card(page, 'docNo').click({ modifiers: ['Control'] });
    await poll(() => props(page).textContent()).toMatch(/已选择 2 项/);

    // Properties: the doc number is taken on creation; the line amount is computed.
    await card(page, 'docNo').click();
    await pick(page, props(page).locator('#prop-docNoOccasion'), '新建时取号');
    // The list's quick-search row offers the order number.
    await props(page).locator('#prop-extraProperties-quickSearch').click();
    await card(page, 'lineAmount').click();
    await pick(page, props(page).locator('#prop-valueTakingType'), '计算');

    // The supplier lookup: data source = the published supplier page's view, mapping and display field.
    await card(page, 'supplier').click();
    await props(page).locator('#prop-extraProperties-dataSourceId').click();
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item', { hasText: '供应商 (supplier)' }).click();
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item', { hasText: '(main)' }).click();
    await props(page).getByRole('button', { name: /添加映射/ }).click();
    await pick(page, props(page).getByLabel('源字段 1'), '供应商名称 (supplierName)', 'supplierName');
    await pick(page, props(page).getByLabel('目标控件 1'), '供应商名称 (supplierName)', 'supplierName');
    await pick(page, props(page).locator('#prop-extraProperties-dataSourceTitle'), '供应商名称 (supplierName)', 'supplierName');
    await page.screenshot({ path: screenshotPath('design-a-page-2-lookup') });

    // Data linkages: line amount = quantity × price (autocomplete of control codes), total = SUM of lines.
    await page.getByRole('tab', { name: '数据联动' }).click();
    const linkages = page.getByTestId('linkages-panel');
    const addLinkage = async () => {
      await linkages.getByRole('button', { name: /添加数据联动/ }).hover();
      await page.locator('.ant-dropdown:visible').last().getByText('赋值联动', { exact: true }).click();
      await linkages.getByTestId('linkage-editor').waitFor();
    };
    await addLinkage();
    const editor = linkages.getByTestId('linkage-editor');
    await pick(page, editor.getByLabel('触发控件 1'), 'lines.quantity 数量', 'quantity');
    await editor.getByRole('button', { name: /添加触发条件/ }).click();
    await pick(page, editor.getByLabel('触发控件 2'), 'lines.price 单价', 'price');
    await editor.getByRole('button', { name: /添加赋值/ }).click();
    await pick(page, editor.getByLabel('目标控件 1'), 'lines.lineAmount 金额', 'lineAmount');
    const formula1 = editor.getByLabel('赋值公式 1');
    await formula1.click();
    const accept = async (expected: string) => {
      await page.locator('.cm-tooltip-autocomplete li[aria-selected]').waitFor();
      await page.keyboard.press('Enter');
      await poll(() => formula1.textContent()).toBe(expected);
    };
    await page.keyboard.type('{qua', { delay: 20 });
    await page.locator('.cm-tooltip-autocomplete').getByText('quantity', { exact: true }).waitFor();
    await accept('{quantity}');
    await page.keyboard.type(' * {pri', { delay: 20 });
    await page.locator('.cm-tooltip-autocomplete').getByText('price', { exact: true }).waitFor();
    await accept('{quantity} * {price}');
    await poll(() => formula1.textContent()).toBe('{quantity} * {price}');
    // The test panel evaluates it against sample values.
    await editor.getByTestId('assignment-row').getByRole('button', { name: /测试公式/ }).click();
    await editor.getByLabel('{quantity}').fill('3');
    await editor.getByLabel('{price}').fill('2.5');
    await editor.getByRole('button', { name: /计\s*算/ }).click();
    await poll(() => editor.getByTestId('formula-result').textContent()).toBe('7.5');

    await addLinkage();
    const editor2 = linkages.getByTestId('linkage-editor');
    await pick(page, editor2.getByLabel('触发控件 1'), 'lines.lineAmount 金额', 'lineAmount');
    await editor2.getByRole('button', { name: /添加赋值/ }).click();
    await pick(page, editor2.getByLabel('目标控件 1'), 'main.total 合计', 'total');
    const formula2 = editor2.getByLabel('赋值公式 1');
    // Errors are underlined while typing (the core compiler), and go away once fixed.
    await typeFormula(page, formula2, 'SUM({lines.lineAmount}');
    await poll(() => editor2.locator('[data-formula-error]').count()).toBe(1);
    await poll(() => editor2.locator('.cm-lintRange-error').count()).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('design-a-page-3-formula-error') });
    await formula2.click();
    await page.keyboard.press('End');
    await page.keyboard.type(')');
    await poll(() => editor2.locator('[data-formula-error]').count()).toBe(0);
    await poll(() => formula2.textContent()).toBe('SUM({lines.lineAmount})');

    // A page-state linkage: once the total exceeds 10 the order date is hidden.
    await linkages.getByRole('button', { name: /添加数据联动/ }).hover();
    await page.locator('.ant-dropdown:visible').last().getByText('页面状态联动', { exact: true }).click();
    const editor3 = linkages.getByTestId('linkage-editor');
    await pick(page, editor3.getByLabel('触发控件 1'), 'main.total 合计', 'total');
    await typeFormula(page, editor3.getByLabel('触发公式 1'), '{total} > 10');
    await editor3.getByRole('button', { name: /添加对象/ }).click();
    await pick(page, editor3.getByLabel('控件、视图或按钮 1'), '[控件] main.orderDate 订单日期', 'orderDate');

    // Buttons: a built-in save and a custom page button whose action assigns amount = total.
    await page.getByRole('tab', { name: '按钮' }).click();
    const buttons = page.getByTestId('buttons-panel');
    const addPageButton = async (action: string) => {
      await buttons.getByRole('button', { name: /添加按钮/ }).first().hover();
      await page.locator('.ant-dropdown:visible').last().getByText(action, { exact: true }).click();
    };
    await addPageButton('保存');
    await addPageButton('自定义（执行赋值）');
    const buttonProps = buttons.getByTestId('properties-panel');
    await buttonProps.locator('#prop-code').fill('copyTotal');
    await buttonProps.locator('#prop-title').fill('金额取合计');
    await buttonProps.getByRole('button', { name: /添加赋值/ }).click();
    await pick(page, buttonProps.getByLabel('目标控件 1'), 'main.amount 金额', 'amount');
    await typeFormula(page, buttonProps.getByLabel('赋值公式 1'), '{total}');
    await poll(() => buttons.getByTestId('page-buttons').textContent()).toMatch(/保存.*金额取合计/);

    // Autosave, then the design-time checks pass.
    await saved(page);
    await page.getByRole('button', { name: /检\s*查/ }).click();
    await page.getByTestId('checks-ok').waitFor();
    await page.screenshot({ path: screenshotPath('design-a-page-4-linkages') });

    // Preview: the runtime renderer with sample data; the linkages run live.
    await page.getByRole('button', { name: /预\s*览/ }).click();
    const preview = page.getByTestId('page-preview');
    await preview.waitFor();
    await poll(() => preview.locator('#f-main-docNo').inputValue()).toMatch(/预览-0001/);
    // One line at a time: each click adds a line once the previous one is there (a busy machine
    // must not swallow the second click).
    await preview.getByRole('button', { name: /新增行/ }).click();
    await preview.locator('#f-lines-0-quantity').waitFor();
    await preview.getByRole('button', { name: /新增行/ }).click();
    await preview.locator('#f-lines-1-quantity').waitFor();
    await preview.locator('#f-lines-0-quantity').fill('3');
    await preview.locator('#f-lines-0-price').fill('2.5');
    await preview.locator('#f-lines-1-quantity').fill('2');
    await preview.locator('#f-lines-1-price').fill('4');
    await preview.locator('#f-lines-1-price').press('Tab');
    await poll(() => preview.locator('#f-lines-0-lineAmount').inputValue()).toBe('7.50');
    await poll(() => preview.locator('#f-lines-1-lineAmount').inputValue()).toBe('8.00');
    await poll(() => preview.locator('#f-main-total').inputValue()).toBe('15.50');
    // The page-state linkage hid the order date; the custom button copied the total into amount.
    await poll(() => preview.locator('#f-main-orderDate').count()).toBe(0);
    await preview.getByRole('button', { name: '金额取合计' }).click();
    await poll(() => preview.locator('#f-main-amount').inputValue()).toBe('15.50');
    // The lookup: pick a supplier row; its name is mapped into supplierName.
    await preview.getByRole('button', { name: /选择数据 供应商/ }).click();
    const lookup = page.locator('.ant-modal:visible').filter({ has: page.locator('.ant-table') }).last();
    await lookup.locator('.ant-table-row').first().click();
    await poll(() => preview.locator('#f-main-supplierName').inputValue()).toBe('供应商名称 1');
    await page.screenshot({ path: screenshotPath('design-a-page-5-preview') });
    await page.locator('.ant-modal-footer:visible').getByRole('button', { name: /关\s*闭/ }).click();
    await preview.waitFor({ state: 'detached' });

    // Publish: the dry run lists the tables to create; publishing makes version 1.
    await page.getByRole('button', { name: /发\s*布/ }).click();
    const dialog = page.getByTestId('publish-dialog');
    await poll(() => dialog.getByTestId('publish-changes').textContent()).toMatch(/新建数据表：视图 main/);
    await page.screenshot({ path: screenshotPath('design-a-page-6-publish-plan') });
    await page.getByTestId('publish-confirm').click();
    await poll(() => dialog.textContent()).toMatch(/已发布第 1 版/);
    // The first publish offers a business menu granted to roles, in one step.
    const setup = dialog.getByTestId('page-menu-setup');
    await poll(() => setup.getByLabel('语言 zh-CN').inputValue()).toBe('采购订单');
    await setup.getByLabel('授权给角色').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: '采购员' }).click();
    await setup.getByText('授权给角色', { exact: true }).click();
    await page.screenshot({ path: screenshotPath('design-a-page-6b-menu-setup') });
    await setup.getByTestId('page-menu-create').click();
    await poll(() => dialog.getByTestId('page-menu-created').textContent()).toMatch(/已创建菜单“采购订单”，并授权给 1 个角色/);
    const grants = await apiCall<{ groups: { permissions: { name: string; isGranted: boolean }[] }[] }>(token, 'GET', `/permission-management/permissions?providerName=R&providerKey=${buyers.id}`);
    const granted = grants.groups.flatMap((g) => g.permissions).filter((p) => p.isGranted).map((p) => p.name);
    expect(granted).toEqual(expect.arrayContaining(['Biz.purchaseOrder.Access', 'Biz.purchaseOrder.Action.Add', 'Biz.purchaseOrder.Action.Export']));
    expect(granted.some((n) => n.startsWith('Biz.Menu.'))).toBe(true);
    await page.locator('.ant-modal-footer:visible').getByRole('button', { name: /关\s*闭/ }).click();
    await poll(() => page.getByTestId('page-status').textContent()).toMatch(/已发布 v1/);

    // The server holds the published design.
    const published = await apiCall<{ definition: { viewControls: { code: string; viewControls: { code: string }[] }[]; dataLinkages: unknown[] } }>(
      token,
      'GET',
      `/app/page-definition/${order.id}/versions/1`,
    );
    expect(published.definition.viewControls.map((v) => v.code)).toEqual(['main']);
    expect(published.definition.viewControls[0]!.viewControls.map((v) => v.code)).toEqual(['lines']);
    expect(published.definition.dataLinkages).toHaveLength(3);
    const docNo = (published.definition.viewControls[0] as unknown as { dataControls: { code: string; extraProperties?: { quickSearch?: boolean } }[] }).dataControls.find((c) => c.code === 'docNo');
    expect(docNo?.extraProperties?.quickSearch).toBe(true);

    // A record with a remark; removing the remark control would lose data: refused unless the
    // designer confirms "hide and keep".
    const mainViewId = (published.definition.viewControls[0] as unknown as { id: string }).id;
    await apiCall(token, 'POST', '/app/business-data/save-page', {
      pageId: order.id,
      viewDataList: [{ viewId: mainViewId, dataList: [{ Id: crypto.randomUUID(), remark: '加急', amount: 12 }] }],
      offsetMinutes: 0,
    });
    await card(page, 'remark').click();
    await page.keyboard.press('Delete');
    await poll(() => card(page, 'remark').count()).toBe(0);
    await saved(page);
    await page.getByRole('button', { name: /发\s*布/ }).click();
    const hide = dialog.getByTestId('publish-hide');
    await poll(() => hide.textContent()).toMatch(/1 行数据/);
    expect(await page.getByTestId('publish-confirm').isDisabled()).toBe(true);
    await page.screenshot({ path: screenshotPath('design-a-page-7-hide-and-keep') });
    await hide.getByText('隐藏并保留这些列和数据').click();
    await page.getByTestId('publish-confirm').click();
    await poll(() => dialog.textContent()).toMatch(/已发布第 2 版/);
    const versions = await apiCall<{ items: { version: number; hiddenColumns: { column: string | null; rowCount: number }[] }[] }>(token, 'GET', `/app/page-definition/${order.id}/versions`);
    expect(versions.items[0]!.hiddenColumns).toEqual([expect.objectContaining({ column: 'remark', rowCount: 1 })]);
    await page.locator('.ant-modal-footer:visible').getByRole('button', { name: /关\s*闭/ }).click();

    // Design-time checks list problems; clicking one selects its control on the canvas.
    await card(page, 'amount').click();
    await props(page).locator('#prop-code').fill('total');
    await saved(page);
    await page.locator('.dz-canvas-wrap').click({ position: { x: 400, y: 620 } });
    await poll(() => page.locator('.dz-card.dz-selected').count()).toBe(0);
    await page.getByRole('button', { name: /检\s*查/ }).click();
    const problem = page.getByTestId('checks-panel').getByTestId('design-problem').first();
    await poll(() => problem.textContent()).toMatch(/编码重复/);
    await problem.click();
    await poll(() => page.locator('.dz-card.dz-selected').count()).toBe(1);
    await poll(() => props(page).locator('#prop-code').inputValue()).toBe('total');
    await page.screenshot({ path: screenshotPath('design-a-page-8-checks') });
    await props(page).locator('#prop-code').fill('amount');
    await saved(page);

    // Another designer saves the same draft: this designer's next save is a conflict, not an overwrite.
    const current = await apiCall<{ definition: unknown; concurrencyStamp: string }>(token, 'GET', `/app/page-definition/${order.id}`);
    await apiCall(token, 'PUT', `/app/page-definition/${order.id}`, { definition: current.definition, concurrencyStamp: current.concurrencyStamp });
    await card(page, 'docNo').click();
    await props(page).locator('[data-property="title"]').getByLabel('语言 zh-CN').fill('订单号');
    await poll(() => page.getByTestId('save-state').getAttribute('data-state')).toBe('conflict');
    await page.getByRole('button', { name: '重新加载' }).click();
    await saved(page);
    await poll(() => card(page, 'docNo').textContent()).toMatch(/单据编号/);
  });
});
