// R17's differential test: the argv corpus (every argv shape the reference translators build, and argv
// known to be refused) goes to each fake and to its pinned real CLI, as root and as an unprivileged user;
// both must accept or refuse each argv alike, with the same exit code and first stderr line when refusing.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CorpusEntry, describeDisagreements, runDifferential } from '../../harness/drift/differential.js';
import { OFFICIAL_CLI_NAMES, type OfficialCliName } from '../../harness/official-cli/script-types.js';
import { CORPUS_FILE } from '../official-cli/argv-corpus.js';
import { realCliPath, realCliPathForAnyone, unprivilegedUser } from '../official-cli/shared-programs.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const corpus = JSON.parse(readFileSync(path.join(root, CORPUS_FILE), 'utf8')) as Record<OfficialCliName, CorpusEntry[]>;
const fakeScript = path.join(root, 'dist', 'fake-cli.js');
const isRoot = process.getuid?.() === 0;

async function differential(cli: OfficialCliName, asUser: boolean) {
  const workRoot = mkdtempSync(path.join(os.tmpdir(), `yume-differential-${cli}-`));
  try {
    const { rows } = await runDifferential({
      cli,
      realExecutable: asUser ? realCliPathForAnyone(cli) : realCliPath(cli),
      fakeScript,
      corpus: corpus[cli],
      workRoot,
      ...(asUser ? { user: unprivilegedUser() } : {}),
      concurrency: 3,
    });
    return rows;
  } finally {
    rmSync(workRoot, { recursive: true, force: true });
  }
}

describe.concurrent('differential test: fake and pinned real CLI decide every argv alike', () => {
  for (const cli of OFFICIAL_CLI_NAMES) {
    it(`${cli}, as ${isRoot ? 'root and as an unprivileged user' : 'this user'}`, async () => {
      const runs = await Promise.all([differential(cli, false), ...(isRoot ? [differential(cli, true)] : [])]);
      const problems = runs.flatMap((rows, index) =>
        describeDisagreements(cli, rows).map((line) => `${index === 0 ? 'as this user' : 'unprivileged'}: ${line}`),
      );
      expect(problems, problems.join('\n')).toEqual([]);
      // The corpus is not vacuous: the translators' argv are accepted and the known-bad ones refused.
      const rows = runs[0]!;
      expect(rows.filter((row) => row.entry.why.startsWith('translator:')).every((row) => row.real.accepted)).toBe(
        true,
      );
      if (cli === 'codex') {
        const fullAuto = rows.find((row) => row.argv.includes('--full-auto'))!;
        expect(fullAuto.real).toMatchObject({ accepted: false, exitCode: 2 });
        expect(fullAuto.fake.message).toBe("error: unexpected argument '--full-auto' found");
      }
    });
  }
});
