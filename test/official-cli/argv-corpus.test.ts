// The committed argv corpus (harness/official-cli/pinned/argv-corpus.json, read by the differential test
// and `npm run cli-drift`) is what the reference translators build today. YUME_UPDATE_CORPUS=1 rewrites it.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OFFICIAL_CLI_NAMES } from '../../harness/official-cli/script-types.js';
import { buildArgvCorpus, CORPUS_FILE } from './argv-corpus.js';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('argv corpus of the differential test', () => {
  it('holds every argv shape the reference translators build, and the known-bad argv', () => {
    const corpus = Object.fromEntries(
      OFFICIAL_CLI_NAMES.map((cli) => [cli, buildArgvCorpus(cli, path.join(root, 'transcripts'))]),
    );
    const file = path.join(root, CORPUS_FILE);
    const text = `${JSON.stringify(corpus, null, 2)}\n`;
    if (process.env.YUME_UPDATE_CORPUS === '1') writeFileSync(file, text);
    expect(
      readFileSync(file, 'utf8'),
      `${CORPUS_FILE} is stale: run YUME_UPDATE_CORPUS=1 npx vitest run test/official-cli/argv-corpus.test.ts`,
    ).toBe(text);
    // The translators' --full-auto is gone: codex 0.169 refuses it, so only the known-bad entry has it.
    const withFullAuto = corpus.codex!.filter((entry) => entry.argv.includes('--full-auto'));
    expect(withFullAuto.map((entry) => entry.why)).toEqual(['the flag 0.169 removed']);
  });
});
