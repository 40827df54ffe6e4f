import { defineConfig } from 'vitest/config';

// `npm run test:load`: the load lane (R19's proof), run by hand for now. Beside twice as many busy loops as cores,
// the reference shim's default suite and the claude-code preset must keep the outcome class each run has on an
// idle machine. Its timing is its point, so it runs alone, one file at a time. It is not in `npm run test:real`
// (and so not in `.ci/run`) yet: on a 2-core machine the default suite does not finish beside the busy loops
// within the lane's budget (README).
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
