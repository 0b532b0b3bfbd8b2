import type { TPrintElement, TPrintLayout } from '@tessera/core/contracts/print-templates';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bizPermission } from '@tessera/core/contracts/permissions';
import { bd, createPurchaseOrderPage, type PurchaseOrderPage } from '../../../test/business-data-fixtures.ts';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { pdfPageTexts } from '../../../test/pdf-pages.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Print templates (issue 15): CRUD, concurrency, publish checked against the page, versions,
// copy, export / import, permissions, and PDFs: Chinese text, formats, a table whose header
// repeats on every page, page numbers, print counts, field permissions.

let t: TestApp;
let admin: string;
let po: PurchaseOrderPage;
let orderId: string;
const URL = '/api/app/print-template';

const style = { font: 'sans', fontSize: 10, alignment: 'left', verticalAlignment: 'middle', lineHeight: 1, characterSpacing: 0, color: '#000000', backgroundColor: '', underline: false } as const;
const base = { rotate: 0, everyPage: false } as const;
const text = (id: string, y: number, source: object, format: object = { kind: 'none' }, extra: object = {}): TPrintElement =>
  ({ ...base, id, type: 'text', x: 10, y, width: 150, height: 8, source, format, style, ...extra }) as TPrintElement;

function orderLayout(): TPrintLayout {
  return {
    paper: { preset: 'A4', width: 210, height: 297, orientation: 'portrait', margins: [15, 10, 15, 10] },
    elements: [
      text('title', 10, { kind: 'static', text: '采购订单' }, { kind: 'none' }, { style: { ...style, font: 'sansBold', fontSize: 18, alignment: 'center' } }),
      text('supplier', 22, { kind: 'field', field: 'SupplierName' }),
      text('total', 30, { kind: 'field', field: 'Total' }, { kind: 'chineseAmount' }),
      text('totalNumber', 38, { kind: 'field', field: 'Total' }, { kind: 'number', precision: 2, thousands: true }),
      text('day', 46, { kind: 'field', field: 'OrderDate' }, { kind: 'date', pattern: 'YYYY年M月D日' }),
      text('formula', 54, { kind: 'formula', formula: 'CONCATENATE("备注：", {Note})' }),
      {
        ...base,
        id: 'lines',
        type: 'table',
        x: 10,
        y: 64,
        width: 190,
        height: 12,
        view: 'Lines',
        repeatHead: true,
        totalLabel: '合计',
        columns: [
          { field: 'Product', title: '品名', width: 50, alignment: 'left', format: { kind: 'none' }, total: false },
          { field: 'Quantity', title: '数量', width: 20, alignment: 'right', format: { kind: 'number', precision: 0, thousands: true }, total: true },
          { field: 'Amount', title: '金额', width: 30, alignment: 'right', format: { kind: 'number', precision: 2, thousands: true }, total: true },
        ],
        style: { font: 'sans', fontSize: 9, headBackground: '#eeeeee', headColor: '#000000', borderColor: '#000000', borderWidth: 0.2, padding: 1 },
      },
      { ...text('pageNo', 285, { kind: 'pageNumber', pattern: 'zh' }), everyPage: true },
      { ...base, id: 'qr', type: 'qrCode', x: 175, y: 5, width: 20, height: 20, source: { kind: 'field', field: 'SupplierName' } },
    ],
  };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  po = await createPurchaseOrderPage(t, admin, { code: 'PrintOrder' });
  const lines = Array.from({ length: 120 }, (_, i) => ({ Product: `钢笔 ${i + 1}`, Quantity: i + 1, Price: 2.5 }));
  const saved = await bd(t, admin, 'save-page', {
    pageId: po.pageId,
    viewDataList: [{ viewId: po.masterId, dataList: [{ SupplierName: '上海文具有限公司', Note: '加急', OrderDate: '2026-11-20' }] }, { viewId: po.linesId, dataList: lines }],
  });
  orderId = saved.viewDataList[0].dataList[0].Id;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) =>
  t.call(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) => {
  const res = await call(method, url, payload, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const create = (body: object = {}) => ok('POST', URL, { name: '采购订单', pageId: po.pageId, layout: orderLayout(), ...body });

const userId = async (userName: string) => (await t.app.db.selectFrom('users').select('id').where('user_name', '=', userName).executeTakeFirstOrThrow()).id;

const pdfPages = (pdf: Buffer) => pdfPageTexts(pdf);

describe('print templates', () => {
  it('creates, saves with a stamp (a stale one is a 409), copies, publishes and lists versions', async () => {
    const created = await create({ description: '标准采购单' });
    expect(created).toMatchObject({ name: '采购订单', pageId: po.pageId, pageCode: 'PrintOrder', status: 'draft', enabled: false, publishedVersion: null, hasDraftChanges: true });
    expect(created.layout.elements).toHaveLength(9);

    const saved = await ok('PUT', `${URL}/${created.id}`, { name: '采购订单 A4', pageId: po.pageId, layout: created.layout, permissionCode: null, approvedOnly: false, concurrencyStamp: created.concurrencyStamp });
    expect(saved.name).toBe('采购订单 A4');
    const stale = await call('PUT', `${URL}/${created.id}`, { name: 'x', pageId: po.pageId, layout: created.layout, permissionCode: null, approvedOnly: false, concurrencyStamp: created.concurrencyStamp });
    expect(stale.statusCode).toBe(409);
    expect((await ok('GET', `${URL}/${created.id}`)).name).toBe('采购订单 A4');

    const published = await ok('POST', `${URL}/${created.id}/publish`, {});
    expect(published).toMatchObject({ status: 'published', publishedVersion: 1, enabled: true, hasDraftChanges: false });
    const copy = await ok('POST', `${URL}/${created.id}/copy`, {});
    expect(copy).toMatchObject({ name: '采购订单 A4 - 副本', status: 'draft', enabled: false });
    const versions = await ok('GET', `${URL}/${created.id}/versions`);
    expect(versions.items).toEqual([expect.objectContaining({ version: 1, elementCount: 9 })]);

    const list = await ok('GET', `${URL}?Filter=${encodeURIComponent('A4')}&Sorting=name`);
    expect(list.items.map((i: { name: string }) => i.name)).toEqual(['采购订单 A4', '采购订单 A4 - 副本']);
    expect((await ok('GET', `${URL}?Status=published&PageId=${po.pageId}`)).items.map((i: { id: string }) => i.id)).toContain(created.id);
  });

  it('refuses to publish fields, views and columns the page lacks, listing each', async () => {
    const layout = orderLayout();
    layout.elements.push(text('ghost', 100, { kind: 'field', field: 'Ghost' }));
    const table = layout.elements.find((e) => e.type === 'table')!;
    if (table.type === 'table') table.columns.push({ field: 'Nope', title: 'x', width: 10, alignment: 'left', format: { kind: 'none' }, total: false });
    const created = await create({ layout });
    const res = await call('POST', `${URL}/${created.id}/publish`, {}, admin);
    expect(res.statusCode).toBe(400);
    const messages = res.json().error.validationErrors.map((e: { message: string }) => e.message).join('\n');
    expect(messages).toContain('Ghost');
    expect(messages).toContain('Nope');
    expect((await ok('GET', `${URL}/${created.id}`)).publishedVersion).toBeNull();
  });

  it('answers 400 with validationErrors for hostile layouts and writes nothing', async () => {
    const before = (await ok('GET', URL)).totalCount;
    const bad = [
      { ...orderLayout(), elements: [{ ...text('a', 1, { kind: 'static', text: 'x' }), x: -5 }] },
      { ...orderLayout(), elements: [text('a', 1, { kind: 'field', field: 'a b; drop table' })] },
      { ...orderLayout(), elements: [{ ...base, id: 'img', type: 'image', x: 0, y: 0, width: 10, height: 10, content: 'javascript:alert(1)' }] },
      { ...orderLayout(), elements: [text('dup', 1, { kind: 'static', text: 'x' }), text('dup', 2, { kind: 'static', text: 'y' })] },
      { ...orderLayout(), elements: Array.from({ length: 201 }, (_, i) => text(`e${i}`, 1, { kind: 'static', text: 'x' })) },
      { ...orderLayout(), elements: orderLayout().elements.map((e) => (e.type === 'table' ? { ...e, subtotalLabel: '小'.repeat(51) } : e)) },
    ];
    const messages: string[] = [];
    for (const layout of bad) {
      const res = await call('POST', URL, { name: 'bad', pageId: po.pageId, layout });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
      messages.push(...res.json().error.validationErrors.map((e: { message: string }) => e.message));
    }
    // In the caller's language (zh-CN), the contract's own rules too.
    expect(messages).toContain('应为 PNG 或 JPEG 图片（data URL）');
    expect(messages).toContain('元素标识不能重复');
    expect((await ok('GET', URL)).totalCount).toBe(before);
  });

  it('takes PNG and JPEG images that decode, written again; a file that does not decode is a 400 naming the element, for saving and previewing alike', async () => {
    const png = await sharp({ create: { width: 40, height: 20, channels: 4, background: '#1677ff' } }).png().toBuffer();
    const image = (content: string) => ({ ...orderLayout(), elements: [{ ...base, id: 'logo', type: 'image', x: 10, y: 10, width: 20, height: 10, content }] });
    const good = await create({ layout: image(`data:image/png;base64,${png.toString('base64')}`) });
    expect(good.layout.elements[0].content).toMatch(/^data:image\/png;base64,/);
    expect((await call('POST', `${URL}/preview`, { pageId: po.pageId, layout: good.layout })).statusCode).toBe(200);
    for (const method of ['create', 'preview'] as const) {
      const bad = image('data:image/png;base64,AAAA');
      const res = method === 'create' ? await call('POST', URL, { name: 'bad', pageId: po.pageId, layout: bad }) : await call('POST', `${URL}/preview`, { pageId: po.pageId, layout: bad });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.validationErrors[0].members).toEqual(['layout.elements.0.content']);
    }
  });

  it('exports JSON and imports it as a new draft (by page code when the id is unknown)', async () => {
    const source = await create({ name: '导出源' });
    const exported = await call('GET', `${URL}/${source.id}/export`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toContain('attachment');
    const doc = exported.json();
    doc.template.page.id = '00000000-0000-7000-8000-000000000000';
    const imported = await ok('POST', `${URL}/import`, { document: doc, name: '导入的模板' });
    expect(imported).toMatchObject({ name: '导入的模板', pageId: po.pageId, status: 'draft' });
    expect(imported.layout).toEqual(source.layout);
    doc.template.page.code = 'NoSuchPage';
    expect((await call('POST', `${URL}/import`, { document: doc })).statusCode).toBe(400);
  });

  it('prints an order: Chinese text, formats, a table over three pages with its header on each, page numbers, a file named by the order number; counts prints', async () => {
    const template = await create({ name: '打印测试' });
    await ok('POST', `${URL}/${template.id}/publish`, {});
    const res = await call('POST', `${URL}/${template.id}/render`, { recordIds: [orderId], download: true, offsetMinutes: 480 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const order = (await bd(t, admin, 'query-page-data', { pageId: po.pageId, id: orderId })).viewDataList[0].dataList[0];
    expect(res.headers['content-disposition']).toContain(`${order.OrderNo}.pdf`);
    const pages = await pdfPages(res.rawPayload);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages[0]).toContain('采购订单');
    expect(pages[0]).toContain('上海文具有限公司');
    // Total = 120 lines × quantity × 2.5 = 2.5 × 7260 = 18150
    expect(pages[0]).toContain('壹万捌仟壹佰伍拾元整');
    expect(pages[0]).toContain('18,150.00');
    expect(pages[0]).toContain('2026年11月20日');
    expect(pages[0]).toContain('备注：加急');
    pages.forEach((page, i) => {
      expect(page, `page ${i + 1}`).toMatch(/品名\s+数量\s+金额/);
      expect(page).toMatch(new RegExp(`第\\s*${i + 1}\\s*页\\s*/\\s*共\\s*${pages.length}\\s*页`));
    });
    expect(pages.at(-1)).toMatch(/合计\s+7,260\s+18,150\.00/);
    expect(pages.join('\n')).toContain('钢笔 120');

    await call('POST', `${URL}/${template.id}/render`, { recordIds: [orderId] });
    const count = await ok('GET', `${URL}/print-count?pageId=${po.pageId}&recordId=${orderId}`);
    expect(count).toMatchObject({ count: 2, lastTemplateName: '打印测试' });
    expect(count.lastUserName).toBeTruthy();
  });

  it('closes each page of a saved order with the subtotal of its rows when the template asks for page subtotals', async () => {
    const layout = orderLayout();
    layout.elements = layout.elements.map((e) => (e.type === 'table' ? { ...e, subtotalLabel: '本页小计' } : e));
    const template = await create({ name: '小计测试', layout });
    await ok('POST', `${URL}/${template.id}/publish`, {});
    const res = await call('POST', `${URL}/${template.id}/render`, { recordIds: [orderId] });
    expect(res.statusCode, res.body).toBe(200);
    const pages = await pdfPages(res.rawPayload);
    const number = (s: string) => Number(s.replace(/,/g, ''));
    let quantity = 0;
    for (const page of pages) {
      const rows = [...page.matchAll(/钢笔 \d+\s+([\d,]+)\s+([\d,.]+)/g)];
      const subtotal = /本页小计\s+([\d,]+)\s+([\d,.]+)/.exec(page);
      expect(subtotal, page).not.toBeNull();
      expect(number(subtotal![1]!)).toBe(rows.reduce((n, m) => n + number(m[1]!), 0));
      expect(number(subtotal![2]!)).toBeCloseTo(rows.reduce((n, m) => n + number(m[2]!), 0), 2);
      quantity += number(subtotal![1]!);
    }
    expect(quantity).toBe(7260);
    expect(pages.at(-1)).toMatch(/本页小计[\s\S]*合计\s+7,260\s+18,150\.00/);

    // A new version without them prints without them (a published version's compiled form is kept, by version).
    const draft = await ok('GET', `${URL}/${template.id}`);
    await ok('PUT', `${URL}/${template.id}`, { name: draft.name, pageId: po.pageId, layout: orderLayout(), permissionCode: null, approvedOnly: false, concurrencyStamp: draft.concurrencyStamp });
    await ok('POST', `${URL}/${template.id}/publish`, {});
    const again = await pdfPages((await call('POST', `${URL}/${template.id}/render`, { recordIds: [orderId] })).rawPayload);
    expect(again.join('\n')).not.toContain('本页小计');
    expect(again.at(-1)).toMatch(/合计\s+7,260\s+18,150\.00/);
  });

  it('merges several records into one PDF in the order given, and previews an unsaved layout with sample values', async () => {
    const second = await bd(t, admin, 'save-page', { pageId: po.pageId, viewDataList: [{ viewId: po.masterId, dataList: [{ SupplierName: '北京纸业', Note: '' }] }, { viewId: po.linesId, dataList: [{ Product: '纸', Quantity: 1, Price: 3 }] }] });
    const template = await create({ name: '合并打印' });
    await ok('POST', `${URL}/${template.id}/publish`, {});
    const res = await call('POST', `${URL}/${template.id}/render`, { recordIds: [second.viewDataList[0].dataList[0].Id, orderId] });
    expect(res.statusCode, res.body).toBe(200);
    const pages = await pdfPages(res.rawPayload);
    expect(pages[0]).toContain('北京纸业');
    expect(pages[0]).toMatch(/第\s*1\s*页\s*\/\s*共\s*1\s*页/);
    expect(pages[1]).toContain('上海文具有限公司');

    const preview = await call('POST', `${URL}/preview`, { pageId: po.pageId, layout: orderLayout() });
    expect(preview.statusCode, preview.body).toBe(200);
    const previewText = (await pdfPages(preview.rawPayload)).join('\n');
    expect(previewText).toContain('采购订单');
    expect(previewText).toContain('壹仟贰佰叁拾肆元伍角');
  });

  it("guards designing by Tessera.PrintTemplates and printing by the page right and the template's own code; fields the printer may not see print empty", async () => {
    const template = await create({ name: '权限测试', permissionCode: 'Biz.PrintOrder.Print' });
    await ok('POST', `${URL}/${template.id}/publish`, {});
    const role = await createRole(t.app.db, 'print-clerk');
    // The clerk sees the supplier and the lines, not the note.
    await grant(t.app.db, 'R', role, [...pageWorkCodes('PrintOrder'), ...['SupplierName', 'Product', 'Quantity', 'Amount'].map((f) => bizPermission.fieldView('PrintOrder', f))]);
    await createUser(t.app.db, 'print-clerk', { roles: [role] });
    await createUser(t.app.db, 'print-outsider');
    const clerk = await t.login('print-clerk', FIXTURE_PASSWORD);

    expect((await call('GET', URL, undefined, clerk)).statusCode).toBe(403);
    expect((await call('POST', URL, { name: 'x', pageId: po.pageId }, clerk)).statusCode).toBe(403);
    expect((await call('POST', `${URL}/preview`, { pageId: po.pageId, layout: orderLayout() }, clerk)).statusCode).toBe(403);
    // The template's own code: without it, no print and the template is not offered.
    expect((await call('POST', `${URL}/${template.id}/render`, { recordIds: [orderId] }, clerk)).statusCode).toBe(403);
    expect((await ok('GET', `${URL}/for-page?pageId=${po.pageId}`, undefined, clerk)).items.map((i: { id: string }) => i.id)).not.toContain(template.id);
    await grant(t.app.db, 'R', role, ['Biz.PrintOrder.Print']);
    t.app.authCache.invalidateAccess();
    const clerkAgain = await t.login('print-clerk', FIXTURE_PASSWORD);
    expect((await ok('GET', `${URL}/for-page?pageId=${po.pageId}`, undefined, clerkAgain)).items.map((i: { id: string }) => i.id)).toContain(template.id);
    const printed = await call('POST', `${URL}/${template.id}/render`, { recordIds: [orderId] }, clerkAgain);
    expect(printed.statusCode, printed.body).toBe(200);
    // A field the clerk may not see prints empty, in a field and in a formula alike.
    const text = (await pdfPages(printed.rawPayload)).join('\n');
    expect(text).toContain('上海文具有限公司');
    expect(text).toContain('钢笔 1');
    expect(text).toContain('备注：');
    expect(text).not.toContain('加急');
    // Without the page's right the record cannot be read, so it cannot be printed.
    await grant(t.app.db, 'U', await userId('print-outsider'), ['Biz.PrintOrder.Print']);
    t.app.authCache.invalidateAccess();
    const outsiderAgain = await t.login('print-outsider', FIXTURE_PASSWORD);
    expect((await call('POST', `${URL}/${template.id}/render`, { recordIds: [orderId] }, outsiderAgain)).statusCode).toBe(403);
  });
});
