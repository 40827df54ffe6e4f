import { defineConfig } from 'vitest/config';

// `npm run test:platforms` (R20): the code paths of the other operating systems, run end to end on Linux — macOS's
// behind YUME_CONFORMANCE_PLATFORM_PATHS=darwin, Windows's under Wine. scripts/test-platforms-setup.mjs installs
// what both need first. One file at a time: each lane loads both cores, and a lane's leftover processes must not
// land in another lane's process table.
export default defineConfig({
  test: {
    include: ['test/platforms/**/*.platforms.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', ['junit', { suiteName: 'yume-conformance-platforms' }], ['json']],
    outputFile: { junit: './reports/junit-platforms.xml', json: './reports/vitest-platforms.json' },
    testTimeout: 300_000,
    // The Windows lane plays its passes under Wine in its beforeAll (its own limit there).
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
