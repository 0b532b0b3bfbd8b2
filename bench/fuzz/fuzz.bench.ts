/**
 * The long version of the schema-driven fuzz test (issue 27): every operation of the OpenAPI
 * document, as an anonymous caller, a clerk and an administrator, with requests built from its
 * schema — many seeds, many hostile requests per operation. Prints the answers by status and every
 * server error (there should be none).
 *
 * Run: `npx tsx bench/fuzz/fuzz.bench.ts [seeds=10] [hostile per operation=30]` (embedded database;
 * set DATABASE_URL to fuzz against PostgreSQL).
 */
import { describeOutcome, fuzzSummary, isServerError, prepareFuzzTarget, runFuzz, type FuzzOutcome } from '../../server/test/fuzz/openapi-fuzz.ts';
import { createTestApp } from '../../server/test/test-app.ts';

const seeds = Number(process.argv[2] ?? 10);
const hostile = Number(process.argv[3] ?? 30);
const app = await createTestApp();
const all: FuzzOutcome[] = [];
const started = performance.now();
try {
  const target = await prepareFuzzTarget(app);
  for (let seed = 1; seed <= seeds; seed++) {
    const outcomes = await runFuzz(target, { seed, wellFormed: 3, hostile });
    const errors = outcomes.filter(isServerError);
    console.log(`seed ${seed}: ${outcomes.length} requests, ${errors.length} server errors`);
    for (const e of errors.slice(0, 20)) console.log(`  ${describeOutcome(e)}`);
    all.push(...outcomes);
  }
} finally {
  await app.close();
}
console.log(`\n${all.length} requests in ${((performance.now() - started) / 1000).toFixed(0)} s, ${all.filter(isServerError).length} server errors\n${fuzzSummary(all)}`);
process.exit(all.some(isServerError) ? 1 : 0);
