import { defineConfig } from 'vitest/config';

// One runner for the pure core, the web's pure modules (no DOM: node environment) and the server API tests. Server test files each build their own
// database (embedded PGlite, or a throwaway PostgreSQL database when DATABASE_URL is set).
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // In CI only: concurrency and shutdown tests race real time on a shared 2-core machine; one
    // retry absorbs a starved run, a test that is really broken fails both times.
    retry: process.env.CI ? 1 : 0,
    projects: [
      {
        extends: true,
        // Pure modules; some files mock the i18n module their own way, so each file is isolated.
        test: { name: 'unit', include: ['packages/core/src/**/*.test.ts', 'web/src/**/*.test.ts'] },
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
