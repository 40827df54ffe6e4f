import { defineConfig } from 'vitest/config';

// `npm run test:platforms` (R20): the code paths of the other operating systems, run end to end on Linux — macOS's
// behind YUME_CONFORMANCE_PLATFORM_PATHS=darwin, Windows's under Wine. scripts/test-platforms-setup.mjs installs
// what they need first. The Windows lane under Wine has its own config (vitest.wine.config.ts, `npm run test:wine`). One file at a time: each lane loads both cores, and a lane's leftover processes must
// not land in another lane's process table.
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
