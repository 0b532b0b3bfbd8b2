import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOutcome, fuzzSummary, isServerError, prepareFuzzTarget, runFuzz, type FuzzTarget } from './fuzz/openapi-fuzz.ts';
import { createTestApp, type TestApp } from './test-app.ts';

// Issue 27: every operation of the OpenAPI document, called with requests built from its own
// schema — well-formed, and with hostile leaves (NUL, lone surrogates, lengths past the limits,
// extreme numbers, dates past the ends of the calendar, deep nesting, wrong types) — as an
// anonymous caller, a clerk and an administrator, answers without a server error. One fixed seed
// and ~4,300 requests here; `bench/fuzz/fuzz.bench.ts` runs many seeds.

let t: TestApp;
let target: FuzzTarget;

beforeAll(async () => {
  t = await createTestApp();
  target = await prepareFuzzTarget(t);
}, 120_000);
afterAll(() => t.close());

describe('schema-driven fuzzing of every operation', () => {
  it('answers every request without a server error, and well-formed ones often succeed', async () => {
    const outcomes = await runFuzz(target, { seed: 27, wellFormed: 2, hostile: 8 });
    if (process.env.FUZZ_REPORT) console.log(fuzzSummary(outcomes));
    expect(new Set(outcomes.map((o) => `${o.request.operation.method} ${o.request.operation.path}`)).size).toBeGreaterThan(100);
    const failures = outcomes.filter(isServerError).map(describeOutcome);
    expect(failures, `${failures.length} server errors of ${outcomes.length} requests:\n${failures.slice(0, 40).join('\n')}`).toEqual([]);
    // Not passing by being refused everything: the administrator's well-formed requests often succeed.
    const wellFormed = outcomes.filter((o) => o.caller === 'admin' && !o.request.hostile);
    const succeeded = wellFormed.filter((o) => o.response.statusCode < 300).length;
    expect(succeeded / wellFormed.length, `${succeeded} of ${wellFormed.length} well-formed administrator requests succeeded`).toBeGreaterThan(0.2);
  }, 600_000);
});
