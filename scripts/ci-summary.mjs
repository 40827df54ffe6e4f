// Prints "N passed, N failed" from vitest's JSON report; exits 1 when anything failed or nothing ran.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'reports/vitest.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.log(`could not read ${file}: ${error.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// A test file that failed to load counts as a failure even though it has no test cases.
const failedSuites = (report.testResults ?? []).filter(
  (r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0,
).length;
const failed = (report.numFailedTests ?? 0) + failedSuites;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
