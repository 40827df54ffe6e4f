import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests of real programs run in `npm run test:real` (vitest.real.config.ts), the other platforms' paths in
    // `npm run test:platforms` (vitest.platforms.config.ts).
    exclude: [
      'test/**/*.real.test.ts',
      'test/**/*.platforms.test.ts',
      'test/**/*.wine.test.ts',
      'test/**/*.load.test.ts',
      '**/node_modules/**',
    ],
    // The bundled bins (dist/) are what the harness spawns; build them once per test run.
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', ['junit', { suiteName: 'yume-conformance' }], ['json']],
    outputFile: { junit: './reports/junit.xml', json: './reports/vitest.json' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
