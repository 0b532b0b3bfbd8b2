import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that run for half a minute or more on a 2-core machine (workflow-crash: ~2 min). Without
 * timings from an earlier run (a clean clone has none) Vitest starts the largest files first, and
 * these short files came last, leaving one worker busy alone for two minutes at the end. They start
 * first, in this order, each in its project; the rest keep Vitest's order.
 */
const LONG_FILES = [
  'server/test/workflow-crash.test.ts',
  'server/test/shutdown.test.ts',
  'server/test/fuzz.test.ts',
  'server/src/modules/workflow/workflow-engine.test.ts',
  'server/src/modules/business-data/business-data-filter.test.ts',
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONG_FILES.indexOf(path.relative(import.meta.dirname, spec.moduleId).split(path.sep).join('/'));
      return at < 0 ? LONG_FILES.length : at;
    };
    // Projects run one after another (BaseSequencer groups them): reorder only within a project.
    const order = new Map(sorted.map((spec, i) => [spec, i]));
    const projectAt = new Map<string, number>();
    for (const spec of sorted) if (!projectAt.has(spec.project.name)) projectAt.set(spec.project.name, projectAt.size);
    return sorted.toSorted(
      (a, b) => projectAt.get(a.project.name)! - projectAt.get(b.project.name)! || rank(a) - rank(b) || order.get(a)! - order.get(b)!,
    );
  }
}

const UNIT_FILES = ['packages/core/src/**/*.test.ts', 'web/src/**/*.test.ts'];
const MOCKING_FILES = ['web/src/modules/audit/field-titles.test.ts', 'web/src/shared/i18n/texts-complete.test.ts', 'web/src/app/menus/menu-model.test.ts'];

// One runner for the pure core, the web's pure modules (no DOM: node environment) and the server API tests. Server test files each build their own
// database (embedded PGlite, or a throwaway PostgreSQL database when DATABASE_URL is set).
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: LongFilesFirst },
    // In CI only: concurrency and shutdown tests race real time on a shared 2-core machine; one
    // retry absorbs a starved run, a test that is really broken fails both times.
    retry: process.env.CI ? 1 : 0,
    projects: [
      {
        extends: true,
        // Pure modules, sharing a worker's loaded modules from file to file as the server files do.
        test: { name: 'unit', include: UNIT_FILES, exclude: [...MOCKING_FILES, ...configDefaults.exclude], isolate: false },
      },
      {
        extends: true,
        // These mock the i18n module their own way: each is isolated.
        test: { name: 'unit-mocking', include: MOCKING_FILES },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          // One migrated database that the server test files copy (server/test/global-setup.ts).
          globalSetup: ['server/test/global-setup.ts'],
          // A worker keeps the modules it loaded from file to file (importing the app and its
          // libraries took ~2.5 s a file); each file still builds its own app and database, and
          // nothing here mocks modules.
          isolate: false,
        },
      },
    ],
  },
});
