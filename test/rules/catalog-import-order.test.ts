// harness/runner/rules.ts and the catalog import each other; loading the runner's module first must still give
// a complete catalog (the catalog is built on first use, not at import time).
import { expect, it } from 'vitest';
import { runFinding } from '../../harness/runner/rules.js';
import { hasRule } from '../../harness/rules/catalog.js';

it('works when the runner rules module is imported before the catalog', () => {
  expect(runFinding('framing.utf8', 'bad byte').severity).toBe('MUST');
  expect(hasRule('process.no-output')).toBe(true);
  expect(hasRule('requests.tool-result-id')).toBe(true);
});
