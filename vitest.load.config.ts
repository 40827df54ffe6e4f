import { defineConfig } from 'vitest/config';

// The load lane (R19's proof): the second half of `npm run test:real` (scripts/vitest-lanes.mjs starts it after
// the real programs' tests have ended), or alone as `npm run test:load`. Beside twice as many busy loops as cores,
// the reference shim's default suite and the claude-code preset must keep the outcome class each run has on an
// idle machine. Its timing is its point, so it runs alone, one file at a time.
export default defineConfig({
  test: {
    include: ['test/load/**/*.load.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', ['junit', { suiteName: 'yume-conformance-load' }], ['json']],
    outputFile: { junit: './reports/junit-load.xml', json: './reports/vitest-load.json' },
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
