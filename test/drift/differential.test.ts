// The differential test's own judgement, shown without a real CLI: the fake copilot against a stand-in "real"
// copilot that is the same fake with one refusal worded differently. Exactly that refusal is reported, and the
// argv both accept or refuse alike are not; so a fake that changes one refusal fails the differential test.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CorpusEntry, describeDisagreements, runDifferential } from '../../harness/drift/differential.js';
import { LOG_ARGUMENT, STATE_ARGUMENT } from '../../harness/official-cli/launcher-arguments.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const fakeScript = path.join(root, 'dist', 'fake-cli.js');

const corpus: CorpusEntry[] = [
  {
    argv: ['--output-format=json', '--model=claude-sonnet-4-5', '--session-id={new-session}', '--prompt=hi'],
    why: 'translator: accepted',
  },
  { argv: ['--output-format=json', '--bogus'], why: 'an unknown flag' },
  { argv: ['--output-format=xml', '--prompt=hi'], why: 'an output format copilot lacks' },
];

describe.runIf(process.platform !== 'win32')('differential test', () => {
  it('reports the one refusal a fake words differently from its real CLI, and nothing else', async () => {
    const workRoot = mkdtempSync(path.join(os.tmpdir(), 'yume-differential-'));
    try {
      const standIn = path.join(workRoot, 'copilot-stand-in');
      // The fake itself, its unknown-flag refusal reworded on stderr, its exit code kept.
      writeFileSync(
        standIn,
        [
          '#!/bin/bash',
          `"${process.execPath}" "${fakeScript}" copilot "${STATE_ARGUMENT}${path.join(workRoot, 'fake-state.json')}" "${LOG_ARGUMENT}${path.join(workRoot, 'fake-log.jsonl')}" "$@" 2> >(sed 's/unexpected argument/unknown argument/' >&2)`,
          'status=$?',
          'wait',
          'exit $status',
          '',
        ].join('\n'),
      );
      chmodSync(standIn, 0o755);
      const { rows } = await runDifferential({
        cli: 'copilot',
        realExecutable: standIn,
        fakeScript,
        corpus,
        workRoot,
        // The stand-in unpacks no runtime.
        realEnv: { COPILOT_PKG_CACHE_HOME: path.join(workRoot, 'pkg-cache') },
      });
      expect(rows.map((row) => [row.entry.why, row.real.accepted, row.fake.accepted])).toEqual([
        ['translator: accepted', true, true],
        ['an unknown flag', false, false],
        ['an output format copilot lacks', false, false],
      ]);
      expect(describeDisagreements('copilot', rows)).toEqual([
        `copilot ["--output-format=json","--bogus"] (an unknown flag): both refuse, real says "error: unknown argument '--bogus' found", fake "error: unexpected argument '--bogus' found"`,
      ]);
    } finally {
      rmSync(workRoot, { recursive: true, force: true });
    }
  });
});
