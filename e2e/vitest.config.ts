import { defineConfig } from 'vitest/config';

// Browser journeys: each file starts the built product on its own port and data dir, so files
// share nothing but the machine's MariaDB (each under its own table names). E2E_WORKERS=2 runs two
// at a time (19 min instead of 26 for the suite on a loaded machine, 2026-12-02) but a journey's
// waits are then too short on this 2-core machine now and then; CI runs them one after another.
// Once journeys started faster (the server no longer loads pdfme at start), two at a time were no
// faster at all: over 25 min against 26 one after another (2026-12-02).
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 1) || 1);
export default defineConfig({
  test: {
    include: ['**/*.spec.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    globalSetup: ['global-setup.ts'],
    pool: 'forks',
    // A worker keeps playwright-core and the helpers loaded from file to file; nothing here mocks
    // modules, and each file starts its own product.
    isolate: false,
    maxWorkers: workers,
    fileParallelism: workers > 1,
    // A real browser on a shared 2-core machine: one retry absorbs an animation that outlived a
    // wait; a journey that is really broken fails both times.
    retry: 1,
  },
});
