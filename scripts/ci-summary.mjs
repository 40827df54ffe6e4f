// Prints "N passed, N failed" over one or more vitest JSON reports; exits 1 when anything failed, a report is
// missing or unreadable, or nothing ran.
import { readFileSync } from 'node:fs';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['reports/vitest.json'];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    console.log(`could not read ${file}: ${/** @type {Error} */ (error).message}`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests ?? 0;
  // A test file that failed to load counts as a failure even though it has no test cases.
  const failedSuites = (report.testResults ?? []).filter(
    (/** @type {{ status?: string, assertionResults?: unknown[] }} */ r) =>
      r.status === 'failed' && (r.assertionResults ?? []).length === 0,
  ).length;
  failed += (report.numFailedTests ?? 0) + failedSuites;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
