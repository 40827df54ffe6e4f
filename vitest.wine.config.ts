import { defineConfig } from 'vitest/config';

// The Windows code paths under Wine (R20): the second lane of `npm run test:platforms` (scripts/vitest-lanes.mjs
// starts it after the macOS lane has ended, so neither lane's processes land in the other's process table), or
// alone as `npm run test:wine`. scripts/platforms-wine-setup.mjs installs Wine and Windows Node first.
export default defineConfig({
  test: {
    include: ['test/platforms/**/*.wine.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', ['junit', { suiteName: 'yume-conformance-wine' }], ['json']],
    outputFile: { junit: './reports/junit-wine.xml', json: './reports/vitest-wine.json' },
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
