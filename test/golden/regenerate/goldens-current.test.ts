// The committed goldens are what the reference shim prints now. When a protocol or shim
// change alters the output, this fails until `yume-conformance goldens --update --reason "..."` is run.
import { describe, expect, it } from 'vitest';
import { changes, computeGoldens } from '../../../harness/golden/regenerate/goldens.js';

describe('goldens', () => {
  it(
    "match the reference shim's current output, byte for byte after stabilisation",
    async () => {
      const updates = await computeGoldens({ jobs: 2 });
      const stale = updates
        .filter((update) => update.problems.length > 0 || changes(update))
        .map(
          (update) =>
            `${update.scenario}: ${
              update.problems.join('; ') ||
              [...update.diffs.entries()]
                .filter(([, diff]) => diff)
                .map(([name, diff]) => `${name}\n${diff}`)
                .join('\n')
            }`,
        );
      expect(
        stale,
        `run \`yume-conformance goldens --update --reason "..."\` after checking these diffs:\n${stale.join('\n')}`,
      ).toEqual([]);
      expect(updates.length).toBeGreaterThanOrEqual(26);
    },
    5 * 60_000,
  );
});
