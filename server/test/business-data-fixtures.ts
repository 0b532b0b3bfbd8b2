import type ExcelJS from 'exceljs';
import { uploadWorkbook } from './workbook-upload.ts';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TDataControl, TDataLinkage, TPageDefinition, TView } from '@tessera/core/page-definition';
import type { TestApp } from './test-app.ts';
import { control, pagesApi, view } from './page-helpers.ts';
import { translator } from '../src/modules/business-data/business-data.messages.ts';
import { buildRuntimePage, PageAccess } from '../src/modules/business-data/runtime-page.ts';
import type { SaveSession } from '../src/modules/business-data/save/model.ts';
import type { ServiceContext } from '../src/platform/context.ts';

/*
 * Test fixtures of the business runtime: a supplier page (the lookup source) and the purchase-order
 * page of the designer issue (master with a document number, lookup, date, totals; lines with
 * quantity × price), created and published through the pages API.
 */

export const BD = '/api/app/business-data';

export interface PurchaseOrderPage {
  pageId: string;
  code: string;
  definition: TPageDefinition;
  masterId: string;
  linesId: string;
  supplierPageId: string;
  supplierViewId: string;
  c: Record<string, TDataControl>;
}

export async function createDocumentNumberRule(t: TestApp, token: string, code: string) {
  const res = await t.call(token, {
    method: 'POST',
    url: '/api/app/document-number',
    payload: { code, name: code, resetPeriod: 'never', timeZone: 'UTC', segments: [{ type: 'text', value: `${code}-` }, { type: 'serial', width: 5, start: 1, step: 1 }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

export async function publishPage(t: TestApp, token: string, code: string, definition: TPageDefinition): Promise<string> {
  const api = pagesApi(t, () => token);
  const page = await api.create(code, definition);
  const res = await api.publish(page.id);
  expect(res.statusCode, res.body).toBe(200);
  return page.id;
}

/** Every control type of the registry, on one master view (for the round-trip test). */
export function allTypesDefinition(): { definition: TPageDefinition; view: TView } {
  const v = view('AllTypes', [
    control('Text', 1001, { extraProperties: { maxLength: 20 } }),
    control('Integer', 1002, { extraProperties: { min: -1000, max: 1000000 } }),
    control('Money', 1003, { extraProperties: { accuracy: 2 } }),
    control('Day', 1004, { extraProperties: { dateType: 2 } }),
    control('Month', 1004, { extraProperties: { dateType: 1 } }),
    control('Stamp', 1004, { extraProperties: { dateType: 3 } }),
    control('Flag', 1005),
    control('Choice', 1006, { options: [{ label: 'Red', value: 'r' }, { label: 'Blue', value: 'b' }] }),
    control('Choice2', 1007, { options: [{ label: 'One', value: '1' }] }),
    control('Multi', 1008, { options: [{ label: 'A', value: 'a' }, { label: 'B', value: 'b' }] }),
    control('Values', 1009),
    control('Lookup', 1010),
    control('DocNo', 2001),
    control('RefId', 3001),
    control('RefIds', 3002),
    control('People', 4001),
    control('Required', 1001, { extraProperties: { required: true } }),
  ]);
  return { definition: { viewControls: [v], pageButtons: [], dataLinkages: [] }, view: v };
}

export async function createPurchaseOrderPage(t: TestApp, token: string, options: { code?: string; ruleId?: string } = {}): Promise<PurchaseOrderPage> {
  const code = options.code ?? 'PurchaseOrder';
  const supplier = view('Supplier', [control('SupplierName', 1001), control('City', 1001), control('Rating', 1002)]);
  const supplierPageId = await publishPage(t, token, `${code}Supplier`, { viewControls: [supplier], pageButtons: [], dataLinkages: [] });

  const c: Record<string, TDataControl> = {
    OrderNo: control('OrderNo', 2001, { docNoOccasion: 1, extraProperties: options.ruleId ? { documentNumberRuleId: options.ruleId } : {} }),
    Supplier: control('Supplier', 1010, {
      extraProperties: { dataSourceId: supplier.id, dataSourceTitle: 'SupplierName', mapFields: [{ sourceCode: 'SupplierName', targetCode: 'SupplierName' }] },
    }),
    SupplierName: control('SupplierName', 1001),
    OrderDate: control('OrderDate', 1004, { defaultValue: '1', extraProperties: { dateType: 2 } }),
    Total: control('Total', 1003, { valueTakingType: 2, extraProperties: { accuracy: 2 } }),
    Approved: control('Approved', 1005),
    Note: control('Note', 1001, { extraProperties: { maxLength: 50 } }),
    Product: control('Product', 1001, { extraProperties: { required: true } }),
    Quantity: control('Quantity', 1002, { extraProperties: { min: 0 } }),
    Price: control('Price', 1003, { extraProperties: { accuracy: 2 } }),
    Amount: control('Amount', 1003, { valueTakingType: 2, extraProperties: { accuracy: 2 } }),
  };
  const master = view('Order', [c.OrderNo, c.Supplier, c.SupplierName, c.OrderDate, c.Total, c.Approved, c.Note]);
  const lines = view('Lines', [c.Product, c.Quantity, c.Price, c.Amount], { viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId' });
  master.viewControls = [lines];
  const dataLinkages: TDataLinkage[] = [
    { id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: c.Quantity.id, triggerFormula: 'TRUE' }, { dataControlId: c.Price.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: c.Amount.id, assignmentFormula: 'ROUND({Quantity} * {Price}, 2)' }], pageEvents: [], pageStateControls: [] },
    { id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: c.Amount.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: c.Total.id, assignmentFormula: 'SUM({Lines.Amount})' }], pageEvents: [], pageStateControls: [] },
  ];
  const definition: TPageDefinition = { viewControls: [master], pageButtons: [], dataLinkages };
  const pageId = await publishPage(t, token, code, definition);
  return { pageId, code, definition, masterId: master.id, linesId: lines.id, supplierPageId, supplierViewId: supplier.id, c };
}

export interface DeliveryPlanPage {
  pageId: string;
  masterId: string;
  linesId: string;
  deliveriesId: string;
  checksId: string;
  remarksId: string;
}

/**
 * A page four views deep: Order → Lines → Deliveries (per line) → Checks (per delivery), plus a
 * second direct child, Remarks, that comes after the Lines subtree in page order.
 */
export async function createDeliveryPlanPage(t: TestApp, token: string, code = 'DeliveryPlan'): Promise<DeliveryPlanPage> {
  const master = view('Order', [control('SupplierName', 1001), control('Note', 1001, { extraProperties: { maxLength: 50 } })]);
  const lines = view('Lines', [control('Product', 1001, { extraProperties: { required: true } }), control('Quantity', 1002, { extraProperties: { min: 0 } })], { viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId' });
  const deliveries = view('Deliveries', [control('DeliverOn', 1004, { extraProperties: { dateType: 2 } }), control('Shipped', 1002, { extraProperties: { min: 0 } })], { viewType: 2, parentViewControlId: lines.id, associateForeignKeyCode: 'ParentViewDataId' });
  const checks = view('Checks', [control('Inspector', 1001, { extraProperties: { required: true } })], { viewType: 2, parentViewControlId: deliveries.id, associateForeignKeyCode: 'ParentViewDataId' });
  const remarks = view('Remarks', [control('Text', 1001)], { viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId' });
  deliveries.viewControls = [checks];
  lines.viewControls = [deliveries];
  master.viewControls = [lines, remarks];
  const pageId = await publishPage(t, token, code, { viewControls: [master], pageButtons: [], dataLinkages: [] });
  return { pageId, masterId: master.id, linesId: lines.id, deliveriesId: deliveries.id, checksId: checks.id, remarksId: remarks.id };
}

/** Calls a business-data route and expects `status`; returns the parsed body. */
export async function bd(t: TestApp, token: string, path: string, payload: object, status = 200) {
  const res = await t.call(token, { method: 'POST', url: `${BD}/${path}`, payload });
  expect(res.statusCode, res.body).toBe(status);
  return res.body ? res.json() : undefined;
}

export const newId = () => randomUUID();

/** Creates a business dictionary through the API; its id. */
export async function createDictionary(t: TestApp, token: string, payload: { code: string; title: Record<string, string>; items: object[] }): Promise<string> {
  const res = await t.call(token, { method: 'POST', url: '/api/app/business-dictionary', payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

/** Imports a workbook (bytes, or an ExcelJS workbook) into a master view: the raw body, the view in the query. */
export async function importWorkbook(t: TestApp, token: string, target: { pageId: string; viewId: string }, file: Buffer | ExcelJS.Workbook) {
  const payload = Buffer.isBuffer(file) ? file : Buffer.from(await file.xlsx.writeBuffer());
  return uploadWorkbook(t, token, `${BD}/import-view-data?pageId=${target.pageId}&viewId=${target.viewId}`, payload);
}

/**
 * A runtime page for the save pipeline's unit tests (no database): an order (Name required, at most
 * 5 characters; Qty ≥ 0; Total computed; DocNo numbered by rule R) with lines (Product, Amount),
 * and a session of a user who holds every code unless `holds` says otherwise.
 */
export function savePipelineFixture(options: { holds?: (code: string) => boolean } = {}) {
  const c = {
    Name: control('Name', 1001, { extraProperties: { required: true, maxLength: 5 } }),
    Qty: control('Qty', 1002, { extraProperties: { min: 0 } }),
    Total: control('Total', 1003, { valueTakingType: 2, extraProperties: { accuracy: 2 } }),
    DocNo: control('DocNo', 2001, { extraProperties: { documentNumberRuleId: 'R' } }),
    Product: control('Product', 1001),
    Amount: control('Amount', 1003, { extraProperties: { accuracy: 2 } }),
  };
  const order = view('Order', [c.Name, c.Qty, c.Total, c.DocNo]);
  const lines = view('Lines', [c.Product, c.Amount], { viewType: 2, parentViewControlId: order.id, associateForeignKeyCode: 'ParentViewDataId' });
  order.viewControls = [lines];
  const page = buildRuntimePage({ id: randomUUID(), code: 'Order', name: { 'en-US': 'Order' } }, 1, { viewControls: [order], pageButtons: [], dataLinkages: [] })!;
  const user = { id: randomUUID(), userName: 'ann', name: 'Ann', surname: '', avatar: null, sessionId: 's', apiKey: null, isAdmin: false, access: new Set<string>(), organizationUnitId: null, organizationUnitName: null, organizationUnitIds: [], roleIds: [] };
  const session: SaveSession = {
    t: translator('en-US'),
    page,
    access: new PageAccess(page, options.holds ?? (() => true)),
    now: new Date('2025-03-04T05:06:07.000Z'),
    offsetMinutes: 0,
    culture: 'en-US',
    isSystem: false,
    // Not read: no control of this page is fed by a data source.
    context: {} as ServiceContext,
    queryChoices: new Map(),
    dictionaryChoices: new Map(),
    lookupChoices: new Map(),
    user,
  };
  return { page, session, user, master: page.master, lines: page.views.get(lines.id)! };
}
