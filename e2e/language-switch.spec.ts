import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { screenshotPath, startProduct, type Product } from './product.ts';
import { apiCall, apiToken, poll, signInToConsole } from './shell-helpers.ts';

// Issue 12, defect 11: switching the interface language re-localises what a form shows (dictionary
// labels, DICT() results, dates, numbers) but is no edit — an untouched form stays clean, and
// leaving it asks nothing.

let product: Product;
let token: string;
let menuId = '';

const control = (code: string, title: string, controlType: number, extra: object = {}) => ({ id: randomUUID(), code, title, controlType, isDisplayed: true, isEdit: true, ...extra });

beforeAll(async () => {
  product = await startProduct();
  token = await apiToken(product);
  await apiCall(product, token, 'POST', '/app/business-dictionary', {
    code: 'e2eLangRegion',
    title: { 'zh-CN': '地区', 'en-US': 'Region' },
    items: [
      { code: 'CN', label: { 'zh-CN': '中国', 'en-US': 'China' } },
      { code: 'US', label: { 'zh-CN': '美国', 'en-US': 'USA' } },
    ],
  });
  const c = {
    date: control('VisitDate', '拜访日期', 1004, { defaultValue: '1', extraProperties: { dateType: 2 } }),
    country: control('Country', '国家', 1006, { options: { dictionaryCode: 'e2eLangRegion' } }),
    countryName: control('CountryName', '国家名称', 1001, { valueTakingType: 2 }),
    amount: control('Amount', '金额', 1003, { extraProperties: { accuracy: 2 } }),
  };
  const visit = { id: randomUUID(), code: 'LangVisit', title: '拜访', viewType: 1, dataControls: [c.date, c.country, c.countryName, c.amount], viewButtons: [], viewControls: [] };
  const page = await apiCall<{ id: string }>(product, token, 'POST', '/app/page-definition', {
    code: 'LangVisit',
    name: { 'zh-CN': '拜访', 'en-US': 'Visits' },
    definition: {
      viewControls: [visit],
      pageButtons: [],
      dataLinkages: [{ id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: c.country.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: c.countryName.id, assignmentFormula: 'DICT("e2eLangRegion", {Country})' }] }],
    },
  });
  await apiCall(product, token, 'POST', `/app/page-definition/${page.id}/publish`, {});
  await apiCall(product, token, 'POST', '/app/business-data/save-page', { pageId: page.id, viewDataList: [{ viewId: visit.id, dataList: [{ Country: 'CN', Amount: 1234.5 }] }] });
  menuId = (await apiCall<{ id: string }>(product, token, 'POST', '/app/business-menu', { title: { 'zh-CN': '拜访', 'en-US': 'Visits' }, pageDefinitionId: page.id, isJump: true })).id;
}, 180_000);
afterAll(() => product?.stop());

describe('switching the language (issue 12, defect 11)', () => {
  it('leaves an untouched record form clean: back to the list asks nothing', async () => {
    const { page, context } = await product.newPage();
    onTestFailed(() => page.screenshot({ path: screenshotPath('language-switch-failure'), fullPage: true }).then(() => undefined));
    await signInToConsole(page, product);
    await page.goto(`${product.url}/#/menu/${menuId}/params/${menuId}`);
    await poll(() => page.locator('.ant-table-row').count()).toBe(1);

    const switchTo = async (language: string) => {
      await page.getByTestId('language-selector').click();
      await page.locator('.ant-dropdown:visible').last().getByText(language).click();
    };
    // A stored record, opened and left untouched while the language changes there and back.
    await page.locator('.ant-table-row').first().getByRole('button', { name: /编\s*辑/ }).click();
    await poll(() => page.locator('#f-LangVisit-CountryName').inputValue()).toBe('中国');
    await switchTo('English');
    await poll(() => page.getByRole('button', { name: /Back to the list/i }).count()).toBe(1);
    await switchTo('简体中文');
    await page.getByRole('button', { name: '返回列表' }).click();
    await poll(() => page.locator('.ant-table-row').count()).toBe(1);
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);

    // A new record (defaults filled in): the same.
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.locator('#f-LangVisit-VisitDate').waitFor();
    await switchTo('English');
    await poll(() => page.getByRole('button', { name: /Back to the list/i }).count()).toBe(1);
    await page.getByRole('button', { name: /Back to the list/i }).click();
    await poll(() => page.locator('.ant-table-row').count()).toBe(1);
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);

    // A real edit still asks.
    await page.locator('.ant-table-row').first().getByRole('button', { name: /Edit/ }).click();
    await page.locator('#f-LangVisit-Amount').fill('99');
    await switchTo('简体中文');
    await page.getByRole('button', { name: '返回列表' }).click();
    await page.locator('.ant-modal-confirm').waitFor();
    await context.close();
  });
});
