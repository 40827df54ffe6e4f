// Runs vitest once per config given, one after another, each to its end even when an earlier one failed (each
// writes its own report, which ci-summary.mjs reads), and exits non-zero when any of them did. Used where one npm
// command holds lanes that must not share the machine: `npm run test:real` runs the real programs' tests, then the
// load lane alone (R18a: "no other test file beside it").
//
//   node scripts/vitest-lanes.mjs <config> [<config>...]
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const configs = process.argv.slice(2);
if (configs.length === 0) {
  console.error('usage: node scripts/vitest-lanes.mjs <vitest config> [<vitest config>...]');
  process.exit(2);
}
// vitest's own entry, run with this Node: no shell, the same on every OS.
// vitest's exports map hides its bin file, so it is found beside its package.json.
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const failed = [];
for (const config of configs) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [vitest, 'run', '--config', config], { stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const outcome = result.error ? `could not start (${result.error.message})` : `exit ${result.status ?? result.signal}`;
  console.log(`vitest lanes: ${config}: ${outcome} in ${seconds} s`);
  if (result.error || result.status !== 0) failed.push(config);
}
if (failed.length > 0) {
  console.log(`vitest lanes: failed: ${failed.join(', ')}`);
  process.exit(1);
}
