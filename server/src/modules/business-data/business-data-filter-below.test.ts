import ExcelJS from 'exceljs';
import { bizPermission } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { BD, bd, createDeliveryPlanPage, newId, type DeliveryPlanPage } from '../../../test/business-data-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Issue 12: the list filters by the views below it — "orders having a line with product X",
// "orders with a delivery checked by Ann" — with each condition an EXISTS over the rows below.

let t: TestApp;
let admin: string;
let dp: DeliveryPlanPage;

const names = async (token: string, filterConditions: object[]) =>
  (await bd(t, token, 'query-view-data', { pageId: dp.pageId, viewId: dp.masterId, filterConditions, Sorting: 'SupplierName asc' })).items.map((r: { SupplierName: string }) => r.SupplierName);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  dp = await createDeliveryPlanPage(t, admin, 'BelowPlan');
  const order = async (name: string, lines: { product: string; quantity: number; deliveries?: { on: string; inspectors?: string[] }[] }[], remark?: string) => {
    const lineRows: object[] = [];
    const deliveryRows: object[] = [];
    const checkRows: object[] = [];
    for (const line of lines) {
      const lineId = newId();
      lineRows.push({ Id: lineId, Product: line.product, Quantity: line.quantity });
      for (const d of line.deliveries ?? []) {
        const deliveryId = newId();
        deliveryRows.push({ Id: deliveryId, ParentViewDataId: lineId, DeliverOn: d.on, Shipped: 1 });
        for (const inspector of d.inspectors ?? []) checkRows.push({ ParentViewDataId: deliveryId, Inspector: inspector });
      }
    }
    await bd(t, admin, 'save-page', {
      pageId: dp.pageId,
      viewDataList: [
        { viewId: dp.masterId, dataList: [{ SupplierName: name, Note: 'n' }] },
        { viewId: dp.linesId, dataList: lineRows },
        { viewId: dp.deliveriesId, dataList: deliveryRows },
        { viewId: dp.checksId, dataList: checkRows },
        { viewId: dp.remarksId, dataList: remark ? [{ Text: remark }] : [] },
      ],
    });
  };
  await order('A', [{ product: 'Pen', quantity: 2, deliveries: [{ on: '2024-01-05', inspectors: ['Ann'] }] }, { product: 'Ink', quantity: 9 }], 'urgent');
  await order('B', [{ product: 'Cup', quantity: 5, deliveries: [{ on: '2024-03-01', inspectors: ['Bob'] }] }]);
  await order('C', [{ product: 'Pen', quantity: 1 }]);
  await order('D', []);
});
afterAll(() => t.close());

describe('filters on the views below the list', () => {
  it('match the orders having a row below that matches, at any depth', async () => {
    expect(await names(admin, [{ key: 'Lines.Product', judgmentMethod: 'eq', value: 'Pen' }])).toEqual(['A', 'C']);
    expect(await names(admin, [{ key: 'Lines.Quantity', judgmentMethod: 'ge', value: 5 }])).toEqual(['A', 'B']);
    expect(await names(admin, [{ key: 'Checks.Inspector', judgmentMethod: 'eq', value: 'Ann' }])).toEqual(['A']);
    expect(await names(admin, [{ key: 'Deliveries.DeliverOn', judgmentMethod: 'between', value: ['2024-02-01', '2024-12-31'] }])).toEqual(['B']);
    expect(await names(admin, [{ key: 'Remarks.Text', judgmentMethod: 'contains', value: 'URG' }])).toEqual(['A']);
    // Orders with no row below match no positive condition; "is empty" asks for a row with an empty value.
    expect(await names(admin, [{ key: 'Lines.Product', judgmentMethod: 'isNotEmpty' }])).toEqual(['A', 'B', 'C']);
  });

  it('combine with the master fields and with each other (each condition its own row below)', async () => {
    expect(await names(admin, [{ key: 'Lines.Product', judgmentMethod: 'eq', value: 'Pen' }, { key: 'SupplierName', judgmentMethod: 'ne', value: 'A' }])).toEqual(['C']);
    // A has a Pen line and an Ink line: both conditions hold, on different lines.
    expect(await names(admin, [{ key: 'Lines.Product', judgmentMethod: 'eq', value: 'Pen' }, { key: 'Lines.Product', judgmentMethod: 'eq', value: 'Ink' }])).toEqual(['A']);
    expect(await names(admin, [{ key: 'Lines.Product', judgmentMethod: 'eq', value: 'Cup' }, { key: 'Checks.Inspector', judgmentMethod: 'eq', value: 'Ann', linkCondition: 'or' }])).toEqual(['A', 'B']);
  });

  it('a deleted row below no longer matches; the export follows the same filter', async () => {
    const c = (await bd(t, admin, 'query-view-data', { pageId: dp.pageId, viewId: dp.masterId, filterConditions: [{ key: 'SupplierName', judgmentMethod: 'eq', value: 'C' }] })).items[0];
    const page = await bd(t, admin, 'query-page-data', { pageId: dp.pageId, id: c.Id });
    const master = page.viewDataList.find((v: { viewId: string }) => v.viewId === dp.masterId).dataList[0];
    const saved = await bd(t, admin, 'save-page', { pageId: dp.pageId, viewDataList: [{ viewId: dp.masterId, dataList: [master] }, { viewId: dp.linesId, dataList: [] }] });
    expect(saved.viewDataList.find((v: { viewId: string }) => v.viewId === dp.linesId).dataList).toEqual([]);
    expect(await names(admin, [{ key: 'Lines.Product', judgmentMethod: 'eq', value: 'Pen' }])).toEqual(['A']);
    const res = await t.call(admin, { method: 'POST', url: `${BD}/export-view-data`, payload: { pageId: dp.pageId, viewId: dp.masterId, filterConditions: [{ key: 'Lines.Quantity', judgmentMethod: 'ge', value: 5 }], Sorting: 'SupplierName asc' } });
    expect(res.statusCode, res.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const exported: unknown[] = [];
    workbook.worksheets[0]!.eachRow((row, n) => n > 1 && exported.push(row.getCell(1).value));
    expect(exported).toEqual(['A', 'B']);
  });

  it('only the fields below the caller may see; unknown views and fields are a 400', async () => {
    const role = await createRole(t.database.db, 'below-readers');
    await grant(t.database.db, 'R', role, [...pageWorkCodes('BelowPlan'), bizPermission.fieldView('BelowPlan', 'SupplierName'), bizPermission.fieldView('BelowPlan', 'Product')]);
    await createUser(t.database.db, 'below-reader', { roles: [role] });
    await t.call(admin, { method: 'PUT', url: `/api/app/data-scopes?roleId=${role}`, payload: { items: [{ pageKey: 'BelowPlan', scope: 'all', customFilter: null }] } });
    const reader = await t.login('below-reader', FIXTURE_PASSWORD);
    expect(await names(reader, [{ key: 'Lines.Product', judgmentMethod: 'eq', value: 'Cup' }])).toEqual(['B']);
    for (const key of ['Lines.Quantity', 'Checks.Inspector', 'Nope.Product', 'Lines.Nope', 'Lines.', '.Product']) {
      const res = await t.call(reader, { method: 'POST', url: `${BD}/query-view-data`, payload: { pageId: dp.pageId, viewId: dp.masterId, filterConditions: [{ key, judgmentMethod: 'eq', value: '1' }] } });
      expect(res.statusCode, key).toBe(400);
      expect(res.json().error.validationErrors[0].members[0]).toMatch(/^filterConditions\[0\]/);
    }
  });
});
