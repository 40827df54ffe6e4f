#!/usr/bin/env node
// Compares the verdicts of two JSON reports of the same selection (`run --out FILE`): per run (scenario,
// provider, invocation, profile, dialect, seed) its status and the rule and severity of each finding. The
// report format may differ between the two (prose or records for `notVerified`, new fields); messages and
// timings are not compared. Prints each difference, one run a block; exit 0 when equal, 1 on a difference,
// 2 on bad input.
//
//   node scripts/compare-verdicts.mjs BEFORE.json AFTER.json
import { readFileSync } from 'node:fs';

/** @param {string} file */
function load(file) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    if (!report || !Array.isArray(report.runs)) throw new Error('no "runs" list: not a yume-conformance JSON report');
    return report;
  } catch (error) {
    process.stderr.write(`compare-verdicts: ${file}: ${/** @type {Error} */ (error).message}\n`);
    process.exit(2);
  }
}

/** @param {any} run */
const keyOf = (run) =>
  [run.scenario, run.provider, run.invocation ?? '', run.profile ?? '', run.dialect ?? '', run.seed ?? ''].join(' · ');

/**
 * Rule and severity of every finding, counted ("rule SEVERITY ×n"), sorted: order and messages do not count.
 * @param {any} run
 */
function findingCounts(run) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const finding of run.findings ?? []) {
    const key = `${finding.rule} ${finding.severity}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * @param {any[]} runs
 * @param {string} file
 */
function byKey(runs, file) {
  /** @type {Map<string, any>} */
  const map = new Map();
  for (const run of runs) {
    const key = keyOf(run);
    if (map.has(key)) {
      process.stderr.write(`compare-verdicts: ${file}: run ${key} appears twice\n`);
      process.exit(2);
    }
    map.set(key, run);
  }
  return map;
}

/**
 * The differences of one run present in both reports, as lines.
 * @param {any} before
 * @param {any} after
 */
function runDifferences(before, after) {
  const lines = [];
  if (before.status !== after.status) lines.push(`status ${before.status} → ${after.status}`);
  if ((before.expectedFailure !== undefined) !== (after.expectedFailure !== undefined))
    lines.push(`expected failure ${before.expectedFailure !== undefined} → ${after.expectedFailure !== undefined}`);
  const was = findingCounts(before);
  const now = findingCounts(after);
  for (const key of [...new Set([...was.keys(), ...now.keys()])].sort()) {
    const a = was.get(key) ?? 0;
    const b = now.get(key) ?? 0;
    if (a !== b) lines.push(`finding ${key}: ${a} → ${b}`);
  }
  return lines;
}

function main() {
  const [beforeFile, afterFile] = process.argv.slice(2);
  if (!beforeFile || !afterFile) {
    process.stderr.write('usage: node scripts/compare-verdicts.mjs BEFORE.json AFTER.json\n');
    return 2;
  }
  const before = byKey(load(beforeFile).runs, beforeFile);
  const after = byKey(load(afterFile).runs, afterFile);
  const out = [];
  for (const [key, run] of before) {
    const other = after.get(key);
    if (!other) out.push(`${key}\n  only in ${beforeFile} (${run.status})`);
    else {
      const lines = runDifferences(run, other);
      if (lines.length > 0) out.push(`${key}\n${lines.map((line) => `  ${line}`).join('\n')}`);
    }
  }
  for (const [key, run] of after) if (!before.has(key)) out.push(`${key}\n  only in ${afterFile} (${run.status})`);
  if (out.length === 0) {
    process.stdout.write(`same verdicts: ${before.size} runs, statuses, rules and severities equal\n`);
    return 0;
  }
  process.stdout.write(
    `${out.join('\n')}\n${out.length} of ${new Set([...before.keys(), ...after.keys()]).size} runs differ\n`,
  );
  return 1;
}

process.exitCode = main();
