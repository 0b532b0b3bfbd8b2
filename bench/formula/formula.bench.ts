/**
 * Formula engine benchmark (issue 3): `npx tsx bench/formula/formula.bench.ts`.
 *  1. evaluations/s of IF({amount} > 1000, ROUND({amount} * {rate}, 2), 0), compiled once, next
 *     to a hand-written JavaScript function for the same expression, in the same run;
 *  2. time to recompute a 500-row child view with 10 dependent formulas (data linkages) after one
 *     cell changes: a master cell all rows depend on (5,000 evaluations), and one child cell.
 * Targets: ≥ 1,000,000 evaluations/s; 500-row recompute < 10 ms.
 */
import os from 'node:os';
import { compileFormula } from '../../packages/core/src/formula/index.ts';
import { recomputeLinkages, runLinkages } from '../../packages/core/src/linkage/index.ts';
import { ZPageDefinition, type TPageData } from '../../packages/core/src/page-definition.ts';

const SOURCE = 'IF({amount} > 1000, ROUND({amount} * {rate}, 2), 0)';

function measure(label: string, fn: (i: number) => unknown, minMs = 1500): number {
  let sink = 0;
  for (let i = 0; i < 200_000; i++) sink += Number(fn(i)) || 0; // warm-up
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < 100_000; i++) sink += Number(fn(n + i)) || 0;
    n += 100_000;
    elapsed = performance.now() - start;
  }
  const perSecond = (n / elapsed) * 1000;
  console.log(`${label.padEnd(34)} ${Math.round(perSecond).toLocaleString('en-US').padStart(14)} eval/s  (checksum ${sink % 97})`);
  return perSecond;
}

// --- 1. single formula ---------------------------------------------------------------------
const formula = compileFormula(SOURCE, { schema: { fields: { amount: 3, rate: 3 } } });
if (!formula.ok) throw new Error(formula.errors[0].message);
const rows = Array.from({ length: 1024 }, (_, i) => ({ amount: (i * 37) % 3000, rate: 0.01 * (i % 17) }));
const contexts = rows.map((row) => ({ row }));
const handWritten = (r: { amount: number; rate: number }) => (r.amount > 1000 ? Math.round(r.amount * r.rate * 100) / 100 : 0);

for (let i = 0; i < rows.length; i++) {
  const a = formula.evaluate(contexts[i]);
  const b = handWritten(rows[i]);
  if (Math.abs(Number(a) - b) > 1e-9) throw new Error(`mismatch at ${i}: ${String(a)} vs ${b}`);
}

console.log(`Formula engine — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString().slice(0, 10)}`);
console.log(`expression: ${SOURCE}`);
const engine = measure('compiled formula', (i) => formula.evaluate(contexts[i & 1023]));
const baseline = measure('hand-written JavaScript', (i) => handWritten(rows[i & 1023]));
console.log(`ratio: the engine runs at ${((engine / baseline) * 100).toFixed(1)}% of hand-written JS (${(baseline / engine).toFixed(1)}× slower)`);

// --- 2. 500-row child view, 10 dependent formulas -----------------------------------------
const ctl = (id: string, code: string, controlType: number) => ({ id, code, title: code, controlType });
const childCodes = ['qty', 'price', 'amount', 'discount', 'net', 'tax', 'gross', 'weight', 'freight', 'total', 'label', 'flag'];
const link = (id: string, trigger: string, target: string, formulaText: string) => ({
  id, dataLinkType: 1, triggerConditions: [{ dataControlCode: trigger }], assignments: [{ dataControlCode: target, assignmentFormula: formulaText }],
});
const definition = ZPageDefinition.parse({
  viewControls: [
    {
      id: 'm', code: 'order', dataControls: [ctl('m-rate', 'rate', 1003), ctl('m-taxRate', 'taxRate', 1003), ctl('m-sum', 'sumTotal', 1003)],
      viewControls: [{ id: 'c', code: 'lines', parentViewControlId: 'm', dataControls: childCodes.map((code) => ctl(`c-${code}`, code, code === 'label' ? 1001 : 1003)) }],
    },
  ],
  dataLinkages: [
    link('f1', 'qty', 'amount', 'ROUND({qty} * {price}, 2)'),
    link('f2', 'amount', 'discount', 'IF({amount} > 1000, ROUND({amount} * {rate}, 2), 0)'),
    link('f3', 'discount', 'net', '{amount} - {discount}'),
    link('f4', 'net', 'tax', 'ROUND({net} * {taxRate}, 2)'),
    link('f5', 'tax', 'gross', '{net} + {tax}'),
    link('f6', 'qty', 'weight', '{qty} * 0.25'),
    link('f7', 'weight', 'freight', 'MAX(5, ROUND({weight} * 1.2, 2))'),
    link('f8', 'gross', 'total', '{gross} + {freight}'),
    link('f9', 'total', 'label', 'IF({total} > 2000, "large", "normal")'),
    link('f10', 'total', 'flag', 'IF(AND({qty} > 10, {rate} > 0), 1, 0)'),
  ],
});
const pageState = (): TPageData => ({
  viewDataList: [
    { viewId: 'm', dataList: [{ Id: 'o1', rate: 0.05, taxRate: 0.13, sumTotal: 0 }] },
    {
      viewId: 'c',
      dataList: Array.from({ length: 500 }, (_, i) => ({
        Id: `r${i}`, ParentViewDataId: 'o1', qty: 1 + (i % 40), price: 10 + (i % 97), amount: 0, discount: 0, net: 0, tax: 0, gross: 0, weight: 0, freight: 0, total: 0, label: '', flag: 0,
      })),
    },
  ],
});

function timeRecompute(label: string, changed: { viewId: string; rowId: string; code: string } | null, expectEffects: number) {
  const samples: number[] = [];
  for (let run = 0; run < 200; run++) {
    const state = pageState();
    const start = performance.now();
    const ctx = { offsetMinutes: 480 };
    const { effects } = changed ? runLinkages(definition, state, changed, ctx) : recomputeLinkages(definition, state, ctx);
    const ms = performance.now() - start;
    if (effects.length !== expectEffects) throw new Error(`${label}: ${effects.length} effects, expected ${expectEffects}`);
    if (run >= 50) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  const p95 = samples[Math.floor(samples.length * 0.95)];
  console.log(`${label.padEnd(58)} median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms`);
  return median;
}

console.log('\n500-row child view, 10 dependent formulas (data linkages f1..f10):');
const masterChange = timeRecompute('master cell {rate} changes → 500 rows × its 7 dependents', { viewId: 'm', rowId: 'o1', code: 'rate' }, 500 * 7);
const childChange = timeRecompute('one child cell {qty} changes → its row × 10 dependents', { viewId: 'c', rowId: 'r250', code: 'qty' }, 10);
const fullSave = timeRecompute('server save: recompute all 500 rows × 10 formulas', null, 500 * 10);

const recomputeMet = Math.max(masterChange, childChange, fullSave) < 10;
console.log(`\ntargets: ≥ 1,000,000 eval/s → ${engine >= 1_000_000 ? 'met' : 'NOT met'}; 500-row recompute < 10 ms → ${recomputeMet ? 'met' : 'NOT met'}`);
