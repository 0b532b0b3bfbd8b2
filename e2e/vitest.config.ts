import { defineConfig } from 'vitest/config';

// Browser journeys: each file starts the built product on its own port and data dir.
export default defineConfig({
  test: {
    include: ['**/*.spec.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    globalSetup: ['global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    // A real browser on a shared 2-core machine: one retry absorbs an animation that outlived a
    // wait; a journey that is really broken fails both times.
    retry: 1,
  },
});
