import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { bd, createDocumentNumberRule, createPurchaseOrderPage, newId, type PurchaseOrderPage } from '../../../test/business-data-fixtures.ts';
import { systemContext } from '../../platform/context.ts';
import { deleteData, queryPageData, queryViewData, savePage } from './index.ts';

/*
 * A workflow step or a data-transmission worker saves and reads records of a page without a
 * request: through business-data's entry, with the system as actor (every permission, every row).
 */
let t: TestApp;
let admin: string;
let po: PurchaseOrderPage;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  po = await createPurchaseOrderPage(t, admin, { ruleId: await createDocumentNumberRule(t, admin, 'SYS') });
});
afterAll(() => t.close());

describe('business data from a job (systemContext)', () => {
  it('saves, reads, updates and deletes a record like a route does', async () => {
    const ctx = systemContext(t.app, { acceptLanguage: 'en-US' });
    const id = newId();
    const lines = [{ Id: newId(), Product: 'Pen', Quantity: 3, Price: '1.50' }];
    const saved = await savePage(ctx, { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ Id: id, SupplierName: 'ACME' }] }, { viewId: po.linesId, dataList: lines }] });
    const master = saved.viewDataList[0]!.dataList[0]!;
    expect(master).toMatchObject({ Id: id, SupplierName: 'ACME', OrderNo: 'SYS-00001', Total: 4.5, CreatorId: null });

    // What the job wrote is what a user reads through the API, and what the job reads back.
    const loaded = await bd(t, admin, 'query-page-data', { pageId: po.pageId, id });
    expect(loaded.viewDataList[0].dataList[0]).toMatchObject({ Id: id, OrderNo: 'SYS-00001', Total: 4.5 });
    expect(await queryPageData(ctx, { pageId: po.pageId, id })).toEqual(saved);
    const list = await queryViewData(ctx, { pageId: po.pageId, viewId: po.masterId, SkipCount: 0, MaxResultCount: 10 });
    expect(list.items.map((r) => r.Id)).toEqual([id]);

    // A stale stamp is refused the same way (409).
    await expect(savePage(ctx, { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ Id: id, ConcurrencyStamp: 'stale', Note: 'x' }] }] })).rejects.toMatchObject({ statusCode: 409 });
    const updated = await savePage(ctx, { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ Id: id, ConcurrencyStamp: master.ConcurrencyStamp, Note: 'by the job' }] }] });
    expect(updated.viewDataList[0]!.dataList[0]).toMatchObject({ Note: 'by the job', Total: 4.5 });

    expect(await deleteData(ctx, { pageId: po.pageId, ids: [id] })).toEqual({ deleted: 1 });
    await expect(queryPageData(ctx, { pageId: po.pageId, id })).rejects.toMatchObject({ statusCode: 404 });
  });
});
