import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BD, createPurchaseOrderPage, importWorkbook, newId, type PurchaseOrderPage } from '../../../test/business-data-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Issue 12, defect 4: the problems a clerk meets filtering, saving and importing (a bad number,
// a bad date, a malformed request) answer in the caller's language, not in the core's English.
let t: TestApp;
let admin: string;
let po: PurchaseOrderPage;

const CJK = /[\u4e00-\u9fff]/;
const zh = { 'accept-language': 'zh-CN,zh;q=0.9' };
const en = { 'accept-language': 'en-US' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  po = await createPurchaseOrderPage(t, admin);
});
afterAll(() => t.close());

async function refused(path: string, payload: object, headers: Record<string, string>) {
  const res = await t.call(admin, { method: 'POST', url: `${BD}/${path}`, payload, headers });
  expect(res.statusCode, res.body).toBe(400);
  return res.json().error as { message: string; validationErrors: { message: string; members: string[] }[] };
}

describe('server messages in the caller’s language (defect 4)', () => {
  it('a filter with a bad number or date answers in Chinese for zh-CN and in English for en-US', async () => {
    const filter = { pageId: po.pageId, viewId: po.masterId, filterConditions: [{ key: 'Total', judgmentMethod: 'ge', value: 'abc' }, { key: 'OrderDate', judgmentMethod: 'eq', value: 'yesterday', linkCondition: 'and' }] };
    const chinese = await refused('query-view-data', filter, zh);
    expect(chinese.validationErrors.map((e) => e.message)).toEqual(['应为数字', expect.stringContaining('日期格式不正确')]);
    expect(chinese.message).toMatch(CJK);
    const english = await refused('query-view-data', filter, en);
    expect(english.validationErrors.map((e) => e.message)).toEqual(['Expected a number', 'Invalid ISO 8601 date format']);
  });

  it('a saved value of the wrong kind names the field and the problem in Chinese', async () => {
    const error = await refused('save-page', { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ Id: newId(), OrderDate: '05/03/2024' }] }, { viewId: po.linesId, dataList: [{ Product: 'Pen', Quantity: 1.5 }] }] }, zh);
    const messages = error.validationErrors.map((e) => e.message).join('\n');
    expect(messages).toContain('应为整数');
    expect(messages).toContain('日期格式不正确');
    expect(messages).not.toMatch(/Expected|Invalid/);
  });

  it('an import with a bad number and a bad date reports each cell in Chinese', async () => {
    const workbook = new ExcelJS.Workbook();
    const master = workbook.addWorksheet('Order');
    master.addRow(['SupplierName', 'OrderDate']);
    master.addRow(['North', 'yesterday']);
    const lines = workbook.addWorksheet('Lines');
    lines.addRow(['主表行号', 'Product', 'Quantity']);
    lines.addRow([2, 'Pen', 'many']);
    const res = await importWorkbook(t, admin, { pageId: po.pageId, viewId: po.masterId }, workbook);
    expect(res.statusCode, res.body).toBe(400);
    const errors = res.json().error.details.errors as { message: string }[];
    expect(errors.length).toBeGreaterThanOrEqual(2);
    for (const e of errors) {
      expect(e.message).toMatch(CJK);
      expect(e.message).not.toMatch(/Expected|Invalid ISO/);
    }
  });

  it('a malformed request gets zod’s problems in Chinese, and a module’s own rule too', async () => {
    const malformed = { pageId: po.pageId, viewId: po.masterId, MaxResultCount: 'many', filterConditions: {} };
    const error = await refused('query-view-data', malformed, zh);
    expect(error.validationErrors.length).toBeGreaterThan(0);
    for (const e of error.validationErrors) expect(e.message, e.members.join()).toMatch(CJK);
    const english = await refused('query-view-data', malformed, en);
    expect(english.validationErrors[0]!.message).toMatch(/^Invalid input/);

    const roles = (await t.call(admin, { method: 'GET', url: '/api/identity/roles?Filter=admin' })).json().items as { id: string; name: string }[];
    const adminRole = roles.find((r) => r.name === 'admin')!;
    const grants = await t.call(admin, { method: 'PUT', url: `/api/permission-management/permissions?providerName=R&providerKey=${adminRole.id}`, headers: zh, payload: { permissions: [] } });
    expect(grants.statusCode, grants.body).toBe(400);
    expect(grants.json().error.message).toBe('管理员角色拥有全部权限，不能修改其授权');
  });
});
