import { defineConfig } from 'vitest/config';

// `npm run test:platforms` (R20), first lane: the macOS code paths, run end to end on Linux behind
// YUME_CONFORMANCE_PLATFORM_PATHS=darwin. The Windows paths under Wine follow as the second lane
// (vitest.wine.config.ts). One file at a time: each lane loads both cores, and a lane's leftover processes must not
// land in another lane's process table.
export default defineConfig({
  test: {
    include: ['test/platforms/**/*.platforms.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', ['junit', { suiteName: 'yume-conformance-platforms' }], ['json']],
    outputFile: { junit: './reports/junit-platforms.xml', json: './reports/vitest-platforms.json' },
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
