import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startBenchApp } from '../lib/bench-app.ts';
const seen = new Map<string, number>();
let counting = false;
const original = pg.Client.prototype.query;
(pg.Client.prototype as { query: unknown }).query = function (this: unknown, ...args: unknown[]) {
  if (counting) { const q = args[0] as string | { text: string }; const text = (typeof q === 'string' ? q : q.text).slice(0, 90); seen.set(text, (seen.get(text) ?? 0) + 1); }
  return (original as (...a: unknown[]) => unknown).apply(this, args);
};
const N = Number(process.env.N ?? 1500);
const app = await startBenchApp({ adminPassword: 'Bench#Admin2026x', createDatabaseOn: process.env.DATABASE_URL, argon2: { memoryCost: 1024, timeCost: 1 } });
const inject = app.server.app.inject.bind(app.server.app);
const login = await inject({ method: 'POST', url: '/api/Auth/Login', payload: { username: 'admin', password: 'Bench#Admin2026x' } });
const token = login.json().data.accessToken;
const h = { authorization: `Bearer ${token}` };
const control = (code: string, controlType: number, extra: object = {}) => ({ id: randomUUID(), code, title: code, controlType, isDisplayed: true, isEdit: true, ...extra });
const orders = { id: randomUUID(), code: 'Orders', title: 'Orders', viewType: 1, viewButtons: [], viewControls: [] as object[], dataControls: [control('Customer', 1001), control('Region', 1001), control('Status', 1001), control('Amount', 1003, { extraProperties: { accuracy: 2 } }), control('Qty', 1002), control('OrderDate', 1004)] };
const qty = control('Qty', 1002);
const price = control('Price', 1003, { extraProperties: { accuracy: 2 } });
const amount = control('LineAmount', 1003, { valueTakingType: 2, extraProperties: { accuracy: 2 } });
const lines = { id: randomUUID(), code: 'Lines', title: 'Lines', viewType: 2, parentViewControlId: orders.id, associateForeignKeyCode: 'ParentViewDataId', viewButtons: [], viewControls: [], dataControls: [control('Product', 1001), qty, price, amount] };
orders.viewControls = [lines];
const total = orders.dataControls[3]!;
const page = (await inject({ method: 'POST', url: '/api/app/page-definition', headers: h, payload: { code: 'BenchOrders', name: { 'zh-CN': 'B', 'en-US': 'B' }, definition: { viewControls: [orders], pageButtons: [], dataLinkages: [
  { id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: qty.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: amount.id, assignmentFormula: 'ROUND({Qty} * {Price}, 2)' }] },
  { id: randomUUID(), dataLinkType: 1, triggerConditions: [{ dataControlId: amount.id, triggerFormula: 'TRUE' }], assignments: [{ dataControlId: total.id, assignmentFormula: 'SUM({Lines.LineAmount})' }] },
] } } })).json();
await inject({ method: 'POST', url: `/api/app/page-definition/${page.id}/publish`, headers: h, payload: {} });
const body = JSON.stringify({ pageId: page.id, viewDataList: [
  { viewId: orders.id, dataList: [{ Customer: 'Bench', Region: 'R01', Status: 'open' }] },
  { viewId: lines.id, dataList: Array.from({ length: 20 }, (_, i) => ({ Product: `P${i}`, Qty: i + 1, Price: '9.99' })) },
] });
const save = async () => { const r = await inject({ method: 'POST', url: '/api/app/business-data/save-page', headers: { ...h, 'content-type': 'application/json' }, payload: body }); if (r.statusCode !== 200) throw new Error(r.body); };
for (let i = 0; i < 200; i++) await save();
counting = true; for (let i = 0; i < 10; i++) await save(); counting = false;
for (const [k, v] of seen) console.log(String(v / 10).padStart(5), k);
const { Session } = await import('node:inspector/promises');
const session = new Session(); session.connect();
if (process.env.PROF) { await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 100 }); await session.post('Profiler.start'); }
const c0 = process.cpuUsage(); const t0 = performance.now();
for (let i = 0; i < N; i++) await save();
const c = process.cpuUsage(c0); const wall = performance.now() - t0;
if (process.env.PROF) { const { profile } = await session.post('Profiler.stop'); (await import('node:fs')).writeFileSync(process.env.PROF, JSON.stringify(profile)); }
console.log(`RESULT cpu/save ${((c.user + c.system) / 1000 / N).toFixed(3)} ms, wall/save ${(wall / N).toFixed(3)} ms`);
await app.server.stop();
process.exit(0);
