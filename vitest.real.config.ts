import { defineConfig } from 'vitest/config';

// `npm run test:real`: tests that drive real programs (the pinned official CLIs, headless Chromium, full-size
// adversarial inputs). scripts/test-real-setup.mjs installs what they need first; the load lane
// (vitest.load.config.ts) runs after these, alone.
export default defineConfig({
  test: {
    include: ['test/**/*.real.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', ['junit', { suiteName: 'yume-conformance-real' }], ['json']],
    outputFile: { junit: './reports/junit-real.xml', json: './reports/vitest-real.json' },
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
