// Prints harness/suite/typical-durations.ts's table from a JSON report (`--reporter json:FILE`): the mean
// duration of each scenario's runs, rounded to 10 ms (the mean, not the median: a scenario whose official-CLI
// runs take seconds and whose REST runs do not costs its mean per run, which is what shards add up and what
// the start order must see). Paste the lines into the table.
//
//   node scripts/typical-durations.mjs report.json
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node scripts/typical-durations.mjs report.json\n');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
/** @type {Map<string, number[]>} */
const byScenario = new Map();
for (const run of report.runs ?? []) {
  if (typeof run.durationMs !== 'number') continue;
  byScenario.set(run.scenario, [...(byScenario.get(run.scenario) ?? []), run.durationMs]);
}
for (const [scenario, durations] of [...byScenario].sort(([a], [b]) => a.localeCompare(b))) {
  const mean = Math.round(durations.reduce((sum, ms) => sum + ms, 0) / durations.length / 10) * 10;
  process.stdout.write(`  ${/^[a-z_$][\w$]*$/i.test(scenario) ? scenario : `'${scenario}'`}: ${mean},\n`);
}
