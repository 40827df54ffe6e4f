import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The bundled bins (dist/) are what the harness spawns; build them once per test run.
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', ['junit', { suiteName: 'yume-conformance' }], ['json']],
    outputFile: { junit: './reports/junit.xml', json: './reports/vitest.json' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
