import { defineConfig } from 'vitest/config';

/** The load lane: the suite beside busy loops (R19's proof). Its timing is its point, so nothing runs beside it. */
const LOAD_LANE = 'test/load/**/*.real.test.ts';
/** What both projects share (not inherited through `extends`, which would run the global setup once per project). */
const shared = { testTimeout: 300_000, hookTimeout: 300_000, pool: 'forks' as const };

// `npm run test:real`: tests that drive real programs (the pinned official CLIs, headless Chromium, full-size
// adversarial inputs). scripts/test-real-setup.mjs installs what they need first. Two projects, run one after the
// other (sequence.groupOrder): the real tests, then the load lane alone. One global setup and one report for both.
export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', ['junit', { suiteName: 'yume-conformance-real' }], ['json']],
    outputFile: { junit: './reports/junit-real.xml', json: './reports/vitest-real.json' },
    projects: [
      {
        test: {
          ...shared,
          name: 'real',
          include: ['test/**/*.real.test.ts'],
          exclude: [LOAD_LANE, '**/node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'load',
          include: [LOAD_LANE],
          // One file at a time, once every real test has ended.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
