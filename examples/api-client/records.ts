/**
 * Another system writes and reads business records of a published Tessera page, with a personal
 * API key and a client typed from the product's OpenAPI document (README, "Integrating").
 *
 *   npx openapi-typescript "$TESSERA_URL/api/docs/json" -o examples/api-client/tessera-api.d.ts
 *   TESSERA_URL=http://erp.example:3000 TESSERA_API_KEY=tsk_… TESSERA_PAGE=PurchaseOrder \
 *     npx tsx examples/api-client/records.ts '[{"SupplierName":"Acme","Quantity":3}]'
 *
 * It saves each record of the JSON array (values by control code) as a new record of the page's
 * main view, reads them back, lists the newest, and prints `{ page, created, saved, newest, totalCount }`. `npm test` runs it
 * against a test server (server/test/api-client-example.test.ts).
 */
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { paths } from './tessera-api.js';

const { TESSERA_URL, TESSERA_API_KEY, TESSERA_PAGE } = process.env;
if (!TESSERA_URL || !TESSERA_API_KEY || !TESSERA_PAGE) {
  console.error('Set TESSERA_URL, TESSERA_API_KEY and TESSERA_PAGE (the page code).');
  process.exit(2);
}
const records = JSON.parse(process.argv[2] ?? '[]') as Record<string, unknown>[];

const client = createClient<paths>({ baseUrl: TESSERA_URL.replace(/\/$/, ''), headers: { 'X-API-Key': TESSERA_API_KEY } });

/** The answer's data, or the product's error (`{ error: { code, message, validationErrors } }`) and exit. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data !== undefined) return result.data;
  console.error(`${what}: HTTP ${result.response.status}`, JSON.stringify(result.error));
  process.exit(1);
}

// The published page: its main view, and the fields this key may write.
const page = ok(await client.GET('/api/app/business-data/page-runtime', { params: { query: { pageId: TESSERA_PAGE } } }), 'page');
const writable = Object.entries(page.fields).filter(([, right]) => right.edit).map(([code]) => code);
for (const record of records) {
  const unknown = Object.keys(record).filter((code) => !writable.includes(code));
  if (unknown.length) {
    console.error(`Not writable on ${page.pageCode}: ${unknown.join(', ')} (writable: ${writable.join(', ')})`);
    process.exit(1);
  }
}

// Each record is saved on its own, all or nothing: validation, numbering and history apply as in the browser.
const created: string[] = [];
for (const values of records) {
  const id = randomUUID();
  ok(
    await client.POST('/api/app/business-data/save-page', {
      body: { pageId: page.pageId, viewDataList: [{ viewId: page.masterViewId, dataList: [{ ...values, Id: id }] }] },
    }),
    'save',
  );
  created.push(id);
}

// Read each one back as the form shows it, with display texts (labels of dictionaries and pickers).
const saved = [];
for (const id of created) {
  const record = ok(await client.POST('/api/app/business-data/query-page-data', { body: { pageId: page.pageId, id } }), 'read');
  saved.push(record.viewDataList[0]?.dataList[0]);
}

// The page's list as staff see it: newest first, within the key owner's data scope.
const list = ok(
  await client.POST('/api/app/business-data/query-view-data', {
    body: { pageId: page.pageId, viewId: page.masterViewId, filterConditions: [], Sorting: 'CreationTime desc', MaxResultCount: 10 },
  }),
  'list',
);

console.log(JSON.stringify({ page: page.pageCode, created, saved, newest: list.items, totalCount: list.totalCount }));
