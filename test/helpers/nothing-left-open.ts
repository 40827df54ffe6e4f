// A suite leaves nothing open: each runConformance the project's tests make runs in a handle scope of its own
// (harness/cli/open-handles.ts), and once it has returned nothing it made may keep Node running: no timer, child
// process, pipe, socket or server. A poll left running after its run once kept a finished command alive.
import { expect } from 'vitest';
import { handleScope, openHandles, watchOpenHandles } from '../../harness/cli/open-handles.js';
import { type RunOptions, runConformance, runConformanceWithResults } from '../../harness/suite/run-conformance.js';

let scopes = 0;

/** Runs `work` in a scope of its own, then fails the test if anything it made is still open, naming its owner. */
export async function leavesNothingOpen<T>(work: () => Promise<T>): Promise<T> {
  watchOpenHandles();
  scopes += 1;
  const scope = `suite-${scopes}`;
  const result = await handleScope.run(scope, work);
  // A handle being closed leaves the list on one of the loop's next turns.
  for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(
    openHandles(scope).map((handle) => handle.owner),
    'what the suite left open once runConformance returned',
  ).toEqual([]);
  return result;
}

/** runConformance, checked to leave nothing open. */
export function runSuite(options?: RunOptions): ReturnType<typeof runConformance> {
  return leavesNothingOpen(() => runConformance(options));
}

/** runConformanceWithResults, checked to leave nothing open. */
export function runSuiteWithResults(options?: RunOptions): ReturnType<typeof runConformanceWithResults> {
  return leavesNothingOpen(() => runConformanceWithResults(options));
}
