import { defineConfig } from 'vitest/config';

// `npm run test:platforms` (R20): the macOS code paths, run end to end on Linux behind
// YUME_CONFORMANCE_PLATFORM_PATHS=darwin. The Windows paths under Wine have their own config (vitest.wine.config.ts,
// `npm run test:wine`) until their runs hold still on a loaded machine. One file at a time: each lane loads both cores, and a lane's leftover processes must not
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
