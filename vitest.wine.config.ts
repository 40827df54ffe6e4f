import { defineConfig } from 'vitest/config';

// `npm run test:wine`: the Windows code paths under Wine (R20), run by hand. It is not in `.ci/run` yet: a few of
// its runs still change status from one lane run to the next (README, Platforms), and a lane that fails at random
// would teach nobody anything. scripts/platforms-wine-setup.mjs installs Wine and Windows Node first.
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
