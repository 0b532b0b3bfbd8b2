/**
 * Printing (issue 15), `npx tsx bench/print/print.bench.ts`:
 * 1. PDFs/s of the one-page order with 20 lines, each its own PDF, through the worker pool (target ≥ 30/s).
 * 2. The time of one 1,000-line order (target ≤ 2 s) and its bytes per page (target ≤ 100 KB).
 * 3. The API's p99 for a simple GET while a 500-record batch renders, next to its idle p99 in the
 *    same run (target ≤ 2×): the real server in its own process, records saved through the API.
 */
import { PDFDocument } from '@pdfme/pdf-lib';
import { compileTemplate, fontsOf, FormulaCache, recordInputs } from '../../server/src/modules/print-templates/print-compile.ts';
import { PrintPool } from '../../server/src/modules/print-templates/print-pool.ts';
import { BENCH_ADMIN_PASSWORD } from '../lib/constants.ts';
import { load, startServer } from '../lib/run.ts';
import { call, login } from '../workflow/wf-bench-setup.ts';
import { benchLines, benchOrderLayout, benchRecord } from './print-order.ts';

const layout = benchOrderLayout();
const shared = { now: new Date(), offsetMinutes: 480, userName: '张三' };
const template = compileTemplate(layout, shared);
const fonts = fontsOf(layout);
const job = (lines: number) => ({ template, inputs: [recordInputs(layout, benchRecord(lines), shared, new FormulaCache())], fonts });

// ---------------------------------------------------------------- 1 and 2: the pool
const pool = new PrintPool();
await Promise.all([1, 2, 3, 4, 5, 6].map(() => pool.render([job(20)]))); // workers started, fonts read
const COUNT = 120;
let t0 = performance.now();
await Promise.all(Array.from({ length: COUNT }, () => pool.render([job(20)])));
const perSecond = COUNT / ((performance.now() - t0) / 1000);
const single = await pool.render([job(20)]);

t0 = performance.now();
const big = await pool.render([job(1000)]);
const bigMs = performance.now() - t0;
const bigPages = (await PDFDocument.load(big)).getPageCount();
await pool.close();

console.log('\n### Pool (2 workers)\n');
console.log('| case | figure | target |\n|---|---|---|');
console.log(`| one-page order, 20 lines, separate PDFs | ${perSecond.toFixed(1)} PDFs/s | ≥ 30/s |`);
console.log(`| that PDF's size | ${(single.length / 1024).toFixed(1)} KB | ≤ 100 KB/page |`);
console.log(`| 1,000-line order | ${bigMs.toFixed(0)} ms, ${bigPages} pages | ≤ 2,000 ms |`);
console.log(`| 1,000-line order, bytes per page | ${(big.length / bigPages / 1024).toFixed(1)} KB | ≤ 100 KB |`);

// ---------------------------------------------------------------- 3: the API while a batch renders
const server = await startServer();
try {
  const admin = await login(server.url, 'admin', BENCH_ADMIN_PASSWORD);
  const { randomUUID } = await import('node:crypto');
  const control = (code: string, controlType: number) => ({ id: randomUUID(), code, title: code, controlType, isDisplayed: true, isEdit: true });
  const master = { id: randomUUID(), code: 'Order', title: 'Order', viewType: 1, dataControls: [control('SupplierName', 1001), control('Note', 1001), control('Total', 1003)], viewButtons: [], viewControls: [] as unknown[] };
  const lines = { id: randomUUID(), code: 'Lines', title: 'Lines', viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId', dataControls: [control('Product', 1001), control('Quantity', 1002), control('Price', 1003), control('Amount', 1003)], viewButtons: [], viewControls: [] };
  master.viewControls = [lines];
  const page = await call<{ id: string }>(server.url, admin, 'POST', '/app/page-definition', { code: 'BenchPrintOrder', name: { 'zh-CN': '采购订单', 'en-US': 'Order' }, definition: { viewControls: [master], pageButtons: [], dataLinkages: [] } });
  await call(server.url, admin, 'POST', `/app/page-definition/${page.id}/publish`, {});
  const ids: string[] = [];
  for (let i = 0; i < 500; i++) {
    const saved = await call<{ viewDataList: { dataList: { Id: string }[] }[] }>(server.url, admin, 'POST', '/app/business-data/save-page', {
      pageId: page.id,
      viewDataList: [{ viewId: master.id, dataList: [{ SupplierName: `供应商 ${i + 1}`, Note: '请于本月底前送达仓库', Total: 1000 }] }, { viewId: lines.id, dataList: benchLines(20) }],
    });
    ids.push(saved.viewDataList[0]!.dataList[0]!.Id);
  }
  const created = await call<{ id: string }>(server.url, admin, 'POST', '/app/print-template', { name: '采购订单', pageId: page.id, layout });
  await call(server.url, admin, 'POST', `/app/print-template/${created.id}/publish`, {});
  // Warm the workers (their first PDF reads the fonts).
  await fetch(`${server.url}/api/app/print-template/${created.id}/render`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ recordIds: ids.slice(0, 4) }) });

  // Two probes, each idle and then while one render of all 500 orders runs: the bare GET at full
  // speed (10 connections), and a GET that reads the database (the templates list, signed in) at a
  // steady 200 requests/s — an office's traffic, not a flood.
  const probes = [
    { name: 'GET /api/bench/bare, 10 connections flat out', options: { url: `${server.url}/api/bench/bare`, duration: 8, connections: 10 } },
    {
      name: 'GET the templates list, 200 req/s',
      options: { url: `${server.url}/api/app/print-template?MaxResultCount=10`, headers: { authorization: `Bearer ${admin}` }, duration: 8, connections: 4, overallRate: 200 },
    },
  ];
  const rows: string[] = [];
  let batchMs = 0;
  let batchBytes = 0;
  for (const probe of probes) {
    const idle = await load('idle', probe.options);
    const batch = (async () => {
      const start = performance.now();
      const res = await fetch(`${server.url}/api/app/print-template/${created.id}/render`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ recordIds: ids }) });
      batchBytes = (await res.arrayBuffer()).byteLength;
      batchMs = performance.now() - start;
      if (!res.ok) throw new Error(`render ${res.status}`);
    })();
    await new Promise((r) => setTimeout(r, 300));
    const busy = await load('500-record batch rendering', probe.options);
    await batch;
    if (idle.non2xx + busy.non2xx > 0) throw new Error(`${probe.name}: answers other than 2xx`);
    rows.push(`| ${probe.name}, idle | ${idle.requestsPerSecond} | ${idle.p50} | ${idle.p99} | 1.00× | |`);
    rows.push(`| ${probe.name}, ${busy.name} | ${busy.requestsPerSecond} | ${busy.p50} | ${busy.p99} | ${(busy.p99 / Math.max(1, idle.p99)).toFixed(2)}× | ≤ 2× |`);
  }
  console.log('\n### The API while a batch renders\n');
  console.log('| case | req/s | p50 ms | p99 ms | p99 vs idle | target |\n|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`\n500-record batch (the last): ${(batchMs / 1000).toFixed(1)} s, ${(batchBytes / 1024 / 1024).toFixed(1)} MB (${(500 / (batchMs / 1000)).toFixed(1)} records/s in one PDF)`);
} finally {
  await server.stop();
}
